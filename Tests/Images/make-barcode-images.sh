#!/bin/bash
# Remakes two folders of barcodes that qrseal does not draw itself; beside each NAME.png,
# NAME.txt holds what it must read as, one payload per line, as qrseal reports it.
#
# Tests/Images/symbologies/: one clean image of each symbology qrseal reads besides QR,
# NAME being its --symbology name (i25-short: the shortest Interleaved 2 of 5 read, four
# digits; GS1 DataBar as its element string, a GS byte after a
# variable-length field; Code 32, the Italian pharmacy code, drawn as the Code 39 it is;
# code39-fullascii, a Code 39 in Full ASCII mode, read as the text its pairs stand for;
# code39-check, a Code 39 with its mod-43 check character, which stays in the text;
# maxicode, a MaxiCode of mode 4; micropdf417, a MicroPDF417 of 2 columns; msi, an MSI
# Plessey with its modulo 10 check digit, which stays in the text; dxfilmedge, copied from film/);
# and, named KIND-several, three EAN-8s side by side and three
# EAN-13s one above the other.
#
# Tests/Images/addons/: EAN/UPC codes with an EAN-2 or EAN-5 add-on, read with the add-on
# asked for (`scan --ean-add-ons`): NAME.txt the main code's digits and the add-on's.
#
# Tests/Images/abort/: linear barcodes on which Debian's libZXing 1.4, asked for every
# symbol at once, aborts the process (Result::operator==, "Assertion `lineCount() == 1'
# failed"), each by one of the three ways there (see Sources/CZXingShim/include/zxing_shim.h):
#   large-code128      a Code 128 in an image larger than 500 pixels on its smaller side,
#                      found again in the downscaled copy ReadBarcodes also searches
#   twice-code128      two identical Code 128s side by side, found both on the same rows
#   tilted-databar     a GS1 DataBar turned by 3 degrees, whose halves pair across scan lines
#   tilted-databar-exp a GS1 DataBar Expanded turned by 5 degrees and blurred, the same
#
#   Tests/Images/make-barcode-images.sh
#
# Needs ZXingWriter and ZXingReader (zxing-cpp-tools), zint and ImageMagick 6 (`convert`);
# checks that ZXingReader 1.4 aborts on each abort image. Nothing is random.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
for tool in ZXingWriter ZXingReader zint convert; do
    command -v "$tool" >/dev/null || { echo "make-barcode-images: $tool is missing" >&2; exit 2; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

out="$here/symbologies"
rm -rf "$out"
mkdir -p "$out"

# gray NAME: the work folder's NAME.png as a grayscale PNG with a white border, without timestamps.
gray() { convert "$work/$1.png" -colorspace gray -bordercolor white -border 20 -define png:exclude-chunks=date,time "$out/$1.png"; }
# zx NAME FORMAT SIZE TEXT [EXPECTED]: drawn by ZXingWriter.
zx() { ZXingWriter -size "$3" "$2" "$4" "$work/$1.png" >/dev/null; gray "$1"; printf '%s\n' "${5:-$4}" > "$out/$1.txt"; }
# zi NAME TYPE TEXT EXPECTED [zint options]: drawn by zint.
zi() { zint -b "$2" -d "$3" --scale=3 "${@:5}" -o "$work/$1.png" >/dev/null; gray "$1"; printf '%b\n' "$4" > "$out/$1.txt"; }

zx datamatrix DataMatrix 120x120 "Data Matrix read"
zx aztec Aztec 150x150 "Aztec read by qrseal"
zx pdf417 PDF417 400x160 "PDF417 read by qrseal"
zx code39 Code39 400x100 "CODE39 42"
zi code32 CODE32 12345678 A123456788
zi code39-fullascii EXCODE39 'Extended !?*#' 'Extended !?*#'
zi code39-check CODE39 ABC123 'ABC123$' --vers=1
zi maxicode MAXICODE "MaxiCode read by qrseal" "MaxiCode read by qrseal"
zi micropdf417 MICROPDF417 "MicroPDF417 read by qrseal" "MicroPDF417 read by qrseal" --cols=2
zx code93 Code93 400x100 "Code 93"
zx code128 Code128 400x100 "Code 128 read"
zx i25 ITF 400x100 "12345678"
zx i25-short ITF 400x100 "1515"
zx codabar Codabar 400x100 "A40156B"
zx ean13 EAN-13 300x120 "400638133393" "4006381333931"
zx ean8 EAN-8 300x120 "9638507" "96385074"
zx upca UPC-A 300x120 "03600029145" "036000291452"
zx upce UPC-E 300x120 "0123456" "01234565"
zi microqr MICROQR "MICRO 42" "MICRO 42"
zi rmqr RMQR "rMQR read by qrseal" "rMQR read by qrseal"
zi databar DBAR_OMN 0950110153000 0109501101530003 --height=33
zi databar-exp DBAR_EXP "[01]98898765432106[3202]012345[15]991231" 0198898765432106320201234515991231
zi databar-exp-variable DBAR_EXP "[10]ABC123[21]12345" '10ABC123\x1d2112345'
zi databar-ltd DBAR_LTD 1501234567890 0115012345678907
zi telepen TELEPEN "Telepen 42!" "Telepen 42!"
zi msi MSI_PLESSEY 1234 12344 --vers=1
# DX film edge: a picture of film (zint 2.11 draws none), see film/README.md.
cp "$here/film/dxfilmedge.png" "$out/dxfilmedge.png"
echo 10-3 > "$out/dxfilmedge.txt"

for code in 4851234 1234567 6767898; do
    ZXingWriter -size 250x60 EAN-8 "$code" "$work/ean8-$code.png" >/dev/null
done
convert "$work"/ean8-4851234.png "$work"/ean8-1234567.png "$work"/ean8-6767898.png +append "$work/ean8-several.png"
gray ean8-several
printf '48512343\n12345670\n67678983\n' > "$out/ean8-several.txt"

for code in 400638133393 501234567890 871234567890; do
    ZXingWriter -size 300x100 -margin 10 EAN-13 "$code" "$work/ean13-$code.png" >/dev/null
    convert "$work/ean13-$code.png" -bordercolor white -border 0x15 "$work/ean13-$code.png"
done
convert "$work"/ean13-400638133393.png "$work"/ean13-501234567890.png "$work"/ean13-871234567890.png -append \
    "$work/ean13-several.png"
gray ean13-several
printf '4006381333931\n5012345678900\n8712345678906\n' > "$out/ean13-several.txt"

out="$here/addons"
rm -rf "$out"
mkdir -p "$out"
zi ean13-ean5 EANX "978073520044+51299" 978073520044951299 --height=50
zi ean13-ean2 EANX "400638133393+12" 400638133393112 --height=50
zi upca-ean5 UPCA "07183100799+19868" 07183100799519868 --height=50
zi upca-ean2 UPCA "03600029145+07" 03600029145207 --height=50
zi ean8-ean2 EANX "9638507+42" 9638507442 --height=50

out="$here/abort"
rm -rf "$out"
mkdir -p "$out"

# plain FILE: a grayscale PNG of FILE in the output folder, without timestamps.
plain() { convert "$work/$1" -colorspace gray -define png:exclude-chunks=date,time "$out/$1"; }

ZXingWriter -size 1500x900 Code128 123456 "$work/large-code128.png" >/dev/null
plain large-code128.png
echo 123456 > "$out/large-code128.txt"

ZXingWriter -size 300x150 -margin 20 Code128 123456 "$work/one.png" >/dev/null
convert "$work/one.png" "$work/one.png" +append "$work/twice-code128.png"
plain twice-code128.png
printf '123456\n123456\n' > "$out/twice-code128.txt"

zint -b DBAR_OMN -d 0950110153000 --height=20 --scale=2 -o "$work/databar.png" >/dev/null
convert "$work/databar.png" -bordercolor white -border 30 -background white -rotate 3 -blur 0x1 \
    "$work/tilted-databar.png"
plain tilted-databar.png
echo 0109501101530003 > "$out/tilted-databar.txt"

zint -b DBAR_EXP -d "[10]123" --scale=2 -o "$work/databar-exp.png" >/dev/null
convert "$work/databar-exp.png" -bordercolor white -border 20 -background white -rotate 5 -blur 0x1 \
    "$work/tilted-databar-exp.png"
plain tilted-databar-exp.png
echo 10123 > "$out/tilted-databar-exp.txt"

for image in "$out"/*.png; do
    status=0
    ZXingReader "$image" >/dev/null 2>&1 || status=$?
    [ "$status" -eq 134 ] || { echo "make-barcode-images: ZXingReader does not abort on $image (exit $status)" >&2; exit 1; }
done
echo "make-barcode-images: wrote $(ls "$out"/*.png | wc -l) images to $out"
