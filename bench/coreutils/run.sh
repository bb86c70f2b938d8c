#!/usr/bin/env bash
# Usage: bench/coreutils/run.sh [--tool sear|klee] [--budget SECS] [--limit SECS] [--out DIR]
#            [--indexify LIST] [--max-solver-time SECS] [--label NAME] [--sear-arg ARG]...
#            [--covering-new] [UTILITY...]
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
#
# --indexify LIST runs sear with `--indexify=LIST` (docs/techniques/indexify.md) and files the
# runs under the label `sear-indexify` (DIR/sear-indexify/<utility>, sear-indexify.tsv), so
# they sit beside the plain runs; --label NAME names them otherwise (coverage.sh --tool NAME
# measures them). --max-solver-time SECS passes a per-query solver timeout (KLEE's
# --max-solver-time) to either tool. --sear-arg ARG (repeatable) adds ARG to sear's command
# line (e.g. `--sear-arg --core-solver=bitwuzla`). The TSV's columns: label, utility, exit status,
# wall-clock seconds, tests, errors, CPU seconds (user + system, of the tool's process).
# --covering-new passes --only-output-states-covering-new to either tool (KLEE's OSDI'08
# runs had it: a test only for a path that covered new code, and one for every error), so
# that every test can be replayed.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
cache=${SEAR_BENCH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/sear}
tool=sear budget=60 out=$cache/coreutils-9.1/runs limit= indexify= label= solver_time= covering_new=
sear_args=()
while [ $# -gt 0 ]; do
    case $1 in
    --tool) tool=$2; shift 2 ;;
    --budget) budget=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --limit) limit=$2; shift 2 ;;
    --indexify) indexify=$2; shift 2 ;;
    --label) label=$2; shift 2 ;;
    --max-solver-time) solver_time=$2; shift 2 ;;
    --sear-arg) sear_args+=("$2"); shift 2 ;;
    --covering-new) covering_new=1; shift ;;
    -*) echo "run.sh: unknown option $1" >&2; exit 2 ;;
    *) break ;;
    esac
done
utilities=("$@")
[ ${#utilities[@]} -gt 0 ] || mapfile -t utilities < <(grep -v '^#' "$here/utilities.txt")
model=(--sym-args 0 1 10 --sym-args 0 2 2 --sym-files 1 8 --sym-stdin 8 --sym-stdout)
extra=()
case $tool in
sear)
    [ -z "$indexify" ] || extra+=("--indexify=$indexify")
    [ -z "$solver_time" ] || extra+=(--max-solver-time "$solver_time")
    extra+=("${sear_args[@]}")
    [ -z "$covering_new" ] || extra+=(--only-output-states-covering-new)
    bc=$cache/coreutils-9.1/clang-19/bc
    sear=${SEAR:-$root/target/release/sear}
    [ -x "$sear" ] || { echo "run.sh: build sear first (cargo build --release)" >&2; exit 1; } ;;
klee)
    [ -z "$indexify" ] && [ ${#sear_args[@]} -eq 0 ] ||
        { echo "run.sh: --indexify and --sear-arg are sear's" >&2; exit 2; }
    [ -z "$solver_time" ] || extra+=("--max-solver-time=${solver_time}s")
    [ -z "$covering_new" ] || extra+=(--only-output-states-covering-new)
    bc=$cache/coreutils-9.1/clang-16/bc
    klee=${KLEE_ROOT:-$HOME/klee}/bin/klee
    [ -x "$klee" ] || { echo "run.sh: no KLEE at $klee (see /work/shared/tools/klee)" >&2; exit 1; } ;;
*) echo "run.sh: --tool is sear or klee" >&2; exit 2 ;;
esac
[ -n "$label" ] || { [ -n "$indexify" ] && label=sear-indexify || label=$tool; }
mkdir -p "$out/$label"
cputime=$(mktemp)
trap 'rm -f "$cputime"' EXIT
for u in "${utilities[@]}"; do
    [ -f "$bc/$u.bc" ] || { echo "run.sh: $u: no $bc/$u.bc (run build.sh)" >&2; continue; }
    dir=$out/$label/$u
    rm -rf "$dir"
    start=$(date +%s.%N)
    # A hard limit well above the budget (--limit SECS overrides it): the tools write tests for
    # the states left at the end, and what they wrote before the limit is kept.
    [ -n "$limit" ] || limit=$((budget * 3 + 120))
    set +e
    if [ "$tool" = sear ]; then
        /usr/bin/time -f '%U %S' -o "$cputime" \
            timeout -k 10 "$limit" "$sear" run --no-progress --max-time "$budget" --output-dir "$dir" \
            --env-file "$here/env.txt" "${extra[@]}" "$bc/$u.bc" "${model[@]}" >"$dir.log" 2>&1
    else
        /usr/bin/time -f '%U %S' -o "$cputime" \
            timeout -k 10 "$limit" "$klee" --output-dir="$dir" --max-time="${budget}s" "${extra[@]}" \
            --libc=uclibc --posix-runtime --env-file="$here/env.txt" \
            "$bc/$u.bc" "${model[@]}" >"$dir.log" 2>&1
    fi
    status=$?
    set -e
    wall=$(echo "$(date +%s.%N) - $start" | bc)
    tests=$(find "$dir" -maxdepth 1 -name 'test*.ktest' 2>/dev/null | wc -l)
    errors=$(find "$dir" -maxdepth 1 -name 'test*.*.err' 2>/dev/null | wc -l)
    cpu=$(awk 'END { printf "%.1f", $1 + $2 }' "$cputime")
    printf '%s\t%s\t%s\t%.1f\t%s\t%s\t%s\n' "$label" "$u" "$status" "$wall" "$tests" "$errors" "$cpu" |
        tee -a "$out/$label.tsv"
done
