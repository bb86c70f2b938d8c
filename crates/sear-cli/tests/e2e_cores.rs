//! The end-to-end programs under every core solver (spec 001): each program of `tests/c/` runs
//! with `--core-solver=z3`, `--core-solver=eager`, `--core-solver=cegar --ilp-precheck`,
//! `--core-solver=bitwuzla`, `--core-solver=bitwuzla-eager`, `--core-solver=bitwuzla-portfolio`
//! and `--core-solver=eager-portfolio` with a 1 ms switch (so that its second core answers
//! too), each with the program's own `// sear-args:` and `// program-args:`, and all runs must end
//! the same paths: equal completed and error path counts, equal test counts, equal reported
//! errors and equal `trace_digest` (the instruction traces of the ended paths).
//!
//! By default a representative subset runs (programs with symbolic-index memory accesses);
//! `SEAR_E2E_CORES_ALL=1` runs every program (several minutes):
//! `SEAR_E2E_CORES_ALL=1 cargo test --release -p sear-cli --test e2e_cores`.
//! Each program is its own test (named by its path under `tests/`); cargo's filter narrows
//! either set.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

/// The default subset: programs whose queries reach the array theory (`array_dfa.c` is left
/// to the full run: 34 s under the Z3 core in a debug build, 4 s under CEGAR).
const SUBSET: &[&str] = &[
    "multi_resolution.c",
    "null_and_oob.c",
    "array_mixed.c",
    "array_symbolic_write.c",
    "spec001_foo9.c",
    "spec001_unaligned.c",
];

const CORES: &[&[&str]] = &[
    &["--core-solver=z3"],
    &["--core-solver=eager"],
    &["--core-solver=cegar", "--ilp-precheck"],
    &["--core-solver=bitwuzla"],
    &["--core-solver=bitwuzla-eager"],
    &["--core-solver=bitwuzla-portfolio"],
    &["--core-solver=eager-portfolio", "--core-switch-time=0.001"],
];

fn programs() -> Vec<PathBuf> {
    let all = std::env::var("SEAR_E2E_CORES_ALL").is_ok_and(|v| v == "1");
    common::c_programs("tests/c")
        .into_iter()
        .filter(|p| all || SUBSET.contains(&p.file_name().unwrap().to_string_lossy().as_ref()))
        .collect()
}

/// What a run ended with.
#[derive(Debug, PartialEq)]
struct Outcome {
    completed: u64,
    error_paths: u64,
    tests: u64,
    errors: Vec<(String, u64)>,
    trace_digest: String,
}

fn run(program: &Path, core: &[&str]) -> Result<Outcome, String> {
    let source = std::fs::read_to_string(program).map_err(|e| e.to_string())?;
    let expect = common::expect::parse(&source)?;
    let (sear_args, program_args) = (expect.sear_args, expect.program_args);
    let out_root = tempfile::tempdir().expect("tempdir");
    let out = out_root.path().join("out");
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_sear"));
    cmd.arg("run")
        .arg("--no-progress")
        .arg("--output-dir")
        .arg(&out);
    if !sear_args.iter().any(|a| a.starts_with("--search")) {
        cmd.args(["--search", "dfs"]);
    }
    cmd.args(&sear_args)
        .args(core)
        .arg(program)
        .args(&program_args);
    let output = cmd.output().expect("sear runs");
    let summary = std::fs::read_to_string(out.join("summary.json")).map_err(|_| {
        format!(
            "no summary ({}): {}",
            output.status,
            String::from_utf8_lossy(&output.stderr)
        )
    })?;
    let s: Value = serde_json::from_str(&summary).expect("valid summary");
    let number = |k: &str| s[k].as_u64().unwrap_or(u64::MAX);
    let mut errors: Vec<(String, u64)> = s["errors"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|e| {
                    (
                        e["kind"].as_str().unwrap_or("").to_string(),
                        e["line"].as_u64().unwrap_or(0),
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    errors.sort();
    Ok(Outcome {
        completed: number("completed_paths"),
        error_paths: number("error_paths"),
        tests: number("tests"),
        errors,
        trace_digest: s["trace_digest"].as_str().unwrap_or("").to_string(),
    })
}

/// Every core ends the same paths as the Z3 core on `program`.
fn every_core_ends_the_same_paths(program: &Path) -> Result<(), String> {
    let name = common::harness::trial_name(program);
    let outcomes: Vec<_> = CORES.iter().map(|c| (c, run(program, c))).collect();
    let reference = &outcomes[0].1;
    let problems: Vec<String> = outcomes[1..]
        .iter()
        .filter(|(_, o)| o != reference)
        .map(|(core, o)| format!("{name}: {core:?} gave {o:?}, z3 gave {reference:?}"))
        .collect();
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems.join("\n"))
    }
}

fn main() {
    let args = common::harness::arguments();
    let programs = programs();
    assert!(!programs.is_empty(), "no programs selected");
    let trials = common::harness::trials(programs, every_core_ends_the_same_paths);
    libtest_mimic::run(&args, trials).exit();
}
