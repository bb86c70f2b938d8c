"""bench/solvers/compare: answer a corpus of SMT-LIB2 queries (as logged by
`sear run --log-queries DIR --log-scope core`) with sear's chain and cores and with Z3,
Bitwuzla and cvc5 called directly; report per solver the number solved, total and median
time, and every disagreement (loudly; the exit code is then 1).

Each (query, solver) runs in its own subprocess with a timeout, so a crash or a hang costs
one answer. The answer sear gave while exploring (the `; answer:` comment of a logged query)
takes part in the disagreement check as the pseudo-solver `logged`."""
from __future__ import annotations

import argparse
import json
import os
import re
import signal
import statistics
import subprocess
import sys
import time

from . import manifest

WORKER = os.path.join(manifest.BENCH_DIR, "solvers", "solve_one.py")
REPO = os.path.dirname(manifest.BENCH_DIR)
PY_SOLVERS = ["z3", "bitwuzla", "cvc5"]
DEFINITE = ("sat", "unsat")


def parse_args(argv):
    p = argparse.ArgumentParser(prog="bench/solvers/compare", description=__doc__.split("\n\n")[0])
    p.add_argument("corpus", nargs="+", help=".smt2 files or directories (searched recursively)")
    p.add_argument("--timeout", type=float, default=10.0, help="per-query timeout, seconds [10]")
    p.add_argument("--solvers", help="comma-separated solvers [all available]")
    p.add_argument("--sear", help="the sear binary [$SEAR or target/release/sear]")
    p.add_argument("--python", help="Python with the solver modules [.venv/bin/python]")
    p.add_argument("--out", help="write per-query results.json, results.csv and table.md here")
    p.add_argument("--limit", type=int, help="at most this many queries (smallest files first)")
    p.add_argument("--per-dir", type=int,
                   help="at most this many queries per directory, evenly spaced (a sample of each program)")
    return p.parse_args(argv)


def corpus_files(paths: list[str]) -> list[str]:
    """Every .smt2 file under the given paths, sorted."""
    files = []
    for p in paths:
        if os.path.isdir(p):
            for root, _, names in os.walk(p):
                files += [os.path.join(root, n) for n in names if n.endswith(".smt2")]
        elif os.path.isfile(p):
            files.append(p)
        else:
            raise FileNotFoundError(p)
    return sorted(set(files))


def sample_per_dir(files: list[str], n: int) -> list[str]:
    """At most n files of each directory, evenly spaced in name order (first and last kept)."""
    by_dir: dict[str, list[str]] = {}
    for f in files:
        by_dir.setdefault(os.path.dirname(f), []).append(f)
    out = []
    for d in sorted(by_dir):
        fs = sorted(by_dir[d])
        if len(fs) <= n:
            out += fs
        elif n == 1:
            out.append(fs[0])
        else:
            out += [fs[round(i * (len(fs) - 1) / (n - 1))] for i in range(n)]
    return out


def logged_answer(path: str) -> str | None:
    """The answer sear recorded in the file's `; answer:` comment, if any."""
    try:
        with open(path, errors="replace") as f:
            for line in f:
                m = re.match(r";\s*answer:\s*(\w+)", line)
                if m:
                    return m.group(1)
    except OSError:
        pass
    return None


def _run(cmd: list[str], timeout: float) -> tuple[str, str, float, bool]:
    """Runs a command in its own process group; returns (stdout, stderr, wall, timed_out)."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    try:
        out, err = proc.communicate(timeout=timeout)
        return out, err, time.perf_counter() - t0, False
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
        return out, err, time.perf_counter() - t0, True


class Solver:
    """One solver: how to probe it and how to answer a file."""

    def __init__(self, name: str, cmd: list[str], probe: list[str] | None, json_output: bool,
                 description: str = ""):
        self.name, self.cmd, self.probe, self.json_output = name, cmd, probe, json_output
        self.description = description
        self.available, self.version = False, ""

    def solve(self, path: str, timeout: float) -> dict:
        """Answers one file: {answer, time, wall, message}."""
        cmd = [path if a == "{file}" else a for a in self.cmd]
        try:
            out, err, wall, timed_out = _run(cmd, timeout)
        except OSError as e:
            return {"answer": "error", "time": None, "wall": 0.0, "message": str(e)}
        if timed_out:
            return {"answer": "timeout", "time": None, "wall": wall, "message": ""}
        if self.json_output:
            try:
                r = json.loads(out.strip().splitlines()[-1])
                return {"answer": r["answer"], "time": r["time"], "wall": wall,
                        "message": r.get("message", "")}
            except (ValueError, IndexError, KeyError):
                return {"answer": "error", "time": None, "wall": wall,
                        "message": (err.strip().splitlines() or ["no output"])[-1][:300]}
        # the first line whose first word is an answer ("unknown (timeout)" counts as unknown)
        answer = next((ln.split()[0] for ln in out.splitlines()
                       if ln.split() and ln.split()[0] in ("sat", "unsat", "unknown")), None)
        m = re.search(r"^;?\s*time:\s*([0-9.eE+-]+)", out, re.M)
        if answer is None:
            return {"answer": "error", "time": None, "wall": wall,
                    "message": (err.strip().splitlines() or ["no answer"])[-1][:300]}
        return {"answer": answer, "time": float(m.group(1)) if m else wall, "wall": wall,
                "message": ""}


def _probe_rc(cmd: list[str]) -> int:
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
        return proc.returncode
    except (OSError, subprocess.TimeoutExpired):
        return -1


def make_solvers(args) -> list[Solver]:
    """The sear solvers of solvers.toml and the Python solvers, probed."""
    sear = args.sear or os.environ.get("SEAR") or os.path.join(
        os.environ.get("CARGO_TARGET_DIR", os.path.join(REPO, "target")), "release", "sear")
    python = args.python or os.path.join(REPO, ".venv", "bin", "python")
    if not os.path.exists(python):
        python = sys.executable
    solvers = []
    with open(os.path.join(manifest.BENCH_DIR, "solvers", "solvers.toml"), "rb") as f:
        table = manifest.tomllib.load(f).get("solvers", {})
    for name, t in table.items():
        sub = lambda xs: [sear if a == "{sear}" else a for a in xs]  # noqa: E731
        s = Solver(name, sub(t["cmd"]), sub(t["probe"]) if "probe" in t else None, False,
                   t.get("description", ""))
        solvers.append(s)
    for name in PY_SOLVERS:
        solvers.append(Solver(name, [python, WORKER, name, "{file}"],
                              [python, WORKER, "--probe", name], True, f"{name} via its Python API"))
    if args.solvers:
        wanted = args.solvers.split(",")
        unknown = [w for w in wanted if w not in {s.name for s in solvers}]
        if unknown:
            sys.exit(f"compare: unknown solver(s): {', '.join(unknown)}")
        solvers = [s for s in solvers if s.name in wanted]
    for s in solvers:
        if s.probe is None:
            s.available = True
            continue
        rc = _probe_rc(s.probe)
        s.available = rc == 0
        if s.json_output:
            out, err, _, _ = _run(s.probe, 60)
            s.version = (out.strip() if s.available else (err.strip().splitlines() or ["missing"])[-1])[:120]
        elif not s.available:
            s.version = f"probe `{' '.join(s.probe[1:])}` exited {rc}"
    return solvers


def summarize(results: list[dict], solvers: list[Solver]) -> list[dict]:
    """Per solver: solved, sat, unsat, unknown, timeouts, errors, total/median time, unique."""
    rows = []
    for s in solvers:
        mine = [r["answers"].get(s.name) for r in results]
        mine = [a for a in mine if a is not None]
        solved = [a for a in mine if a["answer"] in DEFINITE]
        times = [a["time"] for a in solved if a["time"] is not None]
        unique = sum(1 for r in results
                     if r["answers"].get(s.name, {}).get("answer") in DEFINITE
                     and not any(a["answer"] in DEFINITE for n, a in r["answers"].items() if n != s.name))
        rows.append({
            "solver": s.name, "available": s.available, "version": s.version,
            "queries": len(mine), "solved": len(solved),
            "sat": sum(a["answer"] == "sat" for a in mine),
            "unsat": sum(a["answer"] == "unsat" for a in mine),
            "unknown": sum(a["answer"] == "unknown" for a in mine),
            "timeouts": sum(a["answer"] == "timeout" for a in mine),
            "errors": sum(a["answer"] == "error" for a in mine),
            "total_s": sum(times) if times else None,
            "median_s": statistics.median(times) if times else None,
            "unique": unique,
            "first_error": next((a["message"] for a in mine if a["answer"] == "error"), ""),
        })
    return rows


def markdown(rows: list[dict], n_queries: int, timeout: float, disagreements: int) -> str:
    """The per-solver table."""
    f = lambda v, fmt="{:.3f}": "–" if v is None else fmt.format(v)  # noqa: E731
    lines = [f"{n_queries} queries, timeout {timeout:g} s per query; disagreements: {disagreements}", "",
             "| solver | version | solved | sat | unsat | unknown | timeout | error | total s | median s | only solver |",
             "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for r in rows:
        if not r["available"]:
            lines.append(f"| {r['solver']} | unavailable: {r['version'].replace('|', '/')} | | | | | | | | | |")
            continue
        lines.append(f"| {r['solver']} | {r['version']} | {r['solved']} | {r['sat']} | {r['unsat']} | "
                     f"{r['unknown']} | {r['timeouts']} | {r['errors']} | {f(r['total_s'])} | "
                     f"{f(r['median_s'], '{:.4f}')} | {r['unique']} |")
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    args = parse_args(sys.argv[1:] if argv is None else argv)
    try:
        files = corpus_files(args.corpus)
    except FileNotFoundError as e:
        print(f"compare: no such file or directory: {e}", file=sys.stderr)
        return 2
    if args.per_dir:
        files = sample_per_dir(files, args.per_dir)
    if args.limit:
        files = sorted(files, key=os.path.getsize)[: args.limit]
    solvers = make_solvers(args)
    live = [s for s in solvers if s.available]
    for s in solvers:
        state = f"available {s.version}" if s.available else f"UNAVAILABLE ({s.version})"
        print(f"compare: {s.name}: {state}", file=sys.stderr)
    results, disagreements = [], []
    for i, path in enumerate(files):
        answers = {s.name: s.solve(path, args.timeout) for s in live}
        logged = logged_answer(path)
        verdicts = {n: a["answer"] for n, a in answers.items() if a["answer"] in DEFINITE}
        if logged in DEFINITE:
            verdicts["logged"] = logged
        if len(set(verdicts.values())) > 1:
            disagreements.append((path, verdicts))
            print(f"compare: !!! DISAGREEMENT on {path}: "
                  + ", ".join(f"{n}={v}" for n, v in sorted(verdicts.items())), file=sys.stderr)
        results.append({"file": path, "size": os.path.getsize(path), "logged": logged,
                        "answers": answers})
        if (i + 1) % 25 == 0:
            print(f"compare: {i + 1}/{len(files)} queries", file=sys.stderr)
    rows = summarize(results, solvers)
    table = markdown(rows, len(files), args.timeout, len(disagreements))
    print(table)
    if args.out:
        os.makedirs(args.out, exist_ok=True)
        with open(os.path.join(args.out, "table.md"), "w") as fh:
            fh.write(table)
        with open(os.path.join(args.out, "results.json"), "w") as fh:
            json.dump({"timeout": args.timeout, "solvers": rows, "queries": results,
                       "disagreements": [{"file": p, "verdicts": v} for p, v in disagreements]},
                      fh, indent=1)
        with open(os.path.join(args.out, "results.csv"), "w") as fh:
            names = [s.name for s in live]
            fh.write("file,logged," + ",".join(f"{n},{n}_time" for n in names) + "\n")
            for r in results:
                cells = []
                for n in names:
                    a = r["answers"][n]
                    cells += [a["answer"], "" if a["time"] is None else f"{a['time']:.6f}"]
                fh.write(f"{r['file']},{r['logged'] or ''}," + ",".join(cells) + "\n")
    if disagreements:
        print(f"compare: !!! {len(disagreements)} DISAGREEMENT(S) between solvers", file=sys.stderr)
        return 1
    return 0
