"""Aggregates run records over repetitions and renders the ratio tables (markdown, CSV, JSON).

Ratios compare each configuration with the baseline on the same program and size:
- both runs explored every path: `speed-up` = baseline time / configuration time (> 1 is
  faster; wall time when either side ran with `--jobs`, whose coordinator's `time_s` leaves
  out the workers' start and the merge of their outputs), and the two must have explored the same paths and instructions (DFS, fixed seed)
  and, when the runs carry a trace digest (summary.json), the same set of traces; else the row is flagged `≠`;
- otherwise (a budget or solver timeouts cut exploration): `paths` = configuration paths /
  baseline paths within the same budget (> 1 is more progress).
Geometric means are taken per configuration over the programs with a ratio of each kind."""
from __future__ import annotations

import csv
import io
import math
import statistics

from .runner import BUDGET, DONE, DONE_TIMEOUTS, FAILED, KILLED, UNSUPPORTED

_ORDER = [DONE, DONE_TIMEOUTS, BUDGET, FAILED, KILLED, UNSUPPORTED]
METRICS = ["time_s", "wall_s", "cpu_s", "replay_instructions", "instructions", "paths", "completed_paths", "error_paths",
           "tests", "queries", "core_queries", "solver_s", "solver_share", "solver_timeouts",
           "largest_array", "covered", "errors", "merges", "merged_states", "constraints_ast",
           "values_ast", "pattern_merges", "pattern_ast", "q_queries", "q_strip", "q_duplicate",
           "q_repair", "q_fallback", "inc_merges", "inc_subsumed"]


def _median(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def aggregate(records: list[dict]) -> list[dict]:
    """One row per (program, size, config): medians over repetitions, min/max time, status."""
    groups: dict[tuple, list[dict]] = {}
    for r in records:
        groups.setdefault((r["program"], r["size"], r["config"]), []).append(r)
    rows = []
    for (program, size, config), rs in groups.items():
        statuses = [r["status"] for r in rs]
        status = max(statuses, key=_ORDER.index)  # the worst repetition decides
        row = {"program": program, "size": size, "config": config, "reps": len(rs),
               "status": status, "message": next((r["message"] for r in rs if r["message"]), "")}
        for m in METRICS:
            row[m] = _median([r.get(m) for r in rs])
        times = [r["time_s"] for r in rs if r.get("time_s") is not None]
        row["time_min"] = min(times) if times else None
        row["time_max"] = max(times) if times else None
        # DFS with a fixed seed: exhausted repetitions must agree
        sigs = {(r["paths"], r["instructions"], r.get("traces")) for r in rs if r["status"] == DONE}
        row["reps_agree"] = len(sigs) <= 1
        row["traces"] = next((r.get("traces") for r in rs if r.get("traces")), None)
        row["engine"] = rs[0].get("engine", "sear")
        row["command"] = rs[0].get("command")
        row["sym_mode"] = rs[0].get("sym_mode")
        rows.append(row)
    return rows


def add_ratios(rows: list[dict], baseline: str) -> None:
    """Adds `ratio`, `ratio_kind` and `same_paths` to every non-baseline row."""
    base = {(r["program"], r["size"]): r for r in rows if r["config"] == baseline}
    for r in rows:
        r["ratio"], r["ratio_kind"], r["same_paths"] = None, None, None
        b = base.get((r["program"], r["size"]))
        if r["config"] == baseline or b is None:
            continue
        key = "wall_s" if _parallel(r) or _parallel(b) else "time_s"
        if r["status"] == DONE and b["status"] == DONE and r[key] and b[key]:
            r["ratio"] = b[key] / r[key]
            r["ratio_kind"] = "speed-up"
            r["same_paths"] = (r["paths"], r["instructions"]) == (b["paths"], b["instructions"])
            if r.get("engine", "sear") != b.get("engine", "sear"):
                # another engine counts instructions its own way: compare the paths only
                r["same_paths"] = r["paths"] == b["paths"]
            elif r["traces"] and b["traces"]:  # the paths' trace digests, when the runs carry them
                # (each path's hash and length: stronger than the instruction totals, which
                # under --jobs also count the instructions re-executed to rebuild prefixes)
                r["same_paths"] = r["paths"] == b["paths"] and r["traces"] == b["traces"]
        elif (r["status"] in (DONE, DONE_TIMEOUTS, BUDGET)
              and b["status"] in (DONE, DONE_TIMEOUTS, BUDGET)):
            r["ratio_kind"] = "paths"
            if b["paths"]:
                r["ratio"] = r["paths"] / b["paths"]
            elif r["paths"]:
                r["ratio"] = math.inf   # paths where the baseline finished none
            else:
                r["ratio_kind"] = None  # neither finished a path: nothing to compare


def geomeans(rows: list[dict], configs: list[str], baseline: str) -> list[dict]:
    """Per configuration: the geometric mean of each ratio kind and how many programs it has."""
    out = []
    for c in configs:
        if c == baseline:
            continue
        entry = {"config": c}
        mine = [r for r in rows if r["config"] == c]
        for kind in ("speed-up", "paths"):
            ratios = [r["ratio"] for r in mine if r["ratio_kind"] == kind]
            vals = [v for v in ratios if 0 < v < math.inf]
            entry[kind] = math.exp(sum(map(math.log, vals)) / len(vals)) if vals else None
            entry[kind + "_n"] = len(vals)
        # budgeted programs where one side finished no path: kept out of the mean, counted
        entry["lost"] = sum(1 for r in mine if r["ratio_kind"] == "paths" and r["ratio"] == 0)
        entry["gained"] = sum(1 for r in mine if r["ratio_kind"] == "paths" and r["ratio"] == math.inf)
        entry["unsupported"] = sum(1 for r in mine if r["status"] == UNSUPPORTED)
        entry["failed"] = sum(1 for r in mine if r["status"] in (FAILED, KILLED))
        entry["diverged"] = sum(1 for r in mine if r["same_paths"] is False)
        out.append(entry)
    return out


def _parallel(row: dict) -> bool:
    """Whether the row's runs were parallel (`--jobs N` with N > 1)."""
    return any(a.startswith("--jobs") and a not in ("--jobs=1",) for a in row.get("command") or [])


def _f(v, fmt="{:.2f}"):
    return "–" if v is None else fmt.format(v)


def _ratio(r) -> str:
    if r["ratio"] is None:
        return ""
    unit = "×" if r["ratio_kind"] == "speed-up" else "× p"
    flag = " ≠" if r["same_paths"] is False else ""
    if r["ratio"] == math.inf:
        return "∞ p"
    return f"{r['ratio']:.2f}{unit}{flag}"


def markdown(rows: list[dict], means: list[dict], baseline: str) -> str:
    """The per-program table and the per-configuration summary, as markdown."""
    lines = [
        f"| program | size | config | status | time s (min–max) | wall s | CPU s | paths | instrs | queries | core q | solver % | array B | vs {baseline} |",
        "|---|---:|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        if r["status"] in (UNSUPPORTED, FAILED, KILLED):
            lines.append(f"| {r['program']} | {r['size']} | {r['config']} | {r['status']} | "
                         f"{r['message'].replace('|', '/')[:60]} | | | | | | | | | |")
            continue
        spread = ""
        if r["reps"] > 1 and r["time_min"] is not None:
            spread = f" ({r['time_min']:.2f}–{r['time_max']:.2f})"
        status = r["status"] + ("" if r["reps_agree"] else " (reps differ)")
        share = None if r["solver_share"] is None else 100 * min(r["solver_share"], 1.0)
        lines.append(
            f"| {r['program']} | {r['size']} | {r['config']} | {status} | "
            f"{_f(r['time_s'])}{spread} | {_f(r.get('wall_s'))} | {_f(r.get('cpu_s'))} | "
            f"{_f(r['paths'], '{:.0f}')} | "
            f"{_f(r['instructions'], '{:.0f}')} | {_f(r['queries'], '{:.0f}')} | "
            f"{_f(r['core_queries'], '{:.0f}')} | {_f(share, '{:.0f}')} | "
            f"{_f(r.get('largest_array'), '{:.0f}')} | {_ratio(r)} |")
    lines += ["", "| config | speed-up geomean (n) | paths-ratio geomean (n) | paths lost / gained | diverged | unsupported | failed |",
              "|---|---:|---:|---:|---:|---:|---:|"]
    for m in means:
        lines.append(f"| {m['config']} | {_f(m['speed-up'])} ({m['speed-up_n']}) | "
                     f"{_f(m['paths'])} ({m['paths_n']}) | {m['lost']} / {m['gained']} | "
                     f"{m['diverged']} | {m['unsupported']} | {m['failed']} |")
    lines += symsize_table(rows)
    lines += efficiency_table(rows, baseline)
    return "\n".join(lines) + "\n"


def efficiency_table(rows: list[dict], baseline: str) -> list[str]:
    """For parallel runs (`--jobs N`), issue 39's parallel efficiency: the useful instructions
    (those of paths, not the ones re-executed to rebuild prefixes) per CPU-second, against the
    baseline's instructions per CPU-second; the replay overhead beside it. Nothing when no
    run was parallel."""
    base = {(r["program"], r["size"]): r for r in rows if r["config"] == baseline}
    par = [r for r in rows if _parallel(r) and r["status"] == DONE]
    if not par:
        return []
    lines = ["", f"| program | size | config | useful instrs / CPU s | {baseline}: instrs / CPU s | efficiency | replayed instrs |",
             "|---|---:|---|---:|---:|---:|---:|"]
    for r in par:
        b = base.get((r["program"], r["size"]))
        if not (b and b["status"] == DONE and b.get("cpu_s") and r.get("cpu_s")):
            continue
        useful = (r["instructions"] - (r.get("replay_instructions") or 0)) / r["cpu_s"]
        one = b["instructions"] / b["cpu_s"]
        lines.append(f"| {r['program']} | {r['size']} | {r['config']} | {useful:,.0f} | "
                     f"{one:,.0f} | {100 * useful / one:.0f}% | "
                     f"{_f(r.get('replay_instructions'), '{:,.0f}')} |")
    return lines


def symsize_table(rows: list[dict]) -> list[str]:
    """For runs of a symbolic-size mode other than concretize (seed 003 Ch. 5): coverage,
    reported errors and the loop merges' encodings (AST nodes of the merged conditions and
    values); nothing when there are none."""
    sym = [r for r in rows if r.get("sym_mode") not in (None, "concretize")
           or r["config"].startswith("symsize")]
    if not sym:
        return []
    lines = ["", "| program | size | config | status | time s | paths | covered | errors | merges | merged paths | cond AST | value AST |",
             "|---|---:|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for r in sym:
        lines.append(
            f"| {r['program']} | {r['size']} | {r['config']} | {r['status']} | {_f(r['time_s'])} | "
            f"{_f(r['paths'], '{:.0f}')} | {_f(r.get('covered'), '{:.0f}')} | "
            f"{_f(r.get('errors'), '{:.0f}')} | {_f(r.get('merges'), '{:.0f}')} | "
            f"{_f(r.get('merged_states'), '{:.0f}')} | {_f(r.get('constraints_ast'), '{:.0f}')} | "
            f"{_f(r.get('values_ast'), '{:.0f}')} |")
    lines += pat_table(rows)
    lines += incremental_table(rows)
    return lines


def pat_table(rows: list[dict]) -> list[str]:
    """For PAT runs (seed 003 Ch. 6): pattern merges, the AST of their quantified conditions,
    and the quantified queries answered at strip (SAT or UNSAT), duplicate, repair, or by the
    core (fallback); nothing when there are none."""
    pat = [r for r in rows if r.get("sym_mode") == "pat"]
    if not pat:
        return []
    lines = ["", "| program | size | config | pattern merges | pattern cond AST | quantified queries | strip | duplicate | repair | fallback |",
             "|---|---:|---|---:|---:|---:|---:|---:|---:|---:|"]
    for r in pat:
        cells = [_f(r.get(k), '{:.0f}') for k in ("pattern_merges", "pattern_ast", "q_queries",
                                                   "q_strip", "q_duplicate", "q_repair",
                                                   "q_fallback")]
        lines.append(f"| {r['program']} | {r['size']} | {r['config']} | " + " | ".join(cells) + " |")
    return lines


def incremental_table(rows: list[dict]) -> list[str]:
    """For runs with incremental merging (seed 003 §6.3): merges into tree nodes and the
    paths they subsumed; nothing when there are none."""
    inc = [r for r in rows if r.get("inc_merges") is not None]
    if not inc:
        return []
    lines = ["", "| program | size | config | incremental merges | paths subsumed | paths | CPU s |",
             "|---|---:|---|---:|---:|---:|---:|"]
    for r in inc:
        lines.append(f"| {r['program']} | {r['size']} | {r['config']} | "
                     f"{_f(r.get('inc_merges'), '{:.0f}')} | {_f(r.get('inc_subsumed'), '{:.0f}')} | "
                     f"{_f(r.get('paths'), '{:.0f}')} | {_f(r.get('time_s'), '{:.2f}')} |")
    return lines


CSV_FIELDS = ["program", "size", "config", "reps", "status", "time_s", "time_min", "time_max",
              "wall_s", "paths", "completed_paths", "error_paths", "instructions", "tests",
              "queries", "core_queries", "solver_s", "solver_share", "solver_timeouts",
              "largest_array", "ratio", "ratio_kind", "same_paths", "reps_agree", "traces", "message",
              "sym_mode", "covered", "errors", "merges", "merged_states", "constraints_ast",
              "values_ast", "pattern_merges", "pattern_ast", "q_queries", "q_strip", "q_duplicate",
              "q_repair", "q_fallback", "inc_merges", "inc_subsumed"]


def to_csv(rows: list[dict]) -> str:
    """The aggregated rows as CSV."""
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=CSV_FIELDS, extrasaction="ignore")
    w.writeheader()
    for r in rows:
        w.writerow(r)
    return buf.getvalue()
