//! Branch-decision records: `--write-paths` writes each test's decisions, and `--replay-path`
//! follows one of them to the same path (the same instruction trace, decisions and ending),
//! without forking; a path file that does not fit the program is reported, not followed.

mod common;

use std::path::Path;

use common::sear;

fn program() -> String {
    common::repo_root()
        .join("tests/paths/every_fork_kind.c")
        .display()
        .to_string()
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The tests of an output directory: (name, the error kind if any).
fn tests(dir: &Path) -> Vec<(String, Option<String>)> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("output directory")
        .filter_map(|e| {
            let name = e.ok()?.file_name().into_string().ok()?;
            name.strip_suffix(".ktest").map(str::to_string)
        })
        .collect();
    names.sort();
    names
        .into_iter()
        .map(|n| {
            let err = std::fs::read_dir(dir).unwrap().find_map(|e| {
                let f = e.ok()?.file_name().into_string().ok()?;
                let kind = f.strip_prefix(&format!("{n}."))?.strip_suffix(".err")?;
                Some(kind.to_string())
            });
            (n, err)
        })
        .collect()
}

#[test]
fn every_recorded_path_replays_to_the_same_path() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let prog = program();
    let out = sear(
        &[
            "run",
            "--no-progress",
            "--write-paths",
            "--write-trace-hash",
            "--output-dir",
            "all",
            &prog,
        ],
        dir,
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let all = tests(&dir.join("all"));
    assert!(all.len() >= 8, "the program has at least 8 paths: {all:?}");
    let mut kinds = std::collections::BTreeSet::new();
    for (name, err) in &all {
        let path_file = dir.join("all").join(format!("{name}.path"));
        let recorded = read(&path_file);
        for line in recorded.lines() {
            kinds.insert(line.split_whitespace().next().unwrap().to_string());
        }
        let replay = format!("replay-{name}");
        let out = sear(
            &[
                "run",
                "--no-progress",
                "--write-paths",
                "--write-trace-hash",
                "--replay-path",
                path_file.to_str().unwrap(),
                "--output-dir",
                &replay,
                &prog,
            ],
            dir,
        );
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let replayed = tests(&dir.join(&replay));
        assert_eq!(replayed.len(), 1, "{name}: one path, no fork: {replayed:?}");
        assert_eq!(&replayed[0].1, err, "{name}: the same ending");
        let r = dir.join(&replay);
        assert_eq!(
            read(&r.join("test000001.path")),
            recorded,
            "{name}: the same decisions"
        );
        assert_eq!(
            read(&r.join("test000001.trace")),
            read(&dir.join("all").join(format!("{name}.trace"))),
            "{name}: the same instruction trace"
        );
        let summary: serde_json::Value =
            serde_json::from_str(&read(&r.join("summary.json"))).unwrap();
        assert_eq!(summary["forks"], 0, "{name}: the replay forks nowhere");
    }
    for kind in ["branch", "switch", "resolution", "check"] {
        assert!(
            kinds.contains(kind),
            "a {kind} decision is recorded: {kinds:?}"
        );
    }
}

#[test]
fn a_path_that_does_not_fit_is_reported_with_its_decision() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let prog = program();
    std::fs::write(dir.join("wrong.path"), "branch 0/2 @5 f0:b0:i1\n").unwrap();
    let out = sear(
        &[
            "run",
            "--no-progress",
            "--replay-path",
            "wrong.path",
            "--output-dir",
            "o",
            &prog,
        ],
        dir,
    );
    assert!(out.status.success());
    let err = read(&dir.join("o/test000001.exec.err"));
    assert!(
        err.contains("path replay diverged") && err.contains("decision 1"),
        "{err}"
    );
    // Too few decisions: the program forks past the record's end.
    std::fs::write(dir.join("short.path"), "").unwrap();
    let out = sear(
        &[
            "run",
            "--no-progress",
            "--replay-path",
            "short.path",
            "--output-dir",
            "s",
            &prog,
        ],
        dir,
    );
    assert!(out.status.success());
    let err = read(&dir.join("s/test000001.exec.err"));
    assert!(err.contains("past the path's 0 decisions"), "{err}");
}

#[test]
fn a_malformed_path_file_is_refused_before_the_run() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    std::fs::write(
        dir.join("bad.path"),
        "branch 0/2 @5 f0:b0:i1\nbranch 3/2 @9 f0:b0:i1\n",
    )
    .unwrap();
    let out = sear(
        &[
            "run",
            "--replay-path",
            "bad.path",
            "--output-dir",
            "o",
            &program(),
        ],
        dir,
    );
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("bad.path") && stderr.contains("line 2"),
        "{stderr}"
    );
    assert!(
        !dir.join("o").exists(),
        "no output directory for a refused run"
    );
    let out = sear(
        &[
            "run",
            "--replay-path",
            "missing.path",
            "--output-dir",
            "o",
            &program(),
        ],
        dir,
    );
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("missing.path"));
}

/// The `switch` queries a replay of `path_file` asks (`summary.json`), and its path file.
fn replay_switch_queries(dir: &Path, path_file: &Path, out: &str, prog: &str) -> (u64, String) {
    let run = sear(
        &[
            "run",
            "--no-progress",
            "--write-paths",
            "--replay-path",
            path_file.to_str().unwrap(),
            "--output-dir",
            out,
            prog,
        ],
        dir,
    );
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let summary: serde_json::Value =
        serde_json::from_str(&read(&dir.join(out).join("summary.json"))).unwrap();
    let queries = summary["queries_by_purpose"]["switch"]["queries"]
        .as_u64()
        .unwrap_or(0);
    (queries, read(&dir.join(out).join("test000001.path")))
}

#[test]
fn a_recorded_switch_target_is_replayed_without_queries() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let prog = common::repo_root()
        .join("tests/paths/switch_targets.c")
        .display()
        .to_string();
    let out = sear(
        &[
            "run",
            "--no-progress",
            "--write-paths",
            "--output-dir",
            "all",
            &prog,
        ],
        dir,
    );
    assert!(out.status.success());
    let all = tests(&dir.join("all"));
    // c < 'c', and 'c', 'd', 'e' and the default above it.
    assert_eq!(all.len(), 5, "{all:?}");
    let mut switches = 0;
    for (name, _) in &all {
        let path_file = dir.join("all").join(format!("{name}.path"));
        let recorded = read(&path_file);
        if !recorded.contains("switch") {
            continue;
        }
        switches += 1;
        assert!(recorded.contains(" target="), "{recorded}");
        let (queries, replayed) =
            replay_switch_queries(dir, &path_file, &format!("r-{name}"), &prog);
        assert_eq!(queries, 0, "{name}: the target is recorded");
        assert_eq!(replayed, recorded, "{name}");
        // An older path file, without the targets: the same path, found by queries.
        let old: String = recorded
            .lines()
            .map(|l| l.split(" target=").next().unwrap().to_string() + "\n")
            .collect();
        let old_file = dir.join(format!("{name}-old.path"));
        std::fs::write(&old_file, &old).unwrap();
        let (queries, replayed) =
            replay_switch_queries(dir, &old_file, &format!("o-{name}"), &prog);
        assert!(
            queries > 0,
            "{name}: the switch asks which targets are feasible"
        );
        assert_eq!(replayed, old, "{name}: the same decisions");
    }
    assert_eq!(switches, 4, "four paths fork at the switch");
}
