//! End-to-end tests: every C program (and `.ll` module) under `tests/c/`, `tests/runtime/`,
//! `tests/tools/` and `tests/symsize/` is run through `sear run` and checked against the
//! expectations written as comments in the program. The dialect, the environment variables
//! (`SEAR_E2E_EXTRA_ARGS`, `SEAR_BLESS`) and how to select programs are described in
//! `tests/README.md`; the code is in `tests/common/` (`expect.rs` parses, `suite.rs` runs and
//! checks, `bless.rs` rewrites).
//!
//! Each program is its own test, named by its path under `tests/`:
//! `cargo test --release -p sear-cli --test e2e -- branch_basic` runs `c/branch_basic.c`.

mod common;

use std::path::Path;

use common::expect::{self, Count};
use common::suite::{self, Run};
use libtest_mimic::{Failed, Trial};
use serde_json::{json, Value};

/// The directories of programs, relative to the repository root, in the order their trials
/// start: the slowest programs first (the symbolic-size modes, the tools' several runs), so
/// that no long trial starts last while the other threads idle.
const DIRS: &[&str] = &[
    "tests/symsize",
    "tests/tools",
    "tests/runtime",
    "tests/c",
    "tests/cxx",
];

fn main() {
    let args = common::harness::arguments();
    let bless = common::harness::bless_requested();
    let programs: Vec<_> = DIRS.iter().flat_map(|d| common::c_programs(d)).collect();
    let mut trials = common::harness::trials(programs, move |p| suite::check_program(p, bless));
    trials.extend(unit_trials());
    libtest_mimic::run(&args, trials).exit();
}

/// Checks of the dialect itself, with no `sear` run.
fn unit_trials() -> Vec<Trial> {
    vec![
        Trial::test("dialect::parses", parses),
        Trial::test("dialect::rejects_unknown_and_malformed", rejects),
        Trial::test("dialect::escapes_decode", escapes),
        Trial::test("dialect::checks_find_mismatches", finds_mismatches),
        Trial::test("dialect::bless_rewrites_only_expectations", bless_rewrites),
    ]
}

fn ensure(ok: bool, what: impl Into<String>) -> Result<(), Failed> {
    if ok {
        Ok(())
    } else {
        Err(what.into().into())
    }
}

fn parses() -> Result<(), Failed> {
    let e = expect::parse(
        "// sear-args: --max-time 5\nint x; // expect-error: ptr\n// expect-completed: 3\n",
    )?;
    ensure(e.sear_args == ["--max-time", "5"], "sear-args")?;
    ensure(e.errors == [("ptr".to_string(), 2)], "expect-error")?;
    ensure(
        e.completed == Some(Count { line: 3, value: 3 }),
        "expect-completed",
    )?;
    let e = expect::parse("// expect-exits: 2 -1 0\n")?;
    ensure(e.exits == Some((1, vec![-1, 0, 2])), "expect-exits sorted")?;
    let e = expect::parse("// sear-configs: --a 1 | --b\n// expect-summary: x.y >= 2 if --b\n")?;
    ensure(e.configs == [vec!["--a", "1"], vec!["--b"]], "sear-configs")?;
    let c = &e.summary_checks[0];
    ensure(
        c.check.key == "x.y" && c.check.op == ">=" && c.check.value == 2.0,
        "summary check",
    )?;
    ensure(c.only_if.as_deref() == Some("--b"), "if")?;
    let e = expect::parse(
        "// run: --sym-stdin 3 ;; -d a-c ;; 8\n// mode smopt+inc: completed_paths == 2; error-in strchr ptr\n// expect-test-stdout:  a\\n\n",
    )?;
    ensure(
        e.runs[0].sear_args == ["--sym-stdin", "3"]
            && e.runs[0].program_args == ["-d", "a-c"]
            && e.runs[0].completed == 8,
        "run:",
    )?;
    ensure(
        e.modes[0].mode == "smopt+inc" && e.modes[0].checks.len() == 2,
        "mode",
    )?;
    ensure(e.test_stdout == [b" a\n".to_vec()], "one space is syntax")?;
    ensure(
        expect::parse("; // expect-completed: 4\n")?
            .completed
            .map(|c| c.value)
            == Some(4),
        ".ll comments",
    )
}

fn rejects() -> Result<(), Failed> {
    for bad in [
        "// expect-complete: 3\n",
        "// expect-completed: three\n",
        "// expect-summary: x = 3\n",
        "// run: a ;; b\n",
        "// expect-replay: maybe\n",
        "int x; // expect-error: ptr div\n",
        "// expect-test-stdout: \\q\n",
    ] {
        let r = expect::parse(bad);
        ensure(
            r.as_ref().is_err_and(|m| m.starts_with("line 1: ")),
            format!("{bad:?} gave {r:?}"),
        )?;
    }
    // Prose that merely contains a colon is no expectation.
    ensure(
        expect::parse("// note: x\n// cut: a tool\n// mode 1: klee_range(3, 3)\n")
            .is_ok_and(|e| e.modes.is_empty()),
        "prose",
    )
}

fn escapes() -> Result<(), Failed> {
    ensure(expect::unescape(r"a\n\t\\\x41")? == b"a\n\t\\A", "escapes")
}

fn summary(completed: u64, errors: Value, extra: Value) -> Value {
    let mut s = json!({
        "completed_paths": completed, "error_paths": errors.as_array().unwrap().len(),
        "early_paths": 0, "tests": 0, "errors": errors, "trace_digest": "d",
    });
    for (k, v) in extra.as_object().unwrap() {
        s[k] = v.clone();
    }
    s
}

fn finds_mismatches() -> Result<(), Failed> {
    let source = "// expect-completed: 2\n// expect-exits: 0 1\nx; // expect-error: div\n// expect-summary: forks == 1\n";
    let e = expect::parse(source)?;
    let errors = json!([{"kind": "div", "line": 3, "file": "p.c"}]);
    let good = Run::from_summary(
        "p",
        "",
        summary(2, errors.clone(), json!({"forks": 1})),
        vec![0, 1],
    );
    ensure(
        suite::check("p", &e, &[good]).is_empty(),
        "a matching run passes",
    )?;
    let bad = Run::from_summary("p", "", summary(3, json!([]), json!({"forks": 2})), vec![0]);
    let problems = suite::check("p", &e, &[bad]);
    ensure(
        problems.len() == 4,
        format!("four mismatches: {problems:#?}"),
    )?;
    // Configurations must end the same paths.
    let e = expect::parse("// sear-configs: --a | --b\n")?;
    let a = Run::from_summary("p", "--a", summary(1, json!([]), json!({})), vec![]);
    let b = Run::from_summary("p", "--b", summary(2, json!([]), json!({})), vec![]);
    ensure(
        suite::check("p", &e, &[a, b]).len() == 1,
        "differing configurations",
    )
}

fn bless_rewrites() -> Result<(), Failed> {
    let program = Path::new("/p.c");
    let source = "// Prose: 7 paths.\n// expect-completed: 2\n// expect-exits: 1 0\nint a; // expect-error: div\nint b;\n// expect-summary: forks == 1 if --a\n// expect-summary: queries >= 1\n";
    let e = expect::parse(source)?;
    let errors = json!([{"kind": "ptr", "line": 5, "file": "/p.c"}]);
    let run = || {
        Run::from_summary(
            "p",
            "--a",
            summary(7, errors.clone(), json!({"forks": 4, "queries": 0})),
            vec![0, 1],
        )
    };
    let blessed = common::bless::bless(program, source, &e, &[run()]);
    let wanted = "// Prose: 7 paths.\n// expect-completed: 7\n// expect-exits: 1 0\nint a;\nint b; // expect-error: ptr\n// expect-summary: forks == 4 if --a\n// expect-summary: queries >= 1\n";
    ensure(blessed == wanted, format!("blessed:\n{blessed}"))?;
    // What bless cannot write stays a failure: the inequality.
    let left = suite::check("p", &expect::parse(&blessed)?, &[run()]);
    ensure(
        left.len() == 1 && left[0].contains("queries"),
        format!("{left:#?}"),
    )?;
    // A blessed file blesses to itself.
    let again = common::bless::bless(program, &blessed, &expect::parse(&blessed)?, &[run()]);
    ensure(again == blessed, "bless is idempotent")
}
