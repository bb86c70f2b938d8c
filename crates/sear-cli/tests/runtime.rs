//! Tests of sear's C runtime: every C program under `tests/runtime/` (libc families) and
//! `tests/tools/` (small command-line tools) is run through `sear run`, its outcome is
//! compared with expectations written as comments in the program, and every generated
//! test is replayed natively with `sear replay`, which must reproduce each test's exit
//! code, stdout and stderr (and every reported error).
//!
//! * `// sear-args: ARGS` — arguments of `sear run` before the program (default: `--search dfs`).
//! * `// program-args: ARGS` — arguments after the program (its argv, where KLEE-style
//!   `--sym-arg N` options may appear too).
//! * `// expect-completed: N`, `// expect-error-paths: N`, `// expect-tests: N` — path and
//!   test counts from summary.json.
//! * `// expect-errors: KIND...` — the kinds of the reported errors (sorted, with repeats).
//! * `// expect-stdout: TEXT` — some test printed exactly TEXT on stdout (escapes `\n`, `\t`,
//!   `\\`, `\xHH`); repeatable.
//! * `// expect-stderr: TEXT` — the same for stderr.
//! * `// expect-warning: TEXT` — warnings.txt contains TEXT.
//! * `// expect-object: NAME` — some test has an object NAME; repeatable.
//! * `// run: SEAR-ARGS ;; PROGRAM-ARGS ;; COMPLETED` — runs the program once more with
//!   these arguments and expects COMPLETED completed paths (repeatable). With `run` lines,
//!   `sear-args`, `program-args` and `expect-completed` apply to no run; the output
//!   expectations apply to the outputs of all runs together.
//!
//! Programs run from the repository root. `SEAR_RUNTIME_FILTER=substring` runs only
//! matching programs.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

#[derive(Default)]
struct Expectations {
    sear_args: Vec<String>,
    program_args: Vec<String>,
    completed: Option<u64>,
    error_paths: Option<u64>,
    tests: Option<u64>,
    errors: Option<Vec<String>>,
    stdout: Vec<Vec<u8>>,
    stderr: Vec<Vec<u8>>,
    warnings: Vec<String>,
    objects: Vec<String>,
    runs: Vec<(Vec<String>, Vec<String>, u64)>,
}

/// Decodes `\n`, `\t`, `\\` and `\xHH`.
fn unescape(text: &str) -> Vec<u8> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'\\' && i + 1 < bytes.len() {
            match bytes[i + 1] {
                b'n' => out.push(b'\n'),
                b't' => out.push(b'\t'),
                b'\\' => out.push(b'\\'),
                b'x' if i + 3 < bytes.len() => {
                    let hex = std::str::from_utf8(&bytes[i + 2..i + 4]).expect("hex escape");
                    out.push(u8::from_str_radix(hex, 16).expect("hex escape"));
                    i += 2;
                }
                other => panic!("unknown escape \\{}", other as char),
            }
            i += 2;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    out
}

fn parse_expectations(source: &str) -> Expectations {
    let mut e = Expectations::default();
    for line in source.lines() {
        let Some(comment) = line.trim_start().strip_prefix("//").map(str::trim) else {
            continue;
        };
        let value = |key: &str| comment.strip_prefix(key).map(str::trim);
        let number = |v: &str| v.parse::<u64>().expect("a number");
        if let Some(v) = value("sear-args:") {
            e.sear_args.extend(v.split_whitespace().map(str::to_string));
        } else if let Some(v) = value("program-args:") {
            e.program_args
                .extend(v.split_whitespace().map(str::to_string));
        } else if let Some(v) = value("expect-completed:") {
            e.completed = Some(number(v));
        } else if let Some(v) = value("expect-error-paths:") {
            e.error_paths = Some(number(v));
        } else if let Some(v) = value("expect-tests:") {
            e.tests = Some(number(v));
        } else if let Some(v) = value("expect-errors:") {
            let mut kinds: Vec<String> = v.split_whitespace().map(str::to_string).collect();
            kinds.sort();
            e.errors = Some(kinds);
        } else if let Some(v) = comment.strip_prefix("expect-stdout:") {
            e.stdout.push(unescape(v.strip_prefix(' ').unwrap_or(v)));
        } else if let Some(v) = comment.strip_prefix("expect-stderr:") {
            e.stderr.push(unescape(v.strip_prefix(' ').unwrap_or(v)));
        } else if let Some(v) = value("expect-warning:") {
            e.warnings.push(v.to_string());
        } else if let Some(v) = value("expect-object:") {
            e.objects.push(v.to_string());
        } else if let Some(v) = value("run:") {
            let parts: Vec<&str> = v.split(";;").map(str::trim).collect();
            assert_eq!(
                parts.len(),
                3,
                "run: SEAR-ARGS ;; PROGRAM-ARGS ;; COMPLETED"
            );
            let words = |p: &str| p.split_whitespace().map(str::to_string).collect::<Vec<_>>();
            e.runs
                .push((words(parts[0]), words(parts[1]), number(parts[2])));
        }
    }
    e
}

/// Every file `dir/testNNNNNN.<suffix>`'s contents.
fn test_files(dir: &Path, suffix: &str) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).expect("output directory") {
        let path = entry.expect("dir entry").path();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        if name.starts_with("test") && name.ends_with(&format!(".{suffix}")) {
            out.push(std::fs::read(&path).expect("readable test file"));
        }
    }
    out
}

/// The outputs of one `sear run` (kept alive for the output checks).
struct Run {
    _root: tempfile::TempDir,
    out: PathBuf,
    tests: u64,
}

/// Runs one program in every configuration; returns a description of every mismatch.
fn check(program: &Path) -> Vec<String> {
    let source = std::fs::read_to_string(program).expect("readable program");
    let expect = parse_expectations(&source);
    let name = program.file_name().unwrap().to_string_lossy().to_string();
    let mut problems = Vec::new();
    let mut runs = Vec::new();
    if expect.runs.is_empty() {
        let config = (
            expect.sear_args.clone(),
            expect.program_args.clone(),
            expect.completed,
        );
        runs.extend(run_one(&name, program, &expect, &config, &mut problems));
    } else {
        for (sear_args, program_args, completed) in &expect.runs {
            let config = (sear_args.clone(), program_args.clone(), Some(*completed));
            runs.extend(run_one(&name, program, &expect, &config, &mut problems));
        }
    }
    if problems.is_empty() {
        check_outputs(&name, &expect, &runs, &mut problems);
    }
    problems
}

/// One `sear run` and its replay; None if sear failed.
fn run_one(
    name: &str,
    program: &Path,
    expect: &Expectations,
    (sear_args, program_args, completed): &(Vec<String>, Vec<String>, Option<u64>),
    problems: &mut Vec<String>,
) -> Option<Run> {
    let root = tempfile::tempdir().expect("tempdir");
    let out = root.path().join("out");
    let label = format!(
        "{name} [{} ;; {}]",
        sear_args.join(" "),
        program_args.join(" ")
    );
    let mut cmd = Command::new(common::sear_bin());
    cmd.current_dir(common::repo_root())
        .arg("run")
        .arg("--no-progress")
        .arg("--output-dir")
        .arg(&out);
    if !sear_args.iter().any(|a| a.starts_with("--search")) {
        cmd.args(["--search", "dfs"]);
    }
    cmd.args(sear_args).arg(program).args(program_args);
    let output = cmd.output().expect("sear runs");
    if !output.status.success() {
        problems.push(format!(
            "{label}: sear run failed: {}\n{}",
            output.status,
            String::from_utf8_lossy(&output.stderr)
        ));
        return None;
    }
    let summary: Value = serde_json::from_str(
        &std::fs::read_to_string(out.join("summary.json")).expect("summary.json"),
    )
    .expect("valid summary");
    let number = |key: &str| summary[key].as_u64().unwrap_or(u64::MAX);
    let before = problems.len();
    for (key, expected) in [
        ("completed_paths", *completed),
        ("error_paths", expect.error_paths),
        ("tests", expect.tests),
    ] {
        if let Some(expected) = expected {
            if number(key) != expected {
                problems.push(format!(
                    "{label}: {key} = {}, expected {expected}",
                    number(key)
                ));
            }
        }
    }
    if let Some(kinds) = &expect.errors {
        let mut found: Vec<String> = summary["errors"]
            .as_array()
            .map(|a| {
                a.iter()
                    .map(|e| e["kind"].as_str().unwrap_or("?").to_string())
                    .collect()
            })
            .unwrap_or_default();
        found.sort();
        if &found != kinds {
            problems.push(format!("{label}: errors {found:?}, expected {kinds:?}"));
        }
    }
    problems.extend(replay(&label, &out, number("completed_paths")));
    if problems.len() > before {
        problems.push(format!(
            "{label}: sear stderr:\n{}",
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    Some(Run {
        _root: root,
        out,
        tests: number("tests"),
    })
}

/// The output expectations, over all runs.
fn check_outputs(name: &str, expect: &Expectations, runs: &[Run], problems: &mut Vec<String>) {
    for (suffix, wanted) in [("stdout", &expect.stdout), ("stderr", &expect.stderr)] {
        let mut seen = Vec::new();
        let mut without = false;
        for run in runs {
            let files = test_files(&run.out, suffix);
            without |= (files.len() as u64) < run.tests;
            seen.extend(files);
        }
        for text in wanted.iter() {
            // An empty expectation is also met by a test that printed nothing.
            let met = seen.contains(text) || (text.is_empty() && without);
            if !met {
                problems.push(format!(
                    "{name}: no test printed {:?} on {suffix}",
                    String::from_utf8_lossy(text)
                ));
            }
        }
    }
    let warnings: String = runs
        .iter()
        .map(|r| std::fs::read_to_string(r.out.join("warnings.txt")).unwrap_or_default())
        .collect();
    for w in &expect.warnings {
        if !warnings.contains(w.as_str()) {
            problems.push(format!("{name}: warnings.txt lacks {w:?}"));
        }
    }
    for object in &expect.objects {
        let found = runs.iter().any(|run| {
            std::fs::read_dir(&run.out)
                .expect("output directory")
                .any(|e| {
                    let path = e.expect("dir entry").path();
                    path.extension().is_some_and(|x| x == "ktest")
                        && sear_ktest::KTest::read(&path)
                            .is_ok_and(|k| k.objects.iter().any(|o| &o.name == object))
                })
        });
        if !found {
            problems.push(format!("{name}: no test has an object named {object}"));
        }
    }
}

/// Replays every test: all outputs match (one check per completed path), every error
/// reproduces, no input mismatch.
fn replay(name: &str, out: &Path, completed: u64) -> Vec<String> {
    let output = Command::new(common::sear_bin())
        .current_dir(common::repo_root())
        .args(["replay", "--json"])
        .arg(out)
        .output()
        .expect("sear replay runs");
    let report: Value = match serde_json::from_slice(&output.stdout) {
        Ok(report) => report,
        Err(_) => {
            return vec![format!(
                "{name}: sear replay failed: {}\n{}",
                output.status,
                String::from_utf8_lossy(&output.stderr)
            )]
        }
    };
    let s = &report["summary"];
    let count = |key: &str| s[key].as_u64().unwrap_or(u64::MAX);
    let mut problems = Vec::new();
    for (key, expected) in [
        ("outputs_checked", completed),
        ("output_mismatches", 0),
        ("not_reproduced", 0),
        ("unexpected_errors", 0),
        ("input_mismatches", 0),
        ("assumption_violations", 0),
        ("timeouts", 0),
    ] {
        if count(key) != expected {
            problems.push(format!(
                "{name}: replay {key} = {}, expected {expected}",
                count(key)
            ));
        }
    }
    if !problems.is_empty() {
        for test in report["tests"].as_array().into_iter().flatten() {
            let ok = test["output"]["output"]
                .as_str()
                .is_none_or(|o| o == "match")
                && test["verdict"].as_str() != Some("not_reproduced");
            if !ok {
                problems.push(format!("{name}:   {test}"));
            }
        }
    }
    problems
}

fn run_dir(dir: &str) {
    let programs = common::c_programs(dir, "SEAR_RUNTIME_FILTER");
    assert!(
        !programs.is_empty() || std::env::var("SEAR_RUNTIME_FILTER").is_ok(),
        "no programs in {dir}"
    );
    let mut problems = Vec::new();
    for program in &programs {
        problems.extend(check(program));
    }
    common::assert_no_problems(&problems);
}

#[test]
fn libc_programs_meet_their_expectations() {
    run_dir("tests/runtime");
}

#[test]
fn tools_meet_their_expectations_and_replay() {
    run_dir("tests/tools");
}

#[test]
fn escapes_decode() {
    assert_eq!(unescape(r"a\n\t\\\x41"), b"a\n\t\\A");
}
