#!/usr/bin/env bash
# Engine speed: instructions per second on a concrete-heavy and a symbolic program, and time
# to exhaust small programs. Prints a markdown table. Usage: bench/engine/run.sh [REPS]
set -euo pipefail
cd "$(dirname "$0")/../.."
reps=${1:-3}
cargo build --release --quiet -p sear-cli
sear=${CARGO_TARGET_DIR:-target}/release/sear
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
row() {
    local name=$1; shift
    local best=""
    for r in $(seq "$reps"); do
        "$sear" run --no-progress --search dfs --output-dir "$tmp/$name-$r" "$@" >/dev/null 2>&1
        t=$(python3 -c "import json,sys; s=json.load(open(sys.argv[1])); print(s['time_s'])" "$tmp/$name-$r/summary.json")
        if [ -z "$best" ] || python3 -c "import sys; sys.exit(0 if float(sys.argv[1]) < float(sys.argv[2]) else 1)" "$t" "$best"; then best=$t; fi
    done
    python3 - "$tmp/$name-1/summary.json" "$name" "$best" <<'PY'
import json, sys
s = json.load(open(sys.argv[1])); t = float(sys.argv[3])
paths = s["completed_paths"] + s["error_paths"]
print(f"| {sys.argv[2]} | {s['instructions']} | {paths} | {s['queries']} | {t:.3f} | {s['instructions'] / t / 1e6:.2f} |")
PY
}
echo "| program | instructions | paths | queries | best time (s) | M instr/s |"
echo "|---|---|---|---|---|---|"
row concrete_loop bench/engine/concrete_loop.c
row symbolic_sort bench/engine/symbolic_sort.c
row buggy examples/buggy.c
