//! `--sv-comp` and `--test-comp` under `--jobs N`: the coordinator decides the verdict and
//! writes the Test-Comp suite from the merged output directory, as one process does from
//! its own: the same verdicts, a FALSE verdict naming a test of the merged directory whose
//! inputs reach the error, and a suite that covers the same branches (not the same tests:
//! under `--test-comp` a test is written for a path that covered something new, which
//! depends on the order the workers' paths end in).

mod common;

use std::path::Path;

use common::sear;
use common::workers::summary;
use sear_ktest::KTest;

const SAFE: &str = "extern void reach_error(void);\n\
    extern int __VERIFIER_nondet_int(void);\n\
    extern void __VERIFIER_assume(int);\n\
    int main() { int x = __VERIFIER_nondet_int(); __VERIFIER_assume(x >= 0 && x < 1000);\n\
    int a[1000] = {0}; a[x] = x; int s = 0;\n\
    for (int i = 0; i < 6; i++) if (__VERIFIER_nondet_int() > i) s++;\n\
    if (a[x] * a[x] == 2) reach_error(); return s; }\n";

/// `reach_error` when exactly seven of eight inputs exceed their index.
const UNSAFE: &str = "extern void reach_error(void);\n\
    extern int __VERIFIER_nondet_int(void);\n\
    int main() { int s = 0;\n\
    for (int i = 0; i < 8; i++) if (__VERIFIER_nondet_int() > i) s++;\n\
    if (s == 7) reach_error(); return s; }\n";

/// Runs `sear run --no-progress --output-dir OUT ARGS... NAME` (NAME written from
/// `source`) and returns its standard output.
fn run(dir: &Path, name: &str, source: &str, out: &str, args: &[&str]) -> String {
    std::fs::write(dir.join(name), source).unwrap();
    let mut all = vec!["run", "--no-progress", "--output-dir", out];
    all.extend_from_slice(args);
    all.push(name);
    let o = sear(&all, dir);
    assert!(
        o.status.success(),
        "{out}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8_lossy(&o.stdout).trim().to_string()
}

#[test]
fn sv_comp_verdicts_under_jobs_are_those_of_one_process() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    for jobs in ["1", "2"] {
        let line = run(
            dir,
            "safe.c",
            SAFE,
            &format!("safe-{jobs}"),
            &["--sv-comp", "--jobs", jobs],
        );
        assert!(
            line.starts_with("sear: verdict: TRUE"),
            "--jobs {jobs}: {line}"
        );
    }
    let out = dir.join("unsafe-2");
    let line = run(
        dir,
        "unsafe.c",
        UNSAFE,
        "unsafe-2",
        &["--sv-comp", "--jobs", "2"],
    );
    assert!(line.starts_with("sear: verdict: FALSE"), "{line}");
    let verdict: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("verdict.json")).unwrap()).unwrap();
    assert_eq!(verdict["verdict"], "FALSE");
    assert_eq!(summary(&out)["jobs"], 2, "two worker processes ran");
    let test = verdict["test"].as_str().expect("the verdict names a test");
    assert!(line.contains(test), "{line}");
    let ktest = KTest::read(out.join(format!("{test}.ktest"))).expect("the named test exists");
    let inputs: Vec<i32> = ktest
        .objects
        .iter()
        .filter(|o| o.name == "__VERIFIER_nondet_int")
        .map(|o| i32::from_le_bytes(o.bytes[..4].try_into().unwrap()))
        .collect();
    assert_eq!(inputs.len(), 8, "{inputs:?}");
    let above = inputs
        .iter()
        .enumerate()
        .filter(|(i, &v)| v > *i as i32)
        .count();
    assert_eq!(above, 7, "{test}'s inputs {inputs:?} reach reach_error");
}

#[test]
fn test_comp_suites_under_jobs_are_those_of_one_process() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let mut suites = Vec::new();
    for jobs in ["1", "2"] {
        let out = format!("suite-{jobs}");
        run(
            dir,
            "unsafe.c",
            UNSAFE,
            &out,
            &["--test-comp", "cover-branches", "--jobs", jobs],
        );
        let suite = dir.join(&out).join("test-suite");
        assert!(suite.join("metadata.xml").is_file(), "{out}: metadata.xml");
        let tests = std::fs::read_dir(&suite)
            .unwrap()
            .flatten()
            .filter(|e| {
                let name = e.file_name().to_string_lossy().into_owned();
                name.starts_with("test") && name.ends_with(".xml")
            })
            .count();
        let s = summary(&dir.join(&out));
        if jobs == "2" {
            assert_eq!(s["workers"].as_array().map(Vec::len), Some(2), "{out}");
        }
        let o = sear(&["coverage", "--json", &out], dir);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let report: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        assert_eq!(s["tests"], tests, "{out}: a suite test per test written");
        suites.push((
            tests,
            s["trace_digest"].clone(),
            report["total"]["branches_hit"].clone(),
        ));
    }
    // A test only for a path that covered something new, which depends on the order the
    // paths end in (two workers: more tests); the paths explored and the branches the
    // suite covers are those of one process.
    assert!(
        suites.iter().all(|s| s.0 < 20),
        "not one test per path: {suites:?}"
    );
    assert_eq!(
        suites[0].1, suites[1].1,
        "--jobs 2 against --jobs 1: {suites:?}"
    );
    assert_eq!(
        suites[0].2, suites[1].2,
        "--jobs 2 against --jobs 1: {suites:?}"
    );
}
