#!/usr/bin/env bash
# Builds the Bitwuzla library that sear's Bitwuzla core links, once per machine.
#
# The source is the copy of Bitwuzla inside the `bitwuzla-sys` crate (crates.io; cargo fetches
# it for the version in Cargo.lock). Bitwuzla's own build (meson) is used, against Debian's
# packages instead of its download wraps: GMP (libgmp-dev 6.2.1), CaDiCaL (libcadical-dev
# 1.5.3) and SymFPU (libsymfpu-dev). Two adjustments, both on a scratch copy of the source:
#   - the GMP version check asks for >= 6.3 since Bitwuzla added a GMP-subproject fallback
#     (2025); Bitwuzla's install guide asks for >= 6.1 and it uses no 6.3 function, so the
#     check is relaxed to >= 6.1;
#   - Debian's SymFPU has no pkg-config file, so a one-line `symfpu.pc` (headers in the
#     default include path) is given to meson.
# `--wrap-mode=nodownload` makes sure nothing is downloaded.
#
# Result: static libraries, headers and the `bitwuzla` command in PREFIX, by default
# ${XDG_CACHE_HOME:-~/.cache}/sear/bitwuzla-VERSION-rRECIPE (SEAR_BITWUZLA_DIR overrides it;
# crates/sear-solver/build.rs looks in the same place). Idempotent: a complete PREFIX is
# kept. About 3 minutes on two cores (docs/benchmarks.md, "How Bitwuzla is built").
set -euo pipefail
cd "$(dirname "$0")/.."

version=0.8.0 # the bitwuzla-sys version in Cargo.lock (build.rs checks that they agree)
recipe=1      # bump when this script builds differently (build.rs uses the same number)
cache="${XDG_CACHE_HOME:-$HOME/.cache}/sear"
prefix="${SEAR_BITWUZLA_DIR:-$cache/bitwuzla-$version-r$recipe}"
if [ -f "$prefix/.complete" ]; then
    exit 0
fi

for tool in meson ninja pkg-config c++ python3; do
    command -v "$tool" >/dev/null || { echo "build-bitwuzla: $tool not found (scripts/setup.sh installs it)" >&2; exit 1; }
done

# The crate's source directory, as cargo resolved it (downloads it when missing).
manifest=$(cargo metadata --format-version 1 --locked \
    --filter-platform "$(rustc -vV | sed -n "s/^host: //p")" | python3 -c '
import json, sys
want = sys.argv[1]
for p in json.load(sys.stdin)["packages"]:
    if p["name"] == "bitwuzla-sys" and p["version"] == want:
        print(p["manifest_path"])
' "$version")
if [ -z "$manifest" ]; then
    echo "build-bitwuzla: bitwuzla-sys $version is not in Cargo.lock" >&2
    exit 1
fi
source_dir="$(dirname "$manifest")/bitwuzla"

mkdir -p "$(dirname "$prefix")"
# One build at a time per prefix (several worktrees may run setup at once).
exec 9>"$prefix.lock"
flock 9
if [ -f "$prefix/.complete" ]; then
    exit 0
fi

work=$(mktemp -d "$(dirname "$prefix")/bitwuzla-build.XXXXXX")
trap 'rm -rf "$work"' EXIT
echo "build-bitwuzla: building Bitwuzla $version into $prefix (a few minutes, once)" >&2
cp -r "$source_dir" "$work/src"
chmod -R u+w "$work/src"

gmp_check="version: '>=6.3'"
grep -q "$gmp_check" "$work/src/src/meson.build" || {
    echo "build-bitwuzla: Bitwuzla's GMP check changed; revisit this script" >&2
    exit 1
}
sed -i "s/$gmp_check/version: '>=6.1'/" "$work/src/src/meson.build"

mkdir -p "$work/pkgconfig"
printf 'Name: symfpu\nDescription: SymFPU headers (Debian libsymfpu-dev)\nVersion: 0\nCflags:\n' \
    >"$work/pkgconfig/symfpu.pc"

(
    cd "$work/src"
    PKG_CONFIG_PATH="$work/pkgconfig" meson setup build \
        --prefix="$work/prefix" --libdir=lib --buildtype=release \
        -Ddefault_library=static --wrap-mode=nodownload \
        -Dtesting=disabled -Dunit_testing=disabled -Ddocs=false -Dpython=false >"$work/setup.log" ||
        { cat "$work/setup.log" >&2; exit 1; }
    meson compile -C build >"$work/compile.log" 2>&1 || { tail -50 "$work/compile.log" >&2; exit 1; }
    meson install -C build >"$work/install.log" || { cat "$work/install.log" >&2; exit 1; }
)
touch "$work/prefix/.complete"
rm -rf "$prefix"
mv "$work/prefix" "$prefix"
echo "build-bitwuzla: done" >&2
