//! Address-aware caching (seed 003 Ch. 4) never changes a run: every end-to-end program of
//! `tests/c/` that allocates on the heap, and the allocation-skewed benchmark programs of
//! `bench/programs/aa/` at small sizes, end the same paths with and without
//! `--use-aa-cache` (equal completed and error path counts, tests, reported errors and
//! `trace_digest`), under the relocatable model with forking (FMM) and with DSMM, and every
//! cache hit agrees with the solver (`--validate-caching`: no validation failure).
//!
//! The whole e2e suite under the cache: `SEAR_E2E_EXTRA_ARGS="--use-aa-cache
//! --validate-caching" cargo test --release -p sear-cli --test e2e`.
//! Each program is its own test (named by its path under `tests/`, or `aa/NAME` for the
//! benchmark programs); cargo's filter narrows the programs.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use libtest_mimic::{Failed, Trial};
use serde_json::Value;

/// The allocation-skewed benchmark programs and the sizes they run at here.
const BENCH: &[(&str, u32)] = &[("skew_rows.c", 2), ("skew_list.c", 3), ("skew_hash.c", 2)];

/// (memory model, the same with the address-aware cache), for programs that choose no
/// memory model themselves.
const PAIRS: &[(&[&str], &[&str])] = &[
    (
        &["--use-sym-addr"],
        &["--use-aa-cache", "--validate-caching"],
    ),
    (
        &["--use-sym-addr", "--merge-objects"],
        &[
            "--use-sym-addr",
            "--merge-objects",
            "--use-aa-cache",
            "--validate-caching",
        ],
    ),
];

/// The pair for programs whose `sear-args` choose the relocatable model and its options.
const OWN_MODEL: &[(&[&str], &[&str])] = &[(&[], &["--use-aa-cache", "--validate-caching"])];

/// Flags of the relocatable model.
const MODEL_FLAGS: &[&str] = &[
    "--use-sym-addr",
    "--merge-objects",
    "--split-objects",
    "--use-context-resolve",
    "--reuse-segments",
    "--sym-addr-stack",
];

/// A program and the `-D SIZE=N` it runs with.
struct Program {
    path: PathBuf,
    size: Option<u32>,
}

fn programs() -> Vec<Program> {
    // Programs that allocate on the heap, except those whose every `run:` line merges loop
    // iterations: they have their few paths only with that merging, which the relocatable
    // model here does not do (2^20 paths without it: iteration_merge_allocations.c).
    let checked = |p: &PathBuf| {
        let source = std::fs::read_to_string(p).unwrap_or_default();
        let heap = ["malloc", "calloc", "realloc"]
            .iter()
            .any(|f| source.contains(f));
        let bounded_unmerged = common::expect::parse(&source).map_or(true, |e| {
            e.runs.is_empty()
                || e.runs
                    .iter()
                    .any(|r| !r.sear_args.iter().any(|a| a == "--merge-loop-iterations"))
        });
        heap && bounded_unmerged
    };
    let mut out: Vec<Program> = common::c_programs("tests/c")
        .into_iter()
        .filter(checked)
        .map(|path| Program { path, size: None })
        .collect();
    for (name, size) in BENCH {
        out.push(Program {
            path: common::repo_root().join("bench/programs/aa").join(name),
            size: Some(*size),
        });
    }
    out
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

/// Runs `program` with its own `sear-args` and `config`; returns the outcome and the
/// summary.
fn run(program: &Program, config: &[&str]) -> Result<(Outcome, Value), String> {
    let (sear_args, program_args) = own_args(&program.path)?;
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
    if let Some(size) = program.size {
        cmd.arg("-D").arg(format!("SIZE={size}"));
    }
    cmd.args(&sear_args)
        .args(config)
        .arg(&program.path)
        .args(&program_args);
    let output = cmd.output().expect("sear runs");
    let text = std::fs::read_to_string(out.join("summary.json")).map_err(|_| {
        format!(
            "no summary ({}): {}",
            output.status,
            String::from_utf8_lossy(&output.stderr)
        )
    })?;
    let s: Value = serde_json::from_str(&text).expect("valid summary");
    let number = |k: &str| s[k].as_u64().unwrap_or(u64::MAX);
    let mut errors: Vec<(String, u64)> = s["errors"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|e| {
            (
                e["kind"].as_str().unwrap_or("").to_string(),
                e["line"].as_u64().unwrap_or(0),
            )
        })
        .collect();
    errors.sort();
    let outcome = Outcome {
        completed: number("completed_paths"),
        error_paths: number("error_paths"),
        tests: number("tests"),
        errors,
        trace_digest: s["trace_digest"].as_str().unwrap_or("").to_string(),
    };
    Ok((outcome, s))
}

/// The program's `sear-args` and `program-args`.
fn own_args(program: &Path) -> Result<(Vec<String>, Vec<String>), String> {
    let source = std::fs::read_to_string(program).map_err(|e| e.to_string())?;
    let e = common::expect::parse(&source)?;
    Ok((e.sear_args, e.program_args))
}

fn name(program: &Path) -> String {
    program.file_name().unwrap().to_string_lossy().to_string()
}

/// `program` ends the same paths with and without the cache, and every hit agrees with the
/// solver; adds the renamed hits to `hits`.
fn check(p: &Program, hits: &AtomicU64) -> Result<(), String> {
    let mut problems = Vec::new();
    let own = own_args(&p.path)?.0;
    let pairs = if own.iter().any(|a| MODEL_FLAGS.contains(&a.as_str())) {
        OWN_MODEL
    } else {
        PAIRS
    };
    for (plain, cached) in pairs {
        let (a, b) = match (run(p, plain), run(p, cached)) {
            (Ok(a), Ok(b)) => (a, b),
            (a, b) => {
                problems.push(format!("{}: {a:?} / {b:?}", name(&p.path)));
                continue;
            }
        };
        if a.0 != b.0 {
            problems.push(format!(
                "{}: {cached:?} gave {:?}, {plain:?} gave {:?}",
                name(&p.path),
                b.0,
                a.0
            ));
        }
        let aa = &b.1["solver"]["aa_cache"];
        if aa["validation_failures"].as_u64() != Some(0) {
            problems.push(format!("{}: {cached:?}: {aa}", name(&p.path)));
        }
        let renamed = aa["hits_renamed"].as_u64().unwrap_or(0);
        hits.fetch_add(renamed, Ordering::Relaxed);
    }
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
    let hits = Arc::new(AtomicU64::new(0));
    let trials = programs
        .into_iter()
        .map(|p| {
            let hits = Arc::clone(&hits);
            let label = match p.size {
                Some(_) => format!("aa/{}", name(&p.path)),
                None => common::harness::trial_name(&p.path),
            };
            Trial::test(label, move || check(&p, &hits).map_err(Failed::from))
        })
        .collect();
    let conclusion = libtest_mimic::run(&args, trials);
    // The cache did answer queries the exact cache could not have (renamed bases), over the
    // whole set.
    let whole = args.filter.is_none() && args.skip.is_empty() && !args.list;
    if whole && !conclusion.has_failed() && hits.load(Ordering::Relaxed) == 0 {
        eprintln!("no renamed hit at all over the whole set");
        std::process::exit(101);
    }
    conclusion.exit();
}
