#!/usr/bin/env python3
"""bench/coreutils/table.py [RUNS_DIR]: the Markdown tables of docs/real-programs.md from
run.sh's and coverage.sh's TSV files (sear.tsv, klee.tsv, sear-coverage.tsv,
klee-coverage.tsv in RUNS_DIR, default $SEAR_BENCH_CACHE/coreutils-9.1/runs): per utility,
each tool's tests, line and branch coverage of the utility's source file, native crashes;
then the medians and the utilities where each tool is ahead."""
import os
import statistics
import sys


def read_tsv(path, key_fields):
    rows = {}
    if not os.path.exists(path):
        return rows
    for line in open(path):
        fields = line.rstrip("\n").split("\t")
        if len(fields) >= key_fields:
            rows[fields[1]] = fields  # the last line for a utility wins
    return rows


def main():
    cache = os.environ.get("SEAR_BENCH_CACHE") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "sear")
    runs = sys.argv[1] if len(sys.argv) > 1 else os.path.join(cache, "coreutils-9.1", "runs")
    tools = [t for t in ("sear", "klee") if os.path.exists(os.path.join(runs, f"{t}-coverage.tsv"))]
    cov = {t: read_tsv(os.path.join(runs, f"{t}-coverage.tsv"), 13) for t in tools}
    run = {t: read_tsv(os.path.join(runs, f"{t}.tsv"), 6) for t in tools}
    utilities = sorted(set().union(*[set(cov[t]) for t in tools]))
    header = ["utility", "source", "lines"]
    for t in tools:
        header += [f"{t} tests", f"{t} line %", f"{t} branch %", f"{t} crashes"]
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    lines = {t: [] for t in tools}
    branches = {t: [] for t in tools}
    for u in utilities:
        first = next(cov[t][u] for t in tools if u in cov[t])
        row = [f"`{u}`", first[2], first[3]]
        for t in tools:
            c = cov[t].get(u)
            if c is None:
                row += ["-", "-", "-", "-"]
                continue
            row += [c[9], c[7], c[8], c[10]]
            lines[t].append(float(c[7]))
            branches[t].append(float(c[8]))
        print("| " + " | ".join(row) + " |")
    print()
    for t in tools:
        if lines[t]:
            print(f"- {t}: {len(lines[t])} utilities, median line coverage "
                  f"{statistics.median(lines[t]):.1f}%, median branch coverage "
                  f"{statistics.median(branches[t]):.1f}%")
    if len(tools) == 2:
        both = [u for u in utilities if all(u in cov[t] for t in tools)]
        ahead = {t: [] for t in tools}
        for u in both:
            a, b = float(cov["sear"][u][7]), float(cov["klee"][u][7])
            if a > b:
                ahead["sear"].append(u)
            elif b > a:
                ahead["klee"].append(u)
        for t in tools:
            print(f"- {t} has the higher line coverage on {len(ahead[t])} of {len(both)}: "
                  + ", ".join(f"`{u}`" for u in ahead[t]))
    _ = run


if __name__ == "__main__":
    main()
