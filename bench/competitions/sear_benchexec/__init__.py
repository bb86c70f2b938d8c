"""BenchExec tool-info modules for sear (bench/competitions/README.md).

With bench/competitions on PYTHONPATH, a benchmark definition names them as
tool="sear_benchexec.sear" (SV-COMP: verdicts) or tool="sear_benchexec.sear_testcomp"
(Test-Comp: test suites)."""
