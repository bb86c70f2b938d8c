//! Signals during `sear run`: the run stops at once (a solver query under way is
//! interrupted), writes a test for every state left and `summary.json` with
//! `stop_reason: "interrupted"`, and exits with 128 + the signal's number.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A program whose second branch asks the solver to factor (2^31-1)^2 over 64-bit values: a
/// query that runs for minutes (under Z3 and under Bitwuzla), so the signal arrives while the
/// solver works.
const HARD: &str = r#"
#include "klee/klee.h"
int main(void) {
    unsigned long long x, y;
    klee_make_symbolic(&x, sizeof x, "x");
    klee_make_symbolic(&y, sizeof y, "y");
    if (x > 1 && y > 1 && x < y && x < (1ull << 32) && y < (1ull << 32)) {
        if (x * y == 4611686014132420609ull)
            return 1;
        return 2;
    }
    return 0;
}
"#;

fn run_and_signal(signal: &str, dir: &Path) -> (i32, Duration) {
    run_and_signal_with(signal, dir, &[])
}

/// Starts `sear run ARGS --output-dir DIR/out DIR/NAME` on `source` (written to DIR/NAME);
/// returns the process and the output directory.
fn spawn_run(dir: &Path, name: &str, source: &str, args: &[&str]) -> (Child, PathBuf) {
    let program = dir.join(name);
    std::fs::write(&program, source).unwrap();
    let out = dir.join("out");
    let child = Command::new(env!("CARGO_BIN_EXE_sear"))
        .arg("run")
        .args(args)
        .arg("--output-dir")
        .arg(&out)
        .arg(&program)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("sear starts");
    (child, out)
}

/// Waits (at most 60 s) until `path` exists.
fn wait_for(path: &Path) {
    let start = Instant::now();
    while !path.exists() && start.elapsed() < Duration::from_secs(60) {
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// `run_and_signal` with extra `sear run` arguments.
fn run_and_signal_with(signal: &str, dir: &Path, args: &[&str]) -> (i32, Duration) {
    let args: Vec<&str> = ["--search", "dfs"].iter().chain(args).copied().collect();
    let (mut child, out) = spawn_run(dir, "hard.c", HARD, &args);
    // Wait until the run is under way (its info.json is written before exploring).
    wait_for(&out.join("info.json"));
    std::thread::sleep(Duration::from_millis(1500));
    let sent = Instant::now();
    let status = Command::new("kill")
        .args([&format!("-{signal}"), &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    // Generous bound for a loaded machine; without the fix the run went on for minutes.
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return (status.code().unwrap_or(-1), sent.elapsed());
        }
        if sent.elapsed() > Duration::from_secs(60) {
            let _ = child.kill();
            panic!("sear did not stop within 60 s of SIG{signal}");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn check_outputs(out: &Path) {
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("summary.json")).unwrap()).unwrap();
    assert_eq!(summary["stop_reason"], "interrupted");
    // The state whose query was interrupted ends early, with its test.
    assert!(summary["early_paths"].as_u64().unwrap() >= 1, "{summary}");
    let tests = std::fs::read_dir(out)
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .path()
                .extension()
                .is_some_and(|x| x == "ktest")
        })
        .count() as u64;
    assert_eq!(summary["tests"].as_u64().unwrap(), tests);
    assert!(tests >= 1);
    let early: Vec<String> = std::fs::read_dir(out)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "early"))
        .map(|p| std::fs::read_to_string(p).unwrap())
        .collect();
    assert!(!early.is_empty());
    // No path is reported as a solver failure because of the signal.
    assert_eq!(summary["error_paths"], 0, "{summary}");
}

#[test]
fn sigint_during_a_query_stops_the_run_and_keeps_its_tests() {
    let tmp = tempfile::tempdir().unwrap();
    let (code, _) = run_and_signal("INT", tmp.path());
    assert_eq!(code, 130);
    check_outputs(&tmp.path().join("out"));
}

#[test]
fn sigterm_and_sighup_stop_the_run_like_sigint() {
    for (signal, code) in [("TERM", 143), ("HUP", 129)] {
        let tmp = tempfile::tempdir().unwrap();
        let (status, _) = run_and_signal(signal, tmp.path());
        assert_eq!(status, code, "SIG{signal}");
        check_outputs(&tmp.path().join("out"));
    }
}

#[test]
fn sigint_interrupts_a_bitwuzla_query() {
    // Bitwuzla polls sear's interruption flag through its termination callback.
    let tmp = tempfile::tempdir().unwrap();
    let (code, _) = run_and_signal_with("INT", tmp.path(), &["--core-solver=bitwuzla"]);
    assert_eq!(code, 130);
    check_outputs(&tmp.path().join("out"));
}

/// A run killed outright (SIGKILL: no halt, as when the hard limit past `--max-time` ends a
/// run stuck in a call) leaves the `summary.json` the engine writes every 5 s while it runs,
/// with `stop_reason: "running"` and its counts so far.
#[test]
fn a_killed_run_leaves_its_interim_summary() {
    const ENDLESS: &str = r#"
#include "klee/klee.h"
int main(void) {
    unsigned char b[4];
    klee_make_symbolic(b, sizeof b, "b");
    unsigned long s = 0;
    for (unsigned long i = 0;; i++)
        s += b[i % 4] > 100 ? 1 : 2;
    return (int)s;
}
"#;
    let dir = tempfile::tempdir().unwrap();
    let (mut child, out) = spawn_run(dir.path(), "endless.c", ENDLESS, &["--no-progress"]);
    wait_for(&out.join("summary.json"));
    child.kill().unwrap();
    child.wait().unwrap();
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("summary.json")).unwrap()).unwrap();
    assert_eq!(summary["stop_reason"], "running", "{summary}");
    assert!(summary["instructions"].as_u64().unwrap() > 0, "{summary}");
    assert!(summary["time_s"].as_f64().unwrap() >= 4.0, "{summary}");
}
