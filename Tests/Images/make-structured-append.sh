#!/bin/bash
# Remakes Tests/Images/structured-append/: QR Structured Append sequences written by zint and
# qrencode (qrseal does not write them), and one image holding a whole sequence side by side.
# The parity byte is the XOR of every byte of the whole message (ISO/IEC 18004); zint writes
# 0 unless given it, so it is given here.
#   note-1-of-3 … note-3-of-3  "Structured Append " "joins these " "three codes." (parity 1F)
#   pair-1-of-2, pair-2-of-2   "second " "sequence" (parity 2F)
#   all-in-one                 the three note codes in one image, in the order 3, 1, 2
#   gate-a-1-of-3 … 3-of-3     two messages by qrencode -S with the same count and parity (3F),
#   gate-b-1-of-3 … 3-of-3     whose first symbols differ in parity: mixing them must not join
#
#   Tests/Images/make-structured-append.sh
set -euo pipefail
out="$(cd "$(dirname "$0")" && pwd)/structured-append"
mkdir -p "$out"
texts=("Structured Append " "joins these " "three codes.")
for i in 1 2 3; do
    zint --barcode=58 --structapp=$i,3,31 --scale=3 -d "${texts[$((i - 1))]}" -o "$out/note-$i-of-3.png"
done
zint --barcode=58 --structapp=1,2,47 --scale=3 -d "second " -o "$out/pair-1-of-2.png"
zint --barcode=58 --structapp=2,2,47 --scale=3 -d "sequence" -o "$out/pair-2-of-2.png"
convert "$out/note-3-of-3.png" "$out/note-1-of-3.png" "$out/note-2-of-3.png" -bordercolor white -border 20 +append "$out/all-in-one.png"
gate() {
    local tmp
    tmp="$(mktemp -d)"
    qrencode -S -8 -v 2 -l L -o "$tmp/g.png" "$2"
    for i in 1 2 3; do mv "$tmp/g-0$i.png" "$out/gate-$1-$i-of-3.png"; done
    rmdir "$tmp"
}
gate a "Meet at the north gate at 0900. Bring the red folder and the money."
gate b "Meet at the south gate at 0930. Bring the blue folder and the keys."
# latin1-1-of-3 … 3-of-3: a message in ISO-8859-1 bytes, without ECI, by qrencode -S: its
# joined text must read as Latin-1, as a single code's would.
tmp="$(mktemp -d)"
qrencode -S -8 -v 1 -l L -o "$tmp/l.png" "$(printf 'Gr\xfc\xdfe aus K\xf6ln, sch\xf6ne Gr\xfc\xdfe an alle.')"
for i in 1 2 3; do mv "$tmp/l-0$i.png" "$out/latin1-$i-of-3.png"; done
rmdir "$tmp"
