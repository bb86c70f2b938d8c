"""KLEE's lit tests run with sear in KLEE's place (`bench/klee-regression --check`).

Each test's RUN lines are executed by bash (with pipefail, as lit's internal shell), in a
scratch copy of KLEE's `test/` directory, with lit's substitutions: `%klee` is
`bench/klee-shim` (sear behind KLEE's command line), `%ktest-tool` is `sear ktest`,
`%clang` is clang-19 with sear's `klee/klee.h` on the include path, FileCheck, `not` and
`count` are LLVM 19's. Tools sear has no counterpart of (`klee-replay`, `klee-stats`,
`kleaver`, `klee-exec-tree`, `ktest-gen`, `ktest-randgen`, `klee-zesti`, KLEE's runtime
test library) end the test at the first line using them: it is reported as `no-analogue`, with how far
it got. `Concrete/` tests (ConcreteTest.py) are run the way that
script runs them: the program linked with `_testingUtils.c`, once by `lli` and once by
sear, the two outputs compared.

Lines that read files only KLEE writes (its `assembly.ll`, `.kquery`/`.smt2` query logs,
`run.istats`, `.path`, `.cov`, `.xml` tests, the execution tree) are skipped; a test whose
every check is such a line is `no-analogue`. A test is `pass` when every other line
succeeds (the log says how many checks were skipped); otherwise `fail` with the first failing line
and its output, kept in the results directory for the per-test judgement (a failure may
be a wording difference, a documented choice, or a real difference).
"""
from __future__ import annotations

import os
import re
import signal
import subprocess

LLVM_BIN = "/usr/lib/llvm-19/bin"

# lit features of a KLEE build comparable to sear: x86-64 Linux, Z3, the POSIX runtime
# and a libc, LLVM 19, no sanitizer build, no STP or metaSMT.
FEATURES = {"x86_64", "posix-runtime", "uclibc", "z3", "not-darwin", "not-freebsd",
            "not-asan", "not-ubsan", "not-msan", "not-stp", "not-metasmt", "not-wsl-1",
            "libcxx", "eh-cxx"}
for _v in ("11.0", "11.1", "12.0", "13.0", "14.0", "15.0", "16.0", "17.0", "18.1", "19.1"):
    FEATURES.add(f"geq-llvm-{_v}")

# Files only KLEE writes (its module, query logs, statistics, paths, coverage, XML tests,
# execution tree, instruction log): a line reading one is skipped and counted.
KLEE_ONLY_FILE = re.compile(
    r"klee-out[^ ]*/(assembly\.ll|[^ ]*\.kquery|[^ ]*\.smt2|[^ ]*\.cvc|run\.istats|"
    r"run\.stats|[^ ]*\.path|[^ ]*\.sym\.path|[^ ]*\.cov|[^ ]*\.xml|exec_tree\.db|"
    r"instructions\.txt|all-queries[^ ]*|solver-queries[^ ]*)")

# KLEE options whose behaviour is the point of the tests using them and which sear has no
# counterpart of (seeding, replaying KLEE's paths, function aliases, KLEE's
# own debugging output, external calls): such a test is `no-analogue` whatever the
# outcome of running it without the option.
NO_ANALOGUE_OPTIONS = {
    "seed-file", "seed-dir", "replay-ktest-file", "replay-ktest-dir", "replay-path",
    "function-alias", "single-object-resolution", "max-static-fork-pct",
    "max-static-cpfork-pct", "max-static-solve-pct", "make-concrete-symbolic",
    "debug-print-escaping-functions", "debug-print-instructions", "external-call-warnings",
    "kdalloc-quarantine", "write-exec-tree", "solver-backend",
}

# RUN lines that only prepare a test (compile, clean up); every other line checks something
# (a `klee` run checks at least its exit status).
SETUP = re.compile(r"\s*(%clang|%llvmas|%llvmar|%llvmlink|%cc|rm |mkdir |cp |touch |echo |"
                   r"%gentmp|cd )")

UNAVAILABLE_TOOLS = ("%klee-replay", "%klee-stats", "%klee-zesti", "%klee-exec-tree",
                     "%kleaver", "%ktest-randgen", "%ktest-gen", "%libkleeruntestdir",
                     "%libkleeruntest", "%sqlite3")


def directives(text: str) -> dict[str, list[str]]:
    """RUN lines (continuations joined), REQUIRES, UNSUPPORTED and XFAIL of a test."""
    out: dict[str, list[str]] = {"RUN": [], "REQUIRES": [], "UNSUPPORTED": [], "XFAIL": []}
    pending = ""
    for line in text.splitlines():
        m = re.search(r"\b(RUN|REQUIRES|UNSUPPORTED|XFAIL):\s?(.*)$", line)
        if not m:
            continue
        kind, body = m.group(1), m.group(2).rstrip()
        if kind == "RUN":
            if body.endswith("\\"):
                pending += body[:-1] + " "
                continue
            out["RUN"].append(pending + body)
            pending = ""
        else:
            out[kind] += [x.strip() for x in body.split(",") if x.strip()]
    return out


def feature_ok(expr: str) -> bool:
    """A REQUIRES entry: a feature name, possibly with `!` or `||` / `&&`."""
    expr = expr.strip()
    if "||" in expr:
        return any(feature_ok(e) for e in expr.split("||"))
    if "&&" in expr:
        return all(feature_ok(e) for e in expr.split("&&"))
    if expr.startswith("!"):
        return not feature_ok(expr[1:])
    return expr in FEATURES


def substitute(line: str, src: str, tmp: str, tools: dict[str, str]) -> str:
    """lit's substitutions, longest names first."""
    for name in sorted(tools, key=len, reverse=True):
        line = line.replace(name, tools[name])
    line = line.replace("%s", src).replace("%S", os.path.dirname(src))
    line = line.replace("%p", os.path.dirname(src))
    line = line.replace("%t", tmp).replace("%T", os.path.dirname(tmp))
    return line.replace("%%", "%")


def concrete_script(src: str, tmp: str, shim: str) -> str:
    """ConcreteTest.py's steps: build with _testingUtils.c, run lli and sear, compare."""
    d = os.path.dirname(src)
    base = os.path.splitext(os.path.basename(src))[0]
    build = (f"{LLVM_BIN}/llvm-as {src} -o {tmp}.bc" if src.endswith(".ll")
             else f"clang-19 -emit-llvm -c -O0 -Xclang -disable-O0-optnone {src} -o {tmp}.bc")
    return " && ".join([
        build,
        f"clang-19 -emit-llvm -c -O0 -Xclang -disable-O0-optnone {d}/_testingUtils.c "
        f"-o {tmp}.utils.bc",
        f"{LLVM_BIN}/llvm-link {tmp}.bc {tmp}.utils.bc -o {tmp}.linked.bc",
        f"{LLVM_BIN}/lli -force-interpreter=true {tmp}.linked.bc > {tmp}.lli.out",
        f"rm -rf {tmp}.klee-out",
        f"{shim} --output-dir={tmp}.klee-out {tmp}.linked.bc > {tmp}.klee.out",
        f"diff {tmp}.lli.out {tmp}.klee.out  # {base}: lli and sear outputs",
    ])


def run_test(root: str, rel: str, sear: str, shim: str, include: str,
             timeout: int = 300) -> tuple[str, str]:
    """(status, log) of one test: pass, fail, no-analogue, unsupported or xfail."""
    src = os.path.join(root, rel)
    with open(src, errors="replace") as f:
        d = directives(f.read())
    if not d["RUN"]:
        return "no-run", ""
    missing = [r for r in d["REQUIRES"] if not feature_ok(r)]
    if missing:
        return "unsupported", "REQUIRES " + ", ".join(missing)
    if any(feature_ok(u) or u == "*" for u in d["UNSUPPORTED"]):
        return "unsupported", "UNSUPPORTED " + ", ".join(d["UNSUPPORTED"])
    out_dir = os.path.join(os.path.dirname(src), "Output")
    os.makedirs(out_dir, exist_ok=True)
    tmp = os.path.join(out_dir, os.path.basename(src) + ".tmp")
    tools = {
        "%klee": shim, "%ktest-tool": f"{sear} ktest",
        "%clangxx": f"clang++-19 -I {include}", "%clang": f"clang-19 -I {include}",
        "%cxx": "clang++-19", "%cc": "clang-19",
        "%O0opt": "-O0 -Xclang -disable-O0-optnone",
        "%lli": f"{LLVM_BIN}/lli", "%llvmas": f"{LLVM_BIN}/llvm-as",
        "%llvmar": f"{LLVM_BIN}/llvm-ar", "%llvmlink": f"{LLVM_BIN}/llvm-link",
        "%gentmp": "__gentmp",
        # sear links libc++ 19 as bitcode (docs/cxx.md): the programs use its headers.
        "%libcxx_includes": "-isystem /usr/lib/llvm-19/include/c++/v1",
    }
    prelude = (f"set -o pipefail\nexport PATH={LLVM_BIN}:$PATH\n"
               "__gentmp() { mkdir -p \"$1\"; for i in $(seq 1 100); do "
               "mkdir -p \"$1/dir_foo_$i\"; touch \"$1/tmp_foo_$i\"; done; }\n")
    unmatched = sorted({m.group(1) for r in d["RUN"] if "%klee" in r
                        for m in re.finditer(r"\s-{1,2}([a-z][a-z0-9-]*)", r.split("%klee", 1)[1])
                        if m.group(1) in NO_ANALOGUE_OPTIONS})
    log, skipped = [], 0
    xfail = "*" in d["XFAIL"] or any(feature_ok(x) for x in d["XFAIL"])
    for raw in d["RUN"]:
        tool = next((t for t in UNAVAILABLE_TOOLS if t in raw), None)
        if tool:
            log.append(f"$ {raw}\nno sear analogue: {tool[1:]}")
            return "no-analogue", "\n".join(log)
        if KLEE_ONLY_FILE.search(raw) and "%klee " not in raw + " ":
            log.append(f"$ {raw}\n(skipped: reads a file only KLEE writes)")
            skipped += 1
            continue
        if "ConcreteTest.py" in raw:
            line = concrete_script(src, tmp, shim)
        else:
            line = substitute(raw, src, tmp, tools)
        # A process group per line, so that a timeout ends sear too, not only bash.
        proc = subprocess.Popen(["bash", "-c", prelude + line], cwd=out_dir,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                start_new_session=True)
        try:
            stdout, stderr = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate()
            log.append(f"$ {raw}\n(killed after {timeout} s)")
            return "fail", "\n".join(log)
        p = subprocess.CompletedProcess(proc.args, proc.returncode, stdout, stderr)
        text = (p.stdout + p.stderr).decode(errors="replace")
        log.append(f"$ {raw}\n{text[-4000:]}")
        if p.returncode != 0:
            if unmatched:
                log.append("(KLEE options without a sear analogue: " + ", ".join(unmatched) + ")")
                return "no-analogue", "\n".join(log)
            return ("xfail" if xfail else "fail"), "\n".join(log)
    if unmatched:
        log.append("(KLEE options without a sear analogue: " + ", ".join(unmatched) + ")")
        return "no-analogue", "\n".join(log)
    checks = [r for r in d["RUN"] if not SETUP.match(r)]
    if skipped and skipped == len(checks):
        return "no-analogue", "\n".join(log + ["(every check reads a file only KLEE writes)"])
    status = "xpass" if xfail else "pass"
    return status, "\n".join(log + ([f"({skipped} checks of KLEE-only files skipped)"] if skipped else []))
