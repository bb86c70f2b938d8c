//! `sear replay`: runs sear's test cases natively and checks that the errors reproduce.
//!
//! The program is compiled with clang and sanitizers against the replay runtime
//! (`runtime/replay/sear_replay.c`), which feeds each `.ktest` file's objects to
//! `klee_make_symbolic` and friends. Each run's outcome is classified ([`outcome`]) and, for
//! tests with a `testNNNNNN.<kind>.err` file, compared with the error sear reported
//! ([`verdict`]). Tests of paths that exited are also compared with what sear recorded:
//! exit code, stdout and stderr ([`output`]). Tests of the POSIX environment model get
//! their argv, stdin and files rebuilt from their objects ([`posix`]).

pub mod build;
pub mod clock_guard;
pub mod errfile;
pub mod exec;
pub mod outcome;
pub mod output;
pub mod posix;
pub mod readonly_root;
pub mod testset;
pub mod verdict;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{Context, Result};
use serde::Serialize;

use self::build::BuildConfig;
use self::errfile::ErrInfo;
use self::outcome::NativeOutcome;
use self::output::OutputCheck;
use self::testset::{RunInfo, TestCase, TestSet};
use self::verdict::Verdict;

/// Arguments of `sear replay`.
#[derive(Clone, Debug, clap::Args)]
pub struct ReplayArgs {
    /// An output directory of `sear run`, or a single `.ktest` file in one.
    pub target: PathBuf,
    /// The C source of the program (default: the "program" field of DIR/info.json).
    #[arg(long, value_name = "FILE")]
    pub program: Option<PathBuf>,
    /// Extra compiler flags, split on whitespace (repeatable; added after info.json's cflags).
    #[arg(long, value_name = "FLAGS", allow_hyphen_values = true)]
    pub cflags: Vec<String>,
    /// Adds an include directory (repeatable).
    #[arg(short = 'I', value_name = "DIR")]
    pub include_dirs: Vec<PathBuf>,
    /// Defines a macro, NAME or NAME=VALUE (repeatable).
    #[arg(short = 'D', value_name = "NAME[=VALUE]")]
    pub defines: Vec<String>,
    /// Time limit per test, in seconds (above 0, at most 10^9).
    #[arg(long, value_name = "SECS", default_value_t = 10.0, value_parser = sear_solver::cli::positive_seconds)]
    pub timeout: f64,
    /// Prints a JSON report instead of text.
    #[arg(long)]
    pub json: bool,
}

/// The result of replaying a set of tests.
#[derive(Clone, Debug, Serialize)]
pub struct ReplayReport {
    /// The program that was built.
    pub program: PathBuf,
    /// One entry per test, in test-number order.
    pub tests: Vec<TestReport>,
    /// Counts over `tests`.
    pub summary: Summary,
}

/// The replay of one test.
#[derive(Clone, Debug, Serialize)]
pub struct TestReport {
    /// The `.ktest` file name, e.g. `test000001.ktest`.
    pub ktest: String,
    /// How the native run ended.
    pub outcome: NativeOutcome,
    /// The error sear reported for this test, if any.
    pub expected: Option<ErrInfo>,
    /// Whether the outcome reproduces `expected`.
    pub verdict: Verdict,
    /// Whether the native report mentions the `.err` file's `file:line` (None if unknown).
    pub location_matched: Option<bool>,
    /// Wall-clock time of the run, in milliseconds.
    pub duration_ms: u64,
    /// The first lines of the run's stderr.
    pub stderr_excerpt: String,
    /// For tests of paths that exited: whether exit code, stdout and stderr match sear's.
    pub output: Option<OutputCheck>,
}

/// Counts over a replay.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Summary {
    /// Tests replayed.
    pub tests: usize,
    /// Tests with an `.err` file.
    pub expected_errors: usize,
    /// Expected errors that reproduced.
    pub reproduced: usize,
    /// Expected errors that did not reproduce.
    pub not_reproduced: usize,
    /// Expected errors whose kind cannot be checked natively.
    pub unchecked: usize,
    /// Tests without an `.err` file that failed natively.
    pub unexpected_errors: usize,
    /// Runs that hit the time limit.
    pub timeouts: usize,
    /// Runs that left the path through a violated assumption.
    pub assumption_violations: usize,
    /// Runs whose inputs did not match the program's requests, or could not be set up.
    pub input_mismatches: usize,
    /// Tests whose exit code and output were compared with sear's.
    pub outputs_checked: usize,
    /// Compared tests whose exit code, stdout or stderr differ from sear's.
    pub output_mismatches: usize,
}

/// Runs `sear replay` and prints its report; returns the process exit code (0 when every
/// checkable error reproduced, 1 otherwise).
pub fn run_replay(args: &ReplayArgs) -> Result<i32> {
    let report = replay(args)?;
    if args.json {
        crate::term::outln!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        crate::term::out!("{}", format_report(&report));
    }
    Ok(
        if report.summary.not_reproduced == 0 && report.summary.output_mismatches == 0 {
            0
        } else {
            1
        },
    )
}

/// Builds the program and replays every test of `args.target`, without printing.
pub fn replay(args: &ReplayArgs) -> Result<ReplayReport> {
    let timeout = timeout_of(args.timeout)?;
    let set = TestSet::load(&args.target)?;
    let program = set.program(args.program.as_deref())?;
    let extra = ExtraFlags {
        cflags: &args.cflags,
        include_dirs: &args.include_dirs,
        defines: &args.defines,
    };
    let build_config = BuildConfig {
        check_overflow: set.expected.iter().flatten().any(|e| e.kind == "overflow"),
        ..BuildConfig::for_tests(&set, program.clone(), &extra)?
    };
    let work = tempfile::Builder::new()
        .prefix("sear-replay-")
        .tempdir()
        .context("creating a build directory")?;
    let binary = build::build(&build_config, work.path())?;

    let mut tests = Vec::with_capacity(set.cases.len());
    for (case, expected) in set.cases.iter().zip(set.expected.iter().cloned()) {
        tests.push(replay_one(
            &binary,
            &set.dir,
            &set.info,
            case,
            expected,
            timeout,
            work.path(),
        )?);
    }
    let summary = summarize(&tests);
    Ok(ReplayReport {
        program,
        tests,
        summary,
    })
}

/// A per-test time limit in seconds as a `Duration` (above zero).
pub fn timeout_of(seconds: f64) -> Result<Duration> {
    Duration::try_from_secs_f64(seconds)
        .ok()
        .filter(|t| !t.is_zero())
        .with_context(|| format!("invalid --timeout {seconds}"))
}

/// The user's compiler flags of `sear replay` and `sear coverage`.
pub struct ExtraFlags<'a> {
    /// `--cflags` (each split on whitespace).
    pub cflags: &'a [String],
    /// `-I` directories.
    pub include_dirs: &'a [PathBuf],
    /// `-D` definitions.
    pub defines: &'a [String],
}

impl ExtraFlags<'_> {
    /// The flags after `base` (info.json's cflags).
    pub fn after(&self, base: &[String]) -> Vec<String> {
        let mut cflags = base.to_vec();
        cflags.extend(
            self.include_dirs
                .iter()
                .map(|d| format!("-I{}", d.display())),
        );
        cflags.extend(self.defines.iter().map(|d| format!("-D{d}")));
        cflags.extend(
            self.cflags
                .iter()
                .flat_map(|f| f.split_whitespace().map(str::to_string)),
        );
        cflags
    }
}

/// Renders the text report: one line per test, then a summary.
pub fn format_report(report: &ReplayReport) -> String {
    let mut out = String::new();
    for test in &report.tests {
        let _ = writeln!(out, "{}", format_test_line(test));
        let show_stderr = test.verdict == Verdict::NotReproduced
            || (test.expected.is_none() && test.outcome.is_program_error());
        if show_stderr && !test.stderr_excerpt.is_empty() {
            for line in test.stderr_excerpt.lines().take(12) {
                let _ = writeln!(out, "    | {line}");
            }
        }
    }
    let s = &report.summary;
    let _ = write!(
        out,
        "replayed {} tests: {} of {} errors reproduced, {} not reproduced, {} not checkable; \
         {} unexpected native errors, {} timeouts, {} assumption violations, {} input mismatches",
        s.tests,
        s.reproduced,
        s.expected_errors,
        s.not_reproduced,
        s.unchecked,
        s.unexpected_errors,
        s.timeouts,
        s.assumption_violations,
        s.input_mismatches,
    );
    if s.outputs_checked > 0 {
        let _ = write!(
            out,
            "; {} of {} outputs match",
            s.outputs_checked - s.output_mismatches,
            s.outputs_checked
        );
    }
    out.push('\n');
    out
}

/// One line of the text report, e.g. `test000002.ktest: ptr error reproduced (heap-buffer-overflow)`.
pub fn format_test_line(test: &TestReport) -> String {
    let detail = short_detail(&test.outcome);
    let mut line = match (&test.expected, test.verdict) {
        (None, _) if test.outcome.is_program_error() => {
            format!("{}: {} (sear reported no error)", test.ktest, test.outcome)
        }
        (None, _) => format!("{}: {}", test.ktest, test.outcome),
        (Some(err), Verdict::Reproduced) => {
            format!("{}: {} error reproduced ({detail})", test.ktest, err.kind)
        }
        (Some(err), Verdict::Unchecked) => format!(
            "{}: {} error not checkable natively ({detail})",
            test.ktest, err.kind
        ),
        (Some(err), _) => format!(
            "{}: {} error NOT reproduced ({detail})",
            test.ktest, err.kind
        ),
    };
    if let Some(OutputCheck::Mismatch { detail }) = &test.output {
        let _ = write!(line, "; OUTPUT MISMATCH: {detail}");
    }
    if let (Some(err), Some(false)) = (&test.expected, test.location_matched) {
        if test.verdict == Verdict::Reproduced {
            let file = err.file.as_deref().map(base_name).unwrap_or("?");
            let _ = write!(
                line,
                "; native report does not mention {file}:{}",
                err.line.unwrap_or(0)
            );
        }
    }
    line
}

pub fn replay_one(
    binary: &Path,
    dir: &Path,
    info: &RunInfo,
    case: &TestCase,
    expected: Option<ErrInfo>,
    timeout: Duration,
    scratch: &Path,
) -> Result<TestReport> {
    let name = case
        .ktest
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let stem = name.trim_end_matches(".ktest").to_string();
    let mut output = None;
    let (outcome, stderr, duration) = match sear_ktest::KTest::read(&case.ktest) {
        Err(err) => (
            NativeOutcome::SetupError {
                message: err.to_string(),
            },
            String::new(),
            Duration::ZERO,
        ),
        Ok(ktest) => {
            let case_dir = scratch.join("cases").join(&stem);
            match posix::prepare(&ktest, info.posix_model, &info.host_files, &case_dir) {
                Err(message) => (
                    NativeOutcome::InputMismatch { message },
                    String::new(),
                    Duration::ZERO,
                ),
                Ok(setup) => {
                    let run = exec::run(&exec::Launch {
                        binary,
                        ktest: &case.ktest,
                        argv0: setup.argv0,
                        args: setup.args,
                        stdin: setup.stdin,
                        cwd: &case_dir,
                        scratch,
                        capture: case_dir.with_extension("out"),
                        program_env: info.program_env(),
                        env: setup.env,
                        timeout,
                    })?;
                    let outcome = outcome::classify(run.termination, &run.stderr);
                    output = output::read_expected(dir, &stem)
                        .map(|e| output::compare(&e, &outcome, &run.stdout, &run.stderr_bytes));
                    (outcome, run.stderr, run.duration)
                }
            }
        }
    };
    let verdict = match &expected {
        None => Verdict::NoErrorExpected,
        Some(err) => verdict::judge_error(&err.kind, &err.message, &outcome),
    };
    let location_matched = expected.as_ref().and_then(|err| {
        let file = err.file.as_deref()?;
        Some(mentions_location(&stderr, base_name(file), err.line?))
    });
    Ok(TestReport {
        ktest: name,
        outcome,
        expected,
        verdict,
        location_matched,
        duration_ms: u64::try_from(duration.as_millis()).unwrap_or(u64::MAX),
        stderr_excerpt: stderr.lines().take(40).collect::<Vec<_>>().join("\n"),
        output,
    })
}

pub fn summarize(tests: &[TestReport]) -> Summary {
    let mut s = Summary {
        tests: tests.len(),
        ..Summary::default()
    };
    for test in tests {
        match test.verdict {
            Verdict::NoErrorExpected => {
                if test.outcome.is_program_error() {
                    s.unexpected_errors += 1;
                }
            }
            Verdict::Reproduced => s.reproduced += 1,
            Verdict::NotReproduced => s.not_reproduced += 1,
            Verdict::Unchecked => s.unchecked += 1,
        }
        if test.expected.is_some() {
            s.expected_errors += 1;
        }
        match &test.output {
            Some(OutputCheck::Match) => s.outputs_checked += 1,
            Some(OutputCheck::Mismatch { .. }) => {
                s.outputs_checked += 1;
                s.output_mismatches += 1;
            }
            None => {}
        }
        match test.outcome {
            NativeOutcome::Timeout => s.timeouts += 1,
            NativeOutcome::AssumptionViolated { .. } => s.assumption_violations += 1,
            NativeOutcome::InputMismatch { .. } | NativeOutcome::SetupError { .. } => {
                s.input_mismatches += 1
            }
            _ => {}
        }
    }
    s
}

/// A short description of an outcome for the parenthesis of a report line.
fn short_detail(outcome: &NativeOutcome) -> String {
    match outcome {
        NativeOutcome::Asan { kind, .. } => kind.clone(),
        NativeOutcome::Ubsan { message, .. } => message.clone(),
        NativeOutcome::AssertFailed { function, .. } => {
            format!("assertion failed in {function}")
        }
        other => other.to_string(),
    }
}

fn base_name(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

/// True if `text` contains `file:line` not followed by another digit.
fn mentions_location(text: &str, file: &str, line: u32) -> bool {
    let needle = format!("{file}:{line}");
    text.match_indices(&needle).any(|(at, _)| {
        !text[at + needle.len()..]
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_digit())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn location_mentions() {
        assert!(mentions_location(
            "    #0 0x55 in main /tmp/p.c:9:12",
            "p.c",
            9
        ));
        assert!(mentions_location("prog: p.c:9: main: Assertion", "p.c", 9));
        assert!(!mentions_location(
            "    #0 0x55 in main /tmp/p.c:91:12",
            "p.c",
            9
        ));
        assert!(!mentions_location("nothing", "p.c", 9));
    }
}
