//! End-to-end tests of `sear replay` without the engine: small C programs, hand-made `.ktest`
//! and `.err` files, native builds with clang and sanitizers.
//!
//! The replay module is compiled into this test crate directly (sear-cli has no library target).

#[allow(dead_code)]
#[path = "../src/runtime_dir.rs"]
mod runtime_dir;

#[allow(dead_code)]
#[path = "../src/replay/mod.rs"]
mod replay;

#[allow(dead_code, unused_imports, unused_macros)]
#[path = "../src/term.rs"]
mod term;

use std::path::{Path, PathBuf};

use replay::outcome::NativeOutcome;
use replay::verdict::Verdict;
use replay::{ReplayArgs, ReplayReport};
use sear_ktest::{KTest, KTestObject};

/// One test case to write: its objects and, for an error test, `(kind, line)` of its `.err`.
struct Case {
    objects: Vec<(&'static str, Vec<u8>)>,
    error: Option<(&'static str, u32)>,
}

fn ok(objects: Vec<(&'static str, Vec<u8>)>) -> Case {
    Case {
        objects,
        error: None,
    }
}

fn err(objects: Vec<(&'static str, Vec<u8>)>, kind: &'static str, line: u32) -> Case {
    Case {
        objects,
        error: Some((kind, line)),
    }
}

fn int(value: i32) -> Vec<u8> {
    value.to_le_bytes().to_vec()
}

/// Writes `source` as prog.c and an output directory with info.json and the cases.
fn output_dir(source: &str, cases: &[Case]) -> (tempfile::TempDir, PathBuf) {
    let root = tempfile::tempdir().unwrap();
    let program = root.path().join("prog.c");
    std::fs::write(&program, source).unwrap();
    let out = root.path().join("sear-out");
    std::fs::create_dir(&out).unwrap();
    let info = serde_json::json!({
        "program": program,
        "cflags": ["-emit-llvm", "-c", "-DUNUSED=1"],
        "args": [],
    });
    std::fs::write(out.join("info.json"), info.to_string()).unwrap();
    for (i, case) in cases.iter().enumerate() {
        let stem = format!("test{:06}", i + 1);
        let ktest = KTest {
            args: vec![program.display().to_string()],
            sym_argvs: 0,
            sym_argv_len: 0,
            objects: case
                .objects
                .iter()
                .map(|(name, bytes)| KTestObject {
                    name: name.to_string(),
                    bytes: bytes.clone(),
                })
                .collect(),
        };
        ktest.write(out.join(format!("{stem}.ktest"))).unwrap();
        if let Some((kind, line)) = case.error {
            let text = format!(
                "Error: {kind} error found by hand\nFile: {}\nLine: {line}\nFunction: main\nStack:\n\t#0 main\n",
                program.display()
            );
            std::fs::write(out.join(format!("{stem}.{kind}.err")), text).unwrap();
        }
    }
    (root, out)
}

fn args(target: &Path) -> ReplayArgs {
    ReplayArgs {
        target: target.to_path_buf(),
        program: None,
        cflags: vec![],
        include_dirs: vec![],
        defines: vec![],
        timeout: 20.0,
        json: false,
    }
}

fn lines(report: &ReplayReport) -> Vec<String> {
    report.tests.iter().map(replay::format_test_line).collect()
}

const OVERFLOW: &str = r#"#include <klee/klee.h>
#include <stdlib.h>
int main(void) {
  unsigned char i;
  klee_make_symbolic(&i, sizeof i, "i");
  char *buf = malloc(4);
  buf[i] = 'x'; /* line 7: out of bounds when i > 3 */
  free(buf);
  return 0;
}
"#;

#[test]
fn heap_overflow_reproduces_and_a_wrong_err_file_does_not() {
    let (_root, out) = output_dir(
        OVERFLOW,
        &[
            ok(vec![("i", vec![1])]),
            err(vec![("i", vec![4])], "ptr", 7),
            // sear claims an error, but i = 2 is in bounds: must be reported as not reproduced.
            err(vec![("i", vec![2])], "ptr", 7),
        ],
    );
    let report = replay::replay(&args(&out)).unwrap();
    assert_eq!(
        lines(&report),
        vec![
            "test000001.ktest: exit 0",
            "test000002.ktest: ptr error reproduced (heap-buffer-overflow)",
            "test000003.ktest: ptr error NOT reproduced (exit 0)",
        ]
    );
    assert_eq!(report.tests[1].location_matched, Some(true));
    assert_eq!(report.summary.expected_errors, 2);
    assert_eq!(report.summary.reproduced, 1);
    assert_eq!(report.summary.not_reproduced, 1);
    assert_eq!(replay::run_replay(&args(&out)).unwrap(), 1);

    // The JSON report carries the same facts.
    let json = serde_json::to_value(&report).unwrap();
    assert_eq!(json["tests"][1]["verdict"], "reproduced");
    assert_eq!(json["tests"][1]["outcome"]["outcome"], "asan");
    assert_eq!(json["tests"][1]["outcome"]["kind"], "heap-buffer-overflow");
    assert_eq!(json["tests"][1]["expected"]["kind"], "ptr");
    assert_eq!(json["tests"][1]["expected"]["line"], 7);
    assert_eq!(json["tests"][2]["verdict"], "not_reproduced");
    assert_eq!(json["summary"]["not_reproduced"], 1);
}

const DIVIDE: &str = r#"#include <klee/klee.h>
int main(void) {
  int d = klee_int("d");
  return 100 / d; /* line 4 */
}
"#;

#[test]
fn division_by_zero_reproduces_with_explicit_program_and_single_ktest() {
    let (root, out) = output_dir(
        DIVIDE,
        &[ok(vec![("d", int(5))]), err(vec![("d", int(0))], "div", 4)],
    );
    // No info.json: the program comes from --program.
    std::fs::remove_file(out.join("info.json")).unwrap();
    assert!(replay::replay(&args(&out)).is_err());
    let mut a = args(&out);
    a.program = Some(root.path().join("prog.c"));
    let report = replay::replay(&a).unwrap();
    assert_eq!(report.tests[0].outcome, NativeOutcome::Exit { code: 20 });
    assert!(matches!(
        &report.tests[1].outcome,
        NativeOutcome::Ubsan { kind, .. } if kind == "integer-divide-by-zero"
    ));
    assert_eq!(report.tests[1].verdict, Verdict::Reproduced);
    assert_eq!(report.tests[1].location_matched, Some(true));
    assert_eq!(replay::run_replay(&a).unwrap(), 0);

    // A single .ktest as the target replays only that test.
    a.target = out.join("test000002.ktest");
    let report = replay::replay(&a).unwrap();
    assert_eq!(report.tests.len(), 1);
    assert_eq!(
        lines(&report),
        vec!["test000002.ktest: div error reproduced (division by zero)"]
    );
}

const ASSERTS: &str = r#"#include <klee/klee.h>
#include <assert.h>
int main(void) {
  int x;
  klee_make_symbolic(&x, sizeof x, "x");
  klee_assert(x != 42); /* line 6 */
  assert(x != 7);       /* line 7 */
  return 0;
}
"#;

#[test]
fn klee_assert_and_assert_failures_reproduce() {
    let (_root, out) = output_dir(
        ASSERTS,
        &[
            ok(vec![("x", int(1))]),
            err(vec![("x", int(42))], "assert", 6),
            err(vec![("x", int(7))], "assert", 7),
            // An abort.err is not reproduced by an assertion failure.
            err(vec![("x", int(7))], "abort", 7),
        ],
    );
    let report = replay::replay(&args(&out)).unwrap();
    assert_eq!(report.tests[0].outcome, NativeOutcome::Exit { code: 0 });
    for test in &report.tests[1..3] {
        assert!(
            matches!(&test.outcome, NativeOutcome::AssertFailed { function, .. } if function == "main")
        );
        assert_eq!(test.verdict, Verdict::Reproduced, "{}", test.ktest);
        assert_eq!(test.location_matched, Some(true), "{}", test.ktest);
    }
    assert_eq!(report.tests[3].verdict, Verdict::NotReproduced);
    assert_eq!(
        lines(&report)[1],
        "test000002.ktest: assert error reproduced (assertion failed in main)"
    );
}

const MISC: &str = r#"#include <sear.h>
#include <stdlib.h>
#include <stdio.h>
void reach_error() { abort(); }
int main(void) {
  int mode = klee_range(0, 10, "mode");
  if (mode == 0) { char *p = malloc(8); free(p); free(p); }          /* line 7 */
  if (mode == 1) { if (__VERIFIER_nondet_int() == 3) reach_error(); }
  if (mode == 2) { klee_assume(0); }
  if (mode == 3) { for (;;) {} }
  if (mode == 4) { int s = __VERIFIER_nondet_int(); return 1 << s; }   /* line 11 */
  if (mode == 5) { klee_report_error(__FILE__, __LINE__, "bad input", "user"); }
  if (mode == 6) { klee_abort(); }
  if (mode == 7) { int *q = 0; return *q; }                           /* line 14 */
  if (mode == 8) { klee_int("extra"); }
  if (mode == 9) { static char g[3]; return g[__VERIFIER_nondet_int()]; } /* line 16 */
  return 0;
}
"#;

#[test]
fn every_outcome_class_is_recognised() {
    let cases = [
        err(vec![("mode", int(0))], "free", 7),
        // reach_error is the program's own (it aborts), not the runtime's weak one; ASan's
        // stack trace shows the abort came from it.
        err(vec![("mode", int(1)), ("nondet", int(3))], "reach", 4),
        ok(vec![("mode", int(2))]),
        ok(vec![("mode", int(3))]),
        err(vec![("mode", int(4)), ("nondet", int(40))], "overshift", 11),
        err(vec![("mode", int(5))], "user", 12),
        err(vec![("mode", int(6))], "abort", 13),
        err(vec![("mode", int(7))], "ptr", 14),
        ok(vec![("mode", int(8))]),
        err(vec![("mode", int(9)), ("nondet", int(5))], "ptr", 16),
        // Out of range for klee_range(0, 10): the test does not follow a path of the program.
        ok(vec![("mode", int(12))]),
        // Wrong size for "mode".
        ok(vec![("mode", vec![1])]),
        // An engine-only kind cannot be checked natively.
        err(vec![("mode", int(2))], "exec", 9),
        // sear reports a provably false klee_assume as a user error.
        err(vec![("mode", int(2))], "user", 9),
    ];
    let (_root, out) = output_dir(MISC, &cases);
    let mut a = args(&out);
    a.timeout = 1.0;
    let report = replay::replay(&a).unwrap();
    let outcomes: Vec<&NativeOutcome> = report.tests.iter().map(|t| &t.outcome).collect();
    assert!(matches!(outcomes[0], NativeOutcome::Asan { kind, .. } if kind == "double-free"));
    assert_eq!(*outcomes[1], NativeOutcome::ReachError);
    assert!(matches!(
        outcomes[2],
        NativeOutcome::AssumptionViolated { .. }
    ));
    assert_eq!(*outcomes[3], NativeOutcome::Timeout);
    assert!(matches!(outcomes[4], NativeOutcome::Ubsan { kind, .. } if kind == "shift-exponent"));
    assert!(
        matches!(outcomes[5], NativeOutcome::ReportError { message, suffix }
        if suffix == "user" && message.ends_with("bad input"))
    );
    assert_eq!(*outcomes[6], NativeOutcome::Abort);
    assert!(matches!(outcomes[7], NativeOutcome::Asan { kind, .. } if kind == "SEGV"));
    assert!(matches!(outcomes[8], NativeOutcome::InputMismatch { .. }));
    assert!(
        matches!(outcomes[9], NativeOutcome::Asan { kind, .. } if kind == "global-buffer-overflow")
    );
    assert!(matches!(
        outcomes[10],
        NativeOutcome::AssumptionViolated { .. }
    ));
    assert!(matches!(outcomes[11], NativeOutcome::InputMismatch { .. }));
    assert!(matches!(
        outcomes[12],
        NativeOutcome::AssumptionViolated { .. }
    ));
    assert!(matches!(
        outcomes[13],
        NativeOutcome::AssumptionViolated { .. }
    ));

    let verdicts: Vec<Verdict> = report.tests.iter().map(|t| t.verdict).collect();
    use Verdict::*;
    assert_eq!(
        verdicts,
        vec![
            Reproduced,
            Reproduced,
            NoErrorExpected,
            NoErrorExpected,
            Reproduced,
            Reproduced,
            Reproduced,
            Reproduced,
            NoErrorExpected,
            Reproduced,
            NoErrorExpected,
            NoErrorExpected,
            Unchecked,
            Reproduced,
        ]
    );
    let s = &report.summary;
    assert_eq!(
        (
            s.tests,
            s.expected_errors,
            s.reproduced,
            s.not_reproduced,
            s.unchecked
        ),
        (14, 9, 8, 0, 1)
    );
    assert_eq!(
        (
            s.timeouts,
            s.assumption_violations,
            s.input_mismatches,
            s.unexpected_errors
        ),
        (1, 4, 2, 0)
    );
    let text = replay::format_report(&report);
    assert!(
        text.ends_with(
            "replayed 14 tests: 8 of 9 errors reproduced, 0 not reproduced, 1 not checkable; \
             0 unexpected native errors, 1 timeouts, 4 assumption violations, 2 input mismatches\n"
        ),
        "{text}"
    );
    assert!(report.tests[3].duration_ms >= 1000);
}

const SVCOMP: &str = r#"extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main(void) {
  int x = __VERIFIER_nondet_int();
  if (x == 12345) reach_error(); /* line 5 */
  return x == 1;
}
"#;

#[test]
fn svcomp_reach_error_uses_the_runtime_version() {
    let (_root, out) = output_dir(
        SVCOMP,
        &[
            ok(vec![("__VERIFIER_nondet_int", int(1))]),
            err(vec![("__VERIFIER_nondet_int", int(12345))], "reach", 5),
        ],
    );
    let report = replay::replay(&args(&out)).unwrap();
    assert_eq!(report.tests[0].outcome, NativeOutcome::Exit { code: 1 });
    assert_eq!(report.tests[1].outcome, NativeOutcome::ReachError);
    assert_eq!(report.tests[1].verdict, Verdict::Reproduced);
}

#[test]
fn build_errors_and_bad_targets_are_errors() {
    let (_root, out) = output_dir("int main(void) { return undeclared; }\n", &[ok(vec![])]);
    let message = format!("{:#}", replay::replay(&args(&out)).unwrap_err());
    assert!(message.contains("undeclared"), "{message}");
    assert!(replay::replay(&args(&out.join("nope"))).is_err());
    let mut a = args(&out);
    a.timeout = 0.0;
    assert!(replay::replay(&a).is_err());
}

#[test]
fn corrupt_ktest_is_reported_not_fatal() {
    let (_root, out) = output_dir(OVERFLOW, &[ok(vec![("i", vec![0])])]);
    std::fs::write(out.join("test000002.ktest"), b"KTEST\0\0\0\x03\0").unwrap();
    let report = replay::replay(&args(&out)).unwrap();
    assert_eq!(report.tests[0].outcome, NativeOutcome::Exit { code: 0 });
    assert!(matches!(
        report.tests[1].outcome,
        NativeOutcome::SetupError { .. }
    ));
    assert_eq!(report.summary.input_mismatches, 1);
}
