//! Native replay of a run's tests (`sear replay --json`) and what counts as a replay problem.

use std::path::Path;

use serde_json::Value;

/// Runs `sear replay --json OUT` from the repository root; the report, or a problem.
pub fn report(name: &str, out: &Path) -> Result<Value, String> {
    let replay = std::process::Command::new(super::sear_bin())
        .current_dir(super::repo_root())
        .args(["replay", "--json"])
        .arg(out)
        .output()
        .expect("sear replay runs");
    serde_json::from_slice(&replay.stdout).map_err(|e| {
        format!(
            "{name}: sear replay gave no report ({e}; {}):\n{}",
            replay.status,
            String::from_utf8_lossy(&replay.stderr)
        )
    })
}

/// One line per test of the report that went wrong: an error that does not reproduce, a
/// native run that ends with an input mismatch, a violated assumption (except for tests of
/// `user` errors, which are provably false assumptions), a timeout or an error sear did not
/// report, a call of a function nothing defines (except after `exec` errors), or an output
/// that differs.
pub fn test_problems(name: &str, report: &Value) -> Vec<String> {
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

/// The report's totals: every completed path's output was checked (`completed` of them), and
/// no output mismatch, unreproduced error, unexpected native error, input mismatch, violated
/// assumption or timeout.
pub fn count_problems(name: &str, report: &Value, completed: u64) -> Vec<String> {
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
    problems
}

/// Replays every test of `out` natively (`sear replay`) and returns [`test_problems`].
pub fn check_replay(name: &str, out: &Path) -> Vec<String> {
    match report(name, out) {
        Ok(report) => test_problems(name, &report),
        Err(problem) => vec![problem],
    }
}
