//! Runs one program of the suite as its expectations say (`expect.rs`), and checks every run
//! against them; under `SEAR_BLESS=1` the expectations are first rewritten from the runs
//! (`bless.rs`).

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

use super::expect::{self, Expectations, ModeCheck};
use super::replay;

/// What one `sear run` of a program gave.
pub struct Run {
    /// `program [configuration]`, for messages.
    pub label: String,
    /// The configuration's arguments (what `expect-summary: ... if TEXT` looks at).
    pub config: String,
    /// The `mode` of a symbolic-size run.
    pub mode: Option<String>,
    /// The line of the `run:` comment the run comes from.
    pub run_line: Option<usize>,
    /// summary.json (with `forall_queries` and `quantified` added for `pat` runs).
    pub summary: Value,
    /// The exit statuses of the paths that exited, sorted.
    pub exits: Vec<i64>,
    /// The `.ktest` files in the output directory.
    pub ktests: u64,
    /// sear's stderr.
    pub stderr: String,
    /// Replay problems (not a matter of expectations).
    pub replay_problems: Vec<String>,
    /// The output directory (kept until the checks are done).
    pub out: PathBuf,
    _root: tempfile::TempDir,
}

impl Run {
    /// A run made of its summary alone (no test files), for checking the checks.
    pub fn from_summary(label: &str, config: &str, summary: Value, exits: Vec<i64>) -> Run {
        let root = tempfile::tempdir().expect("tempdir");
        let out = root.path().to_path_buf();
        Run {
            label: label.to_string(),
            config: config.to_string(),
            mode: None,
            run_line: None,
            ktests: summary["tests"].as_u64().unwrap_or(0),
            summary,
            exits,
            stderr: String::new(),
            replay_problems: Vec::new(),
            out,
            _root: root,
        }
    }

    /// A number of the summary; `errors` is the number of reported errors.
    pub fn number(&self, key: &str) -> Option<f64> {
        lookup_number(&self.summary, key)
    }

    /// The reported errors as (kind, line), sorted.
    pub fn errors(&self) -> Vec<(String, u32)> {
        let mut errors: Vec<(String, u32)> = self.summary["errors"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|e| {
                (
                    e["kind"].as_str().unwrap_or("?").to_string(),
                    e["line"].as_u64().unwrap_or(0) as u32,
                )
            })
            .collect();
        errors.sort();
        errors
    }

    /// The kinds of the reported errors, sorted.
    pub fn error_kinds(&self) -> Vec<String> {
        self.errors().into_iter().map(|(k, _)| k).collect()
    }

    /// True when `expect-summary: ... if TEXT` applies to this run.
    pub fn matches(&self, only_if: &Option<String>) -> bool {
        only_if
            .as_ref()
            .is_none_or(|t| self.config.contains(t.as_str()))
    }
}

/// The number at a dotted path of a summary; `errors` is the number of reported errors.
pub fn lookup_number(v: &Value, key: &str) -> Option<f64> {
    if key == "errors" {
        return v["errors"].as_array().map(|a| a.len() as f64);
    }
    key.split('.').try_fold(v, |v, k| v.get(k))?.as_f64()
}

/// The arguments of `SEAR_E2E_EXTRA_ARGS` whose flag `own` does not set.
fn extra_args(own: &[String]) -> Vec<String> {
    let flag = |a: &str| a.split('=').next().unwrap_or("").to_string();
    std::env::var("SEAR_E2E_EXTRA_ARGS")
        .unwrap_or_default()
        .split_whitespace()
        .filter(|a| !own.iter().any(|o| flag(o) == flag(a)))
        .map(str::to_string)
        .collect()
}

/// One run to make: sear's arguments before the program, the program's, and labels.
struct Spec {
    sear_args: Vec<String>,
    program_args: Vec<String>,
    config: String,
    mode: Option<String>,
    run_line: Option<usize>,
}

/// The runs a program asks for: one per `mode` line, else one per `run:` line, else one per
/// configuration of `sear-configs` (one without).
fn specs(e: &Expectations) -> Vec<Spec> {
    if !e.modes.is_empty() {
        return e
            .modes
            .iter()
            .map(|m| {
                let (mode, incremental) = match m.mode.strip_suffix("+inc") {
                    Some(mode) => (mode, true),
                    None => (m.mode.as_str(), false),
                };
                let mut args = vec![format!("--sym-size-mode={mode}")];
                if incremental {
                    args.push("--incremental-merge=on".into());
                }
                if ["sm", "smopt", "pat"].contains(&mode) {
                    args.push("--validate-merge".into());
                }
                if mode == "pat" {
                    args.push("--validate-quantified".into());
                }
                args.extend(e.sear_args.iter().cloned());
                Spec {
                    sear_args: args,
                    program_args: e.program_args.clone(),
                    config: m.mode.clone(),
                    mode: Some(m.mode.clone()),
                    run_line: None,
                }
            })
            .collect();
    }
    if !e.runs.is_empty() {
        return e
            .runs
            .iter()
            .map(|r| Spec {
                sear_args: r.sear_args.clone(),
                program_args: r.program_args.clone(),
                config: r.sear_args.join(" "),
                mode: None,
                run_line: Some(r.line),
            })
            .collect();
    }
    let configs = if e.configs.is_empty() {
        vec![Vec::new()]
    } else {
        e.configs.clone()
    };
    configs
        .into_iter()
        .map(|c| Spec {
            config: c.join(" "),
            sear_args: e.sear_args.iter().chain(&c).cloned().collect(),
            program_args: e.program_args.clone(),
            mode: None,
            run_line: None,
        })
        .collect()
}

/// Runs `program` once as `spec` says; Err with sear's failure.
fn run(name: &str, program: &Path, spec: &Spec, e: &Expectations) -> Result<Run, String> {
    let root = tempfile::tempdir().expect("tempdir");
    let out = root.path().join("out");
    let label = if spec.config.is_empty() && spec.program_args.is_empty() {
        name.to_string()
    } else if spec.run_line.is_some() {
        format!(
            "{name} [{} ;; {}]",
            spec.config,
            spec.program_args.join(" ")
        )
    } else {
        format!("{name} [{}]", spec.config)
    };
    let mut cmd = Command::new(super::sear_bin());
    cmd.current_dir(super::repo_root())
        .args(["run", "--no-progress", "--verify-ir", "--output-dir"])
        .arg(&out);
    if !spec.sear_args.iter().any(|a| a.starts_with("--search")) {
        cmd.args(["--search", "dfs"]);
    }
    let queries = root.path().join("queries");
    if spec.mode.as_deref().is_some_and(|m| m.starts_with("pat")) {
        cmd.arg("--log-queries").arg(&queries);
    }
    cmd.args(extra_args(&spec.sear_args))
        .args(&spec.sear_args)
        .arg(program)
        .args(&spec.program_args);
    let output = cmd.output().expect("sear runs");
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    if !output.status.success() {
        return Err(format!(
            "{label}: sear run failed: {}\n{stderr}",
            output.status
        ));
    }
    let mut summary: Value = std::fs::read_to_string(out.join("summary.json"))
        .ok()
        .and_then(|t| serde_json::from_str(&t).ok())
        .ok_or_else(|| format!("{label}: no valid summary.json\n{stderr}"))?;
    if spec.mode.as_deref().is_some_and(|m| m.starts_with("pat")) {
        summary["forall_queries"] = forall_queries(&queries).into();
        // The quantified stage's counters, as `quantified.NAME`.
        let layers = summary["solver"]["layers"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        if let Some(l) = layers.iter().find(|l| l["name"] == "quantified") {
            summary["quantified"] = l["counters"].clone();
        }
    }
    let files: Vec<PathBuf> = std::fs::read_dir(&out)
        .expect("output directory")
        .map(|e| e.expect("dir entry").path())
        .collect();
    let with_ext = |x: &'static str| {
        files
            .iter()
            .filter(move |p| p.extension().is_some_and(|e| e == x))
    };
    let mut exits: Vec<i64> = with_ext("exit")
        .map(|p| {
            std::fs::read_to_string(p)
                .ok()
                .and_then(|t| t.trim().parse().ok())
                .unwrap_or(i64::MIN)
        })
        .collect();
    exits.sort();
    let ktests = with_ext("ktest").count() as u64;
    let mut replay_problems = Vec::new();
    if e.replay {
        match replay::report(&label, &out) {
            Ok(report) => {
                replay_problems.extend(replay::test_problems(&label, &report));
                if e.strict_replay {
                    let completed = summary["completed_paths"].as_u64().unwrap_or(0);
                    replay_problems.extend(replay::count_problems(&label, &report, completed));
                }
            }
            Err(p) => replay_problems.push(p),
        }
        if spec.mode.is_some() {
            // A path that ended early (a size concretize did not explore) stopped before the
            // program asked for all its inputs: its test does not replay.
            replay_problems.retain(|p| !ended_early(&out, p));
        }
    }
    Ok(Run {
        label,
        config: spec.config.clone(),
        mode: spec.mode.clone(),
        run_line: spec.run_line,
        summary,
        exits,
        ktests,
        stderr,
        replay_problems,
        out,
        _root: root,
    })
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
    let test = Path::new(test).file_name().unwrap_or_default();
    out.join(format!("{}.early", test.to_string_lossy()))
        .exists()
}

/// Runs `program` as its comments say and checks every run; with `bless`, rewrites the
/// expectations from the runs first. Err lists every problem left.
pub fn check_program(program: &Path, bless: bool) -> Result<(), String> {
    let name = super::harness::trial_name(program);
    let source = std::fs::read_to_string(program).map_err(|e| format!("{name}: {e}"))?;
    let mut e = expect::parse(&source).map_err(|m| format!("{name}: {m}"))?;
    let mut runs = Vec::new();
    let mut failures = Vec::new();
    for spec in specs(&e) {
        match run(&name, program, &spec, &e) {
            Ok(r) => runs.push(r),
            Err(f) => failures.push(f),
        }
    }
    if !failures.is_empty() {
        return Err(failures.join("\n"));
    }
    if bless {
        let blessed = super::bless::bless(program, &source, &e, &runs);
        if blessed != source {
            std::fs::write(program, &blessed).map_err(|err| format!("{name}: {err}"))?;
            e = expect::parse(&blessed).map_err(|m| format!("{name} (blessed): {m}"))?;
        }
    }
    let problems = check(&name, &e, &runs);
    if problems.is_empty() {
        return Ok(());
    }
    let mut text = problems.join("\n");
    for r in &runs {
        text.push_str(&format!("\n{}: sear stderr:\n{}", r.label, r.stderr));
    }
    Err(text)
}

/// Every mismatch between the runs and the expectations.
pub fn check(name: &str, e: &Expectations, runs: &[Run]) -> Vec<String> {
    let mut problems = Vec::new();
    for r in runs {
        check_run(e, r, &mut problems);
    }
    if e.modes.is_empty() && e.runs.is_empty() {
        same_paths(name, runs, &mut problems);
    }
    if !e.modes.is_empty() {
        super::symsize::compare_modes(name, runs, &mut problems);
    }
    check_outputs(name, e, runs, &mut problems);
    problems
}

/// The checks of one run.
fn check_run(e: &Expectations, r: &Run, problems: &mut Vec<String>) {
    let name = &r.label;
    let number = |key: &str| r.summary[key].as_u64().unwrap_or(u64::MAX);
    let completed = match r.run_line {
        Some(line) => e.runs.iter().find(|l| l.line == line).map(|l| l.completed),
        None if r.mode.is_none() => e.completed.as_ref().map(|c| c.value),
        None => None,
    };
    for (key, expected) in [
        ("completed_paths", completed),
        ("error_paths", e.error_paths.as_ref().map(|c| c.value)),
        ("tests", e.tests.as_ref().map(|c| c.value)),
    ] {
        if let Some(expected) = expected {
            if number(key) != expected {
                problems.push(format!(
                    "{name}: {key} = {}, expected {expected}",
                    number(key)
                ));
            }
        }
    }
    if r.ktests != number("tests") {
        problems.push(format!(
            "{name}: summary says {} tests, directory has {}",
            number("tests"),
            r.ktests
        ));
    }
    if let Some((_, exits)) = &e.exits {
        if &r.exits != exits {
            problems.push(format!(
                "{name}: exit statuses {:?}, expected {exits:?}",
                r.exits
            ));
        }
    }
    let reported = r.errors();
    if e.error_kinds.is_none() && e.modes.is_empty() {
        if reported != e.errors {
            problems.push(format!(
                "{name}: reported errors {reported:?}, expected {:?}",
                e.errors
            ));
        }
    } else {
        let missing: Vec<&(String, u32)> =
            e.errors.iter().filter(|x| !reported.contains(x)).collect();
        if !missing.is_empty() {
            problems.push(format!(
                "{name}: not reported: {missing:?}; reported {reported:?}"
            ));
        }
    }
    if let Some((_, kinds)) = &e.error_kinds {
        if &r.error_kinds() != kinds {
            problems.push(format!(
                "{name}: errors {:?}, expected {kinds:?}",
                r.error_kinds()
            ));
        }
    }
    for text in &e.sear_stderr {
        if !r.stderr.lines().any(|l| l.contains(text.as_str())) {
            problems.push(format!(
                "{name}: no line of sear's stderr contains {text:?}"
            ));
        }
    }
    for c in e.summary_checks.iter().filter(|c| r.matches(&c.only_if)) {
        let actual = r.number(&c.check.key);
        if !actual.is_some_and(|a| c.check.holds(a)) {
            problems.push(format!(
                "{name}: {} = {actual:?}, expected {} {}",
                c.check.key, c.check.op, c.check.value
            ));
        }
    }
    let mode_checks = e.modes.iter().filter(|m| Some(&m.mode) == r.mode.as_ref());
    for check in mode_checks.flat_map(|m| &m.checks) {
        match check {
            ModeCheck::Number(c) => {
                let actual = r.number(&c.key);
                if !actual.is_some_and(|a| c.holds(a)) {
                    problems.push(format!(
                        "{name}: {} is {actual:?}, expected {} {} {}",
                        c.key, c.key, c.op, c.value
                    ));
                }
            }
            ModeCheck::ErrorIn { function, kind } => {
                let found = r.summary["errors"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .any(|x| x["function"] == function.as_str() && x["kind"] == kind.as_str());
                if !found {
                    problems.push(format!(
                        "{name}: no {kind} error in {function}: {}",
                        r.summary["errors"]
                    ));
                }
            }
        }
    }
    for key in [
        "symbolic_size.validation_failures",
        "symbolic_size.pat.validation_failures",
        "quantified.validation_failures",
    ] {
        if r.number(key).is_some_and(|f| f > 0.0) {
            problems.push(format!("{name}: {key} > 0"));
        }
    }
    problems.extend(r.replay_problems.iter().cloned());
}

/// The configurations of `sear-configs` end the same paths.
fn same_paths(name: &str, runs: &[Run], problems: &mut Vec<String>) {
    let Some(first) = runs.first() else { return };
    for r in &runs[1..] {
        for key in [
            "completed_paths",
            "error_paths",
            "early_paths",
            "trace_digest",
        ] {
            if r.summary[key] != first.summary[key] {
                problems.push(format!(
                    "{name}: {key} = {} under '{}' but {} under '{}'",
                    r.summary[key], r.config, first.summary[key], first.config
                ));
            }
        }
    }
}

/// The output expectations, over the tests of all runs.
fn check_outputs(name: &str, e: &Expectations, runs: &[Run], problems: &mut Vec<String>) {
    for (suffix, wanted) in [("stdout", &e.test_stdout), ("stderr", &e.test_stderr)] {
        if wanted.is_empty() {
            continue;
        }
        let mut seen = Vec::new();
        let mut without = false;
        for r in runs {
            let files = test_files(&r.out, suffix);
            without |= (files.len() as u64) < r.ktests;
            seen.extend(files);
        }
        for text in wanted.iter() {
            // An empty expectation is also met by a test that printed nothing.
            if !(seen.contains(text) || (text.is_empty() && without)) {
                problems.push(format!(
                    "{name}: no test printed {:?} on {suffix}",
                    String::from_utf8_lossy(text)
                ));
            }
        }
    }
    let warnings: String = runs
        .iter()
        .map(|r| std::fs::read_to_string(r.out.join("warnings.txt")).unwrap_or_default())
        .collect();
    for w in &e.warnings {
        if !warnings.contains(w.as_str()) {
            problems.push(format!("{name}: warnings.txt lacks {w:?}"));
        }
    }
    for object in &e.objects {
        let found = runs.iter().any(|r| {
            std::fs::read_dir(&r.out)
                .expect("output directory")
                .any(|entry| {
                    let path = entry.expect("dir entry").path();
                    path.extension().is_some_and(|x| x == "ktest")
                        && sear_ktest::KTest::read(&path)
                            .is_ok_and(|k| k.objects.iter().any(|o| &o.name == object))
                })
        });
        if !found {
            problems.push(format!("{name}: no test has an object named {object}"));
        }
    }
}

/// Every file `dir/testNNNNNN.<suffix>`'s contents.
fn test_files(dir: &Path, suffix: &str) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).expect("output directory") {
        let path = entry.expect("dir entry").path();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        if name.starts_with("test") && name.ends_with(&format!(".{suffix}")) {
            out.push(std::fs::read(&path).expect("readable test file"));
        }
    }
    out
}
