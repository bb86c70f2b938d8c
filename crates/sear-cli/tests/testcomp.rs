//! `--test-comp` and `--sv-comp`: the test suite is valid under the format's DTDs (checked
//! with lxml by bench/svcomp/validate_suite.py), its tests replay natively to the behaviour
//! they claim (the error test reaches reach_error; the others do not), and the verdict
//! follows the exploration.

mod common;

use common::workers::{summary, tests_in};
use common::{sear, text, write};

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// `sear run --no-progress --output-dir out EXTRA --test-comp PROPERTY PROGRAM` in `dir`.
fn run_test_comp(dir: &Path, property: &str, program: &str, extra: &[&str]) -> Output {
    let mut args = vec!["run", "--no-progress", "--output-dir", "out"];
    args.extend_from_slice(extra);
    args.extend(["--test-comp", property, program]);
    sear(&args, dir)
}

/// The project's Python with lxml (scripts/setup.sh installs it).
fn python() -> PathBuf {
    let python = common::repo_root().join(".venv/bin/python");
    let ok = Command::new(&python)
        .args(["-c", "import lxml"])
        .status()
        .is_ok_and(|s| s.success());
    assert!(
        ok,
        "{} with lxml is missing: run scripts/setup.sh",
        python.display()
    );
    python
}

fn validator() -> PathBuf {
    common::repo_root().join("bench/svcomp/validate_suite.py")
}

/// Validates a suite against the DTDs; panics with the validator's report.
fn validate(suite: &Path, program: &Path) {
    let o = Command::new(python())
        .arg(validator())
        .arg(suite)
        .arg("--program")
        .arg(program)
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "invalid suite: {}{}",
        text(&o.stdout),
        text(&o.stderr)
    );
}

/// The program compiled natively with the Test-Comp input harness (instrumented so that a
/// call of reach_error is seen whatever its body).
fn native(dir: &Path, program: &Path) -> PathBuf {
    let exe = dir.join("native");
    let harness = common::repo_root().join("bench/svcomp/nondet_harness.c");
    let object = dir.join("harness.o");
    let clang = |args: &[&std::ffi::OsStr]| {
        let o = Command::new("clang-19")
            .arg("-w")
            .args(args)
            .output()
            .unwrap();
        assert!(o.status.success(), "clang: {}", text(&o.stderr));
    };
    clang(&[
        "-c".as_ref(),
        harness.as_os_str(),
        "-o".as_ref(),
        object.as_os_str(),
    ]);
    clang(&[
        "-finstrument-functions".as_ref(),
        "-rdynamic".as_ref(),
        program.as_os_str(),
        object.as_os_str(),
        "-ldl".as_ref(),
        "-o".as_ref(),
        exe.as_os_str(),
    ]);
    exe
}

/// Runs the native program on a test's inputs; returns (reached reach_error, output).
fn replay(exe: &Path, test: &Path, scratch: &Path) -> (bool, Output) {
    let values = Command::new(python())
        .arg(validator())
        .arg("--inputs")
        .arg(test)
        .output()
        .unwrap();
    assert!(values.status.success(), "{}", text(&values.stderr));
    let inputs = scratch.join("inputs.txt");
    std::fs::write(&inputs, &values.stdout).unwrap();
    let o = Command::new(exe)
        .env("SEAR_TESTCOMP_INPUTS", &inputs)
        .output()
        .unwrap();
    let err = text(&o.stderr);
    assert!(
        !err.contains("harness:") || err.contains("reach_error reached"),
        "{}: the inputs do not fit the program: {err}",
        test.display()
    );
    (err.contains("reach_error"), o)
}

/// The suite's test files with their coversError mark.
fn tests_of(suite: &Path) -> Vec<(PathBuf, bool)> {
    let mut tests: Vec<(PathBuf, bool)> = std::fs::read_dir(suite)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "xml"))
        .filter(|p| !p.ends_with("metadata.xml"))
        .map(|p| {
            let covers = std::fs::read_to_string(&p)
                .unwrap()
                .contains("coversError=\"true\"");
            (p, covers)
        })
        .collect();
    tests.sort();
    tests
}

/// SV-COMP style: reach_error defined as a failing assertion, inputs of several types,
/// assumptions through abort().
const BRANCHY: &str = r#"extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error() { __assert_fail("0", "branchy.c", 3, "reach_error"); }
extern int __VERIFIER_nondet_int(void);
extern char __VERIFIER_nondet_char(void);
extern _Bool __VERIFIER_nondet_bool(void);
extern unsigned long __VERIFIER_nondet_ulong(void);
extern short __VERIFIER_nondet_short(void);
void assume_abort_if_not(int cond) { if (!cond) abort(); }
int main() {
  int x = __VERIFIER_nondet_int();
  assume_abort_if_not(x > -100 && x < 100);
  char c = __VERIFIER_nondet_char();
  _Bool b = __VERIFIER_nondet_bool();
  unsigned long u = __VERIFIER_nondet_ulong();
  if (c == -7 && b) {
    short s = __VERIFIER_nondet_short();
    if (x < -50 && u > 18000000000000000000ul && s == -32768)
      reach_error();
    return 1;
  }
  return 0;
}
"#;

#[test]
fn cover_branches_suite_is_valid_and_replays() {
    let tmp = tempfile::tempdir().unwrap();
    let program = write(tmp.path(), "branchy.c", BRANCHY);
    let o = run_test_comp(tmp.path(), "cover-branches", "branchy.c", &[]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(
        text(&o.stdout).contains("sear: verdict: FALSE (reach_error reached by test"),
        "{}",
        text(&o.stdout)
    );
    let suite = tmp.path().join("out/test-suite");
    validate(&suite, &program);
    let tests = tests_of(&suite);
    // Paths: x out of range (abort), c/b not both, then reach_error or return 1 - each
    // covers code the others do not, so each has its test.
    assert!(tests.len() >= 4, "{tests:?}");
    assert_eq!(tests.iter().filter(|(_, c)| *c).count(), 1, "{tests:?}");
    let exe = native(tmp.path(), &program);
    for (test, covers_error) in &tests {
        let (reached, _) = replay(&exe, test, tmp.path());
        assert_eq!(reached, *covers_error, "{}", test.display());
    }
    let error_test = &tests.iter().find(|(_, c)| *c).unwrap().0;
    let xml = std::fs::read_to_string(error_test).unwrap();
    for literal in [
        "type=\"char\">-7<",
        "type=\"_Bool\">1<",
        "type=\"short\">-32768<",
    ] {
        assert!(xml.contains(literal), "{literal} in {xml}");
    }
    let u: u64 = xml
        .split("type=\"unsigned long\">")
        .nth(1)
        .and_then(|rest| rest.split('<').next())
        .and_then(|v| v.parse().ok())
        .expect("an unsigned long input");
    assert!(u > 18_000_000_000_000_000_000, "{xml}");
}

#[test]
fn cover_error_from_a_property_file_stops_at_the_error() {
    let tmp = tempfile::tempdir().unwrap();
    let program = write(tmp.path(), "branchy.c", BRANCHY);
    write(
        tmp.path(),
        "coverage-error-call.prp",
        "COVER( init(main()), FQL(COVER EDGES(@CALL(reach_error))) )\n",
    );
    let o = run_test_comp(
        tmp.path(),
        "coverage-error-call.prp",
        "branchy.c",
        &["--search", "dfs"],
    );
    assert!(o.status.success(), "{}", text(&o.stderr));
    let suite = tmp.path().join("out/test-suite");
    validate(&suite, &program);
    let metadata = std::fs::read_to_string(suite.join("metadata.xml")).unwrap();
    assert!(metadata.contains("@CALL(reach_error)"), "{metadata}");
    let summary = summary(&tmp.path().join("out"));
    assert_eq!(summary["stop_reason"], "exit-on-error");
    // The states left when the run stopped get no tests (only the error's matters).
    let early = std::fs::read_dir(tmp.path().join("out"))
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .path()
                .extension()
                .is_some_and(|x| x == "early")
        })
        .count();
    assert_eq!(early, 0);
    let verdict: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(tmp.path().join("out/verdict.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(verdict["verdict"], "FALSE");
    let test = verdict["test"].as_str().unwrap();
    let exe = native(tmp.path(), &program);
    let (reached, _) = replay(&exe, &suite.join(format!("{test}.xml")), tmp.path());
    assert!(reached);
}

#[test]
fn ilp32_task_gets_a_32bit_suite() {
    // SV-COMP's ILP32 tasks run with -m32: unsigned long is 32 bits, so x + 1 wraps to 0.
    let tmp = tempfile::tempdir().unwrap();
    let program = write(
        tmp.path(),
        "ilp32.c",
        "extern unsigned long __VERIFIER_nondet_ulong(void);\n\
         extern void reach_error(void);\n\
         int main(void) {\n  unsigned long x = __VERIFIER_nondet_ulong();\n\
         if (x == 4294967295UL && x + 1 == 0) reach_error();\n  return 0;\n}\n",
    );
    let o = run_test_comp(tmp.path(), "cover-error", "ilp32.c", &["--cflags=-m32"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let suite = tmp.path().join("out/test-suite");
    validate(&suite, &program);
    let metadata = std::fs::read_to_string(suite.join("metadata.xml")).unwrap();
    assert!(
        metadata.contains("<architecture>32bit</architecture>"),
        "{metadata}"
    );
    let verdict: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(tmp.path().join("out/verdict.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(verdict["verdict"], "FALSE");
}

#[test]
fn verdicts_true_and_unknown() {
    let tmp = tempfile::tempdir().unwrap();
    // Every path explored, none reaches reach_error (the one guarded by x*x == 2 never can).
    write(
        tmp.path(),
        "safe.c",
        "extern void reach_error(void);\nextern int __VERIFIER_nondet_int(void);\n\
         extern void __VERIFIER_assume(int);\n\
         int main() { int x = __VERIFIER_nondet_int(); __VERIFIER_assume(x >= 0 && x < 1000);\n\
         int a[1000] = {0}; a[x] = x; if (a[x] * a[x] == 2) reach_error(); return 0; }\n",
    );
    let o = sear(
        &[
            "run",
            "--no-progress",
            "--output-dir",
            "safe",
            "--sv-comp",
            "safe.c",
        ],
        tmp.path(),
    );
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert_eq!(
        text(&o.stdout).trim(),
        "sear: verdict: TRUE (every path explored, no violation)"
    );
    // A loop on a nondet bound cannot be explored within the instruction budget.
    write(
        tmp.path(),
        "loop.c",
        "extern void reach_error(void);\nextern unsigned __VERIFIER_nondet_uint(void);\n\
         int main() { unsigned n = __VERIFIER_nondet_uint(), s = 0;\n\
         for (unsigned i = 0; i < n; i++) s += 2;\n if (s == 7) reach_error(); return 0; }\n",
    );
    let o = sear(
        &[
            "run",
            "--no-progress",
            "--output-dir",
            "loop",
            "--sv-comp",
            "--max-instructions",
            "3000",
            "loop.c",
        ],
        tmp.path(),
    );
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(
        text(&o.stdout).starts_with("sear: verdict: UNKNOWN (the run stopped (max-instructions))"),
        "{}",
        text(&o.stdout)
    );
}

#[test]
fn bad_property_is_a_usage_error() {
    let tmp = tempfile::tempdir().unwrap();
    write(tmp.path(), "p.c", "int main() { return 0; }\n");
    write(
        tmp.path(),
        "unreach-call.prp",
        "CHECK( init(main()), LTL(G ! call(reach_error())) )\n",
    );
    for property in ["cover-lines", "unreach-call.prp", "missing.prp"] {
        let o = sear(&["run", "--test-comp", property, "p.c"], tmp.path());
        assert_eq!(o.status.code(), Some(2), "{property}: {}", text(&o.stderr));
        assert!(
            text(&o.stderr).contains("--test-comp"),
            "{}",
            text(&o.stderr)
        );
    }
}

#[test]
fn empty_reach_error_is_seen_natively() {
    // Some SV-COMP tasks define reach_error with an empty body (then abort()): the error test
    // still replays to a call of reach_error, and a test that aborts elsewhere does not.
    let tmp = tempfile::tempdir().unwrap();
    let program = write(
        tmp.path(),
        "empty.c",
        "extern void abort(void);\nvoid reach_error(){}\n\
         void __VERIFIER_assert(int c) { if (!c) { ERROR: {reach_error(); abort();} } }\n\
         extern unsigned __VERIFIER_nondet_uint(void);\n\
         int main() { unsigned x = __VERIFIER_nondet_uint(); if (x > 100) abort();\n\
         __VERIFIER_assert(x != 77); return 0; }\n",
    );
    let o = run_test_comp(
        tmp.path(),
        "cover-branches",
        "empty.c",
        &["--search", "dfs"],
    );
    assert!(o.status.success(), "{}", text(&o.stderr));
    let suite = tmp.path().join("out/test-suite");
    validate(&suite, &program);
    let exe = native(tmp.path(), &program);
    let tests = tests_of(&suite);
    assert_eq!(tests.len(), 3, "{tests:?}");
    for (test, covers_error) in &tests {
        let (reached, _) = replay(&exe, test, tmp.path());
        assert_eq!(reached, *covers_error, "{}", test.display());
    }
}

/// The same under --test-comp: the verdict line must not say TRUE for a reachable error
/// (the uninitialised values are no objects of the tests).
#[test]
fn uninitialised_locals_are_nondeterministic_under_test_comp() {
    let tmp = tempfile::tempdir().unwrap();
    write(
        tmp.path(),
        "uninit.c",
        "extern void reach_error(void);\n\
         int main(void) {\n\
         \x20 unsigned int y;\n\
         \x20 if (y == 12345u) reach_error();\n\
         \x20 return 0;\n\
         }\n",
    );
    let o = run_test_comp(tmp.path(), "cover-error", "uninit.c", &[]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let stdout = text(&o.stdout);
    assert!(stdout.contains("sear: verdict: FALSE"), "{stdout}");
}

/// Eight decisions in a loop, 2^8 paths (163 of them end in reach_error), and six branch
/// directions: under cover-branches a test is written only for a path that covered
/// something new (an instruction or a branch direction, as KLEE's
/// --only-output-states-covering-new; the first reach_error too), so the suite is a
/// handful of tests and still covers every branch the full suite (a test per path)
/// covers, by gcov (`sear coverage`); both comparisons (`>` and `<=`) so that either side
/// comes first.
#[test]
fn cover_branches_writes_tests_only_for_new_coverage() {
    for cmp in [">", "<="] {
        let tmp = tempfile::tempdir().unwrap();
        let source = format!(
            "extern int __VERIFIER_nondet_int(void);\n\
             void reach_error(void) {{}}\n\
             int main(void) {{\n\
             \x20 int n = 0;\n\
             \x20 for (int i = 0; i < 8; i++)\n\
             \x20   if (__VERIFIER_nondet_int() {cmp} 0)\n\
             \x20     n++;\n\
             \x20 if (n >= 4)\n\
             \x20   reach_error();\n\
             \x20 return n;\n\
             }}\n"
        );
        write(tmp.path(), "paths.c", &source);
        let run = |out: &str, extra: &[&str]| {
            let mut args = vec![
                "run",
                "--no-progress",
                "--search",
                "dfs",
                "--output-dir",
                out,
            ];
            args.extend_from_slice(extra);
            args.push("paths.c");
            let o = sear(&args, tmp.path());
            assert!(o.status.success(), "{}", text(&o.stderr));
            let summary = summary(&tmp.path().join(out));
            let tests = tests_in(&tmp.path().join(out));
            let count = |key: &str| summary[key].as_u64().unwrap();
            (count("completed_paths") + count("error_paths"), tests)
        };
        let (paths, tests) = run("suite", &["--test-comp", "cover-branches"]);
        let (full_paths, full_tests) = run("full", &[]);
        assert_eq!((paths, full_paths, full_tests), (256, 256, 256), "{cmp}");
        assert!(tests <= 8, "{cmp}: {tests} tests");
        let suite = tests_of(&tmp.path().join("suite/test-suite"));
        assert_eq!(suite.len(), tests, "{cmp}");
        let branches_hit = |out: &str| {
            let o = sear(&["coverage", "--json", out], tmp.path());
            assert!(o.status.success(), "{}", text(&o.stderr));
            let report: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
            report["total"]["branches_hit"].as_u64().unwrap()
        };
        let full = branches_hit("full");
        assert!(full >= 4, "{cmp}: {full}");
        assert_eq!(branches_hit("suite"), full, "{cmp}");
    }
}

/// Under cover-error, the state that --max-time stops keeps its test: a loop of 2^27
/// iterations without inputs does not reach reach_error within the limit, and the test of
/// the stopped state (no inputs) reaches it natively, which is what Test-Comp counts.
#[test]
fn cover_error_keeps_the_test_of_the_state_stopped_at_the_limit() {
    let tmp = tempfile::tempdir().unwrap();
    let program = write(
        tmp.path(),
        "long_loop.c",
        "extern void reach_error(void);\n\
         int main(void) {\n\
         \x20 unsigned int x = 0;\n\
         \x20 while (x < 0x0fffffffu)\n\
         \x20   x += 2;\n\
         \x20 if (x % 2 == 0)\n\
         \x20   reach_error();\n\
         \x20 return 0;\n\
         }\n",
    );
    let o = run_test_comp(
        tmp.path(),
        "cover-error",
        "long_loop.c",
        &["--max-time", "2"],
    );
    assert!(o.status.success(), "{}", text(&o.stderr));
    let tests = tests_of(&tmp.path().join("out/test-suite"));
    assert_eq!(tests.len(), 1, "{tests:?}");
    let exe = native(tmp.path(), &program);
    let (reached, _) = replay(&exe, &tests[0].0, tmp.path());
    assert!(reached);
}

/// Under --test-comp the halt writes the tests of the states that covered something new
/// before ending the others, which get none: a loop of 10^5 input-dependent branches
/// leaves tens of thousands of states at --max-time, and ending them newest first took
/// the halt's whole budget before the few that covered something new (the oldest) were
/// reached, so the suite had no test (sv-benchmarks' `standard_running-1`: 74,140 states,
/// 0 tests at 11 s).
#[test]
fn cover_branches_halt_writes_the_states_that_covered_new_first() {
    let tmp = tempfile::tempdir().unwrap();
    write(
        tmp.path(),
        "many_states.c",
        "extern int __VERIFIER_nondet_int(void);\n\
         int a[100000];\n\
         int main(void) {\n\
         \x20 int n = 0;\n\
         \x20 for (int i = 0; i < 100000; i++)\n\
         \x20   a[i] = __VERIFIER_nondet_int();\n\
         \x20 for (int i = 0; i < 100000; i++)\n\
         \x20   if (a[i] >= 0)\n\
         \x20     n++;\n\
         \x20 return n;\n\
         }\n",
    );
    let o = run_test_comp(
        tmp.path(),
        "cover-branches",
        "many_states.c",
        &["--max-time", "4"],
    );
    assert!(o.status.success(), "{}", text(&o.stderr));
    let s = summary(&tmp.path().join("out"));
    assert!(
        s["early_paths"].as_u64().unwrap() > 10_000,
        "too few states to test the order: {s}"
    );
    let tests = tests_of(&tmp.path().join("out/test-suite"));
    assert!(!tests.is_empty(), "no test: {s}");
}
