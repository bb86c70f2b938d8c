"""BenchExec tool-info module for KLEE 3.2 in Test-Comp mode, through the wrapper
bench/competitions/klee/klee-testcomp (the nondet shim, KLEE's run, the suite in Test-Comp's
format under OUTPUT/test-suite). KLEE is a measuring tool for the side-by-side comparison in
docs/svcomp.md, never a dependency of sear: nothing in CI runs it.

The command line gets the same limits as sear_benchexec.sear_testcomp (--max-time 90 % of
the CPU limit less 2 s, wall time as sear's; --max-memory 80 % of the limit), the task's
property file and data model (--32 for ILP32), and an output directory under
$SEAR_COMP_OUT named like sear's, so that bench/competitions/testcov_validate reads both
tools' runs the same way. The result is `done` when a suite was written."""
import os
import re
import subprocess

import benchexec.result as result
import benchexec.tools.template
from benchexec.tools.sv_benchmarks_util import ILP32, LP64, get_data_model_from_task

from sear_benchexec import sear

SUITE = re.compile(r"^klee-testcomp: test suite: (.*) \((\d+) tests\)\s*$")


def result_of(lines, exit_code=None, timed_out=False):
    """`done` when the wrapper wrote a suite; otherwise why not."""
    if any(SUITE.match(line) for line in lines):
        return result.RESULT_DONE
    if timed_out:
        return result.RESULT_TIMEOUT
    if any(line.startswith("klee-testcomp: compiling") for line in lines):
        return "ERROR (compile)"
    return f"ERROR (exit {exit_code})" if exit_code is not None else result.RESULT_ERROR


class Tool(benchexec.tools.template.BaseTool2):
    """KLEE on Test-Comp tasks through bench/competitions/klee/klee-testcomp."""

    def executable(self, tool_locator):
        return tool_locator.find_executable("klee-testcomp", subdir="bench/competitions/klee")

    def name(self):
        return "KLEE"

    def project_url(self):
        return "https://klee-se.org"

    def version(self, executable):
        klee = os.path.join(os.environ.get("KLEE_HOME", "/root/klee/install/klee"), "bin", "klee")
        try:
            out = subprocess.run([klee, "--version"], capture_output=True, text=True).stdout
        except OSError:
            return ""
        first = next((line for line in out.splitlines() if line.startswith("KLEE")), "")
        return first.split("(")[0].replace("KLEE", "").strip()

    def cmdline(self, executable, options, task, rlimits):
        cmd = [executable, "--output-dir", sear.output_dir(task),
               "--property", task.property_file]
        if rlimits.cputime:
            cmd += ["--max-time", str(max(1, int(rlimits.cputime * 0.9) - 2))]
        if rlimits.memory:
            cmd += ["--max-memory", str(max(64, rlimits.memory * 8 // 10 // 2**20))]
        model = get_data_model_from_task(task, {ILP32: "--32", LP64: "--64"})
        if model:
            cmd.append(model)
        return cmd + [task.single_input_file] + list(options)

    def determine_result(self, run):
        exit_code = run.exit_code.value if run.exit_code else None
        return result_of(list(run.output), exit_code, run.was_timeout)
