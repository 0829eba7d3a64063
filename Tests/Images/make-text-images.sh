#!/bin/bash
# Remakes Tests/Images/text/: text rendered with ImageMagick in DejaVu fonts (fonts-dejavu-core),
# one kind of text or difficulty per image. Beside each NAME.png, NAME.txt holds the words
# the image must read as, one line of the image per line. Noise is seeded, so a rerun gives
# the same images.
#
#   Tests/Images/make-text-images.sh
set -euo pipefail
cd "$(dirname "$0")/text"

# render NAME FONT POINTS LINE... : the lines, one label each, stacked on a white page.
render() {
    local name=$1 font=$2 points=$3; shift 3
    local labels=()
    for line in "$@"; do labels+=("label:$line"); done
    convert -font "$font" -pointsize "$points" -background white "${labels[@]}" -append \
        -bordercolor white -border 30 -strip "$name.png"
    printf '%s\n' "$@" > "$name.txt"
}

render sans DejaVu-Sans 28 "The quick brown fox jumps over the lazy dog." \
    "Pack my box with five dozen liquor jugs."
render serif DejaVu-Serif 24 "Sphinx of black quartz, judge my vow." \
    "How vexingly quick daft zebras jump!"
render kinds DejaVu-Sans 28 "Visit https://example.org/inbox today" \
    "or write to alice@example.com" "Call +44 20 7946 0958"
# A photo-like copy: greyer paper, soft edges, noise and a slight turn.
render noisy DejaVu-Sans 32 "Meet me at the station at noon" "Bring the blue notebook"
convert noisy.png -background white -rotate 1.5 -blur 0x0.8 -fill gray85 -colorize 10 \
    -seed 13 -attenuate 0.4 +noise Gaussian -colorspace Gray -strip noisy.png
# Light falling off down the page: the lower lines are on paper darker than the upper ones'
# ink would need for one threshold.
render shadow DejaVu-Sans 22 "week point paper paper child summer place" "winter hand place summer music child life" \
    "day orange woman story point person window" "life paper broken time case hand thing" \
    "week letter story window life week group" "place market yesterday quiet simple window winter"
convert shadow.png \( -size "$(identify -format %wx%h shadow.png)" gradient:gray95-gray45 \) \
    -compose Multiply -composite -colorspace Gray -strip shadow.png
# A page turned 4 degrees, as a sheet laid crooked on a scanner: Tesseract alone reads nothing.
render skewed DejaVu-Sans 22 "garden river window letter morning" "station market bridge silver orange" \
    "quiet simple yellow broken evening" "north summer winter paper table"
convert skewed.png -background white -rotate 4 -strip skewed.png
# Small print: an x-height of about 5 pixels, where Tesseract alone misreads some words.
render small DejaVu-Sans 9 "garden river window letter morning" "station market bridge silver orange" \
    "quiet simple yellow broken evening" "north summer winter paper table"
# Dates, times and an address.
render dates DejaVu-Sans 26 "Due 1 December 2026 at 14:30" "10 Downing Street, London SW1A 2AA"

# Beside the pages, in text-other/ (not read as pages by the folder's test): a camera-like
# frame with a few words scattered over mottled, uneven ground, and a German page, read
# with --lang eng+deu (tesseract-ocr-deu).
mkdir -p ../text-other
cd ../text-other
convert -size 640x360 -seed 21 plasma:gray60-gray90 -colorspace Gray -blur 0x2 -fill gray10 \
    -font DejaVu-Sans -pointsize 30 -annotate +40+70 "garden river" \
    -font DejaVu-Serif -pointsize 26 -annotate +300+180 "silver bridge" \
    -font DejaVu-Sans-Mono -pointsize 32 -annotate +100+310 "morning" -quality 70 -strip frame.jpg
printf '%s\n' "garden river" "silver bridge" "morning" > frame.txt
render deu DejaVu-Sans 28 "Grüße aus München" "Die Straße ist schön"
