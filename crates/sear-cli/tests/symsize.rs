//! The symbolic-size model (seed 003 Ch. 5) from the outside: every program under
//! `tests/symsize/` runs in each `--sym-size-mode` it names, with expectations written as
//! comments in the program:
//!
//! * `// symsize-args: ARGS` — arguments for every run (default search: dfs).
//! * `// mode MODE: CHECK; CHECK; ...` — run in MODE (`concretize`, `max`, `fork-eager`,
//!   `fork-lazy`, `sm`, `smopt`, `pat`; `MODE+inc` adds `--incremental-merge=on`, and must
//!   report the same errors as MODE); each CHECK is `KEY OP N` over a number of `summary.json`
//!   (a dotted path; `errors` is the number of reported errors; OP is `==`, `>=`, `<=` or
//!   `>`), or `annotated-errors` (every error annotated `// expect-error: KIND` on its line
//!   is reported, of that kind at that line), or `error-in FUNCTION KIND` (an error of that
//!   kind is reported in that function, e.g. inside the runtime's `strchr`).
//!
//! Every run's tests are replayed natively (`sear replay`): errors must reproduce and exited
//! paths must exit with sear's output. `sm` and `smopt` runs validate every merge against
//! the merged paths with the solver (`--validate-merge`; no failure allowed) and must end
//! the same number of paths, with merged encodings (AST sizes) no larger for `smopt`. Runs of `fork-eager`, `fork-lazy`, `sm` and `smopt` of one
//! program must cover the same instructions (every mode explores every size up to the
//! capacity). `SEAR_SYMSIZE_FILTER=substring` runs only matching programs.

mod common;

use std::path::Path;
use std::process::Command;

use serde_json::Value;

struct ModeRun {
    mode: String,
    checks: Vec<String>,
}

struct Spec {
    args: Vec<String>,
    modes: Vec<ModeRun>,
    /// (line, kind) of the annotated errors.
    errors: Vec<(u64, String)>,
}

fn parse(source: &str) -> Spec {
    let mut spec = Spec {
        args: Vec::new(),
        modes: Vec::new(),
        errors: Vec::new(),
    };
    for (number, line) in source.lines().enumerate() {
        let Some(i) = line.find("// ") else { continue };
        let text = line[i + 3..].trim();
        if let Some(kind) = text.strip_prefix("expect-error:") {
            spec.errors
                .push((number as u64 + 1, kind.trim().to_string()));
            continue;
        }
        if let Some(v) = text.strip_prefix("symsize-args:") {
            spec.args.extend(v.split_whitespace().map(str::to_string));
        } else if let Some(v) = text.strip_prefix("mode ") {
            let (mode, checks) = v.split_once(':').expect("mode MODE: CHECKS");
            spec.modes.push(ModeRun {
                mode: mode.trim().to_string(),
                checks: checks
                    .split(';')
                    .map(|c| c.trim().to_string())
                    .filter(|c| !c.is_empty())
                    .collect(),
            });
        }
    }
    spec
}

fn number(v: &Value, key: &str) -> Option<f64> {
    if key == "errors" {
        return v["errors"].as_array().map(|a| a.len() as f64);
    }
    key.split('.').try_fold(v, |v, k| v.get(k))?.as_f64()
}

fn check_one(
    name: &str,
    mode: &str,
    summary: &Value,
    check: &str,
    errors: &[(u64, String)],
) -> Option<String> {
    let parts: Vec<&str> = check.split_whitespace().collect();
    if parts == ["annotated-errors"] {
        assert!(
            !errors.is_empty(),
            "{name}: no `// expect-error:` annotation"
        );
        let missing: Vec<String> = errors
            .iter()
            .filter(|(line, kind)| {
                !summary["errors"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .any(|e| e["line"].as_u64() == Some(*line) && e["kind"] == kind.as_str())
            })
            .map(|(line, kind)| format!("{kind} at line {line}"))
            .collect();
        return (!missing.is_empty()).then(|| {
            format!(
                "{name} [{mode}]: not reported: {}; reported: {}",
                missing.join(", "),
                summary["errors"]
            )
        });
    }
    if let ["error-in", function, kind] = parts[..] {
        let found = summary["errors"]
            .as_array()
            .into_iter()
            .flatten()
            .any(|e| e["function"] == function && e["kind"] == kind);
        return (!found).then(|| {
            format!(
                "{name} [{mode}]: no {kind} error in {function}: {}",
                summary["errors"]
            )
        });
    }
    assert_eq!(parts.len(), 3, "{name}: bad check '{check}'");
    let want: f64 = parts[2].parse().expect("number");
    let Some(got) = number(summary, parts[0]) else {
        return Some(format!(
            "{name} [{mode}]: no number {} in summary.json",
            parts[0]
        ));
    };
    let ok = match parts[1] {
        "==" => got == want,
        ">=" => got >= want,
        "<=" => got <= want,
        ">" => got > want,
        op => panic!("{name}: bad operator {op}"),
    };
    (!ok).then(|| format!("{name} [{mode}]: {} is {got}, expected {check}", parts[0]))
}

/// Runs `program` in every mode it names; returns every problem.
fn check(program: &Path) -> Vec<String> {
    let source = std::fs::read_to_string(program).unwrap();
    let spec = parse(&source);
    let name = program.file_name().unwrap().to_string_lossy().to_string();
    assert!(!spec.modes.is_empty(), "{name}: no `// mode` line");
    let tmp = tempfile::tempdir().unwrap();
    let mut problems = Vec::new();
    let mut summaries: Vec<(String, Value)> = Vec::new();
    for run in &spec.modes {
        let out = tmp.path().join(&run.mode);
        // `MODE+inc`: MODE with incremental merging (§6.3).
        let (mode, incremental) = match run.mode.strip_suffix("+inc") {
            Some(m) => (m, true),
            None => (run.mode.as_str(), false),
        };
        let mut cmd = Command::new(common::sear_bin());
        cmd.args(["run", "--no-progress", "--search", "dfs"])
            .arg(format!("--sym-size-mode={mode}"))
            .arg("--output-dir")
            .arg(&out)
            .args(&spec.args);
        if incremental {
            cmd.arg("--incremental-merge=on");
        }
        if mode == "sm" || mode == "smopt" {
            cmd.arg("--validate-merge");
        }
        if mode == "pat" {
            cmd.args(["--validate-merge", "--validate-quantified", "--log-queries"])
                .arg(tmp.path().join("pat-queries"));
        }
        let o = cmd.arg(program).output().expect("sear runs");
        if !o.status.success() {
            problems.push(format!(
                "{name} [{}]: sear failed: {}",
                run.mode,
                String::from_utf8_lossy(&o.stderr)
            ));
            continue;
        }
        let mut summary: Value =
            serde_json::from_str(&std::fs::read_to_string(out.join("summary.json")).unwrap())
                .unwrap();
        if mode == "pat" {
            summary["forall_queries"] = forall_queries(&tmp.path().join("pat-queries")).into();
            // The quantified stage's counters, as `quantified.NAME`.
            let layers = summary["solver"]["layers"]
                .as_array()
                .cloned()
                .unwrap_or_default();
            if let Some(l) = layers.iter().find(|l| l["name"] == "quantified") {
                summary["quantified"] = l["counters"].clone();
            }
        }
        for c in &run.checks {
            problems.extend(check_one(&name, &run.mode, &summary, c, &spec.errors));
        }
        for key in [
            "symbolic_size.pat.validation_failures",
            "quantified.validation_failures",
        ] {
            if number(&summary, key).is_some_and(|f| f > 0.0) {
                problems.push(format!("{name} [{}]: {key} > 0", run.mode));
            }
        }
        if let Some(failures) = number(&summary, "symbolic_size.validation_failures") {
            if failures > 0.0 {
                problems.push(format!(
                    "{name} [{}]: {failures} merges failed validation",
                    run.mode
                ));
            }
        }
        // A path that ended early (a size concretize did not explore) stopped before the
        // program asked for all its inputs: its test does not replay.
        let replay =
            common::check_replay(common::sear_bin(), &format!("{name} [{}]", run.mode), &out);
        problems.extend(replay.into_iter().filter(|p| !ended_early(&out, p)));
        summaries.push((run.mode.clone(), summary));
    }
    let get = |mode: &str| summaries.iter().find(|(m, _)| m == mode).map(|(_, s)| s);
    let paths =
        |s: &Value| number(s, "completed_paths").unwrap() + number(s, "error_paths").unwrap();
    if let (Some(sm), Some(opt)) = (get("sm"), get("smopt")) {
        if paths(sm) != paths(opt) {
            problems.push(format!(
                "{name}: sm ended {} paths, smopt {}",
                paths(sm),
                paths(opt)
            ));
        }
    }
    if let (Some(sm), Some(opt)) = (get("sm"), get("smopt")) {
        // SMOpt's encodings are never larger than SM's (spec §4.7).
        for key in ["merged_constraints_ast", "merged_values_ast"] {
            let path = format!("symbolic_size.{key}");
            let (a, b) = (number(sm, &path).unwrap(), number(opt, &path).unwrap());
            if b > a {
                problems.push(format!("{name}: smopt's {key} {b} exceeds sm's {a}"));
            }
        }
    }
    let covering: Vec<&(String, Value)> = summaries
        .iter()
        .filter(|(m, _)| {
            ["fork-eager", "fork-lazy", "sm", "smopt", "pat"]
                .contains(&m.strip_suffix("+inc").unwrap_or(m))
        })
        .collect();
    if let Some((first_mode, first)) = covering.first() {
        for (mode, s) in &covering[1..] {
            if s["covered_instructions"] != first["covered_instructions"] {
                problems.push(format!(
                    "{name}: {mode} covered {} instructions, {first_mode} {}",
                    s["covered_instructions"], first["covered_instructions"]
                ));
            }
        }
    }
    // Incremental merging changes how many paths there are, not what they find.
    let error_set = |s: &Value| {
        let mut e: Vec<String> = s["errors"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|e| format!("{}:{}", e["kind"], e["line"]))
            .collect();
        e.sort();
        e.dedup();
        e
    };
    for (mode, s) in &summaries {
        if let Some(plain) = mode.strip_suffix("+inc").and_then(get) {
            if error_set(s) != error_set(plain) {
                problems.push(format!(
                    "{name}: {mode} reported {:?}, without incremental merging {:?}",
                    error_set(s),
                    error_set(plain)
                ));
            }
        }
    }
    problems
}

/// The number of logged queries (`--log-queries`) with a quantified clause.
fn forall_queries(dir: &Path) -> u64 {
    std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .flatten()
                .filter(|e| std::fs::read_to_string(e.path()).is_ok_and(|t| t.contains("(forall ")))
                .count() as u64
        })
        .unwrap_or(0)
}

/// True when the replay problem `problem` is about a test of `out` that ended early.
fn ended_early(out: &Path, problem: &str) -> bool {
    let Some(start) = problem.find("replay of \"") else {
        return false;
    };
    let rest = &problem[start + 11..];
    let Some(test) = rest.split(".ktest").next() else {
        return false;
    };
    out.join(format!("{test}.early")).exists()
}

#[test]
fn symbolic_size_programs() {
    let programs = common::c_programs("tests/symsize", "SEAR_SYMSIZE_FILTER");
    assert!(!programs.is_empty());
    let problems = common::problems_in_parallel(&programs, 2, |p| check(p));
    common::assert_no_problems(&problems);
}

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
