//! Locating sear's C runtime directory (`runtime/`: the klee.h headers, the replay library and
//! the runtime sources).
//!
//! The first candidate that holds `include/klee/klee.h` wins:
//! 1. the `SEAR_RUNTIME_DIR` environment variable (an error if it is set but wrong);
//! 2. next to the executable: `<exe dir>/../runtime`, `<exe dir>/../share/sear/runtime`,
//!    `<exe dir>/../../runtime` (a `target/<profile>/sear` inside the source tree);
//! 3. the source tree this binary was built from (`CARGO_MANIFEST_DIR/../../runtime`).

use std::path::{Path, PathBuf};

use anyhow::{bail, Result};

/// The environment variable that overrides the runtime directory.
pub const RUNTIME_DIR_ENV: &str = "SEAR_RUNTIME_DIR";

/// A file every runtime directory contains.
const MARKER: &str = "include/klee/klee.h";

/// Returns sear's runtime directory.
pub fn locate() -> Result<PathBuf> {
    if let Some(dir) = std::env::var_os(RUNTIME_DIR_ENV) {
        let dir = PathBuf::from(dir);
        if is_runtime_dir(&dir) {
            return Ok(dir);
        }
        bail!(
            "{RUNTIME_DIR_ENV}={} is not a sear runtime directory (no {MARKER})",
            dir.display()
        );
    }
    let mut candidates = Vec::new();
    if let Some(exe_dir) = std::env::current_exe()
        .ok()
        .and_then(|exe| exe.parent().map(Path::to_path_buf))
    {
        candidates.push(exe_dir.join("../runtime"));
        candidates.push(exe_dir.join("../share/sear/runtime"));
        candidates.push(exe_dir.join("../../runtime"));
    }
    candidates.push(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../runtime"));
    for dir in &candidates {
        if is_runtime_dir(dir) {
            return Ok(dir.canonicalize().unwrap_or_else(|_| dir.clone()));
        }
    }
    bail!(
        "cannot find sear's runtime directory (tried {}); set {RUNTIME_DIR_ENV}",
        candidates
            .iter()
            .map(|c| c.display().to_string())
            .collect::<Vec<_>>()
            .join(", ")
    )
}

fn is_runtime_dir(dir: &Path) -> bool {
    dir.join(MARKER).is_file()
}
