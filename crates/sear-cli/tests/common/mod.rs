//! Helpers shared by the end-to-end harnesses. Each file under `tests/` is its own crate and
//! includes this module with `mod common;`, using only part of it.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The `sear` binary under test.
pub fn sear_bin() -> &'static str {
    env!("CARGO_BIN_EXE_sear")
}

/// Runs `sear ARGS` in `cwd` and waits for it.
pub fn sear(args: &[&str], cwd: &Path) -> Output {
    Command::new(sear_bin())
        .args(args)
        .current_dir(cwd)
        .output()
        .expect("sear runs")
}

/// The repository root.
pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .expect("repository root")
}

/// The `.c` and `.ll` files of `dir` (relative to the repository root) whose path contains
/// the value of the environment variable `filter_var` (all when unset), sorted. (In `.ll`
/// files, expectations are written after `; //`.)
pub fn c_programs(dir: &str, filter_var: &str) -> Vec<PathBuf> {
    let filter = std::env::var(filter_var).unwrap_or_default();
    let mut files: Vec<PathBuf> = std::fs::read_dir(repo_root().join(dir))
        .unwrap_or_else(|e| panic!("{dir}: {e}"))
        .map(|e| e.expect("dir entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "c" || x == "ll"))
        .filter(|p| p.to_string_lossy().contains(&filter))
        .collect();
    files.sort();
    files
}

/// Every problem `check` reports on `items`, run in up to `threads` threads.
pub fn problems_in_parallel<T: Sync>(
    items: &[T],
    threads: usize,
    check: impl Fn(&T) -> Vec<String> + Sync,
) -> Vec<String> {
    if items.is_empty() {
        return Vec::new();
    }
    let check = &check;
    std::thread::scope(|scope| {
        let handles: Vec<_> = items
            .chunks(items.len().div_ceil(threads))
            .map(|chunk| scope.spawn(move || chunk.iter().flat_map(check).collect::<Vec<_>>()))
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap())
            .collect()
    })
}

/// Fails listing every problem.
pub fn assert_no_problems(problems: &[String]) {
    assert!(
        problems.is_empty(),
        "{} problem(s):\n{}",
        problems.len(),
        problems.join("\n")
    );
}

/// Replays every test of `out` natively with `sear replay` (the binary `sear`); returns one
/// line per test that went wrong: an error that does not reproduce, a native run that ends
/// with an input mismatch, a violated assumption, a timeout or an error sear did not report,
/// or an output that differs.
pub fn check_replay(sear: &str, name: &str, out: &Path) -> Vec<String> {
    let replay = std::process::Command::new(sear)
        .arg("replay")
        .arg("--json")
        .arg(out)
        .output()
        .expect("sear replay runs");
    let report: serde_json::Value = match serde_json::from_slice(&replay.stdout) {
        Ok(report) => report,
        Err(e) => {
            return vec![format!(
                "{name}: sear replay gave no report ({e}):\n{}",
                String::from_utf8_lossy(&replay.stderr)
            )]
        }
    };
    let mut problems = Vec::new();
    for test in report["tests"].as_array().into_iter().flatten() {
        let outcome = test["outcome"]["outcome"].as_str().unwrap_or("?");
        let expected_kind = test["expected"]["kind"].as_str();
        let native_error = [
            "asan",
            "ubsan",
            "assert_failed",
            "reach_error",
            "abort",
            "report_error",
            "signal",
        ]
        .contains(&outcome);
        let problem = if test["verdict"] == "not_reproduced" {
            Some("error not reproduced".to_string())
        } else if test["verdict"] == "unchecked" {
            // sear stopped where the native run goes on (exec, model, solver errors).
            None
        } else if outcome == "assumption_violated" && expected_kind == Some("user") {
            None
        } else if [
            "assumption_violated",
            "input_mismatch",
            "setup_error",
            "timeout",
        ]
        .contains(&outcome)
        {
            Some(format!("native run ended with {outcome}"))
        } else if outcome == "undefined_function" && expected_kind != Some("exec") {
            Some("native run called a function nothing defines".to_string())
        } else if expected_kind.is_none() && native_error {
            Some("native error sear did not report".to_string())
        } else if test["output"]["output"] == "mismatch" {
            Some(format!("{}", test["output"]["detail"]))
        } else {
            None
        };
        if let Some(problem) = problem {
            problems.push(format!(
                "{name}: replay of {}: {problem}: outcome {}, expected {}\n{}",
                test["ktest"], test["outcome"], test["expected"], test["stderr_excerpt"]
            ));
        }
    }
    problems
}
