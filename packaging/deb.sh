#!/usr/bin/env bash
# Builds a .deb from a staged `make install PREFIX=/usr DESTDIR=ROOT`:
#   packaging/deb.sh ROOT VERSION MAINTAINER OUT.deb
# Depends comes from the libraries the binary links (dpkg-shlibdeps) and those it opens on
# first use, Recommends names Tesseract and the data it reads at run time (Tesseract's English
# data for scan --text, the sheets' font); the copyright and
# changelog go to /usr/share/doc/qrseal as Debian policy asks.
set -euo pipefail
root=$1 version=$2 maintainer=$3 out=$4
here=$(cd "$(dirname "$0")" && pwd)
arch=$(dpkg --print-architecture)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Debian ships binaries without symbols; the Swift metadata the program needs is kept.
strip --strip-unneeded --remove-section=.comment --remove-section=.note "$root/usr/bin/qrseal" \
    "$root/usr/lib/qrseal/qrseal-engine"

doc=$root/usr/share/doc/qrseal
install -d -m 0755 "$doc"
install -m 0644 "$here/copyright" "$doc/copyright"
date=$(date -R -d "@${SOURCE_DATE_EPOCH:-$(git -C "$here/.." log -1 --format=%ct 2>/dev/null || date +%s)}")
printf 'qrseal (%s) unstable; urgency=medium\n\n  * Built from the qrseal source tree (make deb).\n\n -- %s  %s\n' \
    "$version" "$maintainer" "$date" | gzip -9n > "$doc/changelog.Debian.gz"
chmod 0644 "$doc/changelog.Debian.gz"

# dpkg-shlibdeps reads debian/control for the package's name: a minimal one in a scratch tree.
mkdir -p "$work/debian"
printf 'Source: qrseal\n\nPackage: qrseal\nArchitecture: any\n' > "$work/debian/control"
bin=$(realpath "$root/usr/bin/qrseal")
engine=$(realpath "$root/usr/lib/qrseal/qrseal-engine")
depends=$(cd "$work" && dpkg-shlibdeps -O "$bin" "$engine" 2>/dev/null | sed -n 's/^shlibs:Depends=//p')
[ -n "$depends" ] || { echo "deb.sh: dpkg-shlibdeps found no dependencies" >&2; exit 1; }

# The libraries qrseal opens on first use (Sources/CLoader) are not in the binary's NEEDED
# list, so dpkg-shlibdeps cannot see them: each one's dependency comes from the shlibs file of
# the package that has it, as dpkg-shlibdeps would take it. zbar (scan), SQLite (the inbox),
# libcrypto (sealing, hashing), cairo (PDF sheets, GIF labels) and giflib (GIFs) are needed by
# everyday commands; Tesseract, with leptonica and its image libraries, only by scan --text,
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
for soname in libzbar.so.0 libsqlite3.so.0 libcrypto.so.3 libcairo.so.2 libgif.so.7; do
    depends="$depends, $(shlibs_dependency "$soname")"
done
recommends="$(shlibs_dependency libtesseract.so.5), tesseract-ocr-eng, fonts-dejavu-core"

size=$(du -sk --exclude=DEBIAN "$root" | cut -f1)
install -d -m 0755 "$root/DEBIAN"
cat > "$root/DEBIAN/control" <<CONTROL
Package: qrseal
Version: $version
Architecture: $arch
Maintainer: $maintainer
Installed-Size: $size
Depends: $depends
Recommends: $recommends
Section: utils
Priority: optional
Description: pass messages through QR codes
 qrseal writes text and files as QR codes, optionally sealed with
 authenticated encryption (a key, a passphrase or age recipients), reads
 QR codes and barcodes from images, YUV4MPEG2 streams and V4L2 cameras,
 opens sealed messages and keeps what it reads in a local SQLite inbox.
CONTROL
(cd "$root" && find usr -type f -exec md5sum {} + | sort -k2) > "$root/DEBIAN/md5sums"
chmod 0644 "$root/DEBIAN/md5sums"
find "$root" -type d -exec chmod 0755 {} +
mkdir -p "$(dirname "$out")"
fakeroot dpkg-deb --build --root-owner-group "$root" "$out" >/dev/null
echo "deb.sh: $out (Depends: $depends; Recommends: $recommends)"
