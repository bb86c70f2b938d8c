"""BenchExec tool-info module for sear in SV-COMP mode (`sear run --sv-comp`).

The command line comes from the task (its input file, property file and data model) and
the run's limits; the result from sear's verdict line on stdout:

    sear: verdict: TRUE (...)                  -> true
    sear: verdict: FALSE (...)                 -> false(unreach-call)
    sear: verdict: FALSE(valid-deref) (...)    -> false(valid-deref), likewise valid-free
                                                  and valid-memtrack
    sear: verdict: UNKNOWN (reason)            -> unknown
    no verdict line                            -> TIMEOUT when BenchExec stopped the run,
                                                  ERROR (compile) when clang failed,
                                                  ERROR (exit N) otherwise

Each run writes its output directory under $SEAR_COMP_OUT (default: sear-runs in the
working directory), named after the task and a random suffix, so that BenchExec's runs in
one working directory (--no-container) do not collide and the Test-Comp suites can be
validated afterwards (bench/competitions/testcov_validate)."""
import os
import re
import uuid

import benchexec.result as result
import benchexec.tools.template
from benchexec.tools.sv_benchmarks_util import ILP32, LP64, get_data_model_from_task

VERDICT = re.compile(r"^sear: verdict: (TRUE|FALSE|UNKNOWN)(?:\(([a-z-]+)\))?(?: \((.*)\))?\s*$")

FALSE_RESULTS = {
    None: result.RESULT_FALSE_REACH,
    "valid-deref": result.RESULT_FALSE_DEREF,
    "valid-free": result.RESULT_FALSE_FREE,
    "valid-memtrack": result.RESULT_FALSE_MEMTRACK,
}


def output_dir(task):
    """A fresh output directory for one run of `task`."""
    root = os.environ.get("SEAR_COMP_OUT", "sear-runs")
    name = os.path.basename(task.identifier or task.input_files[0])
    for suffix in (".yml", ".c", ".i"):
        if name.endswith(suffix):
            name = name[: -len(suffix)]
    return os.path.join(root, f"{name}-{uuid.uuid4().hex[:8]}")


def result_of(lines, exit_code=None, timed_out=False):
    """The BenchExec result of sear's output lines (kept apart for the tests)."""
    for line in reversed(lines):
        m = VERDICT.match(line)
        if not m:
            continue
        word, prop, _ = m.groups()
        if word == "TRUE":
            return result.RESULT_TRUE_PROP
        if word == "FALSE":
            return FALSE_RESULTS.get(prop, f"ERROR (unknown property {prop})")
        return result.RESULT_UNKNOWN
    if timed_out:
        return result.RESULT_TIMEOUT
    text = "\n".join(lines)
    if "error generated" in text or "errors generated" in text or "clang" in text and "failed" in text:
        return "ERROR (compile)"
    if exit_code is not None:
        return f"ERROR (exit {exit_code})"
    return result.RESULT_ERROR


class Tool(benchexec.tools.template.BaseTool2):
    """sear, a symbolic execution engine for C, in SV-COMP mode."""

    MODE = ["--sv-comp"]

    def executable(self, tool_locator):
        return tool_locator.find_executable("sear", subdir="target/release")

    def name(self):
        return "sear"

    def project_url(self):
        return "https://example.invalid/sear"

    def version(self, executable):
        return self._version_from_tool(executable, arg="--version").replace("sear ", "")

    def property_options(self, task):
        return ["--property", task.property_file] if task.property_file else []

    def cmdline(self, executable, options, task, rlimits):
        cmd = [executable, "run", "--no-progress", "--output-dir", output_dir(task)]
        cmd += self.MODE + self.property_options(task)
        if rlimits.cputime and not any(o.startswith("--max-time") for o in options):
            # Leave sear time to write its verdict before BenchExec's limit.
            cmd += ["--max-time", str(max(1, int(rlimits.cputime * 0.9) - 2))]
        if rlimits.memory and not any(o.startswith("--max-memory") for o in options):
            cmd += ["--max-memory", str(max(64, rlimits.memory * 8 // 10 // 2**20))]
        model = get_data_model_from_task(task, {ILP32: "--cflags=-m32", LP64: None})
        if model:
            cmd.append(model)
        return cmd + list(options) + [task.single_input_file]

    def determine_result(self, run):
        exit_code = run.exit_code.value if run.exit_code else None
        return result_of(list(run.output), exit_code, run.was_timeout)
