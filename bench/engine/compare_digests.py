#!/usr/bin/env python3
"""Checks that two sear binaries explore the same paths, and how long they take.

A change to the engine's structure must not change its behaviour. This script runs a sear
binary over every spec of every program in tests/c (each `sear-configs` configuration,
`mode` and `run:` line, as the e2e harness reads them, with its `--search dfs`) and over the
bench/programs.toml programs that exhaust at their manifest size (`expect_paths` set), each
with `--write-trace-hash`, and records per run what summary.json says: `trace_digest`,
`tests`, `errors` (paths made relative), completed and error paths, the stop reason, and the
exit status. Two such records are then compared run by run.

    bench/engine/compare_digests.py collect SEAR OUT.jsonl [--only c|bench] [--jobs N]
    bench/engine/compare_digests.py compare BEFORE.jsonl AFTER.jsonl
    bench/engine/compare_digests.py time SEAR_A SEAR_B [--reps N] PROGRAM...

`collect` appends one JSON line per run to OUT.jsonl (run it once per binary, from any
directory; the repository is this script's). `compare` prints the runs that differ and a
count. `time` runs the named bench/programs.toml programs (their manifest size or `NAME:SIZE`,
their args and `--seed 1`; or C files such as bench/engine/concrete_loop.c) with the two
binaries interleaved (A, B, A, B, ...) and prints the best and the
median `time_s` (wall) and CPU time of each, and B's over A's: on a shared machine the CPU
time is the steadier of the two.

Budgets: 30 s per tests/c run, 20 s per bench run (`--max-time`, unless the program's own
arguments set one); a run that stops at its budget is compared on what it did, which depends
on timing: the caller should look at those (`compare` counts the runs that exhausted).
"""
import argparse
import concurrent.futures
import json
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import tomllib

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
COMPARED = ("trace_digest", "tests", "errors", "completed_paths", "error_paths", "stop_reason", "rc")


def comments(path):
    """The `// KEY: VALUE` comments of a program, in order."""
    out = []
    for line in open(path, errors="replace"):
        m = re.match(r"\s*//\s*([a-z-]+(?: [a-z+]+)?):\s?(.*)$", line)
        if m:
            out.append((m.group(1), m.group(2).strip()))
    return out


def specs(path):
    """(label, sear args, program args) of every run the e2e harness makes of a program."""
    c = comments(path)
    sear_args = [w for k, v in c if k == "sear-args" for w in v.split()]
    program_args = [w for k, v in c if k == "program-args" for w in v.split()]
    modes = [k[5:] for k, v in c if k.startswith("mode ")]
    runs = [v for k, v in c if k == "run"]
    configs = [v for k, v in c if k == "sear-configs"]
    if modes:
        result = []
        for m in modes:
            mode, incremental = (m[:-4], True) if m.endswith("+inc") else (m, False)
            args = [f"--sym-size-mode={mode}"] + (["--incremental-merge=on"] if incremental else [])
            if mode in ("sm", "smopt", "pat"):
                args.append("--validate-merge")
            if mode == "pat":
                args.append("--validate-quantified")
            result.append((m, args + sear_args, program_args))
        return result
    if runs:
        result = []
        for r in runs:
            parts = [p.strip() for p in r.split(";;")]
            result.append((r, parts[0].split(), parts[1].split() if len(parts) > 1 else []))
        return result
    if configs:
        return [(cf.strip(), sear_args + cf.split(), program_args) for cf in configs[0].split("|")]
    return [("", sear_args, program_args)]


def run(sear, label, args, program, program_args, budget):
    """Runs sear once; the record of what summary.json says."""
    tmp = tempfile.mkdtemp(prefix="digest")
    out = os.path.join(tmp, "out")
    cmd = [sear, "run", "--no-progress", "--output-dir", out, "--write-trace-hash"]
    if not any(a.startswith("--search") for a in args):
        cmd += ["--search", "dfs"]
    if not any(a.startswith("--max-time") for a in args):
        cmd += ["--max-time", str(budget)]
    cmd += args + [program] + program_args
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    try:
        rc = subprocess.run(cmd, cwd=REPO, capture_output=True, timeout=budget * 3 + 60).returncode
    except subprocess.TimeoutExpired:
        rc = "timeout"
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    record = {"label": label, "rc": rc, "cpu_s": cpu}
    try:
        s = json.load(open(os.path.join(out, "summary.json")))
        record.update({k: s.get(k) for k in COMPARED if k != "rc"})
        record["time_s"] = s.get("time_s")
        for e in record.get("errors") or []:
            e["file"] = os.path.relpath(e["file"], REPO) if os.path.isabs(e.get("file") or "") else e.get("file")
    except (OSError, ValueError) as e:
        record["no_summary"] = str(e)
    shutil.rmtree(tmp, ignore_errors=True)
    return record


def bench_programs():
    """name -> (source, args) of the bench programs that exhaust at their manifest size."""
    manifest = tomllib.load(open(os.path.join(REPO, "bench/programs.toml"), "rb"))
    out = {}
    for name, p in manifest["programs"].items():
        if "source" not in p or "expect_paths" not in p:
            continue
        args = ["-D", f"SIZE={p['size']}"] + sum((["-D", d] for d in p.get("defines", [])), [])
        out[name] = (os.path.join("bench", p["source"]), args + p.get("args", []) + ["--seed", "1"], p["size"])
    return out


def collect(a):
    jobs = []
    if a.only in (None, "c"):
        for name in sorted(os.listdir(os.path.join(REPO, "tests/c"))):
            if name.endswith((".c", ".cpp")):
                program = os.path.join("tests/c", name)
                for cfg, args, pargs in specs(os.path.join(REPO, program)):
                    jobs.append((f"c/{name} [{cfg}]", args, program, pargs, 30))
    if a.only in (None, "bench"):
        for name, (source, args, size) in bench_programs().items():
            jobs.append((f"bench/{name} [size {size}]", args, source, [], 20))
    sear = os.path.abspath(a.sear)
    with open(a.out, "a") as f, concurrent.futures.ThreadPoolExecutor(a.jobs) as pool:
        for record in pool.map(lambda j: run(sear, *j), jobs):
            f.write(json.dumps(record) + "\n")
            f.flush()


def compare(a):
    def load(path):
        return {r["label"]: r for r in map(json.loads, open(path))}
    before, after = load(a.before), load(a.after)
    common = [k for k in before if k in after]
    equal = 0
    for k in common:
        x, y = before[k], after[k]
        if all(x.get(f) == y.get(f) for f in COMPARED):
            equal += 1
        else:
            print("DIFF", k, {f: (x.get(f), y.get(f)) for f in COMPARED if x.get(f) != y.get(f)})
    in_c = sum(1 for k in common if k.startswith("c/"))
    exhausted = sum(1 for k in common if before[k].get("stop_reason") == "exhausted")
    print(f"compared {len(common)} runs ({in_c} tests/c, {len(common) - in_c} bench): "
          f"equal {equal}, different {len(common) - equal}; exhausted before {exhausted}; "
          f"only before {len(set(before) - set(after))}, only after {len(set(after) - set(before))}")
    return 0 if equal == len(common) else 1


def timed_program(spec, programs):
    """(source, args) of a `time` argument: a C file, a manifest name, or `NAME:SIZE`."""
    if spec.endswith(".c"):
        return spec, []
    name, _, size = spec.partition(":")
    source, args, manifest_size = programs[name]
    if size:
        args = [a.replace(f"SIZE={manifest_size}", f"SIZE={size}") for a in args]
    return source, args


def time(a):
    programs = bench_programs()
    times = {(side, kind): {} for side in "AB" for kind in ("time_s", "cpu_s")}
    for name in a.programs:
        source, args = timed_program(name, programs)
        for _ in range(a.reps):
            for side, sear in (("A", a.sear_a), ("B", a.sear_b)):
                r = run(os.path.abspath(sear), name, args, source, [], 300)
                for kind in ("time_s", "cpu_s"):
                    times[side, kind].setdefault(name, []).append(r.get(kind) or float("nan"))
    for kind, what in (("time_s", "summary.json's time_s (wall)"), ("cpu_s", "CPU time of the process and its children (clang too)")):
        print(f"\n{what}\n")
        print("| program | A best | A median | B best | B median | B/A best | B/A median |")
        print("|---|---|---|---|---|---|---|")
        for name in a.programs:
            ta, tb = times["A", kind][name], times["B", kind][name]
            ma, mb = statistics.median(ta), statistics.median(tb)
            print(f"| {name} | {min(ta):.3f} | {ma:.3f} | {min(tb):.3f} | {mb:.3f} | {min(tb) / min(ta):.3f} | {mb / ma:.3f} |")


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="command", required=True)
    c = sub.add_parser("collect", help="run one binary over the suite")
    c.add_argument("sear")
    c.add_argument("out")
    c.add_argument("--only", choices=("c", "bench"))
    c.add_argument("--jobs", type=int, default=1, help="runs at once [1]")
    d = sub.add_parser("compare", help="compare two collections")
    d.add_argument("before")
    d.add_argument("after")
    t = sub.add_parser("time", help="interleaved timing of two binaries")
    t.add_argument("sear_a")
    t.add_argument("sear_b")
    t.add_argument("programs", nargs="+")
    t.add_argument("--reps", type=int, default=3)
    a = p.parse_args()
    return {"collect": collect, "compare": compare, "time": time}[a.command](a)


if __name__ == "__main__":
    sys.exit(main())
