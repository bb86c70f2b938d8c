"""BenchExec tool-info module for sear in Test-Comp mode (`sear run --test-comp PRP`).

The task's property file (coverage-error-call.prp or coverage-branches.prp) is passed as
--test-comp; sear writes the suite in Test-Comp's exchange format to OUTPUT/test-suite/
(metadata.xml and one XML file per test; the output directory is made as in
sear_benchexec.sear, under $SEAR_COMP_OUT). Test-Comp scores the suite, not a verdict:
the result is `done` when sear wrote one and an error otherwise; TestCov validates the
suites afterwards (bench/competitions/testcov_validate zips each suite as TestCov reads it).
"""
import re

import benchexec.result as result

from sear_benchexec import sear

SUITE = re.compile(r"^sear: test suite: (.*) \((\d+) tests\)\s*$")


def result_of(lines, exit_code=None, timed_out=False):
    """`done` when the suite was written; otherwise as sear_benchexec.sear."""
    if any(SUITE.match(line) for line in lines):
        return result.RESULT_DONE
    verdict = sear.result_of(lines, exit_code, timed_out)
    return verdict if verdict.startswith(("ERROR", "TIMEOUT")) else result.RESULT_ERROR


class Tool(sear.Tool):
    """sear in Test-Comp mode: a test suite per task."""

    MODE = []

    def property_options(self, task):
        return ["--test-comp", task.property_file or "cover-branches"]

    def determine_result(self, run):
        exit_code = run.exit_code.value if run.exit_code else None
        return result_of(list(run.output), exit_code, run.was_timeout)
