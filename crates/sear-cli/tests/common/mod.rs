//! Helpers shared by the end-to-end harnesses. Each file under `tests/` is its own crate and
//! includes this module with `mod common;`, using only part of it: `sear` and the paths here;
//! the program suites' dialect (`expect`), runs and checks (`suite`, `symsize`, `replay`),
//! seed files (`seeds`), bless mode (`bless`) and libtest-mimic harness (`harness`),
//! described in `tests/README.md` at the repository root.
#![allow(dead_code)]

pub mod bless;
pub mod expect;
pub mod harness;
pub mod replay;
pub mod seeds;
pub mod suite;
pub mod symsize;
pub mod workers;

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

/// The `.c`, `.cpp` and `.ll` files of `dir` (relative to the repository root), sorted. (In `.ll`
/// files, expectations are written after `; //`.)
pub fn c_programs(dir: &str) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(repo_root().join(dir))
        .unwrap_or_else(|e| panic!("{dir}: {e}"))
        .map(|e| e.expect("dir entry").path())
        .filter(|p| {
            p.extension()
                .is_some_and(|x| x == "c" || x == "ll" || x == "cpp")
        })
        .collect();
    files.sort();
    files
}

/// Writes `text` to `dir/name` and returns the path.
pub fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

/// Output bytes as text (lossy).
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}
