#!/usr/bin/env bash
# Builds the qrseal-desktop .deb from a staged `make install-desktop PREFIX=/usr DESTDIR=ROOT`:
#   packaging/desktop/deb.sh ROOT VERSION MAINTAINER OUT.deb
# A package of its own, so that the qrseal package never pulls GTK: Depends names qrseal of the
# same version (the app runs its helper, /usr/lib/qrseal/qrseal-engine, and opens the libraries
# qrseal's package names, zbar, SQLite, libcrypto, cairo and giflib, on first use as the
# command does) and the libraries the app links, GTK 4 and libadwaita among them, from
# dpkg-shlibdeps.
set -euo pipefail
root=$1 version=$2 maintainer=$3 out=$4
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=packaging/deb-common.sh
. "$here/../deb-common.sh"

deb_strip "$root/usr/bin/qrseal-desktop"
deb_docs "$root" qrseal-desktop "$version" "$maintainer"
depends="qrseal (= $version), $(deb_shlibdeps qrseal-desktop "$(realpath "$root/usr/bin/qrseal-desktop")")"
case $depends in
    *libgtk-4*) ;;
    *) echo "deb.sh: qrseal-desktop does not link GTK 4? Depends: $depends" >&2; exit 1 ;;
esac
# Text on the scan page needs what scan --text needs; qrseal recommends Tesseract itself.
recommends="tesseract-ocr-eng, fonts-dejavu-core"

deb_control "$root" qrseal-desktop "$version" "$maintainer" "$depends" "$recommends" <<'CONTROL'
Description: pass messages through QR codes - desktop app
 qrseal-desktop is the GTK 4 and libadwaita app of qrseal: a live scanner
 view of a webcam or a YUV4MPEG2 stream that outlines the codes and text it
 reads, an inbox of everything read, a composer that writes text or files as
 QR codes (sealed with a passphrase, a key or age recipients) and the
 keyring. It shares its inbox, keyring and configuration with the qrseal
 command.
CONTROL
deb_build "$root" "$out"
echo "deb.sh: $out (Depends: $depends; Recommends: $recommends)"
