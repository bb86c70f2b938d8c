#!/usr/bin/env bash
# Usage: bench/cxx-real/run.sh [--budget SECS] [--size N] [--search S]
#
# A real C++ package under sear: inih's INIReader (Debian source package libinih, default
# `libinih/trixie`, 59-1; Debian 12's 55-1 is not served by this workplace's mirror (404), as
# for libosip2; LIBINIH_DEBIAN=libinih=55-1 takes it where the mirror has it).
#
# 1. Fetches the source with bench/coreutils/debian-source.sh into
#    $SEAR_BENCH_CACHE/sources (Debian's patches applied; nothing is copied into the repository).
# 2. Compiles ini.c (the C parser) to bitcode (-g -O0, optnone off, -DINI_HANDLER_LINENO=1 as
#    Debian builds the library: its patch 0005; INIReader.cpp keeps its 4-argument handler,
#    patch 0006, so ini.c calls it with one argument more) and runs sear on inireader_harness.cpp (which includes cpp/INIReader.cpp; a symbolic buffer of SIZE bytes,
#    default 12, parsed by INIReader(const char*, size_t), then every getter), ini.c linked
#    with --link-llvm-lib, --max-time SECS (default 60), tests only for paths covering new code;
#    twice: with the library's default options, then with -D SYM_OPTIONS (Debian's runtime
#    options, the globals its test suite sets, symbolic too), then with -D SYM_OPTIONS
#    -D FROM_FILE (INIReader(filename) on the symbolic file A, --sym-files 1 SIZE).
# 3. Replays every test natively (`sear replay`) and measures line/branch coverage of ini.c and
#    cpp/INIReader.cpp (`sear coverage`).
# 4. Builds the package's own test suite natively with clang-19 --coverage: Debian's
#    tests/Makefile (unittest.c and unittest_string.c over ini.c, 13 runs with different
#    runtime options, each checked against its baseline) and upstream's C++ test
#    examples/cpptest.sh (INIReaderExample.cpp over INIReader.cpp, checked against
#    cpptest.txt); measures the same files with llvm-cov-19 gcov, once for the whole suite
#    and once for the runs with the default options only (the configuration sear explores).
# 5. Prints the table (also in $OUT/table.md).
#
# Results: $SEAR_BENCH_CACHE/libinih-<V>/cxx-real/ (sear runs in sear-{default,options,file}/,
# the test suite's builds in suite-all/, suite-default/).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
budget=60 size=12 search=()
while [ $# -gt 0 ]; do
    case $1 in
        --budget) budget=$2; shift 2 ;;
        --size) size=$2; shift 2 ;;
        --search) search=(--search "$2"); shift 2 ;;
        *) echo "run.sh: unknown argument $1" >&2; exit 2 ;;
    esac
done
sear=${SEAR:-$root/target/release/sear}
[ -x "$sear" ] || sear=/work/main/target/release/sear  # a worktree without a build
pkg=${LIBINIH_DEBIAN:-libinih/trixie}
cache=${SEAR_BENCH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/sear}
src=$("$root/bench/coreutils/debian-source.sh" "$pkg" "$cache/sources")
out=$cache/$(basename "$src")/cxx-real
mkdir -p "$out"
echo "run.sh: source $src, results in $out" >&2

# --- sear ---
clang-19 -c -emit-llvm -g -O0 -Xclang -disable-O0-optnone -DINI_HANDLER_LINENO=1 -I"$src" "$src/ini.c" -o "$out/ini.bc"
for mode in default options file; do
    dir=$out/sear-$mode defs=(-D SIZE="$size") args=()
    [ $mode = default ] || defs+=(-D SYM_OPTIONS)
    [ $mode = file ] && { defs+=(-D FROM_FILE); args=(--sym-files 1 "$size"); }
    rm -rf "$dir" "$dir-coverage"
    /usr/bin/time -f "%e s wall" -o "$dir.time" \
        "$sear" run --no-progress --max-time "$budget" "${search[@]}" --only-output-states-covering-new \
        --output-dir "$dir" "${defs[@]}" -I "$src" -I "$src/cpp" --link-llvm-lib "$out/ini.bc" \
        "$here/inireader_harness.cpp" "${args[@]}" >"$dir.log" 2>&1 || true
    [ -f "$dir/summary.json" ] || { tail -20 "$dir.log" >&2; exit 1; }
    tail -7 "$dir.log" >&2
    "$sear" replay "$dir" >"$dir-replay.log" 2>&1 || true
    tail -1 "$dir-replay.log" >&2
    "$sear" coverage --jobs 2 --json --source "$src" --output-dir "$dir-coverage" "$dir" \
        >"$dir-coverage.json"
done

# --- the package's own test suite, natively, with gcov ---
suite() {  # suite NAME RUNS...: builds in $out/suite-NAME, runs the listed Makefile runs
    local name=$1; shift
    local d=$out/suite-$name
    rm -rf "$d"; mkdir -p "$d/tests" "$d/examples"
    cp "$src"/tests/*.ini "$src"/tests/baseline_*.txt "$d/tests/"
    cp "$src"/examples/test.ini "$src"/examples/cpptest.txt "$d/examples/"
    local cf=(-g -O0 --coverage -I"$src")  # the library alone gets -DINI_HANDLER_LINENO=1, as in Debian
    (cd "$d" && clang-19 "${cf[@]}" -DINI_HANDLER_LINENO=1 -c "$src/ini.c" -o ini.o &&
        for f in parseargs unittest unittest_string; do
            clang-19 "${cf[@]}" -c "$src/tests/$f.c" -o "$f.o"
        done &&
        clang-19 --coverage -o tests/unittest unittest.o parseargs.o ini.o &&
        clang-19 --coverage -o tests/unittest_string unittest_string.o parseargs.o ini.o &&
        clang++-19 "${cf[@]}" -c "$src/cpp/INIReader.cpp" -o INIReader.o &&
        clang++-19 "${cf[@]}" -I"$src/cpp" -c "$src/examples/INIReaderExample.cpp" -o INIReaderExample.o &&
        clang++-19 --coverage -o examples/INIReaderExample INIReaderExample.o INIReader.o ini.o)
    local fails=0 run base bin args
    for run in "$@"; do
        base=${run%%:*}; args=${run#*:}
        case $base in
            cpp) (cd "$d/examples" && ./INIReaderExample | diff -q cpptest.txt - >/dev/null) || fails=$((fails+1)) ;;
            *) bin=unittest; case $base in string|heap_string) bin=unittest_string ;; esac
               # shellcheck disable=SC2086
               (cd "$d/tests" && ./$bin $args | diff -q "baseline_$base.txt" - >/dev/null) || fails=$((fails+1)) ;;
        esac
    done
    echo "run.sh: test suite '$name': $# runs, $fails differ from their baselines" >&2
    (cd "$d" && llvm-cov-19 gcov -b ini.o INIReader.o >gcov.txt 2>&1)
}
all_runs=(
    "multi:" "multi_max_line:--ini_max_line 20" "single:--ini_allow_multiline 0"
    "disallow_inline_comments:--ini_allow_inline_comments 0"
    "stop_on_first_error:--ini_stop_on_first_error 1" "handler_lineno:--ini_handler_lineno 1"
    "string:--ini_max_line 20" "heap:--ini_use_stack 0"
    "heap_max_line:--ini_use_stack 0 --ini_max_line 20 --ini_initial_alloc 20"
    "heap_realloc:--ini_use_stack 0 --ini_allow_realloc 1 --ini_initial_alloc 5"
    "heap_realloc_max_line:--ini_use_stack 0 --ini_max_line 20 --ini_allow_realloc 1 --ini_initial_alloc 5"
    "heap_string:--ini_use_stack 0 --ini_max_line 20 --ini_initial_alloc 20"
    "allow_no_value:--ini_allow_no_value 1" "cpp:")
suite all "${all_runs[@]}"
suite default "multi:" "cpp:"

python3 - "$out" "$src" <<'PY' | tee "$out/table.md"
import json, re, sys, os
out, src = sys.argv[1:]
sears = [{f["path"]: f for f in json.load(open(f"{out}/sear-{m}-coverage.json"))["files"]} for m in ("default", "options", "file")]
def gcov(name):  # {file: (lines, hit)} from llvm-cov gcov's summary
    res, cur = {}, None
    for line in open(f"{out}/suite-{name}/gcov.txt"):
        m = re.match(r"File '(.*)'", line)
        if m: cur = m.group(1); continue
        m = re.match(r"Lines executed:([\d.]+)% of (\d+)", line)
        if m and cur:
            n = int(m.group(2)); res[os.path.realpath(cur)] = (n, round(float(m.group(1)) * n / 100)); cur = None
    return res
all_, dflt = gcov("all"), gcov("default")
print("| file | lines | sear, default options | sear, symbolic options | sear, symbolic options, file | test suite, default options (2 runs) | test suite, all 14 runs |")
print("|---|---|---|---|---|---|---|")
tot = [0] * 10
pct = lambda h, n: f"{100*h/n:.1f} ({h}/{n})"
for rel in ("ini.c", "cpp/INIReader.cpp"):
    p = os.path.realpath(f"{src}/{rel}")
    s, o, f = (x[p] for x in sears); a = all_[p]; d = dflt[p]
    vals = (s['lines_hit'], s['lines'], o['lines_hit'], o['lines'], f['lines_hit'], f['lines'], d[1], d[0], a[1], a[0])
    assert len(set(vals[1::2])) == 1, ("line counts differ", rel, vals)
    print(f"| {rel} | {s['lines']} | " + " | ".join(pct(vals[i], vals[i + 1]) for i in (0, 2, 4, 6, 8)) + " |")
    for i, v in enumerate(vals): tot[i] += v
print(f"| total | {tot[1]} | " + " | ".join(pct(tot[i], tot[i + 1]) for i in (0, 2, 4, 6, 8)) + " |")
PY
