#!/usr/bin/env bash
# Usage: bench/libosip/build.sh [CLANG]   (CLANG: clang-19, the default)
#
# Builds libosip2's SIP parser (libosipparser2) from Debian's source package into one
# whole-library LLVM bitcode module: `./configure && make` with wllvm (PyPI, installed into
# the project's virtualenv .venv) as the compiler, then `extract-bc -b` on the static library.
#
#   $SEAR_BENCH_CACHE/libosip2-<V>/<CLANG>/build                the configured build tree
#   $SEAR_BENCH_CACHE/libosip2-<V>/<CLANG>/libosipparser2.bc    the library's bitcode
#   $SEAR_BENCH_CACHE/libosip2-<V>/<CLANG>/include              its public headers
#
# The package: LIBOSIP_DEBIAN (default `libosip2/trixie`, 5.3.1-1.1; see below), fetched with
# bench/coreutils/debian-source.sh. Debian 12 (bookworm) ships 5.3.0-2.1, but its orig tarball
# is not served by this workplace's Debian mirror (404); 5.3.1 differs from 5.3.0 only in the
# multipart-body fix of CVE-2022-41550 (its ChangeLog), not in the URI or Via parsers.
# LIBOSIP_DEBIAN=libosip2=5.3.0-2.1 builds Debian 12's version where the mirror has it.
#
# SEAR_BENCH_CACHE defaults to ${XDG_CACHE_HOME:-~/.cache}/sear. Idempotent: a finished build
# is reused (remove its directory to rebuild). Compile flags as for coreutils (KLEE's recipe at
# -O0): debug information, no optimisation (optnone off), no fortified string functions; no
# trace output, no threads (libosipparser2 needs neither), static library only.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
clang=${1:-clang-19}
ver=${clang#clang-}
pkg=${LIBOSIP_DEBIAN:-libosip2/trixie}
cache=${SEAR_BENCH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/sear}
command -v "$clang" >/dev/null || { echo "build.sh: $clang not found" >&2; exit 1; }
for tool in llvm-link llvm-ar; do
    command -v "$tool-$ver" >/dev/null || { echo "build.sh: $tool-$ver not found (install llvm-$ver)" >&2; exit 1; }
done

src=$("$root/bench/coreutils/debian-source.sh" "$pkg" "$cache/sources")
out=$cache/$(basename "$src")/$clang
if [ -f "$out/libosipparser2.bc" ]; then
    echo "build.sh: $out/libosipparser2.bc already built" >&2
    echo "$out"
    exit 0
fi
venv=$root/.venv
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/python" -c 'import wllvm' 2>/dev/null || "$venv/bin/python" -m pip install -q wllvm==1.3.1

export LLVM_COMPILER=clang LLVM_CC_NAME=$clang LLVM_CXX_NAME=clang++-$ver \
    LLVM_LINK_NAME=llvm-link-$ver LLVM_AR_NAME=llvm-ar-$ver
export WLLVM_OUTPUT_LEVEL=ERROR
mkdir -p "$out"
if [ ! -f "$out/build/config.status" ]; then
    rm -rf "$out/build"
    mkdir -p "$out/build"
    cd "$out/build"
    echo "build.sh: configuring $(basename "$src") with $clang (log: $out/configure.log)" >&2
    "$src/configure" CC="$venv/bin/wllvm" \
        CFLAGS="-g -O0 -Xclang -disable-O0-optnone -D__NO_STRING_INLINES -U_FORTIFY_SOURCE -D_FORTIFY_SOURCE=0" \
        --disable-shared --enable-static --disable-trace --disable-mt --disable-pthread \
        >"$out/configure.log" 2>&1 || { tail -20 "$out/configure.log" >&2; rm -f config.status; exit 1; }
fi
cd "$out/build/src/osipparser2"
echo "build.sh: make libosipparser2 (log: $out/make.log)" >&2
make -j"$(nproc)" >"$out/make.log" 2>&1 || { tail -20 "$out/make.log" >&2; exit 1; }
"$venv/bin/extract-bc" -b -o "$out/libosipparser2.bc" .libs/libosipparser2.a >"$out/extract.log" 2>&1 ||
    { cat "$out/extract.log" >&2; exit 1; }
rm -rf "$out/include"
cp -r "$src/include" "$out/include"
cp "$out/build/include/osip2/"*.h "$out/include/osip2/" 2>/dev/null || true
echo "build.sh: $out/libosipparser2.bc" >&2
echo "$out"
