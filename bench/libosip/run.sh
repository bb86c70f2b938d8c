#!/usr/bin/env bash
# Usage: bench/libosip/run.sh [--budget SECS] [--size N] [--modes "M..."] [--search S]
#                             [--out DIR] [DRIVER...]
#
# Runs sear on the libosip drivers (bench/libosip/drivers/DRIVER.c, default: all of them)
# linked with the libosipparser2 bitcode of build.sh (`--link-llvm-lib`), once per
# symbolic-size mode (default: concretize max fork-eager fork-lazy sm smopt), one run after
# the other, each with --max-time SECS (default 60), the input a string of symbolic length
# 1..N (default 8, `-D SIZE=N`, capacity N), the DFS searcher unless --search says otherwise.
# Every run's tests are replayed natively (`sear replay`, AddressSanitizer): an error test
# that does not reproduce its error is reported. Runs go to DIR/<driver>/<mode> (default
# DIR: $SEAR_BENCH_CACHE/libosip2-<V>/runs); the table (TSV, one row per driver and mode:
# errors found, paths, queries, CPU seconds of the sear process, covered instructions,
# merged states, the stop reason, the replay's verdict; table.py) goes to DIR/table.tsv
# and stdout.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
budget=60 size=8 search=dfs out=""
modes="concretize max fork-eager fork-lazy sm smopt"
while [ $# -gt 0 ]; do
    case $1 in
    --budget) budget=$2; shift 2 ;;
    --size) size=$2; shift 2 ;;
    --modes) modes=$2; shift 2 ;;
    --search) search=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    -*) echo "run.sh: unknown option $1" >&2; exit 2 ;;
    *) break ;;
    esac
done
drivers=("$@")
if [ ${#drivers[@]} -eq 0 ]; then
    for d in "$here"/drivers/*.c; do drivers+=("$(basename "$d" .c)"); done
fi
sear=${SEAR:-$root/target/release/sear}
[ -x "$sear" ] || { echo "run.sh: build sear first (cargo build --release)" >&2; exit 1; }
lib=$("$here/build.sh")
out=${out:-$(dirname "$lib")/runs}
mkdir -p "$out"
pairs=()
for d in "${drivers[@]}"; do
    for m in $modes; do
        dir=$out/$d/$m
        rm -rf "$dir"
        mkdir -p "$(dirname "$dir")"
        echo "run.sh: $d, $m (budget ${budget}s)" >&2
        /usr/bin/time -f '%U %S' -o "$out/$d/$m.time" \
            "$sear" run --output-dir "$dir" --link-llvm-lib "$lib/libosipparser2.bc" \
            -I "$lib/include" -I "$here/drivers" -D SIZE="$size" --capacity "$size" \
            --sym-size-mode "$m" --max-time "$budget" --search "$search" \
            "$here/drivers/$d.c" >"$out/$d/$m.log" 2>&1 || true
        "$sear" replay --json "$dir" >"$out/$d/$m.replay.json" 2>"$out/$d/$m.replay.log" || true
        pairs+=("$d:$m")
    done
done
"$here/table.py" "$out" "${pairs[@]}" | tee "$out/table.tsv"
