//! Helpers of the parallel and cluster tests: a program with many short paths, and the
//! workers of a run and what they wrote.

use std::path::Path;

/// A program with 2^`bytes` paths, each short: a run long enough to act on mid-way.
pub fn maze(bytes: usize) -> String {
    format!(
        r#"
#include "klee/klee.h"
int main(void) {{
    char s[{bytes}];
    klee_make_symbolic(s, sizeof s, "s");
    int n = 0;
    for (int i = 0; i < {bytes}; i++)
        if (s[i] > 'a')
            n++;
    return n;
}}
"#
    )
}

/// The `summary.json` of an output directory.
pub fn summary(dir: &Path) -> serde_json::Value {
    let text = std::fs::read_to_string(dir.join("summary.json")).expect("summary.json");
    serde_json::from_str(&text).unwrap()
}

/// The `.ktest` files in `dir` (0 when it does not exist yet).
pub fn tests_in(dir: &Path) -> usize {
    std::fs::read_dir(dir).map_or(0, |d| {
        d.flatten()
            .filter(|e| e.file_name().to_string_lossy().ends_with(".ktest"))
            .count()
    })
}

/// The pid of the worker process writing to `dir` (`OUT/.workers/wK`), by its environment.
pub fn worker_pid(dir: &Path) -> Option<u32> {
    let wanted = format!(" {}", dir.display());
    for entry in std::fs::read_dir("/proc").ok()?.flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let Ok(env) = std::fs::read(entry.path().join("environ")) else {
            continue;
        };
        let env = String::from_utf8_lossy(&env);
        if env
            .split('\0')
            .any(|v| v.starts_with("SEAR_WORKER=") && v.ends_with(&wanted))
        {
            return Some(pid);
        }
    }
    None
}
