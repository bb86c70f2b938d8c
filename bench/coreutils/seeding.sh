#!/usr/bin/env bash
# Usage: bench/coreutils/seeding.sh [--budget SECS] [--out DIR] [UTILITY...]
#
# Issue 36's coreutils measurement: each utility's covering-new run (run.sh --covering-new,
# SECS seconds, default 60) seeds a second run a quarter as long (`--seed-dir` of the first
# run's output directory), and both are measured by native replay (coverage.sh). Labels
# `sear-plain` and `sear-seeded` under DIR (default $SEAR_BENCH_CACHE/coreutils-9.1/seeding);
# the table goes to stdout: line and branch coverage of both runs, and the seeded run's
# seeds and the forks they decided (summary.json, `seeds`). Utilities default to ten of
# utilities.txt.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cache=${SEAR_BENCH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/sear}
budget=60 out=$cache/coreutils-9.1/seeding
while [ $# -gt 0 ]; do
    case $1 in
    --budget) budget=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    -*) echo "seeding.sh: unknown option $1" >&2; exit 2 ;;
    *) break ;;
    esac
done
utilities=("$@")
[ ${#utilities[@]} -gt 0 ] || utilities=(cat cut echo fold head nl paste tr uniq wc)
quarter=$((budget / 4))
rm -f "$out/sear-plain.tsv" "$out/sear-seeded.tsv"
for u in "${utilities[@]}"; do
    "$here/run.sh" --tool sear --label sear-plain --covering-new --budget "$budget" --out "$out" "$u"
    "$here/run.sh" --tool sear --label sear-seeded --covering-new --budget "$quarter" --out "$out" \
        --sear-arg "--seed-dir=$out/sear-plain/$u" "$u"
done
"$here/coverage.sh" --tool sear-plain --out "$out" "${utilities[@]}" >/dev/null
"$here/coverage.sh" --tool sear-seeded --out "$out" "${utilities[@]}" >/dev/null
python3 - "$out" "$budget" "$quarter" <<'PY'
import csv, json, os, sys
out, budget, quarter = sys.argv[1], sys.argv[2], sys.argv[3]
def cov(label):
    rows = {}
    with open(os.path.join(out, f"{label}-coverage.tsv")) as f:
        for r in csv.reader(f, delimiter="\t"):
            rows[r[1]] = (float(r[7]), float(r[8]), int(r[9]))
    return rows
plain, seeded = cov("sear-plain"), cov("sear-seeded")
print(f"| utility | {budget} s: lines | branches | tests | seeded, {quarter} s: lines | branches | tests | seeds loaded | forks decided by seeds |")
print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
for u in plain:
    s = json.load(open(os.path.join(out, "sear-seeded", u, "summary.json"))).get("seeds", {})
    p, q = plain[u], seeded.get(u, (0, 0, 0))
    print(f"| `{u}` | {p[0]:.1f} | {p[1]:.1f} | {p[2]} | {q[0]:.1f} | {q[1]:.1f} | {q[2]} | {s.get('loaded', '?')} | {s.get('forks_decided', '?')} |")
PY
