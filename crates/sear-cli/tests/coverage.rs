//! End-to-end tests of `sear coverage`: `sear run` on the programs of `tests/coverage/`, then
//! `sear coverage --json`, whose line and branch counts are known exactly (each program
//! says why in its comments).

mod common;

use common::sear;

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

fn program(name: &str) -> PathBuf {
    common::repo_root().join("tests/coverage").join(name)
}

/// `sear run` on a program of tests/coverage into `cwd/out`.
fn run(cwd: &Path, out: &str, name: &str, extra: &[&str]) {
    let program = program(name);
    let mut args = vec!["run", "--no-progress", "--output-dir", out];
    args.push(program.to_str().unwrap());
    args.extend_from_slice(extra);
    let output = sear(&args, cwd);
    assert!(
        output.status.success(),
        "sear run {name}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
}

/// `sear coverage --json ARGS` in `cwd`, parsed.
fn coverage(cwd: &Path, args: &[&str]) -> Value {
    let mut all = vec!["coverage", "--json"];
    all.extend_from_slice(args);
    let output = sear(&all, cwd);
    assert!(
        output.status.success(),
        "sear coverage: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).expect("coverage JSON")
}

fn totals(report: &Value) -> (u64, u64, u64, u64) {
    let t = &report["total"];
    let n = |k: &str| t[k].as_u64().unwrap();
    (n("lines"), n("lines_hit"), n("branches"), n("branches_hit"))
}

/// The count of `line` in the saved gcov report of the file ending in `file`.
fn line_count(report_dir: &Path, file: &str, line: u32) -> Option<u64> {
    let text = std::fs::read_to_string(report_dir.join("coverage.info")).unwrap();
    let record = text
        .split("end_of_record")
        .find(|r| r.lines().any(|l| l.starts_with("SF:") && l.ends_with(file)))?;
    record.lines().find_map(|l| {
        let (at, count) = l.strip_prefix("DA:")?.split_once(',')?;
        (at.parse::<u32>().ok()? == line).then(|| count.parse().unwrap())
    })
}

#[test]
fn coverage_of_a_program_with_a_dead_branch_is_exact() {
    let dir = tempfile::tempdir().unwrap();
    run(dir.path(), "out", "branches.c", &[]);
    let report = coverage(dir.path(), &["out"]);
    assert_eq!(report["replay"]["tests"], 3, "{report:#}");
    // 15 executable lines; never()'s two and the line calling it are not executed. Three
    // conditions of two branches; `x < 5` is never true once `x > 10` holds.
    assert_eq!(totals(&report), (15, 12, 6, 5), "{report:#}");
    assert_eq!(report["line_percent"], 80.0);
    let out = dir.path().join("out/coverage");
    assert_eq!(line_count(&out, "branches.c", 16), Some(0));
    assert_eq!(line_count(&out, "branches.c", 18), Some(1));
    let info = std::fs::read_to_string(out.join("coverage.info")).unwrap();
    assert!(
        info.contains("BRDA:15,0,1,0") && info.contains("LF:15\nLH:12"),
        "{info}"
    );
    assert!(out.join("coverage.json").is_file());
    // Replays in parallel threads add up to the same counts.
    let parallel = coverage(dir.path(), &["out", "--jobs", "3", "--output-dir", "par"]);
    assert_eq!(totals(&parallel), (15, 12, 6, 5), "{parallel:#}");
    assert_eq!(
        line_count(&dir.path().join("par"), "branches.c", 13),
        Some(3)
    );
    // genhtml comes with Debian's lcov package, which scripts/setup.sh installs.
    let has_genhtml = Command::new("genhtml").arg("--version").output().is_ok();
    if has_genhtml {
        coverage(dir.path(), &["out", "--html"]);
        assert!(out.join("html/index.html").is_file());
    }
}

#[test]
fn a_crashing_test_counts_the_lines_it_ran() {
    let dir = tempfile::tempdir().unwrap();
    run(dir.path(), "out", "crash.c", &["--sym-args", "0", "1", "1"]);
    let report = coverage(dir.path(), &["out"]);
    assert_eq!(report["crashes"].as_array().unwrap().len(), 1, "{report:#}");
    let out = dir.path().join("out/coverage");
    // Only the crashing test runs lines 11 and 12: the replay library writes the counters
    // from the SIGSEGV handler before the process dies.
    assert_eq!(line_count(&out, "crash.c", 11), Some(1), "{report:#}");
    assert_eq!(line_count(&out, "crash.c", 12), Some(1));
    assert_eq!(totals(&report).1, totals(&report).0, "{report:#}");
}

#[test]
fn timeouts_and_differing_outputs_are_named() {
    let dir = tempfile::tempdir().unwrap();
    run(
        dir.path(),
        "out",
        "differs.c",
        &["--sym-args", "0", "1", "1"],
    );
    let report = coverage(dir.path(), &["out", "--timeout", "1"]);
    let names = |key: &str| -> Vec<String> {
        report[key]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t.as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(report["replay"]["tests"], 3, "{report:#}");
    assert!(names("crashes").is_empty(), "{report:#}");
    let timeouts = names("timeouts");
    let differing = names("output_mismatches");
    assert_eq!(timeouts.len(), 1, "{report:#}");
    // All three exited under sear; natively two print other pids and one was stopped.
    assert_eq!(differing.len(), 3, "{report:#}");
    assert!(differing.contains(&timeouts[0]), "{report:#}");
    // The text report names them too.
    let text = sear(
        &["coverage", "out", "--timeout", "1", "--output-dir", "t"],
        dir.path(),
    );
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(
        text.contains(&format!("timed out: {}", timeouts[0])),
        "{text}"
    );
    assert!(text.contains("3 of 3 outputs differ from sear's"), "{text}");
    assert!(text.contains("output differs: out/test"), "{text}");
}

#[test]
fn tests_of_several_directories_are_measured_together() {
    let dir = tempfile::tempdir().unwrap();
    run(dir.path(), "all", "crash.c", &["--sym-args", "0", "1", "1"]);
    // The same program run without arguments: one path, which skips the branch.
    run(dir.path(), "none", "crash.c", &[]);
    let alone = coverage(dir.path(), &["none", "--output-dir", "c1"]);
    assert!(totals(&alone).1 < totals(&alone).0, "{alone:#}");
    assert_eq!(alone["replay"]["tests"], 1);
    let both = coverage(dir.path(), &["none", "all", "--output-dir", "c2"]);
    assert_eq!(both["replay"]["tests"], 4);
    assert_eq!(totals(&both).1, totals(&both).0, "{both:#}");
    // --source selects what the total counts: nothing matches here.
    let none = coverage(
        dir.path(),
        &["all", "--source", "no-such-file", "--output-dir", "c3"],
    );
    assert_eq!(totals(&none), (0, 0, 0, 0));
}

#[test]
fn a_directory_without_info_json_needs_the_program() {
    let dir = tempfile::tempdir().unwrap();
    run(dir.path(), "out", "branches.c", &[]);
    std::fs::remove_file(dir.path().join("out/info.json")).unwrap();
    let output = sear(&["coverage", "out"], dir.path());
    assert!(!output.status.success());
    assert!(
        String::from_utf8_lossy(&output.stderr).contains("--program"),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let program = program("branches.c");
    let report = coverage(dir.path(), &["out", "--program", program.to_str().unwrap()]);
    assert_eq!(totals(&report), (15, 12, 6, 5));
}

#[test]
fn a_whole_program_module_is_measured_by_its_units() {
    let dir = tempfile::tempdir().unwrap();
    let include = common::repo_root().join("runtime/include");
    let mut units = Vec::new();
    for unit in ["units_main", "units_lib"] {
        let bc = dir.path().join(format!("{unit}.bc"));
        let status = Command::new("clang-19")
            .args([
                "-c",
                "-emit-llvm",
                "-g",
                "-O0",
                "-Xclang",
                "-disable-O0-optnone",
                "-I",
            ])
            .arg(&include)
            .arg(program(&format!("{unit}.c")))
            .arg("-o")
            .arg(&bc)
            .status()
            .expect("clang-19");
        assert!(status.success());
        units.push(bc);
    }
    let status = Command::new("llvm-link-19")
        .args(&units)
        .arg("-o")
        .arg(dir.path().join("prog.bc"))
        .status()
        .expect("llvm-link-19");
    assert!(status.success());
    // wllvm's extract-bc -m writes the module's units beside it.
    let manifest: String = units.iter().map(|u| format!("{}\n", u.display())).collect();
    std::fs::write(dir.path().join("prog.llvm.manifest"), manifest).unwrap();
    let output = sear(
        &["run", "--no-progress", "--output-dir", "out", "prog.bc"],
        dir.path(),
    );
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let report = coverage(dir.path(), &["out", "--source", "units_lib.c"]);
    // sign(): 9 lines, `return 7` dead; 8 branches, `x > 0` after `x < -5` never true.
    assert_eq!(totals(&report), (9, 8, 8, 7), "{report:#}");
    let report = coverage(
        dir.path(),
        &["out", "--source", "units_main.c", "--output-dir", "c2"],
    );
    assert_eq!(totals(&report), (3, 3, 0, 0), "{report:#}");
}

#[test]
fn the_environment_of_the_replay_can_be_given() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("with.env"), "COV_MODE=1\n").unwrap();
    std::fs::write(dir.path().join("without.env"), "OTHER=1\n").unwrap();
    run(dir.path(), "out", "env.c", &["--env-file", "with.env"]);
    // The run's own --env-file (recorded in info.json) by default.
    coverage(dir.path(), &["out", "--output-dir", "c1"]);
    let c1 = dir.path().join("c1");
    assert_eq!(line_count(&c1, "env.c", 9), Some(1));
    assert_eq!(line_count(&c1, "env.c", 11), Some(0));
    coverage(
        dir.path(),
        &["out", "--env-file", "without.env", "--output-dir", "c2"],
    );
    let c2 = dir.path().join("c2");
    assert_eq!(line_count(&c2, "env.c", 9), Some(0));
    assert_eq!(line_count(&c2, "env.c", 11), Some(1));
}
