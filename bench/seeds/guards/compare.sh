#!/bin/sh
# The bugs behind bench/seeds/guards' guards, with and without one seed that passes the
# guard, for sear and (when $KLEE_ROOT/klee-run exists, built by
# ../shared/tools/klee/build-klee.sh) KLEE 3.2 with the same seeds and its --seed-file.
# Usage: compare.sh [SECONDS] [PROGRAM...]   (sear from target/release, or $SEAR;
#        default 10 s per run, query timeout 1 s, every program)
# One line per program and run: the bug found (the null dereference of guarded.h:30), wall
# time, tests.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
sear=${SEAR:-$here/../../../target/release/sear}
klee_run=${KLEE_ROOT:-$HOME/klee}/klee-run
secs=${1:-10}
[ $# -gt 0 ] && shift
programs=${*:-fnv crc32 adler32 fmix64 sip factor}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cc -O1 -o "$work/gen_seeds" "$here/gen_seeds.c"
"$work/gen_seeds" "$work" >"$work/values"
# The programs' constants must be the guards' values on the seeds' keys.
for p in $programs; do
  value=$(awk -v p="$p" '$1 == p { print $2 }' "$work/values")
  grep -q "EXPECTED ${value}ull" "$here/$p.c" || { echo "compare.sh: $p.c does not compare with $value" >&2; exit 1; }
done
now() { date +%s.%N; }
printf '%-8s %-12s %-5s %8s %6s\n' program run bug time_s tests
for p in $programs; do
  for run in sear sear-seeded klee klee-seeded; do
    out=$work/$p-$run
    seed=
    case $run in *-seeded) seed=$work/$p.ktest ;; esac
    start=$(now)
    case $run in
    sear*)
      "$sear" run --no-progress --max-time "$secs" --max-solver-time 1 --output-dir "$out" \
        ${seed:+--seed-file "$seed"} "$here/$p.c" >/dev/null 2>&1 || true
      bug=$(python3 -c 'import json, sys
s = json.load(open(sys.argv[1]))
print("yes" if any(e["kind"] == "ptr" and e["line"] == 30 for e in s["errors"]) else "no")' "$out/summary.json" 2>/dev/null || echo no)
      tests=$(ls "$out" | grep -c '\.ktest$' || true) ;;
    klee*)
      [ -x "$klee_run" ] || continue
      KLEE_OUT=$out "$klee_run" "$here/$p.c" --max-time="${secs}s" --max-solver-time=1s \
        ${seed:+--seed-file="$seed"} >/dev/null 2>&1 || true
      bug=$(ls "$out" 2>/dev/null | grep -q '\.ptr\.err$' && echo yes || echo no)
      tests=$(ls "$out" 2>/dev/null | grep -c '\.ktest$' || true) ;;
    esac
    end=$(now)
    printf '%-8s %-12s %-5s %8.2f %6s\n' "$p" "$run" "$bug" "$(echo "$end - $start" | bc)" "$tests"
  done
done
