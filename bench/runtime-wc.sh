#!/usr/bin/env bash
# C-runtime benchmark: the wc tool (tests/tools/wc.c) on N symbolic stdin bytes, explored to
# exhaustion with DFS. Every byte is a newline, other white space or a word byte, so there
# are exactly 3^N paths. Prints a markdown table row per repetition: wall time to exhaust,
# paths, instructions, solver queries and solver time (from summary.json).
# Usage: bench/runtime-wc.sh [N] [REPS]   (defaults: 8 1); $SEAR names the sear binary
# (default: build target/release/sear).
set -euo pipefail
cd "$(dirname "$0")/.."
n="${1:-8}"
reps="${2:-1}"
if [[ -z "${SEAR:-}" ]]; then
    cargo build --release -q -p sear-cli
    SEAR="${CARGO_TARGET_DIR:-target}/release/sear"
fi
expected=$((3 ** n))
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
echo "| program | stdin bytes | wall time to exhaust (s) | paths | expected paths | instructions | queries | solver time (s) |"
echo "|---|---|---|---|---|---|---|---|"
for rep in $(seq 1 "$reps"); do
    out="$work/out-$rep"
    start=$(date +%s.%N)
    "$SEAR" run --no-progress --search dfs --output-dir "$out" --sym-stdin "$n" tests/tools/wc.c >/dev/null 2>"$work/log"
    end=$(date +%s.%N)
    python3 - "$out/summary.json" "$n" "$expected" "$start" "$end" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
n, expected, start, end = sys.argv[2], int(sys.argv[3]), float(sys.argv[4]), float(sys.argv[5])
paths = s["completed_paths"]
print(f"| wc | {n} | {end - start:.1f} | {paths} | {expected} | {s['instructions']} | {s['queries']} | {s['solver_time_s']:.1f} |")
if paths != expected:
    sys.exit(f"wc: {paths} paths, expected {expected}")
PY
done
