//! `sear stats` on an output directory of a real `sear run` and on KLEE-shaped directories
//! built from KLEE 3.2's schema (`StatsTracker::writeStatsHeader`, `info`'s `KLEE: done:`
//! lines of tools/klee/main.cpp), never from a KLEE run.

use std::path::Path;
use std::process::{Command, Output};

use serde_json::Value;

fn sear(args: &[&str], cwd: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sear"))
        .args(args)
        .current_dir(cwd)
        .output()
        .expect("running sear")
}

const PROGRAM: &str = r#"#include <klee/klee.h>
int main(void) {
  int x;
  klee_make_symbolic(&x, sizeof x, "x");
  if (x > 10) {
    if (x == 42) return 1 / (x - 42);
    return 2;
  }
  return 0;
}
"#;

/// A KLEE output directory: `info` and a `run.stats` of two samples.
fn klee_dir(dir: &Path) {
    std::fs::create_dir_all(dir).unwrap();
    std::fs::write(
        dir.join("info"),
        "klee --libc=uclibc --posix-runtime prog.bc\nPID: 1\n\
         Using monotonic steady clock with 1/1000000000s resolution\n\
         Started: 2024-01-01 10:00:00\nFinished: 2024-01-01 10:01:00\nElapsed: 00:01:00\n\
         KLEE: done: explored paths = 9\nKLEE: done: total queries = 70\n\n\
         KLEE: done: total instructions = 5000\nKLEE: done: completed paths = 4\n\
         KLEE: done: partially completed paths = 5\nKLEE: done: generated tests = 8\n",
    )
    .unwrap();
    std::fs::write(dir.join("test000001.ptr.err"), "").unwrap();
    std::fs::write(dir.join("test000002.div.err"), "").unwrap();
    let db = rusqlite::Connection::open(dir.join("run.stats")).unwrap();
    db.execute_batch(
        "CREATE TABLE stats (Instructions INTEGER, FullBranches INTEGER, PartialBranches INTEGER,
         NumBranches INTEGER, UserTime REAL, NumStates INTEGER, MallocUsage INTEGER,
         Queries INTEGER, SolverQueries INTEGER, NumQueryConstructs INTEGER, WallTime REAL,
         CoveredInstructions INTEGER, UncoveredInstructions INTEGER, QueryTime INTEGER,
         SolverTime INTEGER, CexCacheTime INTEGER, ForkTime INTEGER, ResolveTime INTEGER,
         QueryCacheMisses INTEGER, QueryCacheHits INTEGER, QueryCexCacheMisses INTEGER,
         QueryCexCacheHits INTEGER, InhibitedForks INTEGER, ExternalCalls INTEGER,
         Allocations INTEGER, States INTEGER, TerminationExit INTEGER, TerminationEarly INTEGER,
         TerminationSolverError INTEGER, TerminationProgramError INTEGER,
         TerminationUserError INTEGER, TerminationExecutionError INTEGER,
         TerminationEarlyAlgorithm INTEGER, TerminationEarlyUser INTEGER, ArrayHashTime INTEGER);
         INSERT INTO stats VALUES (1000, 1, 1, 10, 1000000, 6, 104857600, 50, 20, 300, 2000000,
           100, 900, 500000, 700000, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 0, -1);
         INSERT INTO stats VALUES (4000, 3, 2, 10, 30000000, 2, 52428800, 90, 40, 900, 60000000,
           250, 750, 6000000, 15000000, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 9, 4, 3, 0, 2, 0, 0, 0, 0, -1);",
    )
    .unwrap();
}

#[test]
fn stats_of_sear_and_klee_directories() {
    let tmp = tempfile::tempdir().unwrap();
    let cwd = tmp.path();
    std::fs::write(cwd.join("p.c"), PROGRAM).unwrap();
    let run = sear(&["run", "--no-progress", "--output-dir", "out", "p.c"], cwd);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    klee_dir(&cwd.join("klee-out-0"));

    let out = sear(&["stats", "--json", "out", "klee-out-0"], cwd);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json: Value = serde_json::from_slice(&out.stdout).unwrap();
    let sear_row = &json["rows"][0];
    assert_eq!(sear_row["Tool"], "sear");
    assert_eq!(sear_row["Completed"], 2);
    assert_eq!(sear_row["ErrorPaths"], 1);
    assert_eq!(sear_row["Tests"], 3);
    assert_eq!(sear_row["Errors"], 1);
    assert_eq!(sear_row["Stop"], "exhausted");
    assert!(sear_row["Instrs"].as_u64().unwrap() > 0);
    assert!(sear_row["MaxMem(MiB)"].as_f64().unwrap() > 0.0);
    assert!(sear_row["TCPU(s)"].as_f64().unwrap() > 0.0);

    let klee = &json["rows"][1];
    assert_eq!(klee["Tool"], "klee");
    assert_eq!(klee["Instrs"], 5000);
    assert_eq!(klee["Time(s)"], 60.0);
    assert_eq!(klee["TUser(s)"], 30.0);
    assert_eq!(klee["ICount"], 1000);
    assert_eq!(klee["ICov(%)"], 25.0);
    assert_eq!(klee["BCov(%)"], 40.0);
    assert_eq!(klee["TSolver(%)"], 25.0);
    assert_eq!(klee["TQuery(s)"], 6.0);
    assert_eq!(klee["Queries"], 90);
    assert_eq!(klee["SolverQueries"], 40);
    assert_eq!(klee["Completed"], 4);
    assert_eq!(klee["ErrorPaths"], 2);
    assert_eq!(klee["Partial"], 3);
    assert_eq!(klee["Tests"], 8);
    assert_eq!(klee["Errors"], 2);
    assert_eq!(klee["MaxActiveStates"], 6);
    assert_eq!(klee["MaxMem(MiB)"], 100.0);
    assert_eq!(json["total"]["Completed"], 6);
    assert_eq!(json["total"]["Path"], "Total (2)");

    let table = sear(&["stats", "out", "klee-out-0"], cwd);
    let text = String::from_utf8_lossy(&table.stdout);
    assert!(text.lines().any(|l| l.starts_with("| Total (2)")), "{text}");
    assert!(text.lines().nth(1).unwrap().contains("BCov(%)"), "{text}");

    let csv = sear(&["stats", "--csv", "klee-out-0"], cwd);
    let csv = String::from_utf8_lossy(&csv.stdout);
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines.len(), 2, "{csv}");
    assert!(lines[0].starts_with("Path,Tool,Instrs,Time(s)"));
    assert!(lines[1].starts_with("klee-out-0,klee,5000,60.000"), "{csv}");
}

#[test]
fn bad_directories_are_named_in_a_one_line_error() {
    let tmp = tempfile::tempdir().unwrap();
    let cwd = tmp.path();
    std::fs::create_dir(cwd.join("empty")).unwrap();
    klee_dir(&cwd.join("good"));
    std::fs::create_dir(cwd.join("bad")).unwrap();
    std::fs::write(cwd.join("bad/summary.json"), "{\"tests\": 1}").unwrap();
    std::fs::create_dir(cwd.join("badklee")).unwrap();
    std::fs::write(cwd.join("badklee/info"), "").unwrap();
    std::fs::write(cwd.join("badklee/run.stats"), "not sqlite").unwrap();
    for (dir, words) in [
        ("missing", "missing: no such directory"),
        ("empty", "empty: not an output directory"),
        ("bad", "malformed summary"),
        ("badklee", "not a KLEE statistics database"),
    ] {
        let out = sear(&["stats", "good", dir], cwd);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{dir}: {err}");
        assert!(
            err.contains(words) && err.lines().count() == 1,
            "{dir}: {err}"
        );
        assert!(out.stdout.is_empty(), "{dir}");
    }
}
