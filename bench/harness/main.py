"""The `bench/run` command: choose programs and configurations, run them interleaved
(A B A B ...), write runs.jsonl, results.json, results.csv and table.md, print the table."""
from __future__ import annotations

import argparse
import datetime
import json
import math
import os
import platform
import shutil
import subprocess
import sys

from . import klee, manifest, prepare, report, runner

REPO = os.path.dirname(manifest.BENCH_DIR)



def json_safe(value):
    """`value` with non-finite floats spelled as strings ("inf", "-inf", "nan"): JSON has no
    infinity, and a ratio against a baseline that finished no path is infinite."""
    if isinstance(value, float) and not math.isfinite(value):
        return "nan" if math.isnan(value) else ("inf" if value > 0 else "-inf")
    if isinstance(value, dict):
        return {k: json_safe(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_safe(v) for v in value]
    return value

def parse_args(argv):
    p = argparse.ArgumentParser(
        prog="bench/run", description="Run sear on the benchmark suite and compare configurations.")
    p.add_argument("--suite", default="all",
                   help="comma-separated suites (spec, tables, lexers, ...) or `all` [all]")
    p.add_argument("--programs", help="comma-separated program names (overrides --suite)")
    p.add_argument("--configs", help="comma-separated configuration names [the `default` set]")
    p.add_argument("--set", dest="config_set", help="a named configuration set from configs.toml")
    p.add_argument("--baseline", help="the configuration ratios are against [configs.toml's baseline]")
    p.add_argument("--reps", type=int, default=1, help="repetitions per configuration [1]")
    p.add_argument("--size", action="append", default=[],
                   help="N (every program) or PROGRAM=N; repeatable")
    p.add_argument("--budget", type=float, help="--max-time per run, seconds (overrides the manifest)")
    p.add_argument("--query-timeout", type=float, help="--max-solver-time per query, seconds")
    p.add_argument("--smoke", action="store_true",
                   help="the smoke subset: programs with smoke_size, the `smoke` set, one repetition")
    p.add_argument("--sear", help="the sear binary [builds target/release/sear with cargo]")
    p.add_argument("--klee", default=os.environ.get("KLEE_RUN"),
                   help="KLEE's klee-run wrapper, for configurations with engine = \"klee\" "
                        "(../shared/tools/klee/build-klee.sh) [$KLEE_RUN; without it they are "
                        "reported as unsupported]")
    p.add_argument("--out", help="output directory [bench/results/<timestamp>]")
    p.add_argument("--collect-queries", metavar="DIR",
                   help="also log the core-solver queries of the first repetition into DIR/<program>/<config>")
    p.add_argument("--no-trace-check", action="store_true",
                   help="do not compare the explored paths (summary.json's trace_digest)")
    p.add_argument("--list", action="store_true", help="list programs and configurations and exit")
    p.add_argument("--programs-file", help=argparse.SUPPRESS)
    p.add_argument("--configs-file", help=argparse.SUPPRESS)
    return p.parse_args(argv)


def run_klee(spec: runner.RunSpec, klee_run: str | None) -> dict:
    """A KLEE run, or an `unsupported` record when no KLEE was given."""
    if not klee_run or not os.access(klee_run, os.X_OK):
        rec = runner.empty_record(spec, [])
        rec["status"] = runner.UNSUPPORTED
        rec["message"] = "no KLEE: pass --klee PATH/TO/klee-run or set KLEE_RUN"
        return rec
    return klee.run(spec, klee_run)


def find_sear(args) -> str:
    """The sear binary: --sear, $SEAR, or a fresh release build."""
    if args.sear:
        return os.path.abspath(args.sear)
    if os.environ.get("SEAR"):
        return os.environ["SEAR"]
    target = os.environ.get("CARGO_TARGET_DIR", os.path.join(REPO, "target"))
    print("bench: cargo build --release -p sear-cli", file=sys.stderr)
    r = subprocess.run(["cargo", "build", "--release", "-q", "-p", "sear-cli"], cwd=REPO)
    if r.returncode != 0:
        sys.exit("bench: cargo build failed")
    return os.path.join(target, "release", "sear")


def machine_info(sear: str) -> dict:
    """Where and with what the benchmark ran."""
    cpu = ""
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next((ln.split(":", 1)[1].strip() for ln in f if ln.startswith("model name")), "")
    except OSError:
        pass
    def git(*a):
        r = subprocess.run(["git", *a], cwd=REPO, capture_output=True, text=True)
        return r.stdout.strip() if r.returncode == 0 else ""
    return {
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "host": platform.node(), "cpu": cpu, "cores": os.cpu_count(),
        "os": platform.platform(), "python": platform.python_version(),
        "load_start": os.getloadavg()[0], "commit": git("rev-parse", "--short", "HEAD"),
        "dirty": bool(git("status", "--porcelain", "--untracked-files=no")), "sear": sear,
    }


def choose(args, suite: manifest.Suite):
    """The programs (with sizes) and configurations of this run."""
    if args.programs:
        names = args.programs.split(",")
        unknown = [n for n in names if n not in suite.programs]
        if unknown:
            sys.exit(f"bench: unknown program(s): {', '.join(unknown)}")
        programs = [suite.programs[n] for n in names]
    elif args.smoke:
        programs = [p for p in suite.programs.values() if p.smoke_size]
    else:
        wanted = set(args.suite.split(","))
        programs = [p for p in suite.programs.values()
                    if "all" in wanted or wanted.intersection(p.suites)]
    if args.configs:
        cnames = args.configs.split(",")
    else:
        set_name = args.config_set or ("smoke" if args.smoke else "default")
        if set_name not in suite.sets:
            sys.exit(f"bench: no configuration set `{set_name}` in configs.toml")
        cnames = suite.sets[set_name]
    unknown = [n for n in cnames if n not in suite.configs]
    if unknown:
        sys.exit(f"bench: unknown configuration(s): {', '.join(unknown)}")
    if suite.baseline not in cnames:
        cnames = [suite.baseline] + cnames
    sizes = {}
    for s in args.size:
        if "=" in s:
            name, n = s.split("=", 1)
            if name not in suite.programs:
                sys.exit(f"bench: --size names unknown program `{name}`")
            sizes[name] = int(n)
        else:
            sizes["*"] = int(s)
    chosen = []
    for p in programs:
        size = sizes.get(p.name, sizes.get("*", p.smoke_size if args.smoke else p.size))
        chosen.append((p, size))
    return chosen, [suite.configs[n] for n in cnames]


def list_suite(suite: manifest.Suite) -> None:
    print("programs:")
    for p in suite.programs.values():
        print(f"  {p.name:22} size {p.size:<3} smoke {p.smoke_size or '-':<3} "
              f"[{','.join(p.suites)}] {p.description}")
    print(f"configurations (baseline {suite.baseline}):")
    for c in suite.configs.values():
        print(f"  {c.name:22} {' '.join(['--search ' + s for s in c.search] + c.args)}  {c.description}")
    print("sets:")
    for k, v in suite.sets.items():
        print(f"  {k:22} {', '.join(v)}")


def main(argv=None) -> int:
    args = parse_args(sys.argv[1:] if argv is None else argv)
    try:
        suite = manifest.load(args.programs_file, args.configs_file)
    except manifest.ManifestError as e:
        print(f"bench: {e}", file=sys.stderr)
        return 2
    if args.list:
        list_suite(suite)
        return 0
    if args.baseline:
        if args.baseline not in suite.configs:
            print(f"bench: unknown baseline `{args.baseline}`", file=sys.stderr)
            return 2
        suite.baseline = args.baseline
    if not args.baseline and args.config_set in suite.set_baselines:
        suite.baseline = suite.set_baselines[args.config_set]
    chosen, configs = choose(args, suite)
    if args.smoke:
        args.budget = suite.smoke_budget if args.budget is None else args.budget
        if args.query_timeout is None:
            args.query_timeout = suite.smoke_query_timeout
    reps = 1 if args.smoke else max(1, args.reps)
    sear = find_sear(args)
    if not os.access(sear, os.X_OK):
        print(f"bench: sear binary not found at {sear}", file=sys.stderr)
        return 2
    stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
    out = os.path.abspath(args.out or os.path.join(manifest.BENCH_DIR, "results", stamp))
    os.makedirs(out, exist_ok=True)
    info = machine_info(sear)
    trace = not args.no_trace_check
    info["trace_check"] = trace
    total = len(chosen) * len(configs) * reps
    print(f"bench: {len(chosen)} programs x {len(configs)} configurations x {reps} reps = "
          f"{total} runs -> {out}", file=sys.stderr)
    records, unsupported, n = [], {}, 0
    with open(os.path.join(out, "runs.jsonl"), "w") as log:
        for program, size in chosen:
            try:
                source, prep_args = prepare.prepare(program, os.path.join(out, "build"))
            except prepare.PrepareError as e:
                for c in configs:
                    records.append({"program": program.name, "size": size, "config": c.name,
                                    "status": runner.FAILED, "message": str(e)})
                print(f"bench: {program.name}: {e}", file=sys.stderr)
                continue
            for rep in range(reps):
                for c in configs:  # interleaved: A B A B ...
                    n += 1
                    binary = os.environ.get(c.binary_env, "") if c.binary_env else sear
                    if c.name in unsupported:
                        rec = dict(unsupported[c.name], program=program.name, size=size)
                    elif not binary:
                        rec = unsupported[c.name] = {
                            "program": program.name, "size": size, "config": c.name,
                            "status": runner.UNSUPPORTED,
                            "message": f"${c.binary_env} names no sear binary"}
                    else:
                        spec = runner.RunSpec(
                            sear=binary, program=program, config=c, source=source,
                            prep_args=prep_args, size=size,
                            budget=args.budget if args.budget is not None else program.budget,
                            query_timeout=(args.query_timeout if args.query_timeout is not None
                                           else program.query_timeout),
                            seed=suite.seed,
                            out_dir=os.path.join(out, "runs", f"{program.name}-{size}", c.name, str(rep)),
                            log_queries=(os.path.join(args.collect_queries, program.name, c.name)
                                         if args.collect_queries and rep == 0 else None),
                            trace_hash=trace)
                        if os.path.exists(spec.out_dir):
                            shutil.rmtree(spec.out_dir)
                        os.makedirs(os.path.dirname(spec.out_dir), exist_ok=True)
                        if c.engine == "klee":
                            rec = run_klee(spec, args.klee)
                        else:
                            rec = runner.run(spec)
                        if rec["status"] == runner.UNSUPPORTED:
                            unsupported[c.name] = rec
                    rec["rep"] = rep
                    rec["expect_paths"] = program.expect_paths if size == program.size else None
                    records.append(rec)
                    log.write(json.dumps(json_safe(rec), allow_nan=False) + "\n")
                    log.flush()
                    t = "" if rec.get("time_s") is None else f"{rec['time_s']:.2f}s"
                    print(f"bench: [{n}/{total}] {program.name} size={size} {c.name} rep={rep}: "
                          f"{rec['status']} {t} paths={rec.get('paths')}", file=sys.stderr)
    info["load_end"] = os.getloadavg()[0]
    rows = report.aggregate(records)
    report.add_ratios(rows, suite.baseline)
    means = report.geomeans(rows, [c.name for c in configs], suite.baseline)
    unexpected = [r for r in rows if r["status"] == runner.DONE and r["config"] == suite.baseline
                  and suite.programs[r["program"]].expect_paths is not None
                  and r["size"] == suite.programs[r["program"]].size
                  and r["paths"] != suite.programs[r["program"]].expect_paths]
    table = report.markdown(rows, means, suite.baseline)
    header = (f"Machine: {info['cpu']} ({info['cores']} cores), load {info['load_start']:.1f} → "
              f"{info['load_end']:.1f}; checkout {info['commit']}{' (dirty)' if info['dirty'] else ''}, "
              f"sear {info['sear']}; "
              f"{info['date']}; {reps} rep(s), DFS, seed {suite.seed}\n\n")
    with open(os.path.join(out, "table.md"), "w") as f:
        f.write(header + table)
    with open(os.path.join(out, "results.csv"), "w") as f:
        f.write(report.to_csv(rows))
    with open(os.path.join(out, "results.json"), "w") as f:
        json.dump(json_safe({"machine": info, "baseline": suite.baseline, "reps": reps,
                   "configs": {c.name: {"search": c.search, "args": c.args} for c in configs},
                   "rows": rows, "geomeans": means,
                   "unexpected_paths": [(r["program"], r["paths"]) for r in unexpected]}),
                  f, indent=1, allow_nan=False)
    latest = os.path.join(manifest.BENCH_DIR, "results", "latest")
    if out.startswith(os.path.join(manifest.BENCH_DIR, "results")):
        if os.path.islink(latest):
            os.unlink(latest)
        if not os.path.exists(latest):
            os.symlink(out, latest)
    print(header + table)
    for r in unexpected:
        print(f"bench: UNEXPECTED: {r['program']} explored {r['paths']} paths, expected "
              f"{suite.programs[r['program']].expect_paths}", file=sys.stderr)
    return 1 if unexpected else 0
