#!/usr/bin/env bash
# Usage: bench/coreutils/libc-compare.sh
#
# The measurements behind docs/real-programs.md's libc decision: musl 1.2.3 from Debian's
# source package built to bitcode (clang-19, -flto, its own -O1), then
#  1. per utility of build.sh's clang-19 bitcode: the functions left undefined when linked
#     (llvm-link --only-needed) with sear's runtime, and with musl;
#  2. paths and queries of six libc routines on an 8-byte symbolic string (libc-strfns.c)
#     with sear's runtime and with musl's bitcode linked first (--link-llvm-lib).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
cache=${SEAR_BENCH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/sear}
sear=${SEAR:-$root/target/release/sear}
work=$cache/libc-compare
mkdir -p "$work"
src=$("$here/debian-source.sh" musl=1.2.3-1 "$cache/sources")
if [ ! -f "$work/musl.bc" ]; then
    rm -rf "$work/musl" && cp -a "$src" "$work/musl"
    (cd "$work/musl" && ./configure CC=clang-19 CFLAGS="-flto -g -O1" --disable-shared >/dev/null &&
        make -j"$(nproc)" lib/libc.a >/dev/null 2>&1)
    find "$work/musl/obj" -name '*.lo' -o -name '*.o' | xargs file | grep 'LLVM IR bitcode' |
        cut -d: -f1 | xargs llvm-link-19 -o "$work/musl.bc"
fi
echo "musl bitcode: inline assembly sites by template" >&2
llvm-dis-19 "$work/musl.bc" -o - | grep -o 'asm sideeffect "[^"]*"\|asm "[^"]*"' | sort | uniq -c | sort -rn | head -8

bc=$cache/coreutils-9.1/clang-19/bc
rt=$(mktemp -d)
trap 'rm -rf "$rt"' EXIT
# sear's runtime bitcode as the last cargo build made it
sear_libc=$(ls -t "$root"/target/release/build/sear-runtime-*/out/sear-libc.bc | head -1)
sear_entry=$(dirname "$sear_libc")/sear-entry.bc
ignored='^(realloc|memset|memmove|memcpy|malloc|calloc|free|abort|_exit|aligned_alloc|memalign|posix_memalign|__assert_fail|klee_.*|__sear_.*)$'
for lib in sear musl; do
    clean=0 all=()
    for f in "$bc"/*.bc; do
        if [ $lib = sear ]; then
            llvm-link-19 "$f" "$sear_entry" -o "$rt/p.bc" 2>/dev/null
            llvm-link-19 --only-needed "$rt/p.bc" "$sear_libc" -o "$rt/l.bc" 2>/dev/null
        else
            llvm-link-19 --only-needed "$f" "$work/musl.bc" -o "$rt/l.bc" 2>/dev/null
        fi
        mapfile -t u < <(llvm-nm-19 --undefined-only "$rt/l.bc" | awk '{print $2}' | grep -vE "$ignored" || true)
        [ ${#u[@]} -eq 0 ] && clean=$((clean + 1))
        all+=("${u[@]}")
    done
    distinct=$(printf '%s\n' "${all[@]}" | grep -v '^$' | sort -u | wc -l)
    echo "$lib: $clean utilities link with nothing undefined; $distinct distinct undefined functions"
done
for fn in 1 2 3 4 5 6; do
    for lib in sear musl; do
        extra=()
        [ $lib = musl ] && extra=(--link-llvm-lib "$work/musl.bc")
        (cd "$rt" && rm -rf o && "$sear" run --no-progress --max-time 120 --output-dir o "${extra[@]}" \
            --cflags="-DFN=$fn" "$here/libc-strfns.c" >/dev/null 2>&1)
        python3 -c "import json,sys; d=json.load(open('$rt/o/summary.json')); print('FN=$fn $lib: %d paths, %d queries' % (d['completed_paths'], d['queries']))"
    done
done
