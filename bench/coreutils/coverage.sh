#!/usr/bin/env bash
# Usage: bench/coreutils/coverage.sh [--tool sear|klee] [--out DIR] [UTILITY...]
#
# Measures the line and branch coverage of run.sh's tests by native replay: `sear coverage`
# rebuilds each utility from its clang-19 bitcode with gcov's instrumentation and replays every
# test of DIR/<tool>/<utility> (sear's or KLEE's: the same .ktest format and model objects),
# so both tools are measured on the same build. Coverage counts the utility's own source
# file (src/<utility>.c, or the file that holds its main), as KLEE's paper does; the results
# go to DIR/<tool>/<utility>.coverage/ and one line per utility to DIR/<tool>-coverage.tsv.
#
# --max-tests N replays, for a directory with more than N tests, a uniform sample of N of them
# (every k-th test in name order, linked into DIR/<tool>/<utility>.sample/), so the coverage
# of a large test set is a lower bound measured in bounded time; the TSV's tests column is
# then the sample's size (run.sh's TSV has the full count).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
cache=${SEAR_BENCH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/sear}
tool=sear out=$cache/coreutils-9.1/runs max_tests=0
while [ $# -gt 0 ]; do
    case $1 in
    --tool) tool=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --max-tests) max_tests=$2; shift 2 ;;
    -*) echo "coverage.sh: unknown option $1" >&2; exit 2 ;;
    *) break ;;
    esac
done
utilities=("$@")
[ ${#utilities[@]} -gt 0 ] || mapfile -t utilities < <(grep -v '^#' "$here/utilities.txt")
bc=$cache/coreutils-9.1/clang-19/bc
sear=${SEAR:-$root/target/release/sear}

# The source file holding a utility's main.
source_of() {
    case $1 in
    '[') echo src/test.c ;;
    base32 | base64 | basenc) echo src/basenc.c ;;
    b2sum | md5sum | sha*sum) echo src/digest.c ;;
    dir | vdir) echo src/ls.c ;;
    ginstall) echo src/install.c ;;
    *) echo "src/$1.c" ;;
    esac
}

for u in "${utilities[@]}"; do
    dir=$out/$tool/$u
    [ -d "$dir" ] || { echo "coverage.sh: $u: no $dir (run run.sh)" >&2; continue; }
    report=$dir.coverage
    rm -rf "$report"
    src=$(source_of "$u")
    tests=$dir
    if [ "$max_tests" -gt 0 ]; then
        mapfile -t all < <(find "$dir/" -maxdepth 1 -name 'test*.ktest' | sort)
        if [ ${#all[@]} -gt "$max_tests" ]; then
            tests=$dir.sample
            rm -rf "$tests"
            mkdir -p "$tests"
            [ -f "$dir/info.json" ] && ln -s "$dir/info.json" "$tests/"
            printf '%s\n' "${all[@]}" | awk -v n="$max_tests" -v total=${#all[@]} \
                '{ t[NR - 1] = $0 } END { for (i = 0; i < n; i++) print t[int(i * total / n)] }' |
                while read -r t; do ln -s "$t" "$tests/"; done
        fi
    fi
    if "$sear" coverage --json --timeout 5 --program "$bc/$u.bc" --source "/$src" \
        --env-file "$here/env.txt" --jobs "${JOBS:-2}" \
        --output-dir "$report" "$tests" >"$report.json" 2>"$report.log"; then
        python3 - "$report.json" "$tool" "$u" "$src" <<'PY' | tee -a "$out/$tool-coverage.tsv"
import json, sys
r = json.load(open(sys.argv[1]))
t, s = r["total"], r["replay"]
print("\t".join(str(x) for x in [sys.argv[2], sys.argv[3], sys.argv[4], t["lines"], t["lines_hit"],
      t["branches"], t["branches_hit"], "%.1f" % r["line_percent"], "%.1f" % r["branch_percent"],
      s["tests"], len(r["crashes"]), s["timeouts"], s["input_mismatches"]]))
PY
    else
        echo "coverage.sh: $u: sear coverage failed (see $report.log)" >&2
    fi
done
