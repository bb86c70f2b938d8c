//! End-to-end tests: every C program (and `.ll` module) under `tests/c/` is run through `sear run`, and the
//! outcome is compared with expectations written as comments in the program:
//!
//! * `// sear-args: ARGS` — extra arguments for `sear run` (default search: dfs).
//! * `// program-args: ARGS` — arguments passed to the program's `main`.
//! * `// expect-completed: N` — paths that returned from `main` or called `exit`.
//! * `// expect-error-paths: N` — paths that ended with an error.
//! * `// expect-tests: N` — `.ktest` files written.
//! * `// expect-exits: A B ...` — the exit statuses of the paths that exited (one per path,
//!   in any order; sear records them as `testNNNNNN.exit`).
//! * `... // expect-error: KIND` on a line — an error of that kind is reported at this line;
//!   the reported (kind, line) set must equal the annotated one.
//! * `// expect-replay: no` — skip the native replay. By default every test is replayed
//!   with `sear replay`: reported errors must reproduce, paths that exited must exit natively
//!   with sear's exit code and output, and no test may end natively with an input mismatch,
//!   a timeout, an error sear did not report, or a violated assumption (except for tests of
//!   `user` errors, which are provably false assumptions, and of errors with no native
//!   counterpart such as `exec`, after which the native run goes on).
//! * `// sear-configs: ARGS | ARGS | ...` — run the program once per configuration (each with
//!   `sear-args` plus its own ARGS); every expectation applies to every run, and all runs
//!   must end the same paths: equal path counts and equal `trace_digest` in `summary.json`
//!   (the instruction traces of the ended paths). Used to check that the array
//!   transformations change no path.
//! * `// expect-stderr: TEXT` — sear's own stderr (its messages, warnings and
//!   `klee_print_expr` lines) has a line containing TEXT; repeatable.
//! * `// expect-summary: KEY OP N [if TEXT]` — a number in `summary.json` (KEY is a dotted
//!   path such as `array_opt.index_successes`; OP is `==`, `>=`, `<=` or `>`), checked in the
//!   runs whose configuration ARGS contain TEXT (all runs without `if`).
//!
//! `SEAR_E2E_FILTER=substring` runs only matching programs. `SEAR_E2E_EXTRA_ARGS="--flag=value
//! ..."` adds arguments to every run (in `=` form), except flags the program or its
//! configuration sets itself; e.g. the whole suite under the CEGAR core:
//! `SEAR_E2E_EXTRA_ARGS="--core-solver=cegar --ilp-precheck" cargo test -p sear-cli --test e2e`.

mod common;

use std::path::Path;
use std::process::Command;

use serde_json::Value;

struct Expectations {
    sear_args: Vec<String>,
    program_args: Vec<String>,
    completed: Option<u64>,
    error_paths: Option<u64>,
    tests: Option<u64>,
    exits: Option<Vec<i64>>,
    errors: Vec<(String, u32)>,
    replay: bool,
    configs: Vec<Vec<String>>,
    summary_checks: Vec<SummaryCheck>,
    stderr_lines: Vec<String>,
}

/// An `expect-summary:` line.
#[derive(Debug, PartialEq)]
struct SummaryCheck {
    key: String,
    op: String,
    value: f64,
    only_if: Option<String>,
}

fn parse_summary_check(v: &str) -> SummaryCheck {
    let (check, only_if) = match v.split_once(" if ") {
        Some((c, t)) => (c, Some(t.trim().to_string())),
        None => (v, None),
    };
    let parts: Vec<&str> = check.split_whitespace().collect();
    assert_eq!(
        parts.len(),
        3,
        "expect-summary: KEY OP N [if TEXT], got '{v}'"
    );
    assert!(
        ["==", ">=", "<=", ">"].contains(&parts[1]),
        "expect-summary: bad operator in '{v}'"
    );
    SummaryCheck {
        key: parts[0].to_string(),
        op: parts[1].to_string(),
        value: parts[2].parse().expect("expect-summary: number"),
        only_if,
    }
}

fn parse_expectations(source: &str) -> Expectations {
    let mut e = Expectations {
        sear_args: Vec::new(),
        program_args: Vec::new(),
        completed: None,
        error_paths: None,
        tests: None,
        exits: None,
        errors: Vec::new(),
        replay: true,
        configs: Vec::new(),
        summary_checks: Vec::new(),
        stderr_lines: Vec::new(),
    };
    for (index, line) in source.lines().enumerate() {
        let Some(comment) = line.find("//").map(|i| line[i + 2..].trim()) else {
            continue;
        };
        let value = |key: &str| comment.strip_prefix(key).map(str::trim);
        if let Some(v) = value("sear-args:") {
            e.sear_args.extend(v.split_whitespace().map(str::to_string));
        } else if let Some(v) = value("program-args:") {
            e.program_args
                .extend(v.split_whitespace().map(str::to_string));
        } else if let Some(v) = value("expect-completed:") {
            e.completed = Some(v.parse().expect("expect-completed: number"));
        } else if let Some(v) = value("expect-error-paths:") {
            e.error_paths = Some(v.parse().expect("expect-error-paths: number"));
        } else if let Some(v) = value("expect-tests:") {
            e.tests = Some(v.parse().expect("expect-tests: number"));
        } else if let Some(v) = value("expect-exits:") {
            let mut exits: Vec<i64> = v
                .split_whitespace()
                .map(|x| x.parse().expect("expect-exits: numbers"))
                .collect();
            exits.sort();
            e.exits = Some(exits);
        } else if let Some(v) = value("expect-error:") {
            e.errors.push((v.to_string(), index as u32 + 1));
        } else if let Some(v) = value("expect-replay:") {
            e.replay = v != "no";
        } else if let Some(v) = value("sear-configs:") {
            e.configs = v
                .split('|')
                .map(|c| c.split_whitespace().map(str::to_string).collect())
                .collect();
        } else if let Some(v) = value("expect-summary:") {
            e.summary_checks.push(parse_summary_check(v));
        } else if let Some(v) = value("expect-stderr:") {
            e.stderr_lines.push(v.to_string());
        }
    }
    e.errors.sort();
    e
}

/// Runs one program under each of its configurations; returns a description of every
/// mismatch.
fn check(program: &Path) -> Vec<String> {
    let source = std::fs::read_to_string(program).expect("readable program");
    let expect = parse_expectations(&source);
    let configs = if expect.configs.is_empty() {
        vec![Vec::new()]
    } else {
        expect.configs.clone()
    };
    let name = program.file_name().unwrap().to_string_lossy().to_string();
    let mut problems = Vec::new();
    let mut first: Option<(String, Value)> = None;
    for config in &configs {
        let (mut p, summary) = check_config(program, &expect, config);
        problems.append(&mut p);
        let Some(summary) = summary else { continue };
        let label = config.join(" ");
        match &first {
            None => first = Some((label, summary)),
            Some((first_label, first_summary)) => {
                for key in [
                    "completed_paths",
                    "error_paths",
                    "early_paths",
                    "trace_digest",
                ] {
                    if summary[key] != first_summary[key] {
                        problems.push(format!(
                            "{name}: {key} = {} under '{label}' but {} under '{first_label}'",
                            summary[key], first_summary[key]
                        ));
                    }
                }
            }
        }
    }
    problems
}

/// The number at a dotted path of a JSON value.
fn lookup_number(v: &Value, key: &str) -> Option<f64> {
    key.split('.').try_fold(v, |v, k| v.get(k))?.as_f64()
}

/// Runs one program under one configuration; returns the mismatches and the summary.
/// The arguments of `SEAR_E2E_EXTRA_ARGS` whose flag `own` does not set.
fn extra_args(own: &[String]) -> Vec<String> {
    let flag = |a: &str| a.split('=').next().unwrap_or("").to_string();
    std::env::var("SEAR_E2E_EXTRA_ARGS")
        .unwrap_or_default()
        .split_whitespace()
        .filter(|a| !own.iter().any(|o| flag(o) == flag(a)))
        .map(str::to_string)
        .collect()
}

fn check_config(
    program: &Path,
    expect: &Expectations,
    config: &[String],
) -> (Vec<String>, Option<Value>) {
    let out_root = tempfile::tempdir().expect("tempdir");
    let out = out_root.path().join("out");
    let mut cmd = Command::new(common::sear_bin());
    cmd.arg("run")
        .arg("--no-progress")
        .arg("--verify-ir")
        .arg("--output-dir")
        .arg(&out);
    if !expect.sear_args.iter().any(|a| a.starts_with("--search")) {
        cmd.args(["--search", "dfs"]);
    }
    let own: Vec<String> = expect.sear_args.iter().chain(config).cloned().collect();
    cmd.args(extra_args(&own))
        .args(&expect.sear_args)
        .args(config)
        .arg(program)
        .args(&expect.program_args);
    let output = cmd.output().expect("sear runs");
    let file = program.file_name().unwrap().to_string_lossy().to_string();
    let name = if config.is_empty() {
        file
    } else {
        format!("{file} [{}]", config.join(" "))
    };
    let mut problems = Vec::new();
    if !output.status.success() {
        problems.push(format!(
            "{name}: sear run failed: {}\n{}",
            output.status,
            String::from_utf8_lossy(&output.stderr)
        ));
        return (problems, None);
    }
    let summary: Value = serde_json::from_str(
        &std::fs::read_to_string(out.join("summary.json")).expect("summary.json"),
    )
    .expect("valid summary");
    let number = |key: &str| summary[key].as_u64().unwrap_or(u64::MAX);
    for (key, expected) in [
        ("completed_paths", expect.completed),
        ("error_paths", expect.error_paths),
        ("tests", expect.tests),
    ] {
        if let Some(expected) = expected {
            if number(key) != expected {
                problems.push(format!(
                    "{name}: {key} = {}, expected {expected}",
                    number(key)
                ));
            }
        }
    }
    let ktests = std::fs::read_dir(&out)
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .path()
                .extension()
                .is_some_and(|x| x == "ktest")
        })
        .count() as u64;
    if ktests != number("tests") {
        problems.push(format!(
            "{name}: summary says {} tests, directory has {ktests}",
            number("tests")
        ));
    }
    if let Some(expected) = &expect.exits {
        let mut exits: Vec<i64> = std::fs::read_dir(&out)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "exit"))
            .map(|p| {
                std::fs::read_to_string(p)
                    .unwrap()
                    .trim()
                    .parse()
                    .unwrap_or(i64::MIN)
            })
            .collect();
        exits.sort();
        if exits != *expected {
            problems.push(format!(
                "{name}: exit statuses {exits:?}, expected {expected:?}"
            ));
        }
    }
    let mut reported: Vec<(String, u32)> = summary["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["kind"].as_str().unwrap().to_string(),
                e["line"].as_u64().unwrap() as u32,
            )
        })
        .collect();
    reported.sort();
    if reported != expect.errors {
        problems.push(format!(
            "{name}: reported errors {reported:?}, expected {:?}",
            expect.errors
        ));
    }
    let stderr = String::from_utf8_lossy(&output.stderr);
    for text in &expect.stderr_lines {
        if !stderr.lines().any(|l| l.contains(text.as_str())) {
            problems.push(format!(
                "{name}: no line of sear's stderr contains {text:?}"
            ));
        }
    }
    if expect.replay {
        problems.extend(common::check_replay(common::sear_bin(), &name, &out));
    }
    let label = config.join(" ");
    for c in &expect.summary_checks {
        if c.only_if
            .as_ref()
            .is_some_and(|t| !label.contains(t.as_str()))
        {
            continue;
        }
        let actual = lookup_number(&summary, &c.key);
        let ok = actual.is_some_and(|a| match c.op.as_str() {
            "==" => a == c.value,
            ">=" => a >= c.value,
            "<=" => a <= c.value,
            _ => a > c.value,
        });
        if !ok {
            problems.push(format!(
                "{name}: {} = {actual:?}, expected {} {}",
                c.key, c.op, c.value
            ));
        }
    }
    if !problems.is_empty() {
        problems.push(format!(
            "{name}: sear stderr:\n{}",
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    (problems, Some(summary))
}

#[test]
fn c_programs_meet_their_expectations() {
    let programs = common::c_programs("tests/c", "SEAR_E2E_FILTER");
    assert!(!programs.is_empty(), "no programs under tests/c");
    common::assert_no_problems(&common::problems_in_parallel(&programs, 4, |p| check(p)));
}

#[test]
fn expectations_parse() {
    let e = parse_expectations(
        "// sear-args: --max-time 5\nint x; // expect-error: ptr\n// expect-completed: 3\n",
    );
    assert_eq!(e.sear_args, vec!["--max-time", "5"]);
    assert_eq!(e.errors, vec![("ptr".to_string(), 2)]);
    assert_eq!(e.completed, Some(3));
    assert_eq!(
        parse_expectations("// expect-exits: 2 -1 0\n").exits,
        Some(vec![-1, 0, 2])
    );
    let e =
        parse_expectations("// sear-configs: --a 1 | --b\n// expect-summary: x.y >= 2 if --b\n");
    assert_eq!(
        e.configs,
        vec![
            vec!["--a".to_string(), "1".to_string()],
            vec!["--b".to_string()]
        ]
    );
    assert_eq!(
        e.summary_checks,
        vec![SummaryCheck {
            key: "x.y".into(),
            op: ">=".into(),
            value: 2.0,
            only_if: Some("--b".into())
        }]
    );
    let v: Value = serde_json::from_str(r#"{"x": {"y": 3}}"#).unwrap();
    assert_eq!(lookup_number(&v, "x.y"), Some(3.0));
    assert_eq!(lookup_number(&v, "x.z"), None);
}
