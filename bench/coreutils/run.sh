#!/usr/bin/env bash
# Usage: bench/coreutils/run.sh [--tool sear|klee] [--budget SECS] [--limit SECS] [--out DIR] [UTILITY...]
#
# Runs sear (or KLEE 3.2) on coreutils utilities with KLEE's OSDI'08 command line
#   --sym-args 0 1 10 --sym-args 0 2 2 --sym-files 1 8 --sym-stdin 8 --sym-stdout
# for SECS seconds of wall-clock time each (default 60), one after the other, into
# DIR/<tool>/<utility> (default DIR: $SEAR_BENCH_CACHE/coreutils-9.1/runs). Utilities default
# to bench/coreutils/utilities.txt. The program's environment is bench/coreutils/env.txt
# (--env-file for both tools), so runs and replays see the same one.
#
# sear runs the clang-19 bitcode of build.sh, KLEE the clang-16 one (`build.sh clang-16`)
# with its uclibc and POSIX runtime (`--libc=uclibc --posix-runtime`), the searcher and
# everything else at their defaults. KLEE comes from $KLEE_ROOT (default ~/klee), built by
# /work/shared/tools/klee/build-klee.sh. Then measure with coverage.sh.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
cache=${SEAR_BENCH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/sear}
tool=sear budget=60 out=$cache/coreutils-9.1/runs limit=
while [ $# -gt 0 ]; do
    case $1 in
    --tool) tool=$2; shift 2 ;;
    --budget) budget=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --limit) limit=$2; shift 2 ;;
    -*) echo "run.sh: unknown option $1" >&2; exit 2 ;;
    *) break ;;
    esac
done
utilities=("$@")
[ ${#utilities[@]} -gt 0 ] || mapfile -t utilities < <(grep -v '^#' "$here/utilities.txt")
model=(--sym-args 0 1 10 --sym-args 0 2 2 --sym-files 1 8 --sym-stdin 8 --sym-stdout)
case $tool in
sear)
    bc=$cache/coreutils-9.1/clang-19/bc
    sear=${SEAR:-$root/target/release/sear}
    [ -x "$sear" ] || { echo "run.sh: build sear first (cargo build --release)" >&2; exit 1; } ;;
klee)
    bc=$cache/coreutils-9.1/clang-16/bc
    klee=${KLEE_ROOT:-$HOME/klee}/bin/klee
    [ -x "$klee" ] || { echo "run.sh: no KLEE at $klee (see /work/shared/tools/klee)" >&2; exit 1; } ;;
*) echo "run.sh: --tool is sear or klee" >&2; exit 2 ;;
esac
mkdir -p "$out/$tool"
for u in "${utilities[@]}"; do
    [ -f "$bc/$u.bc" ] || { echo "run.sh: $u: no $bc/$u.bc (run build.sh)" >&2; continue; }
    dir=$out/$tool/$u
    rm -rf "$dir"
    start=$(date +%s.%N)
    # A hard limit well above the budget (--limit SECS overrides it): the tools write tests for
    # the states left at the end, and what they wrote before the limit is kept.
    [ -n "$limit" ] || limit=$((budget * 3 + 120))
    set +e
    if [ "$tool" = sear ]; then
        timeout -k 10 "$limit" "$sear" run --no-progress --max-time "$budget" --output-dir "$dir" \
            --env-file "$here/env.txt" "$bc/$u.bc" "${model[@]}" >"$dir.log" 2>&1
    else
        timeout -k 10 "$limit" "$klee" --output-dir="$dir" --max-time="${budget}s" \
            --libc=uclibc --posix-runtime --env-file="$here/env.txt" \
            "$bc/$u.bc" "${model[@]}" >"$dir.log" 2>&1
    fi
    status=$?
    set -e
    wall=$(echo "$(date +%s.%N) - $start" | bc)
    tests=$(find "$dir" -maxdepth 1 -name 'test*.ktest' 2>/dev/null | wc -l)
    errors=$(find "$dir" -maxdepth 1 -name 'test*.*.err' 2>/dev/null | wc -l)
    printf '%s\t%s\t%s\t%.1f\t%s\t%s\n' "$tool" "$u" "$status" "$wall" "$tests" "$errors" | tee -a "$out/$tool.tsv"
done
