"""Unit tests of the harness logic: manifests, run classification, ratios, geometric means,
and the solver comparison's bookkeeping. Run: python3 -m unittest discover -s bench/harness"""
import math
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from harness import klee, main, manifest, report, runner, solvers  # noqa: E402


def rec(program, config, status, time_s=1.0, paths=2, instructions=100, rep=0):
    return {"program": program, "size": 1, "config": config, "status": status, "message": "",
            "time_s": time_s, "wall_s": time_s, "instructions": instructions, "paths": paths,
            "completed_paths": paths, "error_paths": 0, "tests": paths, "queries": 3,
            "core_queries": 1, "solver_s": time_s / 2, "solver_share": 0.5,
            "solver_timeouts": 0, "rep": rep}


class ManifestTest(unittest.TestCase):
    def test_shipped_manifests_load(self):
        suite = manifest.load()
        self.assertIn(suite.baseline, suite.configs)
        self.assertTrue(any(p.lexer for p in suite.programs.values()))
        self.assertTrue(all(os.path.isfile(p.source or p.lexer) for p in suite.programs.values()))
        self.assertTrue(any(p.smoke_size for p in suite.programs.values()))
        for names in suite.sets.values():
            self.assertTrue(all(n in suite.configs for n in names))

    def test_bad_manifest_is_an_error(self):
        with tempfile.NamedTemporaryFile("w", suffix=".toml", delete=False) as f:
            f.write('[programs.x]\nsource = "nope.c"\n')
        try:
            with self.assertRaises(manifest.ManifestError):
                manifest.load(programs_path=f.name)
        finally:
            os.unlink(f.name)


class RunnerTest(unittest.TestCase):
    def test_fill_classifies(self):
        r = {}
        runner.fill(r, {"completed_paths": 2, "error_paths": 1, "instructions": 9, "queries": 4,
                        "solver_time_s": 0.0, "time_s": 2.0, "stop_reason": "exhausted",
                        "errors": [{"kind": "solver"}],
                        "solver": {"core_queries": 3, "layers": [{"time_secs": 1.5}]}})
        self.assertEqual(r["status"], runner.DONE_TIMEOUTS)
        self.assertEqual(r["paths"], 3)
        self.assertEqual(r["solver_s"], 1.5)  # the layer time, as solver_time_s missed it
        self.assertAlmostEqual(r["solver_share"], 0.75)
        r = {}
        runner.fill(r, {"stop_reason": "max-time", "time_s": 1.0})
        self.assertEqual(r["status"], runner.BUDGET)

    def test_fill_reads_pat_and_quantified_counters(self):
        r = {}
        runner.fill(r, {"stop_reason": "exhausted", "time_s": 1.0,
                        "symbolic_size": {"mode": "pat", "pat": {"pattern_merges": 2,
                                                                 "merged_constraints_ast": 40}},
                        "solver": {"layers": [{"name": "quantified", "counters": {
                            "quantified_queries": 9, "strip": 5, "strip_unsat": 2,
                            "duplicate": 1, "fallback": 1}}]}})
        self.assertEqual((r["pattern_merges"], r["pattern_ast"]), (2, 40))
        self.assertEqual((r["q_queries"], r["q_strip"], r["q_duplicate"], r["q_repair"],
                          r["q_fallback"]), (9, 7, 1, 0, 1))
        self.assertIn("| 2 | 40 | 9 | 7 | 1 | 0 | 1 |",
                      "\n".join(report.pat_table([dict(r, program="p", size=1, config="c")])))

    def test_trace_digest_is_order_independent(self):
        with tempfile.TemporaryDirectory() as a, tempfile.TemporaryDirectory() as b:
            self.assertIsNone(runner.trace_digest(a))
            for d, lines in ((a, ["aa 3", "bb 5"]), (b, ["bb 5", "aa 3"])):
                for i, line in enumerate(lines):
                    with open(os.path.join(d, f"test{i:06}.trace"), "w") as f:
                        f.write(line + "\n")
            self.assertEqual(runner.trace_digest(a), runner.trace_digest(b))
            with open(os.path.join(b, "test000009.trace"), "w") as f:
                f.write("cc 1\n")
            self.assertNotEqual(runner.trace_digest(a), runner.trace_digest(b))

    def test_rejected_flags(self):
        self.assertTrue(runner._rejected_flags("error: unexpected argument '--x' found"))
        self.assertFalse(runner._rejected_flags("sear: error: prog.c: no such file"))

    def test_missing_binary_is_a_failed_record(self):
        suite = manifest.load()
        p = suite.programs["foo5"]
        with tempfile.TemporaryDirectory() as d:
            spec = runner.RunSpec("/nonexistent/sear", p, suite.configs["default"], p.source, [],
                                  4, 1, 1, 1, os.path.join(d, "o"))
            r = runner.run(spec)
        self.assertEqual(r["status"], runner.FAILED)
        self.assertIn("cannot start", r["message"])


class KleeTest(unittest.TestCase):
    def test_command_carries_sizes_search_and_budget(self):
        suite = manifest.load()
        p = suite.programs["lex-ini"]
        spec = runner.RunSpec("sear", p, suite.configs["klee-stp-aa"], "/b/lex-ini.c",
                              ["-I", "/lexers"], 3, 30, 10, 1, "/out/k")
        cmd, env = klee.command(spec, "/k/klee-run")
        self.assertEqual(cmd[:2], ["/k/klee-run", "/b/lex-ini.c"])
        for flag in ("--search=dfs", "--max-time=30s", "--max-solver-time=10s",
                     "--optimize-array=all"):
            self.assertIn(flag, cmd)
        self.assertEqual(env["KLEE_OUT"], "/out/k")
        self.assertEqual(env["KLEE_CFLAGS"], "-DSIZE=3 -I/lexers")

    def test_without_klee_the_configuration_is_unsupported(self):
        suite = manifest.load()
        p = suite.programs["foo5"]
        spec = runner.RunSpec("sear", p, suite.configs["klee-stp"], p.source, [], 4, 1, 1, 1,
                              "/nonexistent/o")
        r = main.run_klee(spec, None)
        self.assertEqual(r["status"], runner.UNSUPPORTED)
        self.assertIn("KLEE_RUN", r["message"])

    def test_results_are_read_from_klee_output(self):
        with tempfile.TemporaryDirectory() as d:
            with open(os.path.join(d, "info"), "w") as f:
                f.write("KLEE: done: total instructions = 120\n"
                        "KLEE: done: completed paths = 4\nKLEE: done: generated tests = 5\n")
            open(os.path.join(d, "test000001.ptr.err"), "w").close()
            self.assertEqual(klee._info_number(open(os.path.join(d, "info")).read(),
                                               "completed paths"), 4)
            self.assertEqual(klee._last_stats(d), {})  # no run.stats: no numbers, no crash


class ReportTest(unittest.TestCase):
    def test_ratios_and_geomeans(self):
        records = [
            rec("a", "base", runner.DONE, 4.0), rec("a", "base", runner.DONE, 6.0, rep=1),
            rec("a", "fast", runner.DONE, 1.0), rec("a", "fast", runner.DONE, 1.0, rep=1),
            rec("b", "base", runner.BUDGET, 30.0, paths=4),
            rec("b", "fast", runner.BUDGET, 30.0, paths=16),
            rec("c", "base", runner.DONE, 2.0, paths=2),
            rec("c", "fast", runner.DONE, 1.0, paths=3),
            rec("a", "new", runner.UNSUPPORTED), rec("b", "new", runner.UNSUPPORTED),
            rec("d", "base", runner.BUDGET, paths=0), rec("d", "fast", runner.BUDGET, paths=3),
            rec("e", "base", runner.BUDGET, paths=2), rec("e", "fast", runner.BUDGET, paths=0),
        ]
        rows = report.aggregate(records)
        report.add_ratios(rows, "base")
        by = {(r["program"], r["config"]): r for r in rows}
        self.assertEqual(by[("a", "base")]["time_s"], 5.0)           # median of 4 and 6
        self.assertEqual(by[("a", "fast")]["ratio"], 5.0)
        self.assertEqual(by[("a", "fast")]["ratio_kind"], "speed-up")
        self.assertTrue(by[("a", "fast")]["same_paths"])
        self.assertEqual(by[("b", "fast")]["ratio"], 4.0)
        self.assertEqual(by[("b", "fast")]["ratio_kind"], "paths")
        self.assertFalse(by[("c", "fast")]["same_paths"])           # 3 paths vs 2: flagged
        self.assertIsNone(by[("a", "new")]["ratio"])
        means = {m["config"]: m for m in report.geomeans(rows, ["base", "fast", "new"], "base")}
        self.assertAlmostEqual(means["fast"]["speed-up"], math.sqrt(5.0 * 2.0))
        self.assertEqual(means["fast"]["speed-up_n"], 2)
        self.assertEqual(means["fast"]["diverged"], 1)
        self.assertEqual(means["fast"]["paths_n"], 1)                 # only b: d and e counted apart
        self.assertEqual((means["fast"]["lost"], means["fast"]["gained"]), (1, 1))
        self.assertEqual(by[("d", "fast")]["ratio"], math.inf)
        self.assertEqual(means["new"]["unsupported"], 2)
        md = report.markdown(rows, list(means.values()), "base")
        self.assertIn("5.00×", md)
        self.assertIn("4.00× p", md)
        self.assertIn("≠", md)
        self.assertIn("∞ p", md)
        self.assertIn("unsupported", md)
        self.assertIn("program,size,config", report.to_csv(rows))

    def test_worst_repetition_decides_status(self):
        rows = report.aggregate([rec("a", "x", runner.DONE), rec("a", "x", runner.BUDGET, rep=1)])
        self.assertEqual(rows[0]["status"], runner.BUDGET)


class SolversTest(unittest.TestCase):
    def test_logged_answer_and_summary(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "q.smt2")
            with open(path, "w") as f:
                f.write("(check-sat)\n; answer: unsat\n; time: 0.1 s\n")
            self.assertEqual(solvers.logged_answer(path), "unsat")
            self.assertEqual(solvers.corpus_files([d]), [path])
        s1 = solvers.Solver("s1", [], None, False)
        s2 = solvers.Solver("s2", [], None, False)
        s1.available = s2.available = True
        results = [
            {"answers": {"s1": {"answer": "sat", "time": 1.0}, "s2": {"answer": "timeout", "time": None}}},
            {"answers": {"s1": {"answer": "unsat", "time": 3.0}, "s2": {"answer": "unsat", "time": 0.5}}},
        ]
        rows = {r["solver"]: r for r in solvers.summarize(results, [s1, s2])}
        self.assertEqual(rows["s1"]["solved"], 2)
        self.assertEqual(rows["s1"]["median_s"], 2.0)
        self.assertEqual(rows["s1"]["unique"], 1)
        self.assertEqual(rows["s2"]["timeouts"], 1)

    def test_sample_per_dir(self):
        files = [f"/a/q{i}.smt2" for i in range(10)] + ["/b/q0.smt2"]
        picked = solvers.sample_per_dir(files, 3)
        self.assertEqual(picked, ["/a/q0.smt2", "/a/q4.smt2", "/a/q9.smt2", "/b/q0.smt2"])

    def test_command_solver_parses_answer_and_time(self):
        s = solvers.Solver("echo", [sys.executable, "-c", "print('unsat'); print('time: 0.25')", "{file}"],
                           None, False)
        r = s.solve("ignored.smt2", 30)
        self.assertEqual((r["answer"], r["time"]), ("unsat", 0.25))
        odd = solvers.Solver("odd", [sys.executable, "-c", "print('; comment'); print('unknown (timeout)')", "{file}"],
                             None, False)
        self.assertEqual(odd.solve("x", 30)["answer"], "unknown")
        hang = solvers.Solver("hang", [sys.executable, "-c", "import time; time.sleep(30)", "{file}"],
                              None, False)
        self.assertEqual(hang.solve("x", 0.5)["answer"], "timeout")


if __name__ == "__main__":
    unittest.main()
