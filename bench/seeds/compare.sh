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
printf '%-8s %7s %6s %7s %8s %8s %s\n' run time_s tests errors lines branches "seeded forks (no query)"
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
def pct(kind):
    t = cov.get("total", {}).get(kind, {})
    return f"{t.get('percent', 0):.1f}%" if t else "?"
seeds = s.get("seeds", {}).get("forks_decided", 0)
print(f"{name:<8} {s['time_s']:7.2f} {s['tests']:6d} {len(s['errors']):7d} {pct('lines'):>8} {pct('branches'):>8} {seeds}")
PY
done
