#!/bin/sh
# Coverage of token.c with and without the raw corpus as seeds, in one table.
# Usage: compare.sh [SECONDS]   (sear from target/release, or $SEAR)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
sear=${SEAR:-$here/../../target/release/sear}
secs=${1:-10}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
sh "$here/make_corpus.sh" "$work/corpus" >/dev/null
common="--no-progress --max-time $secs --max-solver-time 1"
"$sear" run $common --output-dir "$work/plain" "$here/token.c" --sym-stdin 24 2>/dev/null
"$sear" run $common --output-dir "$work/seeded" --seed-dir "$work/corpus" \
  --seed-format raw-stdin --allow-seed-extension "$here/token.c" --sym-stdin 24 2>/dev/null
printf '%-8s %7s %6s %8s %8s %-14s %s\n' run time_s tests lines branches errors "seeded forks (no query)"
for run in plain seeded; do
  "$sear" coverage "$work/$run" >/dev/null 2>&1 || true
  python3 - "$work/$run" "$run" <<'PY'
import json, sys, os
out, name = sys.argv[1], sys.argv[2]
s = json.load(open(os.path.join(out, "summary.json")))
cov = {}
path = os.path.join(out, "coverage", "coverage.json")
if os.path.exists(path):
    cov = json.load(open(path))
def pct(key):
    return f"{cov[key]:.1f}%" if key in cov else "?"
seeds = s.get("seeds", {}).get("forks_decided", 0)
errors = ",".join(f"{e['kind']}:{e['line']}" for e in s["errors"]) or "-"
print(f"{name:<8} {s['time_s']:7.2f} {s['tests']:6d} {pct('line_percent'):>8} {pct('branch_percent'):>8} {errors:<14} {seeds}")
PY
done
