#!/bin/bash
# Remakes Tests/Images/hard/: QR codes written by qrseal, then degraded with ImageMagick
# the ways real photos are, one kind of difficulty per image; and Tests/Images/sheets/:
# pictures larger than 4 megapixels, which `balanced` reads from a pyramid level and from
# the regions around finder patterns (see PassPlan). Beside each NAME.png or
# NAME.jpg, NAME.txt holds what the image must read as: one payload per line.
#
#   Tests/Images/make-hard-images.sh [path/to/qrseal]
#
# Needs ImageMagick 6 (`convert`) and a built qrseal (default .build/release/qrseal, then
# .build/debug/qrseal). Noise is seeded, so a rerun gives the same images.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
qrseal=${1:-}
if [ -z "$qrseal" ]; then
    for c in "$root/.build/release/qrseal" "$root/.build/debug/qrseal"; do
        [ -x "$c" ] && qrseal=$c && break
    done
fi
[ -x "${qrseal:-}" ] || { echo "make-hard-images: no qrseal binary; build it or pass its path" >&2; exit 2; }
command -v convert >/dev/null || { echo "make-hard-images: ImageMagick's convert is missing" >&2; exit 2; }

out="$here/hard"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
sheets="$here/sheets"
rm -rf "$out" "$sheets"
mkdir -p "$out" "$sheets"

# code TEXT FILE [encode options...]: a clean code PNG in the work folder.
code() {
    local text=$1 file=$2
    shift 2
    "$qrseal" encode -o "$work/$file" "$@" "$text"
}

# expect NAME LINE...: the expected payloads, one per line.
expect() {
    local name=$1
    shift
    printf '%s\n' "$@" > "$out/$name.txt"
}

# Out of focus: a Gaussian blur of more than half a module.
t="blurred photo of a printed code"
code "$t" blur.png --scale 8
convert "$work/blur.png" -blur 0x5 "$out/blur.png"
expect blur "$t"

# Sensor noise in a dim shot, on a gray background.
t="noise: grainy low-light picture"
code "$t" noise.png --scale 6
convert "$work/noise.png" -level 15%,90% -seed 7 -attenuate 3.5 +noise Gaussian -colorspace Gray "$out/noise.png"
expect noise "$t"

# Held at an angle and a little out of focus.
t="perspective: seen from the side"
code "$t" perspective.png --scale 6
convert "$work/perspective.png" -background white -virtual-pixel background \
    -distort Perspective '0,0 40,30  264,0 230,60  0,264 10,250  264,264 250,220' -blur 0x2.2 "$out/perspective.png"
expect perspective "$t"

# Turned by an angle that is not a multiple of 90 degrees, and small.
t="rotation by 33 degrees"
code "$t" rotation.png --scale 4
convert "$work/rotation.png" -background white -rotate 33 -resize 60% -blur 0x1 "$out/rotation.png"
expect rotation "$t"

# Faded print: gray on slightly lighter gray, with some grain.
t="low contrast: faded gray print"
code "$t" contrast.png --scale 6
convert "$work/contrast.png" +level 45%,55% -seed 3 -attenuate 0.3 +noise Gaussian -colorspace Gray "$out/low-contrast.png"
expect low-contrast "$t"

# A heavily compressed JPEG, blocky around every edge.
t="low quality JPEG from a messenger app"
code "$t" jpeg.png --scale 5
convert "$work/jpeg.png" -resize 50% -quality 2 "$out/low-quality.jpg"
expect low-quality "$t"

# A code shown on a monitor and photographed: the pixel grid (dark lines between rows
# and columns of lit pixels), a blue-gray cast, a brightness falloff, a slight tilt,
# blur, noise and JPEG compression.
t="https://example.org/screen-photo?id=4242"
code "$t" screen.png --scale 9
convert "$work/screen.png" -filter point -resize 300% "$work/screen-big.png"
convert -size 3x3 xc:white -fill 'gray(20%)' -draw 'line 0,2 2,2' -draw 'line 2,0 2,2' "$work/cell.png"
size=$(identify -format '%wx%h' "$work/screen-big.png")
convert -size "$size" "tile:$work/cell.png" "$work/grid.png"
convert "$work/screen-big.png" "$work/grid.png" -compose Multiply -composite \
    -resize 29% +level 25%,75% -fill 'rgb(190,210,255)' -colorize 25% "$work/screen-lit.png"
convert "$work/screen-lit.png" \( +clone -sparse-color Barycentric '0,0 gray(100%) %w,%h gray(60%)' \) \
    -compose Multiply -composite -background 'gray(20%)' -virtual-pixel background \
    -distort SRT '0.95 4' -blur 0x1.5 -seed 11 -attenuate 1.0 +noise Gaussian -quality 35 "$out/screen-photo.jpg"
expect screen-photo "$t"

# A page of many codes: a sheet of labels.
names=()
for i in $(seq 1 12); do
    code "label $i of 12" "many-$i.png" --scale 4 --margin 3
    names+=("$work/many-$i.png")
done
montage "${names[@]}" -tile 4x3 -geometry +12+12 -background white "$work/many.png"
convert "$work/many.png" -colorspace Gray -blur 0x0.6 "$out/many-codes.png"
for i in $(seq 1 12); do echo "label $i of 12"; done > "$out/many-codes.txt"

# Tiny: about 1.2 pixels per module, far from the camera.
t="tiny code"
code "$t" tiny.png --scale 3 --margin 2
convert "$work/tiny.png" -resize 40% -colorspace Gray "$out/tiny.png"
expect tiny "$t"

# Huge: a 4000-pixel-wide picture whose modules are about 120 pixels across.
t="huge: one code fills a 4000-pixel picture"
code "$t" huge.png --scale 100 --margin 2
convert "$work/huge.png" -resize 4000x4000 -colorspace Gray "$out/huge.png"
expect huge "$t"

# Light on dark, as some apps and posters print them, slightly blurred.
t="inverted: light modules on black"
code "$t" inverted.png --scale 6
convert "$work/inverted.png" -negate -blur 0x1 -colorspace Gray "$out/inverted.png"
expect inverted "$t"

# Glare and a shadow: a bright spot on one side and a dark gradient across.
t="uneven light: glare and shadow"
code "$t" light.png --scale 7
convert "$work/light.png" \
    \( +clone -sparse-color Barycentric '0,0 gray(100%) %w,0 gray(90%) 0,%h gray(15%)' \) -compose Multiply -composite \
    \( +clone -fill black -colorize 100 -fill 'gray(90%)' -draw 'circle 220,110 220,220' -blur 0x25 \) -compose Screen -composite \
    -colorspace Gray "$out/glare-shadow.png"
expect glare-shadow "$t"

# Printed to the edge: no quiet zone at all.
t="no quiet zone"
code "$t" edge.png --scale 6 --margin 0
cp "$work/edge.png" "$out/no-quiet-zone.png"
expect no-quiet-zone "$t"

# A code inside a code: a small one pasted over the middle of a large level-H one, which
# its error correction still reads through.
outer="outer code (level H)"
inner="inner code"
code "$outer" outer.png --scale 8 --ec H --min-version 5
code "$inner" inner.png --scale 3 --margin 1
convert "$work/outer.png" "$work/inner.png" -gravity center -composite -colorspace Gray "$out/code-in-code.png"
expect code-in-code "$outer" "$inner"

# Many codes: a page of 48 small codes (versions 1 and 2, 3 pixels per module), slightly
# out of focus, in a 4.4-megapixel picture. libZXing 1.4 pairs only the first 256
# combinations of the 144 finder patterns, and zbar misses some of the blurred ones.
names=()
: > "$sheets/many-codes.txt"
for i in $(seq 1 48); do
    text="sheet code $i of 48"
    [ $((i % 3)) -eq 0 ] && text="sheet code $i of 48, a longer one"
    "$qrseal" encode -o "$work/c$i.png" --scale 3 --margin 2 --ec M "$text"
    names+=("$work/c$i.png")
    echo "$text" >> "$sheets/many-codes.txt"
done
montage "${names[@]}" -tile 8x6 -geometry +18+18 -background white "$work/page.png"
convert "$work/page.png" -colorspace Gray -background white -gravity center -extent 2300x1900 \
    -blur 0x0.5 "$sheets/many-codes.png"

# Light on dark: one inverted code in a 4.2-megapixel picture, read only by a pass on an
# inverted copy, which on a picture this large the time budget used to cut.
text="light on dark, in a large picture"
"$qrseal" encode -o "$work/inv.png" --scale 8 --margin 4 "$text"
convert "$work/inv.png" -negate -colorspace Gray -background black -gravity center -extent 2100x2000 \
    "$sheets/inverted-large.png"
echo "$text" > "$sheets/inverted-large.txt"

# ImageMagick stamps PNGs with the time they were written; without it a rerun gives the
# same files, byte for byte.
for f in "$out"/*.png "$sheets"/*.png; do
    convert "$f" -strip -define png:exclude-chunks=date,time "$f"
done

ls -l "$out" "$sheets"
