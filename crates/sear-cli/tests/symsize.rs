//! The symbolic-size model (seed 003 Ch. 5) beyond the programs: PAT's logged queries read
//! back by `sear solve`, and option errors. The programs of `tests/symsize/` (their `mode`
//! lines) run in the e2e harness (`tests/e2e.rs`, `tests/README.md`).

mod common;

use std::path::Path;
use std::process::Command;

/// PAT's logged queries read back: every quantified query `--log-queries` wrote for the
/// memspn example (Fig. 6.1) is answered by `sear solve`, with the procedure and with the
/// quantified core alone, and the two answers agree.
#[test]
fn pat_logged_queries_solve_back() {
    let tmp = tempfile::tempdir().unwrap();
    let queries = tmp.path().join("queries");
    let o = Command::new(common::sear_bin())
        .args([
            "run",
            "--no-progress",
            "--search",
            "dfs",
            "--sym-size-mode=pat",
        ])
        .args(["--capacity=3", "--output-dir"])
        .arg(tmp.path().join("out"))
        .arg("--log-queries")
        .arg(&queries)
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/symsize/memspn.c"))
        .output()
        .expect("sear runs");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let mut files: Vec<_> = std::fs::read_dir(&queries)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| std::fs::read_to_string(p).is_ok_and(|t| t.contains("(forall ")))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no quantified query was logged");
    let mut answers = std::collections::BTreeSet::new();
    for file in files.iter().take(12) {
        let answer = |procedure: &str| {
            let o = Command::new(common::sear_bin())
                .args(["solve", &format!("--quantified-procedure={procedure}")])
                .arg(file)
                .output()
                .expect("sear solve runs");
            assert!(
                o.status.success(),
                "{}: {}",
                file.display(),
                String::from_utf8_lossy(&o.stderr)
            );
            String::from_utf8_lossy(&o.stdout).trim().to_string()
        };
        let (with, core) = (answer("on"), answer("off"));
        assert!(
            with == "sat" || with == "unsat",
            "{}: {with}",
            file.display()
        );
        assert_eq!(with, core, "{}", file.display());
        answers.insert(with);
    }
    assert!(answers.contains("sat"), "no satisfiable quantified query");
}

/// Incremental merging only exists inside size-dependent loops: asking for it without a
/// merging mode is a clear error.
#[test]
fn incremental_merge_needs_a_merging_mode() {
    let o = Command::new(common::sear_bin())
        .args(["run", "--sym-size-mode=fork-lazy", "--incremental-merge=on"])
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/symsize/memspn.c"))
        .output()
        .expect("sear runs");
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("--sym-size-mode=sm, smopt or pat"), "{err}");
}
