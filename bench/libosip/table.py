#!/usr/bin/env python3
"""Usage: bench/libosip/table.py RUNS_DIR [DRIVER:MODE ...]

Prints the table of bench/libosip/run.sh (TSV) from its runs under RUNS_DIR/<driver>/<mode>:
errors found (count and the sites: function:line), paths (completed + error), solver
queries, CPU seconds of the sear process (/usr/bin/time's user + system), covered
instructions, merged states, the stop reason, and the native replay's verdict."""
import glob
import json
import os
import sys


def row(runs, driver, mode):
    run = os.path.join(runs, driver, mode)
    try:
        s = json.load(open(f"{run}/summary.json"))
    except (OSError, ValueError):
        return [driver, mode, f"no summary (see {run}.log)"]
    user, system = map(float, open(f"{run}.time").read().split()[-2:])
    sites = []
    for f in sorted(glob.glob(f"{run}/*.err")):
        fields = dict(l.split(": ", 1) for l in open(f).read().splitlines() if ": " in l)
        sites.append(f'{fields.get("Function", "?")}:{fields.get("Line", "?")}')
    try:
        r = json.load(open(f"{run}.replay.json"))["summary"]
        replay = (f'{r["tests"]} tests, {r["reproduced"]}/{r["expected_errors"]} errors '
                  f'reproduced, {r["output_mismatches"]} output mismatches')
    except (OSError, ValueError, KeyError):
        replay = "replay failed"
    errors = s["errors"]
    count = len(errors) if isinstance(errors, list) else errors
    return [
        driver, mode, f'{count} {" ".join(sites)}'.strip(),
        s["completed_paths"] + s["error_paths"], s["queries"], f"{user + system:.1f}",
        f'{s["covered_instructions"]}/{s["total_instructions"]}',
        s.get("symbolic_size", {}).get("merged_states", 0), s["stop_reason"], replay,
    ]


def main():
    runs = sys.argv[1]
    pairs = [a.split(":", 1) for a in sys.argv[2:]]
    print("driver\tmode\terrors\tpaths\tqueries\tcpu_s\tcovered\tmerged\tstop\treplay")
    for driver, mode in pairs:
        print("\t".join(str(x) for x in row(runs, driver, mode)))


if __name__ == "__main__":
    main()
