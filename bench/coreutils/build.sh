#!/usr/bin/env bash
# Usage: bench/coreutils/build.sh [CLANG]   (CLANG: clang-19, the default, or clang-16 for KLEE 3.2)
#
# Builds GNU coreutils 9.1 from Debian's source package into whole-program LLVM bitcode, one
# module per utility: `./configure && make` with wllvm (PyPI, installed into the project's
# virtualenv .venv) as the compiler, then `extract-bc` on every executable of src/.
#
#   $SEAR_BENCH_CACHE/coreutils-9.1/<CLANG>/build     the configured build tree
#   $SEAR_BENCH_CACHE/coreutils-9.1/<CLANG>/bc/U.bc   the bitcode of utility U
#   .../bc/U.llvm.manifest      its objects' bitcode files (extract-bc -m), which
#                               `sear coverage` compiles one by one for gcov
#   $SEAR_BENCH_CACHE/coreutils-9.1/<CLANG>/utilities the utilities that built, one a line
#
# SEAR_BENCH_CACHE defaults to ${XDG_CACHE_HOME:-~/.cache}/sear. Idempotent: a finished build is
# reused (remove its directory to rebuild); a configured tree is made and extracted again. The compile flags are KLEE's coreutils recipe at -O0:
# debug information, no optimisation (optnone off, so sear and KLEE may optimise), no
# fortified or inline string functions. No optional libraries (ACL, xattr, capabilities, SELinux,
# GMP: coreutils then uses its mini-gmp; OpenSSL); gnulib's own regex instead of glibc's.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
clang=${1:-clang-19}
ver=${clang#clang-}
cache=${SEAR_BENCH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/sear}
out=$cache/coreutils-9.1/$clang
command -v "$clang" >/dev/null || { echo "build.sh: $clang not found" >&2; exit 1; }
for tool in llvm-link llvm-ar; do
    command -v "$tool-$ver" >/dev/null || { echo "build.sh: $tool-$ver not found (install llvm-$ver)" >&2; exit 1; }
done

if [ -f "$out/utilities" ]; then
    echo "build.sh: $out already built ($(wc -l <"$out/utilities") utilities)" >&2
    exit 0
fi

src=$("$here/debian-source.sh" coreutils=9.1-1 "$cache/sources")
venv=$root/.venv
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/python" -c 'import wllvm' 2>/dev/null || "$venv/bin/python" -m pip install -q wllvm==1.3.1

export LLVM_COMPILER=clang LLVM_CC_NAME=$clang LLVM_CXX_NAME=clang++-$ver \
    LLVM_LINK_NAME=llvm-link-$ver LLVM_AR_NAME=llvm-ar-$ver
export WLLVM_OUTPUT_LEVEL=ERROR FORCE_UNSAFE_CONFIGURE=1
mkdir -p "$out/bc"
if [ ! -f "$out/build/config.status" ]; then
    rm -rf "$out/build"
    mkdir -p "$out/build"
    cd "$out/build"
    echo "build.sh: configuring coreutils with $clang (log: $out/configure.log)" >&2
    "$src/configure" CC="$venv/bin/wllvm" \
        CFLAGS="-g -O0 -Xclang -disable-O0-optnone -D__NO_STRING_INLINES -U_FORTIFY_SOURCE -D_FORTIFY_SOURCE=0" \
        --disable-nls --disable-acl --disable-xattr --disable-libcap --disable-libsmack \
        --without-selinux --without-libgmp --without-openssl --without-libintl-prefix \
        --with-included-regex \
        >"$out/configure.log" 2>&1 || { tail -20 "$out/configure.log" >&2; rm -f config.status; exit 1; }
fi
cd "$out/build"
echo "build.sh: make (log: $out/make.log)" >&2
make -j"$(nproc)" -k >"$out/make.log" 2>&1 || echo "build.sh: make reported errors; the utilities that built are used" >&2
: >"$out/utilities.tmp"
for exe in src/*; do
    [ -f "$exe" ] && [ -x "$exe" ] || continue
    case $exe in *.sh | *.pl | */dcgen | */make-prime-list) continue ;; esac
    file -b "$exe" | grep -q ELF || continue
    u=$(basename "$exe")
    if "$venv/bin/extract-bc" -m -o "$out/bc/$u.bc" "$exe" >>"$out/extract.log" 2>&1; then
        # extract-bc writes the manifest beside the executable
        mv "$exe.llvm.manifest" "$out/bc/$u.llvm.manifest"
        echo "$u" >>"$out/utilities.tmp"
    fi
done
sort "$out/utilities.tmp" >"$out/utilities" && rm "$out/utilities.tmp"
echo "build.sh: $(wc -l <"$out/utilities") utilities in $out/bc" >&2
