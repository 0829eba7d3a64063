#!/bin/bash
# Remakes the image set of one 2D symbology drawn by zint, for our own reader of it:
# Tests/Images/datamatrix/ (Sources/QRSealKit/Detect/DataMatrix/DataMatrixReader.swift),
# Tests/Images/aztec/ (Sources/QRSealKit/Detect/Aztec/AztecReader.swift) or
# Tests/Images/micropdf417/ (Sources/QRSealKit/Detect/MicroPDF417/MicroPDF417Reader.swift;
# its zxing-*.png are zxing-cpp's test images, Apache-2.0, kept when remaking). Beside each NAME.png,
# NAME.txt (or NAME.bin, raw bytes) holds what it must read as, as qrseal reports it;
# NAME.codes holds one payload a line for an image of several symbols; NAME.unreadable.png
# are symbols damaged beyond what their check words correct, which must read as nothing.
# Tests/QRSealKitTests/Detect/ReaderImageSet.swift reads every set the same way.
#
#   Tests/Images/make-zint-images.sh datamatrix
#   Tests/Images/make-zint-images.sh aztec
#   Tests/Images/make-zint-images.sh micropdf417
#   Tests/Images/make-zint-images.sh databar-expanded
#
# datamatrix:
#   ascii            digits (digit pairs), lower and upper case, Latin-1 letters (upper shift)
#   c40, text, x12, edifact   text that zint encodes mostly in that encodation
#   base256          300 bytes of every value (Base 256, two-codeword length)
#   gs1              FNC1 in the first position, a group separator between fields
#   eci              ECI 26 (UTF-8) text
#   macro05          a 05 Macro message: header and trailer in one codeword
#   structapp        symbol 2 of 3 of a Structured Append sequence
#   readerinit       a Reader Programming symbol
#   s10, s32, s52, s64, s88, s120, s144   square sizes 10×10 … 144×144 (1, 4, 16, 36 regions;
#                    52, 64, 88, 120 and 144 with interleaved blocks, 144's unequal)
#   r8x18, r8x32, r12x26, r12x36, r16x36, r16x48   every rectangular size
#   rot90, rot180, rot270, mirrored, inverted   s32 turned, flipped, light on dark
#   rot30            s32 turned off the pixel grid
#   perspective      s32 seen at an angle
#   distorted        s32 with its columns unevenly wide: the right half squeezed to half
#   blurred          s32 (6 px a module) blurred by a third of a module
#   small            s32 at 2 px a module, no quiet zone but one module
#   damaged          s32 with a block of modules painted over (corrected)
#   damaged.unreadable   s32 with half its modules painted over
#   several          five symbols (turned, rectangular, small) on one page
#
# aztec:
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
# micropdf417 (zint draws rows two modules high):
#   c1-text          1 column, upper case, digits and spaces (Text Compaction)
#   c2-text          2 columns, every sub-mode: lower, upper, mixed and punctuation
#   c3-numeric       3 columns, 44 digits (Numeric Compaction)
#   c4-bytes         4 columns, 60 bytes of every value (Byte Compaction)
#   c4-large         4 columns, 44 rows: the largest variant
#   eci              ECI 26 (UTF-8) text
#   small, large     c2-text at 2 and 8 px a module
#   rot90, rot180, rot270, tilt4, rot30   c2-text turned, and turned by 4° and 30°
#   rot140           c3-numeric turned by 140°
#   pitch            c3-numeric seen from below at a slant: its top rows narrower
#   damaged          c3-numeric with a block of modules painted over (corrected)
#   damaged.unreadable   c3-numeric with its middle half of rows painted over
#
# databar-expanded (Sources/QRSealKit/Detect/Linear/DataBarExpandedDecoder.swift; its
# zxing-*.png are zxing-cpp's test images, Apache-2.0, kept when remaking):
#   method1          AI 01 and a lot number (encodation method 1, then alphanumeric)
#   weight-date      01, 3202 and 15: method 0111101, a weight in 20 bits and a date
#   m3103, m3202, m3203   01 and a weight in 15 bits (methods 0100 and 0101)
#   m392x, m393x     01 and a price, and a price with its currency (01100 and 01101)
#   general          10 and 21: general purpose, a group separator between them
#   iso646           lower case and punctuation (ISO/IEC 646 mode)
#   long             74 characters on one row, 21 data characters: longer than zbar reads
#   stacked1, stacked2, stacked3   Expanded Stacked of 1, 2 and 3 pairs a row (rows of
#                    even number read right to left, a last row of one character)
#   long-stacked     long on rows of 3 pairs
#   damaged.unreadable   long with a module of one character moved: reads as nothing
#
# Needs zint and ImageMagick 6 (`convert`). Nothing is random.
set -euo pipefail

symbology=${1:-}
case "$symbology" in
    datamatrix) barcode=71 ;;
    aztec) barcode=92 ;;
    micropdf417) barcode=84 ;;
    databar-expanded) barcode=31 ;;
    *) echo "usage: make-zint-images.sh datamatrix|aztec|micropdf417|databar-expanded" >&2; exit 64 ;;
esac
here=$(cd "$(dirname "$0")" && pwd)
out="$here/$symbology"
for tool in zint convert; do
    command -v "$tool" >/dev/null || { echo "make-zint-images: $tool is missing" >&2; exit 2; }
done
mkdir -p "$out"
find "$out" -maxdepth 1 -type f \( -name '*.png' -o -name '*.txt' -o -name '*.bin' -o -name '*.codes' \) \
    ! -name 'zxing-*' -delete

# draw NAME SCALE ZINT-OPTIONS…: a symbol of 2 × SCALE pixels a module, with the quiet zone
# zint gives it (one module for Data Matrix; none for Aztec, which needs none).
draw() {
    local name=$1 scale=$2; shift 2
    zint --barcode="$barcode" --scale="$scale" --quietzones --filetype=PNG -o "$out/$name.png" "$@"
}
text() { printf '%s' "$2" > "$out/$1.txt"; }
# derive NAME BASE PAYLOAD CONVERT-OPTIONS…: BASE.png changed by ImageMagick, reading as PAYLOAD.
derive() {
    local name=$1 base=$2; text "$name" "$3"; shift 3
    convert "$out/$base.png" "$@" "$out/$name.png"
}
# Turned a quarter, a half and three quarters.
turns() {
    local base=$1 payload=$2
    for turn in 90 180 270; do derive "rot$turn" "$base" "$payload" -rotate "$turn"; done
}
# Seen at an angle: each corner pulled in by up to a tenth of the side.
perspective() {
    local base=$1 payload=$2 s
    s=$(identify -format %w "$out/$base.png")
    derive perspective "$base" "$payload" -background white -virtual-pixel white -distort Perspective \
        "0,0 $((s / 10)),$((s / 20))  $s,0 $((s * 9 / 10)),0  $s,$s $((s * 17 / 20)),$s  0,$s 0,$((s * 9 / 10))"
}
# 300 bytes of every value, in NAME.bin.
every_byte() {
    for i in $(seq 0 299); do printf "\\x$(printf '%02x' $(( (i * 7 + 3) % 256 )))"; done > "$out/$1.bin"
}
gs1() {
    printf '0109504000059101212345678p901\x1d101234567p\x1d17141120' > "$out/gs1.txt"
    draw gs1 "$1" --gs1 -d "[01]09504000059101[21]2345678p901[10]1234567p[17]141120"
}

datamatrix() {
    text ascii "0123456789012345 Data Matrix, lower and UPPER."
    draw ascii 2 -d "0123456789012345 Data Matrix, lower and UPPER."
    # Latin-1 bytes: zint writes ü and ß with the upper shift.
    printf 'Gr\xfc\xdfe aus K\xf6ln 2026' > "$out/ascii-latin1.bin"
    draw ascii-latin1 2 -d "Grüße aus Köln 2026"

    text c40 "DATA MATRIX C40 ENCODATION OF UPPER CASE LETTERS AND 0123456789"
    draw c40 2 -d "DATA MATRIX C40 ENCODATION OF UPPER CASE LETTERS AND 0123456789"
    text text "data matrix text encodation of lower case letters and 0123456789"
    draw text 2 -d "data matrix text encodation of lower case letters and 0123456789"
    printf 'ISA*00*0000000000*ZZ*SENDER>RECEIVER*2026\r' > "$out/x12.txt"
    draw x12 2 -i "$out/x12.txt"
    text edifact "UNB:UNOA:3+SENDER:14+RECEIVER:14+261201:1200+00000000000778'"
    draw edifact 2 -d "UNB:UNOA:3+SENDER:14+RECEIVER:14+261201:1200+00000000000778'"

    every_byte base256
    draw base256 2 --binary -i "$out/base256.bin"
    gs1 2

    text eci "Grüße aus Köln, 日本語"
    draw eci 2 --eci=26 -d "Grüße aus Köln, 日本語"

    printf '[)>\x1e05\x1d9N12345\x1d1T98765\x1e\x04' > "$out/macro05.txt"
    draw macro05 2 -i "$out/macro05.txt"

    text structapp "PART TWO OF THREE"
    draw structapp 2 --structapp=2,3,1001 -d "PART TWO OF THREE"

    text readerinit "CONFIGURE 42"
    draw readerinit 2 --init -d "CONFIGURE 42"

    local lorem v vers name data r
    lorem=$(for i in $(seq 1 80); do printf 'Line %d of a long Data Matrix message. ' "$i"; done)
    # --vers: 1 is 10×10 … 24 is 144×144; 25 … 30 the rectangles.
    for v in "s10 1 A1" "s32 10 ${lorem:0:40}" "s52 15 ${lorem:0:250}" "s64 16 ${lorem:0:330}" \
             "s88 19 ${lorem:0:700}" "s120 22 ${lorem:0:1250}" "s144 24 ${lorem:0:1800}"; do
        set -- $v
        name=$1 vers=$2
        shift 2
        data="$*"
        text "$name" "$data"
        draw "$name" $([ "$vers" -ge 19 ] && echo 1 || echo 2) --vers="$vers" -d "$data"
    done
    vers=25
    for r in r8x18:AB12 r8x32:RECT8X32 r12x26:RECTANGLE-12X26 r12x36:RECTANGLE-12-BY-36 \
             r16x36:RECTANGLE-16-BY-36-MODULES r16x48:RECTANGLE-16-BY-48-MODULES-FULL; do
        name=${r%%:*} data=${r#*:}
        text "$name" "$data"
        draw "$name" 2 --vers="$vers" -d "$data"
        vers=$((vers + 1))
    done

    local s32="${lorem:0:40}" s w h
    turns s32 "$s32"
    derive rot30 s32 "$s32" -background white -rotate 30
    derive mirrored s32 "$s32" -flop
    derive inverted s32 "$s32" -negate -bordercolor black -border 8
    perspective s32 "$s32"
    s=$(identify -format %w "$out/s32.png")

    # The left half at its width, the right half squeezed to half of it: columns 6 px wide on
    # the left, 3 on the right, as a symbol printed on a stretched label.
    draw big32 3 --vers=10 -d "$s32"
    h=$(identify -format %h "$out/big32.png")
    w=$(identify -format %w "$out/big32.png")
    derive distorted big32 "$s32" \( -clone 0 -crop "$((w / 2))x$h+0+0" \) \
        \( -clone 0 -crop "$((w / 2))x$h+$((w / 2))+0" -resize "50%x100%!" \) -delete 0 +append
    derive blurred big32 "$s32" -blur 0x2
    rm "$out/big32.png"

    text small "$s32"
    zint --barcode=71 --scale=1 --vers=10 --filetype=PNG -o "$out/small.png" -d "$s32"
    convert "$out/small.png" -bordercolor white -border 2 "$out/small.png"

    # A block of 5 × 5 modules (4 px each) in the data; then half the symbol.
    derive damaged s32 "$s32" -fill black -draw 'rectangle 40,40 59,59'
    convert "$out/s32.png" -fill white -draw "rectangle 0,0 $s,$((s / 2))" -fill black -draw "rectangle 0,0 4,$s" \
        "$out/damaged.unreadable.png"

    # Five symbols on a page: upright, turned by 20° and 90°, a rectangle and a small square.
    printf '%s\n' "$s32" "$s32" "RECTANGLE-16-BY-48-MODULES-FULL" "$s32" "A1" > "$out/several.codes"
    convert -size 560x400 xc:white \
        "$out/s32.png" -geometry +10+10 -composite \
        \( "$out/s32.png" -background white -rotate 20 \) -geometry +200+10 -composite \
        "$out/r16x48.png" -geometry +10+230 -composite \
        \( "$out/s32.png" -rotate 90 \) -geometry +400+200 -composite \
        "$out/s10.png" -geometry +250+300 -composite "$out/several.png"
}

aztec() {
    text compact-upper "HELLO AZTEC"
    draw compact-upper 4 --vers=1 -d "HELLO AZTEC"

    local tables lorem s
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
    every_byte binary-long
    draw binary-long 3 --binary -i "$out/binary-long.bin"

    text eci-utf8 "Grüße aus Köln, 日本語"
    draw eci-utf8 4 --eci=26 -d "Grüße aus Köln, 日本語"
    gs1 4

    text readerinit '$I'
    draw readerinit 4 --vers=1 --init -d '$I'

    text rune-0 "000"
    zint --barcode=128 --scale=4 --quietzones --filetype=PNG -o "$out/rune-0.png" -d 0
    text rune-255 "255"
    zint --barcode=128 --scale=4 --quietzones --filetype=PNG -o "$out/rune-255.png" -d 255

    turns compact-4 "$tables"
    derive rot30 compact-4 "$tables" -background white -rotate 30
    derive full-rot20 full-mixed "$tables" -background white -rotate 20
    derive rune-rot30 rune-255 255 -background white -rotate 30
    derive full-large-rot10 full-large "$lorem" -background white -rotate 10
    derive mirrored compact-4 "$tables" -flop

    perspective full-mixed "$tables"
    s=$(identify -format %w "$out/full-mixed.png")
    derive blurred full-mixed "$tables" -blur 0x2
    # Dark modules 1 px thicker (thinner) on each side of a 4 px module.
    derive thick full-mixed "$tables" -morphology Erode Square:1
    derive thin full-mixed "$tables" -morphology Dilate Square:1
    text small "$tables"
    draw small 1 --vers=4 -d "$tables"

    # A 6 × 6 module block near a corner; then the top third of the symbol.
    derive damaged full-mixed "$tables" -fill black -draw 'rectangle 24,24 47,47'
    convert "$out/full-mixed.png" -fill black -draw "rectangle 0,0 $s,$((s / 3))" "$out/damaged.unreadable.png"
}

micropdf417() {
    local c1 c2 c3 s h
    c1="MICROPDF417 ONE COLUMN 2026"
    text c1-text "$c1"
    draw c1-text 2 --cols=1 -d "$c1"
    c2='lower UPPER 0123 &,:#-.$/+%*=^ ;<>@[\]_`~!"|()?{} end.'
    text c2-text "$c2"
    draw c2-text 2 --cols=2 -d "$c2"
    c3=12345678901234567890123456789012345678901234
    text c3-numeric "$c3"
    draw c3-numeric 2 --cols=3 -d "$c3"
    for i in $(seq 0 59); do printf "\\x$(printf '%02x' $(( (i * 37 + 11) % 256 )))"; done > "$out/c4-bytes.bin"
    draw c4-bytes 2 --cols=4 --binary -i "$out/c4-bytes.bin"
    text c4-large "$(printf 'MICROPDF417 WITH 4 COLUMNS AND 44 ROWS THE LARGEST %.0s' 1 2 3 4)"
    draw c4-large 2 --cols=4 -d "$(cat "$out/c4-large.txt")"
    text eci "Grüße aus Köln"
    draw eci 2 --cols=2 --eci=26 -d "Grüße aus Köln"

    text small "$c2"
    draw small 1 --cols=2 -d "$c2"
    text large "$c2"
    draw large 4 --cols=2 -d "$c2"
    turns c2-text "$c2"
    derive tilt4 c2-text "$c2" -background white -rotate 4
    derive rot30 c2-text "$c2" -background white -rotate 30
    derive rot140 c3-numeric "$c3" -background white -rotate 140
    s=$(identify -format %w "$out/c3-numeric.png"); h=$(identify -format %h "$out/c3-numeric.png")
    derive pitch c3-numeric "$c3" -background white -virtual-pixel white -distort Perspective \
        "0,0 $((s / 8)),0  $s,0 $((s * 7 / 8)),0  $s,$h $s,$h  0,$h 0,$h"

    # A block of 4 × 4 modules (4 px each) in the codewords; then the middle rows.
    derive damaged c3-numeric "$c3" -fill black -draw 'rectangle 60,12 75,27'
    convert "$out/c3-numeric.png" -fill white -draw "rectangle 0,$((h / 4)) $s,$((h * 3 / 4))" "$out/damaged.unreadable.png"
}

# gs1data NAME ELEMENT-STRING ZINT-DATA [ZINT-OPTIONS…]: a DataBar Expanded at 2 px a module
# (zint's own width), reading as ELEMENT-STRING (\x1d the group separator).
gs1data() {
    local name=$1; printf "$2" > "$out/$name.txt"; shift 2
    zint --barcode="$barcode" --scale=1 --filetype=PNG --gs1 -o "$out/$name.png" -d "$@"
}

databar-expanded() {
    local long="[01]90012345678908[3922]795888888888888888888888888888888888888888888888888888888"
    local longText="01900123456789083922795888888888888888888888888888888888888888888888888888888"
    gs1data method1 "010001234567890510ABC123" "[01]00012345678905[10]ABC123"
    gs1data weight-date "0198898765432106320201234515991231" "[01]98898765432106[3202]012345[15]991231"
    gs1data m3103 "01900123456789083103001750" "[01]90012345678908[3103]001750"
    gs1data m3202 "01900123456789083202001750" "[01]90012345678908[3202]001750"
    gs1data m3203 "01900123456789083203010750" "[01]90012345678908[3203]010750"
    gs1data m392x "01900123456789083922795" "[01]90012345678908[3922]795"
    gs1data m393x "01900123456789083932978795" "[01]90012345678908[3932]978795"
    gs1data general "10ABC123\x1d2112" "[10]ABC123[21]12"
    gs1data iso646 "21abc-def!x%%\x1d107" "[21]abc-def!x%[10]7"
    gs1data long "$longText" "$long" --gs1nocheck
    gs1data stacked1 "01900123456789083922795" "[01]90012345678908[3922]795" --barcode=81 --cols=1
    gs1data stacked2 "019889876543210632020123451599123110LOT42x" \
        "[01]98898765432106[3202]012345[15]991231[10]LOT42x" --barcode=81 --cols=2
    gs1data stacked3 "0190614141999999101234222222222221" "[01]90614141999999[10]1234222222222221" --barcode=81 --cols=3
    gs1data long-stacked "$longText" "$long" --gs1nocheck --barcode=81 --cols=3
    # long with one module of the second pair's left character moved from its third
    # element (a bar, modules 53 to 56) to its second: still a character the tables allow,
    # but the check character no longer holds.
    convert "$out/long.png" -fill white -draw "rectangle 106,0 107,1000" "$out/damaged.unreadable.png"
}

"$symbology"

# No time stamps in the files, so that remaking them changes nothing.
for f in "$out"/*.png; do convert "$f" -colorspace Gray -depth 8 -strip -define png:exclude-chunks=date,time "$f"; done
