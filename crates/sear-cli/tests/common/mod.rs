//! Helpers shared by the end-to-end harnesses. Each file under `tests/` is its own crate and
//! includes this module with `mod common;`, using only part of it.
#![allow(dead_code)]

pub mod bless;
pub mod expect;
pub mod harness;
pub mod replay;
pub mod suite;
pub mod symsize;

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

/// The `.c` and `.ll` files of `dir` (relative to the repository root), sorted. (In `.ll`
/// files, expectations are written after `; //`.)
pub fn c_programs(dir: &str) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(repo_root().join(dir))
        .unwrap_or_else(|e| panic!("{dir}: {e}"))
        .map(|e| e.expect("dir entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "c" || x == "ll"))
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
