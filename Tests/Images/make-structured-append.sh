#!/bin/bash
# Remakes Tests/Images/structured-append/: QR Structured Append sequences written by zint
# (qrseal does not write them), and one image holding a whole sequence side by side.
#   note-1-of-3 … note-3-of-3  "Structured Append " "joins these " "three codes." (parity 42)
#   pair-1-of-2, pair-2-of-2   "second " "sequence" (zint's default parity, 0)
#   all-in-one                 the three note codes in one image, in the order 3, 1, 2
#
#   Tests/Images/make-structured-append.sh
set -euo pipefail
out="$(cd "$(dirname "$0")" && pwd)/structured-append"
mkdir -p "$out"
texts=("Structured Append " "joins these " "three codes.")
for i in 1 2 3; do
    zint --barcode=58 --structapp=$i,3,42 --scale=3 -d "${texts[$((i - 1))]}" -o "$out/note-$i-of-3.png"
done
zint --barcode=58 --structapp=1,2 --scale=3 -d "second " -o "$out/pair-1-of-2.png"
zint --barcode=58 --structapp=2,2 --scale=3 -d "sequence" -o "$out/pair-2-of-2.png"
convert "$out/note-3-of-3.png" "$out/note-1-of-3.png" "$out/note-2-of-3.png" -bordercolor white -border 20 +append "$out/all-in-one.png"
