#!/bin/bash
# Remakes Tests/Images/sheets/: photos larger than 4 megapixels, which `balanced` reads from
# a pyramid level and from the regions around finder patterns (see PassPlan). Beside each
# NAME.png, NAME.txt holds what the image must read as: one payload per line.
#
#   Tests/Images/make-sheet-images.sh [path/to/qrseal]
#
# Needs ImageMagick 6 (`convert`, `montage`) and a built qrseal (default
# .build/release/qrseal, then .build/debug/qrseal). Nothing is random: a rerun gives the
# same images.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
qrseal=${1:-}
if [ -z "$qrseal" ]; then
    for c in "$root/.build/release/qrseal" "$root/.build/debug/qrseal"; do
        [ -x "$c" ] && qrseal=$c && break
    done
fi
[ -x "${qrseal:-}" ] || { echo "make-sheet-images: no qrseal binary; build it or pass its path" >&2; exit 2; }
command -v convert >/dev/null || { echo "make-sheet-images: ImageMagick's convert is missing" >&2; exit 2; }

out="$here/sheets"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
rm -rf "$out"
mkdir -p "$out"

# Many codes: a page of 48 small codes (versions 1 and 2, 3 pixels per module), slightly
# out of focus, in a 4.4-megapixel picture. libZXing 1.4 pairs only the first 256
# combinations of the 144 finder patterns, and zbar misses some of the blurred ones.
names=()
: > "$out/many-codes.txt"
for i in $(seq 1 48); do
    text="sheet code $i of 48"
    [ $((i % 3)) -eq 0 ] && text="sheet code $i of 48, a longer one"
    "$qrseal" encode -o "$work/c$i.png" --scale 3 --margin 2 --ec M "$text"
    names+=("$work/c$i.png")
    echo "$text" >> "$out/many-codes.txt"
done
montage "${names[@]}" -tile 8x6 -geometry +18+18 -background white "$work/page.png"
convert "$work/page.png" -colorspace Gray -background white -gravity center -extent 2300x1900 \
    -blur 0x0.5 "$out/many-codes.png"

# Light on dark: one inverted code in a 4.2-megapixel picture, read only by a pass on an
# inverted copy, which on a picture this large the time budget used to cut.
text="light on dark, in a large picture"
"$qrseal" encode -o "$work/inv.png" --scale 8 --margin 4 "$text"
convert "$work/inv.png" -negate -colorspace Gray -background black -gravity center -extent 2100x2000 \
    "$out/inverted-large.png"
echo "$text" > "$out/inverted-large.txt"
