//! Seeded paths as records (docs/seeds.md, docs/paths.md): a fork the seeds decide without
//! queries is recorded `unchecked`, with the alternatives the site listed, so its record
//! rebuilds the path without the seeds (`--replay-path`, and a prefix another worker
//! rebuilds): `--jobs N` with seeds explores exactly the paths of one process.

mod common;

use std::path::Path;

use common::sear;
use common::seeds::ktest;
use common::workers::summary;

/// tests/seeds/jobs_forks.c: a switch per byte of `s`, a switch whose target the first one
/// decided, a bounds check that fails for some values.
fn program() -> String {
    common::repo_root()
        .join("tests/seeds/jobs_forks.c")
        .display()
        .to_string()
}

/// Three seeds: two that pass the bounds check (every seed takes its `ok` side, so the
/// failing side is deferred), one that fails it.
fn seed_dir(dir: &Path) -> String {
    let seeds = dir.join("seeds");
    std::fs::create_dir(&seeds).unwrap();
    ktest(&seeds, "a.ktest", &[("s", &[1, 0, 3, 3, 3])]);
    ktest(&seeds, "b.ktest", &[("s", &[2, 1, 1, 0, 0])]);
    ktest(&seeds, "c.ktest", &[("s", &[0, 0, 0, 0, 0])]);
    seeds.display().to_string()
}

fn run(dir: &Path, out: &str, extra: &[&str]) {
    let prog = program();
    let mut args = vec![
        "run",
        "--no-progress",
        "--search",
        "dfs",
        "--output-dir",
        out,
    ];
    args.extend_from_slice(extra);
    args.push(&prog);
    let run = sear(&args, dir);
    assert!(
        run.status.success(),
        "{out}: {}",
        String::from_utf8_lossy(&run.stderr)
    );
}

/// Completed and error paths, tests, the trace digest and the reported errors.
fn outcome(dir: &Path) -> (u64, u64, u64, String, String) {
    let s = summary(dir);
    (
        s["completed_paths"].as_u64().unwrap(),
        s["error_paths"].as_u64().unwrap(),
        s["tests"].as_u64().unwrap(),
        s["trace_digest"].as_str().unwrap().to_string(),
        s["errors"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| format!("{} {}", e["kind"], e["line"]))
            .collect(),
    )
}

#[test]
fn seeded_runs_under_jobs_explore_the_paths_of_one_process() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let seeds = seed_dir(dir);
    run(dir, "plain", &[]);
    let plain = outcome(&dir.join("plain"));
    assert!(plain.0 > 500, "the program has many paths: {plain:?}");
    for jobs in ["1", "2", "4"] {
        let out = format!("seeded-{jobs}");
        run(dir, &out, &["--seed-dir", &seeds, "--jobs", jobs]);
        let s = summary(&dir.join(&out));
        assert_eq!(outcome(&dir.join(&out)), plain, "--jobs {jobs} with seeds");
        let seeding = &s["seeds"];
        assert_eq!(seeding["loaded"], 3, "{seeding}");
        assert!(seeding["forks_decided"].as_u64() > Some(0), "{seeding}");
        assert!(seeding["deferred_sides"].as_u64() > Some(0), "{seeding}");
        if jobs != "1" {
            let workers = s["workers"].as_array().expect("a section per worker");
            let received: u64 = workers
                .iter()
                .map(|w| w["prefixes_received"].as_u64().unwrap())
                .sum();
            assert!(
                received > 1,
                "--jobs {jobs}: the seeded worker gave prefixes away: {workers:?}"
            );
        }
    }
}

#[test]
fn seeded_path_records_replay_without_the_seeds() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let seeds = seed_dir(dir);
    run(
        dir,
        "seeded",
        &["--seed-dir", &seeds, "--write-paths", "--write-trace-hash"],
    );
    let out = dir.join("seeded");
    let mut records: Vec<_> = std::fs::read_dir(&out)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "path"))
        .filter(|p| {
            std::fs::read_to_string(p)
                .unwrap()
                .lines()
                .any(|l| l.ends_with(" unchecked"))
        })
        .collect();
    records.sort();
    let text: String = records
        .iter()
        .map(|p| std::fs::read_to_string(p).unwrap())
        .collect();
    assert!(
        text.lines()
            .any(|l| l.starts_with("switch ") && l.ends_with(" unchecked")),
        "seeds decided switches: {text}"
    );
    assert!(
        text.lines()
            .any(|l| l.starts_with("check ") && l.ends_with(" unchecked")),
        "seeds decided checks: {text}"
    );
    // Every record with an unchecked check (its other side was infeasible: a rebuild that
    // asked would not fork there), and the first few others.
    let checks = |p: &std::path::PathBuf| {
        std::fs::read_to_string(p)
            .unwrap()
            .lines()
            .any(|l| l.starts_with("check ") && l.ends_with(" unchecked"))
    };
    let chosen = records
        .iter()
        .filter(|p| checks(p))
        .chain(records.iter().filter(|p| !checks(p)).take(8));
    for (i, record) in chosen.enumerate() {
        let replayed = format!("replay-{i}");
        let record_arg = record.display().to_string();
        run(
            dir,
            &replayed,
            &["--replay-path", &record_arg, "--write-trace-hash"],
        );
        let expected = std::fs::read_to_string(record.with_extension("trace")).unwrap();
        let got = std::fs::read_to_string(dir.join(&replayed).join("test000001.trace"))
            .unwrap_or_else(|e| panic!("{}: no replayed test: {e}", record.display()));
        assert_eq!(got, expected, "{}", record.display());
    }
}
