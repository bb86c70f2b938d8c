"""Runs KLEE on a benchmark program, for side-by-side rows (configurations with
`engine = "klee"` in configs.toml).

KLEE is never a dependency: without `--klee PATH` / `KLEE_RUN`, KLEE configurations come back
as `unsupported`. PATH is the `klee-run` wrapper that ../shared/tools/klee/build-klee.sh
writes (it compiles the C file with KLEE's clang and runs `klee --output-dir=$KLEE_OUT`).

The record has the same fields as a sear run: time is KLEE's own wall time from
`run.stats` (compilation excluded, as sear's `time_s` excludes it), paths are completed
paths plus paths that ended with an error (`.err` files), as sear counts them."""
from __future__ import annotations

import glob
import os
import re
import resource
import signal
import sqlite3
import subprocess
import time

from . import runner

# KLEE's names of the searchers sear's configurations use.
SEARCH = {"dfs": "dfs", "bfs": "bfs", "random-path": "random-path"}


def command(spec: runner.RunSpec, klee_run: str) -> tuple[list[str], dict]:
    """The command line and environment of one KLEE run."""
    cmd = [klee_run, spec.source]
    for s in spec.config.search:
        cmd.append(f"--search={SEARCH.get(s, s)}")
    if spec.budget > 0:
        cmd.append(f"--max-time={spec.budget:g}s")
    if spec.query_timeout > 0:
        cmd.append(f"--max-solver-time={spec.query_timeout:g}s")
    cmd += spec.config.args
    # -D SIZE, the program's defines and the -I of generated lexers; sear-only arguments
    # of a program are not passed on
    cflags = _cflags(spec)
    env = dict(os.environ, KLEE_OUT=spec.out_dir, KLEE_CFLAGS=" ".join(cflags))
    return cmd, env


def _cflags(spec: runner.RunSpec) -> list[str]:
    flags = [f"-DSIZE={spec.size}"] + [f"-D{d}" for d in spec.program.defines]
    args = list(spec.prep_args)
    i = 0
    while i < len(args):
        if args[i] == "-I" and i + 1 < len(args):
            flags.append("-I" + args[i + 1])
            i += 2
        else:
            i += 1
    return flags


def _info_number(text: str, label: str) -> int | None:
    m = re.search(rf"KLEE: done: {re.escape(label)} = (\d+)", text)
    return int(m.group(1)) if m else None


def _last_stats(out_dir: str) -> dict:
    """The last row of run.stats (KLEE's statistics, an SQLite table)."""
    try:
        con = sqlite3.connect(f"file:{os.path.join(out_dir, 'run.stats')}?mode=ro", uri=True)
        con.row_factory = sqlite3.Row
        row = con.execute("SELECT * FROM stats ORDER BY rowid DESC LIMIT 1").fetchone()
        con.close()
        return dict(row) if row else {}
    except sqlite3.Error:
        return {}


def run(spec: runner.RunSpec, klee_run: str) -> dict:
    """Runs KLEE and returns a result record like `runner.run`'s."""
    cmd, env = command(spec, klee_run)
    rec = runner.empty_record(spec, cmd)
    rec["engine"] = "klee"
    deadline = (spec.budget if spec.budget > 0 else 3600) * 2 + spec.query_timeout + 60
    t0 = time.monotonic()
    # CPU seconds of the run (klee-run's clang and KLEE), as for sear's runs
    cpu0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    try:
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                env=env, start_new_session=True)
    except OSError as e:
        rec["message"] = f"cannot start KLEE: {e}"
        return rec
    try:
        _, err = proc.communicate(timeout=deadline)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        rec.update(status=runner.KILLED, message=f"killed after {deadline:.0f} s",
                   wall_s=time.monotonic() - t0)
        return rec
    rec["wall_s"] = time.monotonic() - t0
    cpu1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    rec["cpu_s"] = (cpu1.ru_utime - cpu0.ru_utime) + (cpu1.ru_stime - cpu0.ru_stime)
    rec["exit_code"] = proc.returncode
    try:
        with open(os.path.join(spec.out_dir, "info")) as f:
            info = f.read()
    except OSError:
        lines = [ln for ln in err.splitlines() if "error" in ln.lower()]
        rec["message"] = (lines[-1] if lines else "KLEE wrote no info file")[:300]
        return rec
    stats = _last_stats(spec.out_dir)
    completed = _info_number(info, "completed paths") or 0
    errors = len(glob.glob(os.path.join(spec.out_dir, "*.err")))
    wall = stats.get("WallTime")
    rec.update({
        "time_s": wall / 1e6 if wall is not None else rec["wall_s"],
        "instructions": _info_number(info, "total instructions"),
        "completed_paths": completed,
        "error_paths": errors,
        "paths": completed + errors,
        "tests": _info_number(info, "generated tests"),
        "queries": stats.get("Queries"),
        "core_queries": stats.get("SolverQueries"),
        "solver_s": (stats["SolverTime"] / 1e6) if stats.get("SolverTime") is not None else None,
        "solver_timeouts": None,
    })
    if rec["solver_s"] is not None and rec["time_s"]:
        rec["solver_share"] = rec["solver_s"] / rec["time_s"]
    halted = "HaltTimer invoked" in err or "HaltTimer invoked" in info
    rec["stop_reason"] = "max-time" if halted else "exhausted"
    rec["status"] = runner.BUDGET if halted else runner.DONE
    return rec
