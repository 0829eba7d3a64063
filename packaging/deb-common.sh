# Shared by packaging/deb.sh (qrseal) and packaging/desktop/deb.sh (qrseal-desktop), sourced
# after `set -euo pipefail`: $arch, and $work, a scratch folder removed on exit.
arch=$(dpkg --print-architecture)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Strips binaries as Debian ships them; the Swift metadata the programs need is kept.
deb_strip() {
    strip --strip-unneeded --remove-section=.comment --remove-section=.note "$@"
}

# The copyright and changelog in /usr/share/doc/PACKAGE, as Debian policy asks:
#   deb_docs ROOT PACKAGE VERSION MAINTAINER
deb_docs() {
    local root=$1 package=$2 version=$3 maintainer=$4 here date doc
    here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
    doc=$root/usr/share/doc/$package
    install -d -m 0755 "$doc"
    install -m 0644 "$here/copyright" "$doc/copyright"
    date=$(date -R -d "@${SOURCE_DATE_EPOCH:-$(git -C "$here/.." log -1 --format=%ct 2>/dev/null || date +%s)}")
    printf '%s (%s) unstable; urgency=medium\n\n  * Built from the qrseal source tree (make deb).\n\n -- %s  %s\n' \
        "$package" "$version" "$maintainer" "$date" | gzip -9n > "$doc/changelog.Debian.gz"
    chmod 0644 "$doc/changelog.Debian.gz"
}

# The Depends of the libraries the binaries link, from dpkg-shlibdeps (which reads
# debian/control for the package's name: a minimal one in a scratch tree):
#   deb_shlibdeps PACKAGE BINARY…
deb_shlibdeps() {
    local package=$1 depends
    shift
    rm -rf "$work/debian"
    mkdir -p "$work/debian"
    printf 'Source: qrseal\n\nPackage: %s\nArchitecture: any\n' "$package" > "$work/debian/control"
    depends=$(cd "$work" && dpkg-shlibdeps -O "$@" 2>/dev/null | sed -n 's/^shlibs:Depends=//p')
    [ -n "$depends" ] || { echo "deb.sh: dpkg-shlibdeps found no dependencies of $package" >&2; exit 1; }
    echo "$depends"
}

# Writes DEBIAN/control: the fields, then the Description field read from standard input:
#   deb_control ROOT PACKAGE VERSION MAINTAINER DEPENDS RECOMMENDS <<'TEXT' ...
deb_control() {
    local root=$1 package=$2 version=$3 maintainer=$4 depends=$5 recommends=$6 size
    size=$(du -sk --exclude=DEBIAN "$root" | cut -f1)
    install -d -m 0755 "$root/DEBIAN"
    {
        printf 'Package: %s\nVersion: %s\nArchitecture: %s\nMaintainer: %s\nInstalled-Size: %s\n' \
            "$package" "$version" "$arch" "$maintainer" "$size"
        printf 'Depends: %s\nRecommends: %s\nSection: utils\nPriority: optional\n' "$depends" "$recommends"
        cat
    } > "$root/DEBIAN/control"
}

# Writes the md5sums, fixes folder modes and builds the package (the control file written):
#   deb_build ROOT OUT.deb
deb_build() {
    local root=$1 out=$2
    (cd "$root" && find usr -type f -exec md5sum {} + | sort -k2) > "$root/DEBIAN/md5sums"
    chmod 0644 "$root/DEBIAN/md5sums"
    find "$root" -type d -exec chmod 0755 {} +
    mkdir -p "$(dirname "$out")"
    fakeroot dpkg-deb --build --root-owner-group "$root" "$out" >/dev/null
}
