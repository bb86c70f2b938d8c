#!/usr/bin/env python3
"""Indexify (seed 004) coverage experiment: each program of bench/programs/indexify is run
with and without --indexify, every test is replayed natively against the ORIGINAL program
(sear replay: errors must reproduce, outputs match), and the tests are run once more in a
gcov build of the original program to measure its line and branch coverage. Prints a
markdown table (docs/techniques/indexify.md) and, per program, the branches only one
configuration covers.

    bench/indexify_coverage.py [--sear PATH] [--max-time S] [--only NAME]
"""
import argparse
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PROGRAMS = os.path.join(ROOT, "bench", "programs", "indexify")

# name -> (source, extra sear arguments, configurations to compare)
STRINGS = {"base": [], "ops": ["--indexify=strings"],
           "kleene": ["--indexify=strings", "--index-builder=kleene"]}
FLOATS = {"base": [], "floats": ["--indexify=floats"]}
CASES = {
    "vendor": ("vendor.c", ["-D", "SIZE=64", "-D", "PTR_SIZE=4"], STRINGS),
    "keywords": ("keywords.c", ["-D", "SIZE=32"], STRINGS),
    "options": ("options.c", ["--sym-arg", "10"], STRINGS),
    "fd_reduce": ("fd_reduce.c", [], FLOATS),
    "fd_classify": ("fd_classify.c", [], FLOATS),
    "fd_floor": ("fd_floor.c", [], FLOATS),
}


def sear_run(sear, src, args, out, max_time):
    cmd = [sear, "run", "--no-progress", "--no-index-cache", "--max-time", str(max_time),
           "--output-dir", out] + args + [src]
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    with open(os.path.join(out, "summary.json")) as f:
        return json.load(f)


def replay(sear, out):
    p = subprocess.run([sear, "replay", "--json", out], capture_output=True, text=True)
    return json.loads(p.stdout)["summary"]


def build_gcov(src, defines, work):
    inc = os.path.join(ROOT, "runtime", "include")
    rt = os.path.join(work, "rt.o")
    subprocess.run(["clang-19", "-O0", "-DSEAR_REPLAY_POSIX", "-I", inc, "-c",
                    os.path.join(ROOT, "runtime", "replay", "sear_replay.c"), "-o", rt],
                   check=True)
    exe = os.path.join(work, "prog")
    subprocess.run(["clang-19", "-O0", "--coverage", "-I", inc] + defines +
                   [src, rt, "-lm", "-o", exe], check=True, cwd=work)
    return exe


def ktest_objects(path):
    """The (name, bytes) objects of a .ktest file (KLEE's format)."""
    import struct
    data = open(path, "rb").read()
    at = 5

    def u32():
        nonlocal at
        v = struct.unpack(">I", data[at:at + 4])[0]
        at += 4
        return v

    version = u32()
    for _ in range(u32()):
        n = u32()
        at += n
    if version >= 2:
        u32()
        u32()
    objects = []
    for _ in range(u32()):
        n = u32()
        name = data[at:at + n].decode(errors="replace")
        at += n
        size = u32()
        objects.append((name, data[at:at + size]))
        at += size
    return objects


MODEL = re.compile(r"^(arg\d\d|n_args|model_version|stdin.*|[A-Z]-(data|stat).*)$")


def coverage(src, defines, tests, work):
    """(lines %, branches taken %, set of taken branches) of the tests natively; the POSIX
    model's argument objects become argv (as sear replay does for --sym-arg)."""
    for f in glob.glob(os.path.join(work, "*.gcda")):
        os.remove(f)
    exe = os.path.join(work, "prog")
    for k in tests:
        objects = ktest_objects(k)
        skip = 0
        while skip < len(objects) and MODEL.match(objects[skip][0]):
            skip += 1
        args = [o[1].split(b"\0")[0] for o in objects[:skip] if re.match(r"arg\d\d", o[0])]
        env = dict(os.environ, SEAR_KTEST=k, SEAR_KTEST_SKIP=str(skip))
        subprocess.run([exe] + args, env=env, cwd=work, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, timeout=20)
    stem = os.path.splitext(os.path.basename(src))[0]
    gcda = glob.glob(os.path.join(work, f"*{stem}.gcda"))
    if not gcda:
        return 0.0, 0.0, set()
    p = subprocess.run(["llvm-cov-19", "gcov", "-b", "-c", gcda[0]], cwd=work,
                       capture_output=True, text=True)
    lines = re.search(r"Lines executed:([\d.]+)%", p.stdout)
    taken = re.search(r"Taken at least once:([\d.]+)%", p.stdout)
    covered = set()
    gcov = os.path.join(work, os.path.basename(src) + ".gcov")
    line = 0
    for text in open(gcov):
        m = re.match(r"\s*[-#\d*]+:\s*(\d+):", text)
        if m:
            line = int(m.group(1))
        b = re.match(r"branch\s+(\d+) taken (\d+)", text)
        if b and int(b.group(2)) > 0:
            covered.add((line, int(b.group(1))))
    return (float(lines.group(1)) if lines else 0.0, float(taken.group(1)) if taken else 0.0,
            covered)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sear", default=os.path.join(ROOT, "target", "release", "sear"))
    ap.add_argument("--max-time", type=float, default=60)
    ap.add_argument("--only")
    a = ap.parse_args()
    rows = []
    uniques = []
    for name, (file, extra, configs) in CASES.items():
        if a.only and a.only != name:
            continue
        src = os.path.join(PROGRAMS, file)
        defines = [x for i, x in enumerate(extra) if extra[i - 1] == "-D" or x == "-D"]
        with tempfile.TemporaryDirectory() as work:
            shutil.copy(src, work)
            build_gcov(os.path.join(work, file), defines, work)
            covered = {}
            for config, args in configs.items():
                out = os.path.join(work, "out-" + config)
                s = sear_run(a.sear, src, extra + args, out, a.max_time)
                r = replay(a.sear, out)
                tests = sorted(glob.glob(os.path.join(out, "*.ktest")))
                lines, branches, cov = coverage(os.path.join(work, file), defines, tests, work)
                covered[config] = cov
                ix = s.get("indexify") or {}
                gardens = ix.get("gardens", {})
                size = "/".join(str(g["constructed"]) for t, g in gardens.items()
                                if g["constructed"])
                rows.append({
                    "program": name, "config": config, "time_s": s["time_s"],
                    "pre_s": ix.get("preprocessing_s", 0.0), "stop": s["stop_reason"],
                    "paths": s["completed_paths"] + s["error_paths"] + s["early_paths"],
                    "ood": ix.get("out_of_garden", 0), "errors": len(s["errors"]),
                    "queries": s["queries"], "garden": size or "-", "lines": lines,
                    "branches": branches,
                    "replay": f"{r['outputs_checked'] - r['output_mismatches']}/"
                              f"{r['outputs_checked']} out, {r['reproduced']}/"
                              f"{r['expected_errors']} err",
                })
            base = covered.get("base", set())
            for config, cov in covered.items():
                if config != "base":
                    uniques.append((name, config, len(cov - base), len(base - cov)))
    print("| program | config | time (s) | preproc. (s) | stop | paths | out-of-garden | "
          "errors | queries | \\|G\\| | lines % | branches % | native replay |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['program']} | {r['config']} | {r['time_s']:.2f} | {r['pre_s']:.2f} | "
              f"{r['stop']} | {r['paths']} | {r['ood']} | {r['errors']} | {r['queries']} | "
              f"{r['garden']} | {r['lines']:.1f} | {r['branches']:.1f} | {r['replay']} |")
    print()
    print("| program | config | branches only it covers | branches only the baseline covers |")
    print("|---|---|---|---|")
    for name, config, only, lost in uniques:
        print(f"| {name} | {config} | {only} | {lost} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
