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
ahead.

`table.py --compare BASE LABEL... [RUNS_DIR]`: the E1/E2 table of docs/techniques/indexify.md
for run.sh's labels (e.g. `sear` against `sear-indexify`): per utility and label, how the run
stopped (finished = every path explored) and its time (summary.json's time_s, run.sh's CPU
seconds), paths, early ends (out-of-garden among them), solver timeouts and failures (the
`.solver.err` tests: KLEE's unknowns/timeouts), tests written, line and branch coverage by
native replay, and whether the replay reproduced every recorded output; then, per utility,
the branches of the source file BASE covers and LABEL does not (under-approximation losses)
and the reverse, from the replays' lcov files."""
import glob
import json
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


def branch_set(report_dir):
    """The (line, block, branch) triples taken at least once in the replay's lcov file, in
    the file coverage counted (the utility's source)."""
    report = os.path.join(report_dir + ".coverage", "coverage.info")
    summary = report_dir + ".coverage.json"
    if not (os.path.exists(report) and os.path.exists(summary)):
        return None
    try:
        files = json.load(open(summary)).get("files", [])
    except ValueError:
        return None
    selected = {f["path"] for f in files if f.get("selected")}
    taken, current = set(), None
    for line in open(report):
        if line.startswith("SF:"):
            current = line[3:].strip()
        elif line.startswith("BRDA:") and current in selected:
            ln, block, branch, count = line[5:].strip().split(",")
            if count not in ("-", "0"):
                taken.add((current, int(ln), block, branch))
    return taken


def run_facts(runs, label, u):
    """What one run of `label` on `u` gives the table (None if it has no summary)."""
    d = os.path.join(runs, label, u)
    try:
        s = json.load(open(os.path.join(d, "summary.json")))
    except (OSError, ValueError):
        return None
    ix = s.get("indexify") or {}
    solver_errs = glob.glob(os.path.join(d, "test*.solver.err"))
    timeouts = sum("timed out" in open(f, errors="replace").read() for f in solver_errs)
    facts = {
        "stop": "finished" if s.get("stop_reason") == "exhausted" else s.get("stop_reason"),
        "time": s.get("time_s", 0.0),
        "paths": s.get("completed_paths", 0),
        "early": s.get("early_paths", 0),
        "oog": ix.get("out_of_garden", "-") if ix else "-",
        "timeouts": timeouts,
        "solver_failures": len(solver_errs) - timeouts,
        "tests": s.get("tests", 0),
        "garden": (ix.get("garden_final_sizes") or {}).get("str", "-") if ix else "-",
    }
    try:
        c = json.load(open(d + ".coverage.json"))
        r = c["replay"]
        facts.update(line="%.1f" % c["line_percent"], branch="%.1f" % c["branch_percent"],
                      replayed=r["tests"], crashes=len(c["crashes"]),
                      outputs="%d/%d" % (r["outputs_checked"] - r["output_mismatches"],
                                         r["outputs_checked"]),
                      mismatches=r["input_mismatches"] + r["not_reproduced"])
    except (OSError, ValueError, KeyError):
        facts.update(line="-", branch="-", replayed="-", crashes="-", outputs="-",
                     mismatches="-")
    return facts


def compare(runs, base, labels):
    run = {lab: read_tsv(os.path.join(runs, f"{lab}.tsv"), 6) for lab in [base] + labels}
    utilities = sorted(u for u in run[base] if any(u in run[lab] for lab in labels))
    header = ["utility", "config", "stop", "time s", "CPU s", "paths", "early (out-of-garden)",
              "solver timeouts / failures", "tests", "\\|G\\|", "line %", "branch %",
              "replayed (crashes, input mismatches)", "outputs reproduced"]
    print(row(header))
    print("|" + "---|" * len(header))
    for u in utilities:
        for lab in [base] + labels:
            f = run_facts(runs, lab, u) if u in run[lab] else None
            if f is None:
                continue
            r = run[lab][u]
            cpu = r[6] if len(r) > 6 else "-"
            print(row([f"`{u}`", lab, f["stop"], "%.1f" % f["time"], cpu, str(f["paths"]),
                       f"{f['early']} ({f['oog']})", f"{f['timeouts']} / {f['solver_failures']}",
                       str(f["tests"]), str(f["garden"]), f["line"], f["branch"],
                       f"{f['replayed']} ({f['crashes']}, {f['mismatches']})", f["outputs"]]))
    print()
    for lab in [base] + labels:
        facts = [run_facts(runs, lab, u) for u in utilities if u in run[lab]]
        facts = [f for f in facts if f is not None and f["branch"] != "-"]
        if facts:
            mean = lambda key: statistics.mean(float(f[key]) for f in facts)  # noqa: E731
            print(f"- {lab}: {len(facts)} utilities, mean line coverage {mean('line'):.1f}%, "
                  f"mean branch coverage {mean('branch'):.1f}%, finished "
                  f"{sum(f['stop'] == 'finished' for f in facts)}, solver timeouts "
                  f"{sum(f['timeouts'] for f in facts)}")
    print()
    header = ["utility", "config", f"branches only {base} covers", "branches only it covers"]
    print(row(header))
    print("|" + "---|" * len(header))
    for u in utilities:
        b = branch_set(os.path.join(runs, base, u))
        for lab in labels:
            o = branch_set(os.path.join(runs, lab, u))
            if b is None or o is None:
                continue
            lost = sorted((ln for _, ln, _, _ in b - o))
            lines = ", ".join(str(x) for x in sorted(set(lost))[:12])
            print(row([f"`{u}`", lab, f"{len(b - o)}" + (f" (lines {lines})" if lost else ""),
                       str(len(o - b))]))


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--compare":
        args = sys.argv[2:]
        if len(args) < 2:
            sys.exit("table.py --compare BASE LABEL... [RUNS_DIR]")
        runs = args.pop() if os.path.isdir(args[-1]) else None
        cache = os.environ.get("SEAR_BENCH_CACHE") or os.path.join(
            os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "sear")
        runs = runs or os.path.join(cache, "coreutils-9.1", "runs")
        compare(runs, args[0], args[1:])
        return
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
