#!/bin/bash
# Remakes Tests/Images/aztec/: Aztec symbols drawn by zint, for our own Aztec reader
# (Sources/QRSealKit/Detect/AztecReader.swift). Beside each NAME.png, NAME.txt (or NAME.bin,
# raw bytes) holds what it must read as, as qrseal reports it; NAME.unreadable.png are
# symbols damaged beyond what their check words correct, which must read as nothing.
#
#   compact-upper      compact, 1 layer, upper case and spaces only
#   compact-4          compact, 4 layers: every character table (upper, lower, mixed with
#                      control characters, punctuation pairs, digits)
#   full-mixed         full range, 6 layers, the same text as compact-4
#   full-large         full range, 23 layers (12-bit words, GF(4096)), reference grid
#   full-10bit         full range, 12 layers (10-bit words, GF(1024))
#   binary-short       31 bytes 0x80..0x9E: binary shift with its 5-bit length
#   binary-long        300 bytes of every value: binary shift with its 11-bit length
#   eci-utf8           ECI 26 (UTF-8) text
#   gs1                FNC1 in the first position and a group separator between fields
#   readerinit         a Reader Initialisation symbol (the count's top bit set)
#   rune-0, rune-255   Aztec Runes, reported as three digits
#   rot90, rot180, rot270, mirrored   compact-4 turned and flipped
#   rot30, full-rot20, rune-rot30     compact-4, full-mixed and rune-255 turned off the pixel grid
#   full-large-rot10   full-large turned by 10°: read only by following its reference grid
#   perspective        full-mixed seen at an angle
#   blurred            full-mixed (8 px a module) blurred by a quarter module
#   thick, thin        full-mixed with dark modules grown and shrunk by a quarter module
#   small              compact-4 at 2 px a module
#   damaged            full-mixed with a block of modules painted over (corrected)
#   damaged.unreadable full-mixed with a third of its modules painted over
#
#   Tests/Images/make-aztec-images.sh
#
# Needs zint and ImageMagick 6 (`convert`). Nothing is random.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
out="$here/aztec"
for tool in zint convert; do
    command -v "$tool" >/dev/null || { echo "make-aztec-images: $tool is missing" >&2; exit 2; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
rm -f "$out"/*.png "$out"/*.txt "$out"/*.bin
mkdir -p "$out"

# zint NAME SCALE ZINT-OPTIONS…: a symbol of 2 × SCALE pixels a module; zint gives Aztec
# no quiet zone, which it does not need.
draw() {
    local name=$1 scale=$2; shift 2
    zint --barcode=92 --scale="$scale" --quietzones --filetype=PNG -o "$out/$name.png" "$@"
}
text() { printf '%s' "$2" > "$out/$1.txt"; }

text compact-upper "HELLO AZTEC"
draw compact-upper 4 --vers=1 -d "HELLO AZTEC"

tables='Aztec Code 2D! lower UPPER 0123456789, mixed @\^_`|~ and punct: ;<>?[]{} end.'
text compact-4 "$tables"
draw compact-4 4 --vers=4 -d "$tables"
text full-mixed "$tables"
draw full-mixed 4 --vers=10 -d "$tables"

lorem=$(for i in $(seq 1 30); do printf 'Line %d of a long Aztec message, lower and UPPER case. ' "$i"; done)
text full-large "$lorem"
draw full-large 3 --vers=27 -d "$lorem"
text full-10bit "${lorem:0:600}"
draw full-10bit 3 --vers=16 -d "${lorem:0:600}"

printf "$(printf '\\x%02x' $(seq 128 158))" > "$out/binary-short.bin"
draw binary-short 4 --binary -i "$out/binary-short.bin"
for i in $(seq 0 299); do printf "\\x$(printf '%02x' $(( (i * 7 + 3) % 256 )))"; done > "$out/binary-long.bin"
draw binary-long 3 --binary -i "$out/binary-long.bin"

text eci-utf8 "Grüße aus Köln, 日本語"
draw eci-utf8 4 --eci=26 -d "Grüße aus Köln, 日本語"

printf '0109504000059101212345678p901\x1d101234567p\x1d17141120' > "$out/gs1.txt"
draw gs1 4 --gs1 -d "[01]09504000059101[21]2345678p901[10]1234567p[17]141120"

text readerinit '$I'
draw readerinit 4 --vers=1 --init -d '$I'

text rune-0 "000"
zint --barcode=128 --scale=4 --quietzones --filetype=PNG -o "$out/rune-0.png" -d 0
text rune-255 "255"
zint --barcode=128 --scale=4 --quietzones --filetype=PNG -o "$out/rune-255.png" -d 255

for turn in 90 180 270; do
    text "rot$turn" "$tables"
    convert "$out/compact-4.png" -rotate "$turn" "$out/rot$turn.png"
done
text rot30 "$tables"
convert "$out/compact-4.png" -background white -rotate 30 "$out/rot30.png"
text full-rot20 "$tables"
convert "$out/full-mixed.png" -background white -rotate 20 "$out/full-rot20.png"
text rune-rot30 "255"
convert "$out/rune-255.png" -background white -rotate 30 "$out/rune-rot30.png"
text full-large-rot10 "$lorem"
convert "$out/full-large.png" -background white -rotate 10 "$out/full-large-rot10.png"
text mirrored "$tables"
convert "$out/compact-4.png" -flop "$out/mirrored.png"

text perspective "$tables"
s=$(identify -format %w "$out/full-mixed.png")
convert "$out/full-mixed.png" -background white -virtual-pixel white -distort Perspective \
    "0,0 $((s / 10)),$((s / 20))  $s,0 $((s * 9 / 10)),0  $s,$s $((s * 17 / 20)),$s  0,$s 0,$((s * 9 / 10))" \
    "$out/perspective.png"
text blurred "$tables"
convert "$out/full-mixed.png" -blur 0x2 "$out/blurred.png"
# Dark modules 1 px thicker (thinner) on each side of a 4 px module.
text thick "$tables"
convert "$out/full-mixed.png" -morphology Erode Square:1 "$out/thick.png"
text thin "$tables"
convert "$out/full-mixed.png" -morphology Dilate Square:1 "$out/thin.png"
text small "$tables"
draw small 1 --vers=4 -d "$tables"

text damaged "$tables"
# A 6 × 6 module block near a corner; then the top third of the symbol.
convert "$out/full-mixed.png" -fill black -draw 'rectangle 24,24 47,47' "$out/damaged.png"
convert "$out/full-mixed.png" -fill black -draw "rectangle 0,0 $s,$((s / 3))" "$out/damaged.unreadable.png"

# No time stamps in the files, so that remaking them changes nothing.
for f in "$out"/*.png; do convert "$f" -colorspace Gray -depth 8 -strip -define png:exclude-chunks=date,time "$f"; done
