#!/usr/bin/env bash
# qrseal demo: encode a note, a UTF-8 text, a binary file, an SVG and a terminal
# code, read them all back with qrseal, and cross-check with zbarimg and ZXingReader.
#
# usage: demo/run.sh PATH/TO/qrseal        (or: make demo)
# Everything is written to demo/out/. Exit status 0 only if every check passed.
set -euo pipefail

if [ $# -ne 1 ]; then
  echo "usage: $0 PATH/TO/qrseal" >&2
  exit 64
fi
QRSEAL=$1
case $QRSEAL in /*) ;; *) QRSEAL=$PWD/$QRSEAL ;; esac
if [ ! -x "$QRSEAL" ]; then
  echo "demo: no qrseal binary at $1 (build it with 'make build')" >&2
  exit 2
fi

DEMO_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
OUT=$DEMO_DIR/out
rm -rf "$OUT"
mkdir -p "$OUT"
cd "$OUT"  # file names below are relative to demo/out
# The demo keeps what it reads in its own inbox and keyring, never in the user's, and reads
# no configuration of theirs.
export QRSEAL_INBOX="$OUT/inbox.sqlite"
export XDG_DATA_HOME="$OUT/data" XDG_CONFIG_HOME="$OUT/config"

trap 'echo "demo: stopped: line $LINENO: $BASH_COMMAND failed" >&2' ERR

PASSED=0
FAILED=0
FAILURES=()
pass() { PASSED=$((PASSED + 1)); echo "   ok    $*"; }
fail() { FAILED=$((FAILED + 1)); FAILURES+=("$*"); echo "   FAIL  $*"; }
step() { echo; echo "== $* =="; }
show() { echo "   \$ $*"; }  # print a command the way a user would type it
have() { command -v "$1" >/dev/null 2>&1; }

# Width x height of a PNG, from its IHDR chunk.
png_size() {
  local w h
  read -r w h < <(od -An -tu4 --endian=big -j16 -N8 "$1")
  echo "${w}x${h} px"
}
bytes_of() { wc -c < "$1" | tr -d ' '; }

# The payload qrseal reports for SOURCE in a `qrseal scan --json` output FILE,
# decoded from bytes_base64. Fails if there is none.
payload_from_json() {  # JSONL-FILE SOURCE OUT-FILE
  local line b64
  local name=${2//./\\.}
  line=$(grep -E "\"source\"[[:space:]]*:[[:space:]]*\"$name\"" "$1" | head -n 1) || return 1
  b64=$(printf '%s\n' "$line" |
        sed -n 's/.*"bytes_base64"[[:space:]]*:[[:space:]]*"\([A-Za-z0-9+/=]*\)".*/\1/p')
  [ -n "$b64" ] || return 1
  printf '%s' "$b64" | base64 -d > "$3"
}

# Compare what a reader produced with the original, byte for byte.
check_same() {  # WHAT EXPECTED-FILE GOT-FILE
  if cmp -s "$2" "$3"; then
    pass "$1: $(bytes_of "$2") bytes, identical"
  else
    fail "$1: payload differs from $2 (got $(bytes_of "$3") bytes, see $3)"
  fi
}

echo "qrseal demo"
echo "   binary:  $QRSEAL ($("$QRSEAL" --version 2>/dev/null || echo 'version unknown'))"
echo "   output:  $OUT"

# -------------------------------------------------------------------- encoding
step "1. A text note -> note.png"
NOTE='Lunch moved to 12:30, room 4B. Bring the signed forms!'
printf '%s' "$NOTE" > note.txt
show "qrseal encode '$NOTE' -o note.png"
"$QRSEAL" encode "$NOTE" -o note.png
echo "   wrote note.png: $(png_size note.png), $(bytes_of note.png) bytes"

step "2. UTF-8 text with non-ASCII characters, from standard input -> utf8.png (EC level Q)"
printf '%s' 'Grüße aus Zürich! Ça va? Ελληνικά, русский, 日本語で「こんにちは」 🙂✓' > utf8.txt
show "qrseal encode --ec Q -o utf8.png < utf8.txt"
"$QRSEAL" encode --ec Q -o utf8.png < utf8.txt
echo "   text:  $(cat utf8.txt)"
echo "   wrote utf8.png: $(png_size utf8.png), $(bytes_of utf8.png) bytes ($(bytes_of utf8.txt) UTF-8 bytes encoded)"

step "3. A binary file -> file.png"
head -c 1000 /dev/urandom > file.bin
show "head -c 1000 /dev/urandom > file.bin"
show "qrseal encode -i file.bin -o file.png"
"$QRSEAL" encode -i file.bin -o file.png
echo "   wrote file.png: $(png_size file.png), $(bytes_of file.png) bytes"

step "4. A link as SVG -> link.svg"
LINK='https://example.org/qrseal/demo?from=svg'
printf '%s' "$LINK" > link.txt
show "qrseal encode '$LINK' --format svg --scale 10 -o link.svg"
"$QRSEAL" encode "$LINK" --format svg --scale 10 -o link.svg
echo "   wrote link.svg: $(bytes_of link.svg) bytes"
if grep -q '<svg' link.svg && grep -q '</svg>' link.svg; then
  pass "link.svg is an SVG document"
else
  fail "link.svg does not look like an SVG document"
fi

step "5. A small code printed in the terminal"
show "qrseal encode 'hello from qrseal' --format terminal --margin 2 -o -"
"$QRSEAL" encode 'hello from qrseal' --format terminal --margin 2 -o - > terminal.txt
sed 's/^/   /' terminal.txt
if [ -s terminal.txt ] && grep -q '[█▀▄]' terminal.txt; then
  pass "terminal code printed ($(wc -l < terminal.txt | tr -d ' ') lines)"
else
  fail "terminal output is empty or has no block characters"
fi

step "5b. A printable sheet of file.bin -> file.pdf, read back from a 300 dpi page"
show "qrseal encode -i file.bin -o file.pdf"
"$QRSEAL" encode -i file.bin -o file.pdf
echo "   wrote file.pdf: $(bytes_of file.pdf) bytes"
if have pdftoppm; then
  show "pdftoppm -r 300 -png file.pdf sheet && qrseal scan --json --no-store sheet-1.png"
  pdftoppm -r 300 -png file.pdf sheet
  "$QRSEAL" scan --json --no-store sheet-1.png > sheet.jsonl || true
  if payload_from_json sheet.jsonl sheet-1.png sheet.got; then
    check_same "the sheet's code, rasterized at 300 dpi" file.bin sheet.got
  else
    fail "no code read from the sheet's page (sheet-1.png)"
  fi
else
  fail "pdftoppm (poppler-utils) is not installed: run make setup"
fi

# -------------------------------------------------------------------- reading back
# The SVG is drawn into an image first with rsvg-convert (librsvg2-bin, installed by make setup).
SVG_IMAGE=
if have rsvg-convert; then
  rsvg-convert -b white -o link-svg.png link.svg && SVG_IMAGE=link-svg.png
fi

IMAGES=(note.png utf8.png file.png)
EXPECT=(note.txt utf8.txt file.bin)
if [ -n "$SVG_IMAGE" ]; then
  IMAGES+=("$SVG_IMAGE")
  EXPECT+=(link.txt)
fi

step "6. Read everything back with qrseal, in one process"
show "qrseal scan --json ${IMAGES[*]}"
rc=0
"$QRSEAL" scan --json "${IMAGES[@]}" > scan.jsonl || rc=$?
echo "   exit status $rc, $(wc -l < scan.jsonl | tr -d ' ') symbol(s) reported"
if [ "$rc" -eq 0 ]; then pass "qrseal scan exit status 0"; else fail "qrseal scan exit status $rc"; fi
for i in "${!IMAGES[@]}"; do
  img=${IMAGES[$i]}
  if payload_from_json scan.jsonl "$img" "$img.qrseal"; then
    check_same "qrseal  $img" "${EXPECT[$i]}" "$img.qrseal"
  else
    fail "qrseal  $img: nothing read"
  fi
done
if [ -z "$SVG_IMAGE" ]; then
  echo "   (link.svg not read back: rsvg-convert is not installed; run make setup)"
fi

step "7. The note as plain text"
show "qrseal scan --raw note.png"
if "$QRSEAL" scan --raw note.png > note.raw; then
  sed 's/^/   /' note.raw
  printf '%s\n' "$NOTE" > note.expected-raw
  check_same "qrseal --raw note.png (text and a newline)" note.expected-raw note.raw
else
  fail "qrseal scan --raw note.png failed"
fi

step "8. Cross-check with other readers"
if have zbarimg; then
  for i in "${!IMAGES[@]}"; do
    img=${IMAGES[$i]}
    # QR codes only: zbar's linear decoders now and then find a DataBar in a dense code's modules.
    if zbarimg --raw -q -Sdisable -Sqrcode.enable -Sbinary "$img" > "$img.zbar" 2> "$img.zbar.err"; then
      check_same "zbarimg $img" "${EXPECT[$i]}" "$img.zbar"
    else
      fail "zbarimg $img: nothing read"
    fi
  done
else
  echo "   (zbarimg not installed: skipped)"
fi
if have ZXingReader; then
  for i in "${!IMAGES[@]}"; do
    img=${IMAGES[$i]}
    if ZXingReader -bytes "$img" > "$img.zxing" 2> "$img.zxing.err" && [ -s "$img.zxing" ]; then
      check_same "ZXing   $img" "${EXPECT[$i]}" "$img.zxing"
    else
      fail "ZXing   $img: nothing read"
    fi
  done
else
  echo "   (ZXingReader not installed: skipped)"
fi

step "9. A sealed note: only the key holder can read it"
rm -f demo.key
show "qrseal keygen -o demo.key"
"$QRSEAL" keygen -o demo.key 2>/dev/null
if [ "$(stat -c %a demo.key)" = 600 ]; then pass "key file created with mode 0600"; else fail "key file mode is not 0600"; fi
SECRET='The spare key is under the third flowerpot.'
show "qrseal encode --key-file demo.key -o sealed.png '$SECRET'"
"$QRSEAL" encode --key-file demo.key -o sealed.png "$SECRET"
show "qrseal scan sealed.png            # without the key"
"$QRSEAL" scan sealed.png 2>/dev/null | sed 's/^/   /'
if "$QRSEAL" scan --raw sealed.png 2>/dev/null | grep -q flowerpot; then
  fail "the sealed note was readable without the key"
else
  pass "without the key the note stays sealed"
fi
show "qrseal scan --key-file demo.key sealed.png"
"$QRSEAL" scan --key-file demo.key sealed.png | sed 's/^/   /'
printf '%s\n' "$SECRET" > sealed.expected
"$QRSEAL" scan --raw --key-file demo.key sealed.png > sealed.opened
check_same "qrseal opens the sealed note" sealed.expected sealed.opened
if have zbarimg; then
  show "zbarimg --raw sealed.png | qrseal open --key-file demo.key -   # the text a phone shows"
  zbarimg --raw -q --nodbus -Sdisable -Sqrcode.enable sealed.png > sealed.phone.txt
  echo "   $(head -c 60 sealed.phone.txt)..."
  "$QRSEAL" open --key-file demo.key - < sealed.phone.txt > sealed.fromtext
  printf '%s' "$SECRET" > sealed.expected-text
  check_same "qrseal open on zbarimg's text" sealed.expected-text sealed.fromtext
fi

step "10. The inbox: everything read above was kept"
show "qrseal inbox list"
"$QRSEAL" inbox list | sed 's/^/   /'
show "qrseal inbox list --kind sealed"
"$QRSEAL" inbox list --kind sealed | sed 's/^/   /'
if "$QRSEAL" inbox export | grep -q flowerpot; then
  fail "the inbox holds the sealed note's plaintext"
else
  pass "the sealed note is kept sealed in the inbox"
fi
SEALED_ID=$("$QRSEAL" inbox list --kind sealed --limit 1 --json | sed 's/^{"id":\([0-9]*\),.*/\1/')
show "qrseal inbox open --key-file demo.key $SEALED_ID"
"$QRSEAL" inbox open --key-file demo.key "$SEALED_ID" > inbox.opened
printf '%s' "$SECRET" > inbox.expected
check_same "qrseal inbox open" inbox.expected inbox.opened

# -------------------------------------------------------------------- summary
trap - ERR
echo
TOTAL=$((PASSED + FAILED))
if [ "$FAILED" -eq 0 ]; then
  echo "demo: all $TOTAL checks passed (files in $OUT)"
else
  echo "demo: $FAILED of $TOTAL checks FAILED:"
  for f in "${FAILURES[@]}"; do echo "   - $f"; done
  exit 1
fi
