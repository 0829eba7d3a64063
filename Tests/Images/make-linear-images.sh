#!/bin/bash
# Remakes Tests/Images/linear/: EAN-13, UPC-A, EAN-8, UPC-E and GS1 DataBar symbols drawn by zint, then
# photographed badly with ImageMagick, one mix of difficulties per image (optical blur of
# up to 1.5 modules, 1 to 2 pixels per module, sensor noise, JPEG, a turn, uneven light,
# ink spread: bars printed wider or narrower than nominal, a dark border cutting the quiet
# zone short),
# for `ProfileReader`; and images that hold no code but look like bars or text, which must
# give nothing. Beside each image, NAME.txt holds the payload as qrseal reports it (UPC-A
# as 12 digits, UPC-E as 8), taken from zbarimg's reading of the clean symbol.
#
#   Tests/Images/make-linear-images.sh
#
# Needs zint, ImageMagick 6 (`convert`) and zbarimg (all in `make setup`). Noise is seeded,
# so a rerun gives the same images.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
for tool in zint convert zbarimg; do
    command -v $tool >/dev/null || { echo "make-linear-images: $tool is missing" >&2; exit 2; }
done
out="$here/linear"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
rm -rf "$out"
mkdir -p "$out/nothing"

# clean KIND DATA: a clean symbol at 8 pixels per module in $work/KIND-DATA.png.
clean() {
    local kind=$1 data=$2 type
    case $kind in ean13|ean8) type=EANX ;; upca) type=UPCA ;; upce) type=UPCE ;; esac
    zint -b $type -d "$data" --scale=4 -o "$work/$kind-$data.png"
}

# photo NAME KIND DATA PPM BLUR NOISE ANGLE QUALITY LIGHT [SPREAD]: the clean symbol with
# every bar SPREAD eighths of a module wider on each side (negative: narrower; default 0),
# at PPM pixels per module after a Gaussian blur of BLUR modules, turned ANGLE degrees,
# under light falling to LIGHT % across it, with Gaussian noise (ImageMagick's attenuation
# NOISE) and JPEG at QUALITY (100: PNG).
photo() {
    local name=$1 kind=$2 data=$3 ppm=$4 blur=$5 noise=$6 angle=$7 quality=$8 light=$9 spread=${10:-0}
    [ -f "$work/$kind-$data.png" ] || clean "$kind" "$data"
    local sigma pct ext=jpg ink=()
    sigma=$(echo "$blur * 8" | bc -l)
    pct=$(echo "$ppm / 8 * 100" | bc -l)
    [ "$quality" = 100 ] && ext=png
    # Eroding the light widens the dark bars; dilating it narrows them.
    if [ "$spread" -gt 0 ]; then ink=(-morphology Erode "Rectangle:$((2 * spread + 1))x1")
    elif [ "$spread" -lt 0 ]; then ink=(-morphology Dilate "Rectangle:$((1 - 2 * spread))x1"); fi
    convert "$work/$kind-$data.png" -colorspace gray "${ink[@]}" -bordercolor white -border 48 \
        -background white -rotate "$angle" -blur "0x$sigma" -resize "$pct%" \
        \( +clone -sparse-color barycentric "0,0 gray($light%) %[fx:w-1],%[fx:h-1] white" \) \
        -compose Multiply -composite -seed 7 -attenuate "$noise" +noise Gaussian \
        -quality "$quality" "$out/$name.$ext"
    local read config=-Supca.enable
    [ "$kind" = upce ] && config="-Sdisable -Supce.enable"
    read=$(zbarimg -q --raw $config "$work/$kind-$data.png" 2>/dev/null)
    printf '%s\n' "$read" > "$out/$name.txt"
}

#     name              kind  data          ppm  blur noise angle q   light
photo ean13-blur        ean13 400638133393  2.0  1.5  0.2   0     90  100
photo ean13-lowres      ean13 590123412345  1.1  0.6  0.2   2     85  90
photo ean13-noise       ean13 978030640615  1.6  1.0  0.6   -3    80  95
photo ean13-light       ean13 871125300120  1.5  1.0  0.3   5     75  45
photo ean13-turned      ean13 501234567890  1.5  1.0  0.3   93    80  85
photo ean13-jpeg        ean13 761234567890  1.3  0.8  0.3   -6    40  80
photo upca-blur         upca  03600029145   1.8  1.4  0.2   1     85  90
photo upca-lowres       upca  07470152336   1.0  0.5  0.2   -2    90  95
photo upca-light        upca  07200000053   1.4  1.1  0.4   178   70  50
photo ean8-blur         ean8  9638507       2.0  1.4  0.2   2     85  90
photo ean8-lowres       ean8  5512345       1.2  0.7  0.3   -4    75  80
photo upce-blur         upce  0425261       2.0  1.3  0.2   -1    85  90
photo upce-lowres       upce  0123456       1.3  0.7  0.3   3     80  85
#     name              kind  data          ppm  blur noise angle q   light spread
photo ean13-inkspread   ean13 400763800008  1.6  0.9  0.2   1     85  90    2
photo ean13-thinbars    ean13 871000108512  1.5  0.9  0.2   -2    85  90    -2
photo upca-inkspread    upca  04210000526   1.4  0.8  0.2   2     85  95    3
photo ean8-inkspread    ean8  4006381       1.8  1.0  0.2   -1    85  90    2
photo upce-thinbars     upce  0654321       1.8  1.0  0.2   2     85  90    -1

# strip NAME TYPE DATA SCALE X WIDTH RESIZE BLUR: one row band of a symbol cropped tight
# (WIDTH pixels from X of zint's rendering at SCALE, a module's quiet zone or less either
# side), resized to RESIZE % across and blurred by BLUR pixels: a scan line cut out of a
# picture, its quiet zone cut by the image's border.
strip() {
    local name=$1 type=$2 data=$3 scale=$4 x=$5 width=$6 resize=$7 blur=$8
    zint -b "$type" -d "$data" --scale="$scale" --notext -o "$work/$name.png"
    convert "$work/$name.png" -colorspace gray -crop "${width}x6+$x+20" +repage -filter Gaussian \
        -resize "$resize%x100%" -blur "0x$blur" -depth 8 "$out/$name.png"
    zbarimg -q --raw "$work/$name.png" > "$out/$name.txt"
}

strip ean8-strip  EANX 4006381      0.5 6  69  100 0
strip ean13-strip EANX 590123412345 1   16 194 75  0.5

# bordered NAME TYPE DATA SCALE X WIDTH FULL BLUR: as strip, WIDTH pixels from X with a light
# margin of under three modules beside the bars, centred on a dark band FULL pixels wide: a
# label's dark border or frame cutting its quiet zone short on both sides.
bordered() {
    local name=$1 type=$2 data=$3 scale=$4 x=$5 width=$6 full=$7 blur=$8
    zint -b "$type" -d "$data" --scale="$scale" --notext -o "$work/$name.png"
    convert "$work/$name.png" -colorspace gray -crop "${width}x8+$x+20" +repage -background black \
        -gravity center -extent "${full}x8" -blur "0x$blur" -depth 8 "$out/$name.png"
    zbarimg -q --raw "$work/$name.png" > "$out/$name.txt"
}

bordered ean13-bordered EANX 590123412345 1.5 25 301 325 0.9

# databar NAME DATA SCALE BLUR: an 8-pixel band of a GS1 DataBar drawn by zint at SCALE, a
# light margin of 12 pixels either side, blurred by BLUR pixels until its narrow spaces are
# grey: read by neither engine. NAME.txt is its element string, as qrseal reports it.
databar() {
    local name=$1 data=$2 scale=$3 blur=$4
    zint -b DBAR_OMN -d "$data" --scale="$scale" --notext -o "$work/$name.png"
    convert "$work/$name.png" -colorspace gray -crop 400x8+0+20 +repage -bordercolor white -border 12x0 \
        -blur "0x$blur" -depth 8 "$out/$name.png"
    zbarimg -q --raw "$work/$name.png" > "$out/$name.txt"
}

databar databar-blur 2035846801931 1.5 1.8

# Nothing to read: noise, text, regular stripes (a grille, not a code), a photo-like
# gradient with bars of random widths that obey no code.
convert -size 200x120 xc:gray60 -seed 3 -attenuate 2 +noise Gaussian "$out/nothing/noise.png"
convert -size 320x120 xc:white -font DejaVu-Sans -pointsize 22 -fill black \
    -annotate +10+40 "Serial 4006381333931 lot 12" -annotate +10+90 "||| 8 21 ||| 0 4 ||| 1" \
    -blur 0x1 "$out/nothing/text.png"
convert -size 240x100 xc: -fx '0.5+0.4*sin(i*i/900)' "$out/nothing/chirp.png"
convert -size 240x100 xc: -fx 'sin(i/2.5)>0?0.1:0.9' -blur 0x1.2 "$out/nothing/stripes.png"
convert -size 70x1 xc: -seed 5 +noise Random -colorspace gray -threshold 50% \
    -scale 240x100! -blur 0x1.2 "$out/nothing/random-bars.png"
