"""Runs `sear run` once and turns its summary.json into one flat result record.

A run never raises: a configuration whose flags sear rejects comes back as `unsupported`,
anything else that goes wrong as `failed` or `killed`, with the reason in `message`."""
from __future__ import annotations

import hashlib
import json
import os
import resource
import signal
import subprocess
import time
from dataclasses import dataclass

from .manifest import Config, Program

# Run statuses, best first.
DONE = "done"                # explored every path
DONE_TIMEOUTS = "done-t/o"   # explored every path, but some ended on a solver timeout
BUDGET = "budget"            # stopped by the time or instruction budget
UNSUPPORTED = "unsupported"  # sear rejected the configuration's flags
FAILED = "failed"            # sear exited with an error, or wrote no summary
KILLED = "killed"            # sear overran its hard deadline and was killed


@dataclass
class RunSpec:
    """Everything one `sear run` needs."""

    sear: str
    program: Program
    config: Config
    source: str
    prep_args: list[str]
    size: int
    budget: float
    query_timeout: float
    seed: int
    out_dir: str
    log_queries: str | None = None
    # Compare the explored paths: summary.json's `trace_digest` (an order-independent
    # digest of every path's trace hash), else the digest of `.trace` files.
    # (sear is not asked for `.trace` files, --write-trace-hash: a third file per test made
    # the bench's runs slower than a user's; maze at 14 wrote 85k more files.)
    trace_hash: bool = False


def trace_digest(out_dir: str) -> str | None:
    """A digest of the multiset of per-path instruction-trace hashes (testNNNNNN.trace), or
    None when the run wrote none. Equal digests mean the same set of explored paths."""
    try:
        names = sorted(n for n in os.listdir(out_dir) if n.endswith(".trace"))
    except OSError:
        return None
    if not names:
        return None
    lines = []
    for n in names:
        with open(os.path.join(out_dir, n)) as f:
            lines.append(f.read().strip())
    return hashlib.sha256("\n".join(sorted(lines)).encode()).hexdigest()[:16]


def command(spec: RunSpec) -> list[str]:
    """The command line for one run."""
    cmd = [spec.sear, "run", "--no-progress", "--output-dir", spec.out_dir,
           "--seed", str(spec.seed)]
    for s in spec.config.search:
        cmd += ["--search", s]
    if spec.budget > 0:
        cmd += ["--max-time", f"{spec.budget:g}"]
    if spec.query_timeout > 0:
        cmd += ["--max-solver-time", f"{spec.query_timeout:g}"]
    if spec.log_queries:
        cmd += ["--log-queries", spec.log_queries, "--log-scope", "core"]
    cmd += ["-D", f"SIZE={spec.size}"]
    for d in spec.program.defines:
        cmd += ["-D", d]
    cmd += spec.prep_args + spec.program.args + spec.config.args
    cmd.append(spec.source)
    return cmd


def _rejected_flags(stderr: str) -> bool:
    """Whether clap refused the command line (unknown flag or bad value)."""
    return any(s in stderr for s in (
        "unexpected argument", "invalid value", "unrecognized", "Found argument",
        "a value is required", "isn't a valid value"))


def solver_seconds(summary: dict) -> float:
    """Time spent in the solver chain: the outermost layer's time includes the inner ones.

    `solver_time_s` alone misses queries made while writing tests (seen on isBase64), so the
    larger of the two is used."""
    layers = summary.get("solver", {}).get("layers", [])
    layer_max = max((float(layer.get("time_secs", 0.0)) for layer in layers), default=0.0)
    return max(float(summary.get("solver_time_s", 0.0)), layer_max)


def empty_record(spec: RunSpec, cmd: list[str]) -> dict:
    """A result record with every metric unknown and status `failed`."""
    return {
        "program": spec.program.name, "size": spec.size, "config": spec.config.name,
        "status": FAILED, "exit_code": None, "message": "", "wall_s": None,
        "time_s": None, "instructions": None, "paths": None, "completed_paths": None,
        "error_paths": None, "tests": None, "queries": None, "core_queries": None,
        "largest_array": None,
        "covered": None, "errors": None, "sym_mode": None, "merges": None,
        "merged_states": None, "constraints_ast": None, "values_ast": None,
        "solver_s": None, "solver_share": None, "stop_reason": None, "solver_timeouts": None,
        "traces": None, "cpu_s": None, "command": cmd, "replay_instructions": None,
    }


def run(spec: RunSpec) -> dict:
    """Runs sear and returns the result record."""
    cmd = command(spec)
    rec = empty_record(spec, cmd)
    # a hard deadline well past the budget: sear stops itself at --max-time, but clang,
    # a query that ignores its timeout, or test writing could overrun
    deadline = (spec.budget if spec.budget > 0 else 3600) * 2 + spec.query_timeout + 60
    t0 = time.monotonic()
    # CPU seconds of the run (sear, and the clang it starts): on a loaded machine a fairer
    # measure than the wall-clock time, which depends on what else runs.
    cpu0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    try:
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                start_new_session=True)
    except OSError as e:
        rec["message"] = f"cannot start sear: {e}"
        return rec
    try:
        out, err = proc.communicate(timeout=deadline)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
        rec["status"] = KILLED
        rec["message"] = f"killed after {deadline:.0f} s"
    rec["wall_s"] = time.monotonic() - t0
    cpu1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    rec["cpu_s"] = (cpu1.ru_utime - cpu0.ru_utime) + (cpu1.ru_stime - cpu0.ru_stime)
    rec["exit_code"] = proc.returncode
    summary_path = os.path.join(spec.out_dir, "summary.json")
    if rec["status"] == KILLED:
        return rec
    if proc.returncode != 0 and _rejected_flags(err):
        rec["status"] = UNSUPPORTED
        rec["message"] = next((ln.strip() for ln in err.splitlines() if "error" in ln),
                              err.strip()[:200])
        return rec
    try:
        with open(summary_path) as f:
            summary = json.load(f)
    except (OSError, ValueError) as e:
        lines = [ln for ln in err.splitlines() if "error" in ln.lower()]
        rec["message"] = (lines[-1] if lines else f"no summary.json ({e})")[:300]
        return rec
    fill(rec, summary)
    rec["traces"] = ((summary.get("trace_digest") or trace_digest(spec.out_dir))
                     if spec.trace_hash else None)
    if proc.returncode != 0:
        rec["status"] = FAILED
        rec["message"] = f"exit code {proc.returncode}"
    return rec


def fill(rec: dict, summary: dict) -> None:
    """Copies the metrics of a summary.json into a result record and sets its status."""
    completed = int(summary.get("completed_paths", 0))
    errors = int(summary.get("error_paths", 0))
    rec.update({
        "time_s": float(summary.get("time_s", 0.0)),
        "instructions": int(summary.get("instructions", 0)),
        "completed_paths": completed,
        "error_paths": errors,
        "paths": completed + errors,
        "tests": int(summary.get("tests", 0)),
        "queries": int(summary.get("queries", 0)),
        "core_queries": int(summary.get("solver", {}).get("core_queries", 0)),
        # the largest array a symbolic-offset access used (bytes; the memory models' effect)
        "largest_array": int(summary.get("memory", {}).get("largest_symbolic_array", 0)),
        "stop_reason": summary.get("stop_reason"),
        "solver_timeouts": sum(1 for e in summary.get("errors", []) if e.get("kind") == "solver"),
        "covered": int(summary.get("covered_instructions", 0)),
        "errors": len(summary.get("errors", [])),
        # under --jobs: instructions re-executed to rebuild prefixes (counted in instructions)
        "replay_instructions": int(summary.get("replay_instructions") or 0),
    })
    # the symbolic-size model (seed 003 Ch. 5): its mode and the loop merges' encodings
    sym = summary.get("symbolic_size") or {}
    rec.update({
        "sym_mode": sym.get("mode"),
        "merges": sym.get("merges"),
        "merged_states": sym.get("merged_states"),
        "constraints_ast": sym.get("merged_constraints_ast"),
        "values_ast": sym.get("merged_values_ast"),
    })
    # PAT (seed 003 Ch. 6): pattern merges and the quantified stage's answers by stage
    pat = sym.get("pat") or {}
    layers = summary.get("solver", {}).get("layers", [])
    quant = next((layer.get("counters") or {} for layer in layers
                  if layer.get("name") == "quantified"), None)
    count = (lambda *k: None) if quant is None else (lambda *k: sum(quant.get(x, 0) for x in k))
    rec.update({
        "pattern_merges": pat.get("pattern_merges"),
        "pattern_ast": pat.get("merged_constraints_ast"),
        "q_queries": count("quantified_queries"),
        "q_strip": count("strip", "strip_unsat"),
        "q_duplicate": count("duplicate"),
        "q_repair": count("repair"),
        "q_fallback": count("fallback"),
    })
    # incremental merging (seed 003 §6.3)
    inc = sym.get("incremental") or {}
    rec.update({"inc_merges": inc.get("merges"), "inc_subsumed": inc.get("subsumed_states")})
    rec["solver_s"] = solver_seconds(summary)
    rec["solver_share"] = rec["solver_s"] / rec["time_s"] if rec["time_s"] else None
    if rec["stop_reason"] == "exhausted":
        rec["status"] = DONE_TIMEOUTS if rec["solver_timeouts"] else DONE
    else:
        rec["status"] = BUDGET
