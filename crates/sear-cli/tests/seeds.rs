//! Seeding (`--seed-file`, `--seed-dir`, docs/seeds.md): a seed decides the branches the
//! solver cannot (a 64-bit hash guard, tests/seeds/), and exploration widens around it; seeds
//! that do not fit are reported and skipped, or extended and cut as the flags say; raw
//! files seed the POSIX model's stdin, first file and arguments; tests of seeded paths
//! replay natively; bad seed files are one-line errors.

mod common;

use std::path::Path;
use std::process::Output;

use common::sear;
use common::seeds::ktest;
use sear_ktest::KTest;
use serde_json::Value;

/// The key that passes the programs' hash guard.
const KEY: &[u8] = b"s3cr3t!#";

fn program(name: &str) -> String {
    common::repo_root()
        .join("tests/seeds")
        .join(name)
        .display()
        .to_string()
}

/// `sear run` in `dir` with a short solver budget (the guard times out without a seed).
fn run(dir: &Path, out: &str, extra: &[&str], prog: &str, prog_args: &[&str]) -> Output {
    let mut args = vec![
        "run",
        "--no-progress",
        "--max-time",
        "10",
        "--max-solver-time",
        "1",
        "--output-dir",
        out,
    ];
    args.extend_from_slice(extra);
    args.push(prog);
    args.extend_from_slice(prog_args);
    sear(&args, dir)
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn summary(dir: &Path) -> Value {
    let text = std::fs::read_to_string(dir.join("summary.json")).expect("summary.json");
    serde_json::from_str(&text).expect("summary.json parses")
}

/// The reported errors as (kind, file name, line).
fn errors(dir: &Path) -> Vec<(String, String, u64)> {
    summary(dir)["errors"]
        .as_array()
        .expect("errors")
        .iter()
        .map(|e| {
            let file = e["file"].as_str().unwrap_or("");
            let name = Path::new(file).file_name().unwrap().to_string_lossy();
            (
                e["kind"].as_str().unwrap_or("").to_string(),
                name.into_owned(),
                e["line"].as_u64().unwrap_or(0),
            )
        })
        .collect()
}

/// The null dereference behind the guard of `file` at `line`.
fn found_bug(dir: &Path, file: &str, line: u64) -> bool {
    errors(dir).contains(&("ptr".to_string(), file.to_string(), line))
}

fn seeds(dir: &Path) -> Value {
    summary(dir)["seeds"].clone()
}

fn count(v: &Value, key: &str) -> u64 {
    v[key]
        .as_u64()
        .unwrap_or_else(|| panic!("seeds.{key} in {v}"))
}

/// Replays the run's tests natively: every error reproduces, no test goes wrong.
fn replays(dir: &Path) {
    let problems = common::replay::check_replay("seeds", dir);
    assert!(problems.is_empty(), "{problems:#?}");
}

#[test]
fn the_bug_behind_a_hash_guard_is_found_with_a_seed_and_not_without() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let prog = program("hash_guard.c");
    let out = run(dir, "plain", &[], &prog, &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(!found_bug(&dir.join("plain"), "hash_guard.c", 30));
    assert!(summary(&dir.join("plain")).get("seeds").is_none());

    let seed = ktest(dir, "seed.ktest", &[("key", KEY), ("cmd", b"help")]);
    let seed = seed.display().to_string();
    let started = std::time::Instant::now();
    let out = run(dir, "seeded", &["--seed-file", &seed], &prog, &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    let seeded = dir.join("seeded");
    assert!(
        found_bug(&seeded, "hash_guard.c", 30),
        "{:?}",
        errors(&seeded)
    );
    assert!(started.elapsed().as_secs() < 10);
    let s = seeds(&seeded);
    assert_eq!(count(&s, "loaded"), 1);
    // The guard and the command's first byte were decided by the seed, with no query.
    assert!(count(&s, "forks_decided") >= 2, "{s}");
    assert!(count(&s, "deferred_sides") >= 2, "{s}");
    assert!(
        count(&s, "tests_from_seeds") + count(&s, "tests_from_hints") >= 2,
        "{s}"
    );
    replays(&seeded);
}

#[test]
fn mismatched_seeds_are_reported_once_and_skipped() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let seeds_dir = dir.join("corpus");
    std::fs::create_dir(&seeds_dir).unwrap();
    ktest(
        &seeds_dir,
        "a-short.ktest",
        &[("key", b"s3cr"), ("cmd", b"help")],
    );
    ktest(&seeds_dir, "b-few.ktest", &[("key", KEY)]);
    ktest(
        &seeds_dir,
        "c-long.ktest",
        &[("key", b"s3cr3t!#xx"), ("cmd", b"w!")],
    );
    std::fs::write(seeds_dir.join("notes.txt"), "not a seed").unwrap();
    let out = run(
        dir,
        "out",
        &["--seed-dir", "corpus"],
        &program("hash_guard.c"),
        &[],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(
        err.contains(
            "a-short.ktest skipped: size mismatch: object 'key' is 8 bytes, the seed's 'key' 4"
        ),
        "{err}"
    );
    assert!(
        err.contains(
            "b-few.ktest skipped: it has 1 objects, the program makes more: object 2 'cmd'"
        ),
        "{err}"
    );
    assert!(err.contains("c-long.ktest skipped: size mismatch"), "{err}");
    assert_eq!(err.matches("a-short.ktest skipped").count(), 1, "{err}");
    // A seed with more objects than the program makes: used, and the rest reported.
    let extra = ktest(
        dir,
        "extra.ktest",
        &[("key", KEY), ("cmd", b"help"), ("more", b"x")],
    );
    let extra = extra.display().to_string();
    let out = run(
        dir,
        "extra",
        &["--seed-file", &extra, "--only-seed"],
        &program("hash_guard.c"),
        &[],
    );
    let err = stderr(&out);
    assert!(
        err.contains("extra.ktest: its path ended with 1 of its 3 objects unused ('more')"),
        "{err}"
    );
    assert_eq!(count(&seeds(&dir.join("extra")), "skipped"), 0);
    let s = seeds(&dir.join("out"));
    assert_eq!(count(&s, "loaded"), 3);
    assert_eq!(count(&s, "skipped"), 3);
    assert_eq!(count(&s, "forks_decided"), 0);
    assert!(!found_bug(&dir.join("out"), "hash_guard.c", 30));
}

#[test]
fn extension_and_truncation_make_seeds_fit() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let prog = program("hash_guard.c");
    // The key 2 bytes too long, the command missing: skipped without the flags.
    let long = ktest(dir, "long.ktest", &[("key", b"s3cr3t!#xx")]);
    let long = long.display().to_string();
    let out = run(dir, "none", &["--seed-file", &long], &prog, &[]);
    assert!(stderr(&out).contains("size mismatch"), "{}", stderr(&out));
    assert!(!found_bug(&dir.join("none"), "hash_guard.c", 30));
    for (name, flags) in [
        (
            "free",
            &["--allow-seed-truncation", "--allow-seed-extension"][..],
        ),
        (
            "zero",
            &["--allow-seed-truncation", "--zero-seed-extension"][..],
        ),
    ] {
        let mut args = vec!["--seed-file", long.as_str()];
        args.extend_from_slice(flags);
        let out = run(dir, name, &args, &prog, &[]);
        assert!(out.status.success(), "{}", stderr(&out));
        let got = dir.join(name);
        assert!(
            found_bug(&got, "hash_guard.c", 30),
            "{name}: {:?}",
            errors(&got)
        );
        assert_eq!(count(&seeds(&got), "skipped"), 0);
        replays(&got);
    }
    // A short command is padded with zeros under --allow-seed-extension: the seed itself
    // takes the path to the bug ("w!" then zeros).
    let short = ktest(dir, "short.ktest", &[("key", KEY), ("cmd", b"w!")]);
    let short = short.display().to_string();
    let out = run(
        dir,
        "padded",
        &[
            "--seed-file",
            &short,
            "--allow-seed-extension",
            "--only-seed",
        ],
        &prog,
        &[],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(found_bug(&dir.join("padded"), "hash_guard.c", 30));
    let s = seeds(&dir.join("padded"));
    assert!(count(&s, "tests_from_seeds") >= 1, "{s}");
}

#[test]
fn named_seed_matching_matches_objects_by_name() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let prog = program("hash_guard.c");
    let seed = ktest(dir, "swapped.ktest", &[("cmd", b"w!xx"), ("key", KEY)]);
    let seed = seed.display().to_string();
    let out = run(dir, "position", &["--seed-file", &seed], &prog, &[]);
    let err = stderr(&out);
    assert!(
        err.contains("its object 1 is named 'cmd', the program's 'key'"),
        "{err}"
    );
    assert!(err.contains("size mismatch"), "{err}");
    let out = run(
        dir,
        "named",
        &["--seed-file", &seed, "--named-seed-matching", "--only-seed"],
        &prog,
        &[],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(found_bug(&dir.join("named"), "hash_guard.c", 30));
}

#[test]
fn only_seed_stops_after_the_seeded_paths() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let prog = program("hash_guard.c");
    let seed = ktest(dir, "seed.ktest", &[("key", KEY), ("cmd", b"help")]);
    let seed = seed.display().to_string();
    let out = run(
        dir,
        "only",
        &["--seed-file", &seed, "--only-seed"],
        &prog,
        &[],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let only = dir.join("only");
    let s = summary(&only);
    assert_eq!(s["stop_reason"], "only-seed");
    // One path, the seed's: its test comes from the seed, the sides it did not take are
    // left unexplored (the bug behind 'w!' is not reached).
    assert_eq!(s["tests"], 1, "{s}");
    assert_eq!(count(&s["seeds"], "tests_from_seeds"), 1);
    assert!(
        count(&s["seeds"], "deferred_unexplored") >= 2,
        "{}",
        s["seeds"]
    );
    assert!(!found_bug(&only, "hash_guard.c", 30));
    let test = KTest::read(only.join("test000001.ktest")).unwrap();
    assert_eq!(test.objects[0].bytes, KEY);
    assert_eq!(test.objects[1].bytes, b"help");
    replays(&only);
}

#[test]
fn only_replay_seeds_drops_the_sides_no_seed_takes() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let prog = program("hash_guard.c");
    let a = ktest(dir, "a.ktest", &[("key", KEY), ("cmd", b"help")]);
    let b = ktest(dir, "b.ktest", &[("key", KEY), ("cmd", b"w!!!")]);
    let (a, b) = (a.display().to_string(), b.display().to_string());
    let out = run(
        dir,
        "out",
        &["--seed-file", &a, "--seed-file", &b, "--only-replay-seeds"],
        &prog,
        &[],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let got = dir.join("out");
    let s = summary(&got);
    // Two paths, the seeds': "ok" and the bug; the denied side and the loop are dropped.
    assert_eq!(s["tests"], 2, "{s}");
    assert!(found_bug(&got, "hash_guard.c", 30));
    assert!(count(&s["seeds"], "forks_split") >= 1, "{}", s["seeds"]);
    assert!(count(&s["seeds"], "dropped_sides") >= 2, "{}", s["seeds"]);
    assert_eq!(count(&s["seeds"], "deferred_sides"), 0);
    replays(&got);
}

#[test]
fn seed_time_hands_a_looping_seeded_path_over_to_the_search() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let prog = program("hash_loop.c");
    // The seed's command loops forever: with seeding until the seeded paths end, the
    // deferred sides (and the bug) wait past --max-time.
    let seed = ktest(dir, "loop.ktest", &[("key", KEY), ("cmd", b"Loop")]);
    let seed = seed.display().to_string();
    let mut base = vec![
        "run",
        "--no-progress",
        "--max-time",
        "4",
        "--max-solver-time",
        "1",
        "--seed-file",
        &seed,
    ];
    base.extend(["--output-dir", "forever", &prog]);
    let out = sear(&base, dir);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(!found_bug(&dir.join("forever"), "hash_loop.c", 32));
    let out = run(
        dir,
        "timed",
        &["--seed-file", &seed, "--seed-time", "1"],
        &prog,
        &[],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let timed = dir.join("timed");
    assert!(found_bug(&timed, "hash_loop.c", 32), "{:?}", errors(&timed));
    let t = seeds(&timed)["seeding_time_s"].as_f64().unwrap();
    assert!((1.0..3.0).contains(&t), "seeding time {t}");
}

/// The seeded states take turns: a seed whose path loops forever does not hold up another
/// seed's path, which reaches the bug within --max-time without --seed-time.
#[test]
fn seeded_paths_take_turns_so_a_looping_seed_does_not_block_the_others() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    // hash_turns.c loops on the false side of the command's branch, the side a newest-first
    // seeding phase took first (and never left: the bug was not found before).
    let prog = program("hash_turns.c");
    ktest(dir, "a-loop.ktest", &[("key", KEY), ("cmd", b"Loop")]);
    ktest(dir, "b-bug.ktest", &[("key", KEY), ("cmd", b"w!..")]);
    let out = run(
        dir,
        "turns",
        &["--seed-dir", dir.to_str().unwrap()],
        &prog,
        &[],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let turns = dir.join("turns");
    assert!(
        found_bug(&turns, "hash_turns.c", 30),
        "{:?}",
        errors(&turns)
    );
    assert_eq!(count(&seeds(&turns), "loaded"), 2);
}

#[test]
fn raw_files_seed_stdin_the_first_file_and_the_arguments() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    std::fs::write(dir.join("in16"), b"s3cr3t!#w!\0\0\0\0\0\0").unwrap();
    std::fs::write(dir.join("in10"), b"s3cr3t!#ok").unwrap();
    std::fs::write(dir.join("in20"), b"s3cr3t!#ok0123456789").unwrap();
    std::fs::write(dir.join("args.raw"), b"s3cr3t!#\0ok\0").unwrap();
    // stdin: exactly the model's 16 bytes; the seed's own path is the bug.
    let stdin = program("hash_stdin.c");
    let out = run(
        dir,
        "stdin",
        &["--seed-file", "in16", "--seed-format", "raw-stdin"],
        &stdin,
        &["--sym-stdin", "16"],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(found_bug(&dir.join("stdin"), "hash_stdin.c", 27));
    replays(&dir.join("stdin"));
    // A shorter file needs --allow-seed-extension, a longer one --allow-seed-truncation.
    let out = run(
        dir,
        "short",
        &["--seed-file", "in10", "--seed-format", "raw-stdin"],
        &stdin,
        &["--sym-stdin", "16"],
    );
    assert!(
        stderr(&out).contains("object 'stdin' is 16 bytes, the seed's 'stdin' 10"),
        "{}",
        stderr(&out)
    );
    assert!(!found_bug(&dir.join("short"), "hash_stdin.c", 27));
    let corpus = dir.join("corpus");
    std::fs::create_dir(&corpus).unwrap();
    std::fs::copy(dir.join("in20"), corpus.join("id:000000")).unwrap();
    let out = run(
        dir,
        "long",
        &[
            "--seed-dir",
            "corpus",
            "--seed-format",
            "raw-stdin",
            "--allow-seed-truncation",
        ],
        &stdin,
        &["--sym-stdin", "16"],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(found_bug(&dir.join("long"), "hash_stdin.c", 27));
    // The first symbolic file, padded.
    let out = run(
        dir,
        "file",
        &[
            "--seed-file",
            "in10",
            "--seed-format",
            "raw-file",
            "--allow-seed-extension",
        ],
        &program("hash_file.c"),
        &["--sym-files", "1", "16"],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(found_bug(&dir.join("file"), "hash_file.c", 31));
    replays(&dir.join("file"));
    // The arguments, NUL-separated (each padded to its object as a C string).
    let out = run(
        dir,
        "args",
        &["--seed-file", "args.raw", "--seed-format", "raw-args"],
        &program("hash_args.c"),
        &["--sym-args", "1", "2", "8"],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let got = dir.join("args");
    assert!(found_bug(&got, "hash_args.c", 25));
    assert!(count(&seeds(&got), "forks_decided") >= 2);
    replays(&got);
}

#[test]
fn bad_seed_files_are_one_line_errors() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let prog = program("hash_guard.c");
    std::fs::write(dir.join("bad.ktest"), b"KTEST\0\0\0\x03garbage").unwrap();
    std::fs::create_dir(dir.join("empty")).unwrap();
    for (args, expected) in [
        (
            &["--seed-file", "missing.ktest"][..],
            "--seed-file missing.ktest: no such file",
        ),
        (&["--seed-file", "bad.ktest"][..], "seed bad.ktest:"),
        (
            &["--seed-dir", "empty"][..],
            "--seed-dir empty: no .ktest files in it",
        ),
        (&["--seed-dir", "nowhere"][..], "--seed-dir nowhere:"),
    ] {
        let out = run(dir, "out", args, &prog, &[]);
        let err = stderr(&out);
        assert!(!out.status.success(), "{args:?}: {err}");
        assert!(err.contains(expected), "{args:?}: {err}");
        assert_eq!(err.trim().lines().count(), 1, "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{err}");
        assert!(!dir.join("out").exists());
    }
}

#[test]
fn a_previous_runs_tests_seed_the_next_run_without_queries() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let prog = program("echo.c");
    let posix = ["--sym-args", "0", "2", "3"];
    let out = run(dir, "first", &[], &prog, &posix);
    assert!(out.status.success(), "{}", stderr(&out));
    let first = summary(&dir.join("first"));
    let tests = first["tests"].as_u64().unwrap();
    assert!(tests > 20, "{first}");
    assert!(first["queries"].as_u64().unwrap() > 0);
    let out = run(
        dir,
        "again",
        &["--seed-dir", "first", "--only-replay-seeds"],
        &prog,
        &posix,
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let again = summary(&dir.join("again"));
    let s = &again["seeds"];
    assert_eq!(count(s, "loaded"), tests);
    assert_eq!(count(s, "skipped"), 0);
    // Every test's path again, each fork decided by the seeds: no solver query at all.
    assert_eq!(again["tests"], tests);
    assert_eq!(again["queries"], 0, "{again}");
    assert_eq!(again["covered_instructions"], first["covered_instructions"]);
    assert_eq!(count(s, "tests_from_seeds"), tests);
    replays(&dir.join("again"));
}
