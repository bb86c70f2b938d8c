#!/usr/bin/env bash
# Usage: bench/coreutils/series.sh --tool sear|klee --out DIR [--budget SECS] [--limit SECS]
#            [--covering-new] [UTILITY...]
#
# One lane of a side-by-side series: for each utility (default: utilities.txt), run.sh then
# coverage.sh (--max-tests 2000, JOBS=1), so a lane's results are usable while it runs and a
# lane stopped midway resumes where it was (a utility with a line in DIR/<tool>-coverage.tsv
# is skipped). Run one lane per tool side by side, each on its own core; progress goes to
# DIR/<tool>-lane.log. SEAR (the sear binary, also the one that replays) as for run.sh; the
# stack limit is lifted for KLEE's STP (`ulimit -s unlimited`). --covering-new runs both tools
# with --only-output-states-covering-new (run.sh) and replays every test (no sample).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
tool= out= budget=300 limit= covering_new=() max_tests=2000
while [ $# -gt 0 ]; do
    case $1 in
    --tool) tool=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --budget) budget=$2; shift 2 ;;
    --limit) limit=$2; shift 2 ;;
    --covering-new) covering_new=(--covering-new); max_tests=0; shift ;;
    -*) echo "series.sh: unknown option $1" >&2; exit 2 ;;
    *) break ;;
    esac
done
[ -n "$tool" ] && [ -n "$out" ] || { echo "series.sh: --tool and --out are required" >&2; exit 2; }
[ -n "$limit" ] || limit=$((budget + 120))
utilities=("$@")
[ ${#utilities[@]} -gt 0 ] || mapfile -t utilities < <(grep -v '^#' "$here/utilities.txt")
ulimit -s unlimited
mkdir -p "$out"
log=$out/$tool-lane.log
for u in "${utilities[@]}"; do
    if grep -q "^$tool	$u	" "$out/$tool-coverage.tsv" 2>/dev/null; then continue; fi
    echo "$(date +%T) start $u" >>"$log"
    "$here/run.sh" --tool "$tool" --budget "$budget" --limit "$limit" --out "$out" \
        "${covering_new[@]}" "$u" >>"$log" 2>&1
    JOBS=1 "$here/coverage.sh" --tool "$tool" --max-tests "$max_tests" --out "$out" "$u" >>"$log" 2>&1
done
echo "$(date +%T) done" >>"$log"
