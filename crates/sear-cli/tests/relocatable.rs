//! The relocatable memory model from the outside: what reaches the solver (seed 003 §2.8),
//! and option errors.

mod common;

use common::sear;

use std::path::Path;

/// The sizes of the memory-object arrays declared in every logged query under `dir`.
fn memory_array_sizes(dir: &Path) -> Vec<u64> {
    let mut sizes = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let text = std::fs::read_to_string(entry.unwrap().path()).unwrap();
        for line in text.lines() {
            if !line.starts_with("; sear-array") || !line.ends_with("kind=memory-object") {
                continue;
            }
            let size = line
                .split_whitespace()
                .find_map(|w| w.strip_prefix("size="))
                .expect("size comment");
            sizes.push(size.parse().unwrap());
        }
    }
    sizes.sort_unstable();
    sizes.dedup();
    sizes
}

fn rows_program() -> &'static str {
    concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/c/ram_rows_split.c"
    )
}

#[test]
fn split_rows_reach_the_solver_as_64_byte_arrays() {
    let tmp = tempfile::tempdir().unwrap();
    let run = |extra: &[&str], out: &str, log: &str| {
        let mut args = vec![
            "run",
            "--no-progress",
            "--search",
            "dfs",
            "--optimize-array=none",
            "--output-dir",
            out,
            "--log-queries",
            log,
        ];
        args.extend_from_slice(extra);
        args.push(rows_program());
        let o = sear(&args, tmp.path());
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    };
    run(&[], "plain", "plain-q");
    run(
        &[
            "--use-sym-addr",
            "--split-objects",
            "--split-threshold=100",
            "--partition-size=64",
        ],
        "split",
        "split-q",
    );
    // The standard model asks about the 256-byte rows (and the 16-byte table of rows).
    assert_eq!(memory_array_sizes(&tmp.path().join("plain-q")), [16, 256]);
    // Split: the rows only as 64-byte chunks.
    assert_eq!(memory_array_sizes(&tmp.path().join("split-q")), [16, 64]);
}

#[test]
fn relocatable_options_without_symbolic_addresses_are_refused() {
    let tmp = tempfile::tempdir().unwrap();
    for flag in ["--merge-objects", "--split-objects", "--sym-addr-stack"] {
        let o = sear(&["run", flag, rows_program()], tmp.path());
        assert_eq!(o.status.code(), Some(1), "{flag}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains("need --use-sym-addr"), "{flag}: {err}");
    }
    let o = sear(
        &[
            "run",
            "--use-sym-addr",
            "--partition-size=60",
            rows_program(),
        ],
        tmp.path(),
    );
    assert!(String::from_utf8_lossy(&o.stderr).contains("multiple of 8"));
}

#[test]
fn caching_validation_needs_the_address_aware_cache() {
    let tmp = tempfile::tempdir().unwrap();
    let o = sear(&["run", "--validate-caching", rows_program()], tmp.path());
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("--validate-caching needs --use-aa-cache"),
        "{err}"
    );
    // --use-aa-cache alone selects the relocatable model.
    let out = tmp.path().join("aa");
    let o = sear(
        &[
            "run",
            "--no-progress",
            "--use-aa-cache",
            "--output-dir",
            out.to_str().unwrap(),
            rows_program(),
        ],
        tmp.path(),
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("summary.json")).unwrap()).unwrap();
    assert_eq!(summary["memory"]["model"], "relocatable");
    assert!(summary["solver"]["aa_cache"]["c1"].as_u64().unwrap() > 0);
}
