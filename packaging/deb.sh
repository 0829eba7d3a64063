#!/usr/bin/env bash
# Builds the qrseal .deb from a staged `make install-cli PREFIX=/usr DESTDIR=ROOT`:
#   packaging/deb.sh ROOT VERSION MAINTAINER OUT.deb
# Depends comes from the libraries the binary links (dpkg-shlibdeps) and those it opens on
# first use, Recommends names Tesseract and the data it reads at run time (Tesseract's English
# data for scan --text, the sheets' font); the copyright and
# changelog go to /usr/share/doc/qrseal as Debian policy asks.
set -euo pipefail
root=$1 version=$2 maintainer=$3 out=$4
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=packaging/deb-common.sh
. "$here/deb-common.sh"

deb_strip "$root/usr/bin/qrseal" "$root/usr/lib/qrseal/qrseal-engine"
deb_docs "$root" qrseal "$version" "$maintainer"
depends=$(deb_shlibdeps qrseal "$(realpath "$root/usr/bin/qrseal")" "$(realpath "$root/usr/lib/qrseal/qrseal-engine")")
# The desktop app is a package of its own (packaging/desktop/deb.sh): the CLI never pulls GTK.
case $depends in
    *libgtk*|*libadwaita*) echo "deb.sh: qrseal would depend on GTK: $depends" >&2; exit 1 ;;
esac

# The libraries qrseal opens on first use (Sources/CLoader) are not in the binary's NEEDED
# list, so dpkg-shlibdeps cannot see them: each one's dependency comes from the shlibs file of
# the package that has it, as dpkg-shlibdeps would take it. zbar (scan), SQLite (the inbox),
# libcrypto (sealing, hashing), cairo (PDF sheets, GIF labels, drawing PDF and SVG files to
# read), giflib (GIFs), libtiff, libwebp, poppler's GLib interface and librsvg (reading TIFF,
# WebP, PDF and SVG files) are needed by everyday commands; Tesseract, with leptonica and its image libraries, only by scan --text,
# so it is recommended.
shlibs_dependency() {
    local soname=$1 path package name version line
    path=$(ldconfig -p | awk -v s="$soname" '$1 == s { print $NF; exit }')
    [ -n "$path" ] || { echo "deb.sh: $soname is not installed" >&2; exit 1; }
    package=$(dpkg -S "$(realpath "$path")" | head -1 | sed 's/: .*//')
    name=${soname%%.so.*} version=${soname##*.so.}
    line=$(awk -v n="$name" -v v="$version" '$1 == n && $2 == v { $1 = ""; $2 = ""; print; exit }' \
        "/var/lib/dpkg/info/$package.shlibs" 2>/dev/null | sed 's/^ *//')
    [ -n "$line" ] || { echo "deb.sh: no shlibs entry for $soname in $package" >&2; exit 1; }
    echo "$line"
}
for soname in libzbar.so.0 libsqlite3.so.0 libcrypto.so.3 libcairo.so.2 libgif.so.7 libtiff.so.6 libwebp.so.7 \
    libpoppler-glib.so.8 librsvg-2.so.2 libgobject-2.0.so.0; do
    depends="$depends, $(shlibs_dependency "$soname")"
done
recommends="$(shlibs_dependency libtesseract.so.5), tesseract-ocr-eng, fonts-dejavu-core"

deb_control "$root" qrseal "$version" "$maintainer" "$depends" "$recommends" <<'CONTROL'
Description: pass messages through QR codes
 qrseal writes text and files as QR codes, optionally sealed with
 authenticated encryption (a key, a passphrase or age recipients), reads
 QR codes and barcodes from images, YUV4MPEG2 streams and V4L2 cameras,
 opens sealed messages and keeps what it reads in a local SQLite inbox.
CONTROL
deb_build "$root" "$out"
echo "deb.sh: $out (Depends: $depends; Recommends: $recommends)"
