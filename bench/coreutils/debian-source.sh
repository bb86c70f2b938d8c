#!/usr/bin/env bash
# Usage: bench/coreutils/debian-source.sh PACKAGE[=VERSION|/SUITE] DEST_DIR
# Fetches a Debian source package with `apt-get source` into DEST_DIR (unpacked, patches
# applied) and prints the unpacked directory. Adds a deb-src entry to apt's sources first when
# there is none: the same URIs, suites, components and keyring as the existing `deb` entries of
# /etc/apt/sources.list.d/debian.sources. PACKAGE/SUITE takes the package from another suite
# (e.g. libosip2/trixie): a deb-src entry for SUITE alone (the main archive's URI, component
# and keyring) is added when apt has none; only sources come from it, never binaries.
# Idempotent: an already unpacked package is reused.
# Needs root or sudo the first time (apt's sources, `apt-get update`, dpkg-dev).
set -euo pipefail
pkg=${1:?usage: debian-source.sh PACKAGE[=VERSION] DEST_DIR}
dest=${2:?usage: debian-source.sh PACKAGE[=VERSION] DEST_DIR}
name=${pkg%%[=/]*}
suite=""
case $pkg in */*) suite=${pkg#*/} ;; esac
if [ "$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi

mkdir -p "$dest"
existing=$(find "$dest" -maxdepth 1 -mindepth 1 -type d -name "$name-*" | sort | tail -1)
if [ -n "$existing" ] && [ -f "$existing/debian/control" ]; then
    echo "$existing"
    exit 0
fi

if ! grep -rqsE '^(Types:.*deb-src|deb-src )' /etc/apt/sources.list /etc/apt/sources.list.d/; then
    src=/etc/apt/sources.list.d/debian.sources
    [ -f "$src" ] || { echo "debian-source: no $src to derive a deb-src entry from" >&2; exit 1; }
    echo "debian-source: adding deb-src entries (from $src) to /etc/apt/sources.list.d/sear-deb-src.sources" >&2
    sed -e 's/^Types:[[:space:]]*deb[[:space:]]*$/Types: deb-src/' "$src" |
        $sudo tee /etc/apt/sources.list.d/sear-deb-src.sources >/dev/null
    $sudo apt-get update -qq
fi
if [ -n "$suite" ] && ! grep -rqsE "^Suites:.*[[:space:]]$suite([[:space:]]|\$)" /etc/apt/sources.list.d/*.sources; then
    src=/etc/apt/sources.list.d/debian.sources
    list=/etc/apt/sources.list.d/sear-deb-src-$suite.sources
    uri=$(sed -n 's/^URIs:[[:space:]]*//p' "$src" | head -1)
    keyring=$(sed -n 's/^Signed-By:[[:space:]]*//p' "$src" | head -1)
    echo "debian-source: adding a deb-src entry for $suite ($uri) to $list" >&2
    printf 'Types: deb-src\nURIs: %s\nSuites: %s\nComponents: main\nSigned-By: %s\n' \
        "$uri" "$suite" "$keyring" | $sudo tee "$list" >/dev/null
    $sudo apt-get update -qq
fi
command -v dpkg-source >/dev/null || {
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq dpkg-dev >/dev/null
}
(cd "$dest" && apt-get source -qq "$pkg" >&2)
found=$(find "$dest" -maxdepth 1 -mindepth 1 -type d -name "$name-*" | sort | tail -1)
[ -n "$found" ] || { echo "debian-source: apt-get source $pkg unpacked nothing in $dest" >&2; exit 1; }
echo "$found"
