#!/usr/bin/env python3
"""bench/coreutils/table.py [RUNS_DIR]: the Markdown tables of docs/real-programs.md from
run.sh's and coverage.sh's TSV files (sear.tsv, klee.tsv, sear-coverage.tsv,
klee-coverage.tsv in RUNS_DIR, default $SEAR_BENCH_CACHE/coreutils-9.1/runs).

With one tool's coverage: per utility, its tests, line and branch coverage of the utility's
source file and native crashes, then the medians. With both tools' coverage: the side-by-side
table on the utilities both measured (lines and branches of the source file, then per tool
tests written (and how many were replayed, when coverage.sh --max-tests sampled them),
line %, branch %, wall-clock seconds of the run, errors the tool reported and tests that
crashed in the native replay), the medians over those utilities, and where each tool is
ahead."""
import os
import statistics
import sys

TOOLS = ("sear", "klee")
NAMES = {"sear": "sear", "klee": "KLEE"}


def read_tsv(path, min_fields):
    rows = {}
    if not os.path.exists(path):
        return rows
    for line in open(path):
        fields = line.rstrip("\n").split("\t")
        if len(fields) >= min_fields:
            rows[fields[1]] = fields  # the last line for a utility wins
    return rows


def row(cells):
    return "| " + " | ".join(cells) + " |"


def single(tool, cov):
    header = ["utility", "source", "lines", f"{tool} tests", f"{tool} line %",
              f"{tool} branch %", f"{tool} crashes"]
    print(row(header))
    print("|" + "---|" * len(header))
    for u in sorted(cov):
        c = cov[u]
        print(row([f"`{u}`", c[2], c[3], c[9], c[7], c[8], c[10]]))
    print()
    lines = [float(c[7]) for c in cov.values()]
    branches = [float(c[8]) for c in cov.values()]
    print(f"- {tool}: {len(lines)} utilities, median line coverage "
          f"{statistics.median(lines):.1f}%, median branch coverage "
          f"{statistics.median(branches):.1f}%")


def side_by_side(cov, run):
    both = sorted(set(cov["sear"]) & set(cov["klee"]))
    header = ["utility", "lines", "branches"]
    for t in TOOLS:
        n = NAMES[t]
        header += [f"{n} tests", f"{n} line %", f"{n} branch %", f"{n} wall s",
                   f"{n} errors", f"{n} crashes"]
    print(row(header))
    print("|" + "---|" * len(header))
    for u in both:
        s = cov["sear"][u]
        cells = [f"`{u}`", s[3], s[5]]
        for t in TOOLS:
            c, r = cov[t][u], run[t].get(u)
            line, branch = float(c[7]), float(c[8])
            other = cov["klee" if t == "sear" else "sear"][u]
            bold_l = "**" if line > float(other[7]) else ""
            bold_b = "**" if branch > float(other[8]) else ""
            wall = "-" if r is None else r[3] + (" (killed)" if r[2] in ("124", "137") else "")
            errors = "-" if r is None else r[5]
            tests = c[9] if r is None or r[4] == c[9] else f"{r[4]} ({c[9]} replayed)"
            cells += [tests, f"{bold_l}{c[7]}{bold_l}", f"{bold_b}{c[8]}{bold_b}", wall,
                      errors, c[10]]
        print(row(cells))
    print()
    for t in TOOLS:
        lines = [float(cov[t][u][7]) for u in both]
        branches = [float(cov[t][u][8]) for u in both]
        print(f"- {NAMES[t]}: {len(both)} utilities, median line coverage "
              f"{statistics.median(lines):.1f}%, median branch coverage "
              f"{statistics.median(branches):.1f}%")
    for key, what in ((7, "line"), (8, "branch")):
        ahead = {t: [] for t in TOOLS}
        ties = 0
        for u in both:
            a, b = float(cov["sear"][u][key]), float(cov["klee"][u][key])
            if a > b:
                ahead["sear"].append(u)
            elif b > a:
                ahead["klee"].append(u)
            else:
                ties += 1
        for t in TOOLS:
            print(f"- {NAMES[t]} has the higher {what} coverage on {len(ahead[t])} of "
                  f"{len(both)}" + (": " + ", ".join(f"`{u}`" for u in ahead[t]) if ahead[t] else ""))
        print(f"- equal {what} coverage on {ties} of {len(both)}")
    left = sorted((set(cov["sear"]) | set(cov["klee"])) - set(both))
    if left:
        print("- measured for one tool only (left out): " + ", ".join(f"`{u}`" for u in left))


def main():
    cache = os.environ.get("SEAR_BENCH_CACHE") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "sear")
    runs = sys.argv[1] if len(sys.argv) > 1 else os.path.join(cache, "coreutils-9.1", "runs")
    cov = {t: read_tsv(os.path.join(runs, f"{t}-coverage.tsv"), 13) for t in TOOLS}
    run = {t: read_tsv(os.path.join(runs, f"{t}.tsv"), 6) for t in TOOLS}
    tools = [t for t in TOOLS if cov[t]]
    if not tools:
        sys.exit(f"table.py: no coverage TSV in {runs} (run coverage.sh)")
    if len(tools) == 1:
        single(tools[0], cov[tools[0]])
    else:
        side_by_side(cov, run)


if __name__ == "__main__":
    main()
