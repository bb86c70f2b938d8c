//! Helpers shared by the end-to-end harnesses. Each file under `tests/` is its own crate and
//! includes this module with `mod common;`, using only part of it.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

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
