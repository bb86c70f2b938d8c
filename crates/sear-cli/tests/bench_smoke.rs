//! Smoke test of the benchmark harness (bench/run and bench/solvers/compare), so that the
//! harness never rots: the smoke subset of bench/programs.toml at tiny sizes, one repetition,
//! the `smoke` configuration set (which includes a configuration whose flags may not exist
//! yet), then the solver comparison on the queries it logged. It needs python3 >= 3.11 and
//! flex (scripts/setup.sh); the reference solvers of .venv are used when present.

use std::path::{Path, PathBuf};
use std::process::Command;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn python() -> Command {
    let mut c = Command::new("python3");
    c.current_dir(repo());
    c
}

fn json(path: &Path) -> serde_json::Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn harness_unit_tests_pass() {
    let out = python()
        .args([
            "-m",
            "unittest",
            "discover",
            "-s",
            "bench/harness",
            "-p",
            "test_*.py",
        ])
        .output()
        .expect("python3 runs (install it with scripts/bench-setup.sh)");
    assert!(
        out.status.success(),
        "harness unit tests failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn smoke_subset_runs_and_compares() {
    let tmp = tempfile::tempdir().unwrap();
    let results = tmp.path().join("run");
    let queries = tmp.path().join("queries");
    let out = python()
        .arg("bench/run")
        .arg("--smoke")
        .arg("--sear")
        .arg(env!("CARGO_BIN_EXE_sear"))
        .arg("--out")
        .arg(&results)
        .arg("--collect-queries")
        .arg(&queries)
        .output()
        .expect("python3 runs (install it with scripts/bench-setup.sh)");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "bench/run --smoke failed:\n{stderr}");
    let table = String::from_utf8_lossy(&out.stdout);
    assert!(
        table.contains("| program | size | config |"),
        "no table printed:\n{table}"
    );

    let r = json(&results.join("results.json"));
    let rows = r["rows"].as_array().expect("rows");
    let row = |program: &str, config: &str| {
        rows.iter()
            .find(|x| x["program"] == program && x["config"] == config)
            .unwrap_or_else(|| panic!("no row for {program}/{config}"))
    };
    // every smoke program ran under every configuration of the smoke set
    for program in [
        "foo5",
        "foo9",
        "cegar-example",
        "mixed-array",
        "base64-decode",
        "url-decode",
        "lex-json",
    ] {
        for config in ["default", "no-caches", "array-all"] {
            let status = row(program, config)["status"].as_str().unwrap();
            assert!(
                !matches!(status, "failed" | "killed"),
                "{program}/{config}: {status}: {}",
                row(program, config)["message"]
            );
        }
    }
    // the 001 worked examples: 2 paths (pre-check example, bug branch UNSAT) and 3 paths
    assert_eq!(row("foo5", "default")["status"], "done");
    assert_eq!(row("foo5", "default")["paths"], 2);
    assert_eq!(row("foo9", "default")["paths"], 3);
    assert_eq!(row("cegar-example", "default")["paths"], 2);
    // DFS with a fixed seed: without the caches, the same paths and instructions (the tiny
    // examples always finish; the decoders are checked when both runs finished in the budget)
    for program in ["foo5", "foo9", "cegar-example"] {
        let x = row(program, "no-caches");
        assert_eq!(x["ratio_kind"], "speed-up", "{program}: {x}");
        assert!(x["ratio"].as_f64().unwrap() > 0.0);
    }
    for program in [
        "foo5",
        "foo9",
        "cegar-example",
        "base64-decode",
        "url-decode",
    ] {
        let x = row(program, "no-caches");
        if x["ratio_kind"] == "speed-up" {
            assert_eq!(
                x["same_paths"], true,
                "{program} explored other paths without caches"
            );
        }
    }
    // the flex-generated scanner was built and explored
    assert!(row("lex-json", "default")["instructions"].as_u64().unwrap() > 100);
    assert!(results.join("table.md").exists() && results.join("results.csv").exists());

    // the solver comparison on the logged core queries (a handful, smallest first)
    assert!(
        queries.join("foo9").join("default").is_dir(),
        "no queries logged"
    );
    let cmp = tmp.path().join("compare");
    let out = python()
        .arg("bench/solvers/compare")
        .arg("--sear")
        .arg(env!("CARGO_BIN_EXE_sear"))
        .args(["--timeout", "5", "--limit", "4", "--out"])
        .arg(&cmp)
        .arg(&queries)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "bench/solvers/compare failed (disagreement?):\n{stderr}"
    );
    let c = json(&cmp.join("results.json"));
    assert_eq!(c["queries"].as_array().unwrap().len(), 4);
    let solvers = c["solvers"].as_array().unwrap();
    for name in ["sear-chain", "z3", "bitwuzla", "cvc5"] {
        assert!(
            solvers.iter().any(|s| s["solver"] == name),
            "{name} missing from the table"
        );
    }
    for s in solvers.iter().filter(|s| s["available"] == true) {
        assert_eq!(s["queries"], 4, "{s}");
        assert_eq!(s["errors"], 0, "{}: {}", s["solver"], s["first_error"]);
    }
}
