//! `sear coverage`: line and branch coverage of a program's tests, measured by native
//! replay, as KLEE's coverage numbers are measured.
//!
//! The program is rebuilt natively with gcov's instrumentation (`--coverage`) against the
//! replay library (`replay::build` with `coverage`), every test of every given output
//! directory is replayed on that one build (`replay::replay_one`: argv, files and stdin of
//! the POSIX model rebuilt as for `sear replay`), and `llvm-cov gcov` reads the counts
//! ([`gcov`]). The result: `coverage.info` (lcov's format, [`lcov`]), `coverage.json`,
//! gcov's report (`coverage.gcov`), and with `--html` genhtml's report; the percentages are printed.
//! Output directories of KLEE work too (with `--program`): its tests are the same `.ktest`
//! files with the same model objects.

pub mod gcov;
pub mod lcov;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use serde::Serialize;

use self::gcov::{FileCoverage, Totals};
use crate::replay::build::{self, BuildConfig};
use crate::replay::testset::TestSet;
use crate::replay::{self, ExtraFlags, Summary};

/// Arguments of `sear coverage`.
#[derive(Clone, Debug, clap::Args)]
pub struct CoverageArgs {
    /// Output directories of `sear run` (or of KLEE, with --program); the tests of all of them
    /// are replayed on one build, so the coverage is their union.
    #[arg(required = true, value_name = "OUT_DIR")]
    pub dirs: Vec<PathBuf>,
    /// The program's C source or bitcode (default: the "program" of the directories' info.json).
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
    /// The programs' environment: FILE's `NAME=value` lines (as `sear run --env-file` and
    /// KLEE's --env-file), for every directory (default: each run's recorded --env-file, or
    /// this command's own environment).
    #[arg(long, value_name = "FILE")]
    pub env_file: Option<PathBuf>,
    /// Where the reports go (default: OUT_DIR/coverage of the first directory).
    #[arg(long, value_name = "DIR")]
    pub output_dir: Option<PathBuf>,
    /// Counts only source files whose path contains PATTERN in the total (repeatable; default:
    /// every file outside /usr).
    #[arg(long = "source", value_name = "PATTERN")]
    pub sources: Vec<String>,
    /// Also writes an HTML report with genhtml (Debian's lcov package) into OUTPUT/html.
    #[arg(long)]
    pub html: bool,
    /// Prints the JSON report instead of text.
    #[arg(long)]
    pub json: bool,
    /// Replays this many tests at a time (1 to 64).
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u8).range(1..=64))]
    pub jobs: u8,
}

/// What `sear coverage` measured.
#[derive(Clone, Debug, Serialize)]
pub struct CoverageReport {
    /// The program that was built.
    pub program: PathBuf,
    /// The output directories whose tests were replayed.
    pub dirs: Vec<PathBuf>,
    /// The replay's counts over all tests (outcomes, crashes, timeouts).
    pub replay: Summary,
    /// The tests a user looks at first, by `.ktest` path.
    #[serde(flatten)]
    pub notable: NotableTests,
    /// Every source file with counts, whether or not it is selected.
    pub files: Vec<FileSummary>,
    /// The counts over the selected files.
    pub total: Totals,
    /// Line coverage of the selected files, in percent.
    pub line_percent: f64,
    /// Branch coverage of the selected files, in percent.
    pub branch_percent: f64,
    /// Where the reports were written.
    pub output_dir: PathBuf,
}

/// Tests whose native run went wrong or differed from sear's, by `.ktest` path.
#[derive(Clone, Debug, Default, Serialize)]
pub struct NotableTests {
    /// Native runs that ended in an error (a signal, an abort, a failed assertion).
    pub crashes: Vec<String>,
    /// Native runs that hit the time limit.
    pub timeouts: Vec<String>,
    /// Tests of paths that exited whose native exit code, stdout or stderr differ from
    /// what sear recorded.
    pub output_mismatches: Vec<String>,
}

impl NotableTests {
    /// Files `test` (replayed from `ktest`) under each list it belongs to.
    fn note(&mut self, ktest: &Path, test: &replay::TestReport) {
        let path = || ktest.display().to_string();
        if test.outcome.is_program_error() {
            self.crashes.push(path());
        }
        if matches!(test.outcome, replay::outcome::NativeOutcome::Timeout) {
            self.timeouts.push(path());
        }
        if matches!(
            test.output,
            Some(replay::output::OutputCheck::Mismatch { .. })
        ) {
            self.output_mismatches.push(path());
        }
    }
}

/// One source file's counts.
#[derive(Clone, Debug, Serialize)]
pub struct FileSummary {
    /// The source file.
    pub path: String,
    /// Whether it counts in the total (`--source`).
    pub selected: bool,
    /// Its counts.
    #[serde(flatten)]
    pub totals: Totals,
}

/// Runs `sear coverage` and prints the report; returns the exit code.
pub fn run_coverage(args: &CoverageArgs) -> Result<i32> {
    let report = coverage(args)?;
    if args.json {
        crate::term::outln!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        crate::term::out!("{}", format_report(&report));
    }
    Ok(0)
}

/// Builds, replays and measures, writing the reports; prints nothing.
pub fn coverage(args: &CoverageArgs) -> Result<CoverageReport> {
    let timeout = replay::timeout_of(args.timeout)?;
    let mut sets = args
        .dirs
        .iter()
        .map(|d| TestSet::load(d))
        .collect::<Result<Vec<_>>>()?;
    if let Some(path) = &args.env_file {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("--env-file {}", path.display()))?;
        let environment = sear_runtime::environment::parse_env_file(&text);
        for set in &mut sets {
            set.info.environment = Some(environment.clone());
        }
    }
    let program = common_program(&sets, args.program.as_deref())?;
    // gcov finds the sources by the names the build gave them: make them absolute.
    let program = program
        .canonicalize()
        .with_context(|| format!("program {}", program.display()))?;
    let extra = ExtraFlags {
        cflags: &args.cflags,
        include_dirs: &args.include_dirs,
        defines: &args.defines,
    };
    let first = &sets[0];
    let config = BuildConfig {
        coverage: true,
        posix_model: sets.iter().any(|s| s.info.posix_model),
        fd_fail: sets.iter().any(TestSet::uses_fd_fail),
        ..BuildConfig::for_tests(first, program.clone(), &extra)?
    };
    let output_dir = match &args.output_dir {
        Some(dir) => dir.clone(),
        None => first.dir.join("coverage"),
    };
    std::fs::create_dir_all(&output_dir)
        .with_context(|| format!("creating {}", output_dir.display()))?;
    let work = tempfile::Builder::new()
        .prefix("sear-coverage-")
        .tempdir()
        .context("creating a build directory")?;
    let binary = build::build(&config, work.path())?;
    let notes = files_with_extension(work.path(), "gcno")?;

    let mut tests = Vec::new();
    let mut notable = NotableTests::default();
    for set in &sets {
        for (case, test) in set.cases.iter().zip(replay_set(
            set,
            &binary,
            timeout,
            work.path(),
            usize::from(args.jobs),
        )?) {
            notable.note(&case.ktest, &test);
            tests.push(test);
        }
        // Each test's scratch files go; the counts stay in the .gcda files.
        let _ = std::fs::remove_dir_all(work.path().join("cases"));
    }
    // The build ran in the work directory: relative source names are relative to it.
    let build_dir = work.path().to_path_buf();
    let files = gcov::collect(&notes, &build_dir, &output_dir.join("coverage.gcov"))?;
    let info = output_dir.join("coverage.info");
    std::fs::write(&info, lcov::tracefile(&files))
        .with_context(|| format!("writing {}", info.display()))?;
    if args.html {
        lcov::genhtml(&info, &output_dir.join("html"))?;
    }
    let report = summarize(
        program,
        args.dirs.clone(),
        replay::summarize(&tests),
        notable,
        &files,
        &args.sources,
        output_dir.clone(),
    );
    let json = output_dir.join("coverage.json");
    std::fs::write(&json, serde_json::to_string_pretty(&report)?)
        .with_context(|| format!("writing {}", json.display()))?;
    Ok(report)
}

/// Replays every test of `set` on `binary`, in `jobs` threads (gcov's runtime merges the
/// counters of concurrent runs into the .gcda files under a lock); reports in test order.
fn replay_set(
    set: &TestSet,
    binary: &Path,
    timeout: std::time::Duration,
    scratch: &Path,
    jobs: usize,
) -> Result<Vec<replay::TestReport>> {
    let jobs = jobs.clamp(1, set.cases.len().max(1));
    let results: Vec<Vec<(usize, Result<replay::TestReport>)>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..jobs)
            .map(|job| {
                scope.spawn(move || {
                    (job..set.cases.len())
                        .step_by(jobs)
                        .map(|i| {
                            let expected = set.expected[i].clone();
                            let report = replay::replay_one(
                                binary,
                                &set.dir,
                                &set.info,
                                &set.cases[i],
                                expected,
                                timeout,
                                scratch,
                            );
                            (i, report)
                        })
                        .collect()
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a replay thread panicked"))
            .collect()
    });
    let mut ordered: Vec<(usize, Result<replay::TestReport>)> =
        results.into_iter().flatten().collect();
    ordered.sort_by_key(|(i, _)| *i);
    ordered.into_iter().map(|(_, r)| r).collect()
}

/// The program all `sets` were run on (`explicit` wins); their info.json must agree.
fn common_program(sets: &[TestSet], explicit: Option<&Path>) -> Result<PathBuf> {
    let program = sets[0].program(explicit)?;
    if explicit.is_none() {
        let canonical = |p: &Path| p.canonicalize().unwrap_or_else(|_| p.to_path_buf());
        for set in &sets[1..] {
            let other = set.program(None)?;
            if canonical(&other) != canonical(&program) {
                bail!(
                    "{} ran {} but {} ran {}: pass --program to measure them on one build",
                    sets[0].dir.display(),
                    program.display(),
                    set.dir.display(),
                    other.display()
                );
            }
        }
    }
    Ok(program)
}

/// The files named `*.ext` in `dir` and its subdirectories (the units of a manifest build).
fn files_with_extension(dir: &Path, ext: &str) -> Result<Vec<PathBuf>> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(dir).with_context(|| format!("listing {}", dir.display()))? {
        let path = entry?.path();
        if path.is_dir() {
            found.extend(files_with_extension(&path, ext)?);
        } else if path.extension().is_some_and(|e| e == ext) {
            found.push(path);
        }
    }
    found.sort();
    Ok(found)
}

/// Whether `path` counts in the total: it contains one of `patterns`, or, without patterns,
/// it is not a system file (under /usr).
pub fn is_selected(path: &str, patterns: &[String]) -> bool {
    if patterns.is_empty() {
        !path.starts_with("/usr/")
    } else {
        patterns.iter().any(|p| path.contains(p.as_str()))
    }
}

fn summarize(
    program: PathBuf,
    dirs: Vec<PathBuf>,
    replay: Summary,
    notable: NotableTests,
    files: &[FileCoverage],
    patterns: &[String],
    output_dir: PathBuf,
) -> CoverageReport {
    let mut total = Totals::default();
    let files: Vec<FileSummary> = files
        .iter()
        .map(|f| {
            let selected = is_selected(&f.path, patterns);
            let totals = f.totals();
            if selected {
                total.add(&totals);
            }
            FileSummary {
                path: f.path.clone(),
                selected,
                totals,
            }
        })
        .collect();
    CoverageReport {
        program,
        dirs,
        replay,
        notable,
        line_percent: total.line_percent(),
        branch_percent: total.branch_percent(),
        files,
        total,
        output_dir,
    }
}

/// The text report: one line per selected file, the total, and what was written.
pub fn format_report(report: &CoverageReport) -> String {
    let mut out = String::new();
    let s = &report.replay;
    let _ = writeln!(
        out,
        "replayed {} tests ({} crashed natively, {} timeouts, {} input mismatches, \
         {} of {} outputs differ from sear's)",
        s.tests,
        report.notable.crashes.len(),
        s.timeouts,
        s.input_mismatches,
        s.output_mismatches,
        s.outputs_checked
    );
    let n = &report.notable;
    for (what, tests) in [
        ("crashed natively", &n.crashes),
        ("timed out", &n.timeouts),
        ("output differs", &n.output_mismatches),
    ] {
        list_tests(&mut out, what, tests);
    }
    let _ = writeln!(
        out,
        "{:>8} {:>15} {:>8} {:>15}  file",
        "lines", "", "branches", ""
    );
    for file in report.files.iter().filter(|f| f.selected) {
        let _ = writeln!(out, "{}  {}", format_totals(&file.totals), file.path);
    }
    let _ = writeln!(out, "{}  total", format_totals(&report.total));
    let _ = writeln!(
        out,
        "line coverage {:.2}%, branch coverage {:.2}% (reports in {})",
        report.line_percent,
        report.branch_percent,
        report.output_dir.display()
    );
    out
}

/// At most this many tests of a kind are named in the text report (coverage.json has all).
const LISTED_TESTS: usize = 10;

/// `what: test, test, ...` for a non-empty list, the first [`LISTED_TESTS`] of it.
fn list_tests(out: &mut String, what: &str, tests: &[String]) {
    if tests.is_empty() {
        return;
    }
    let shown: Vec<&str> = tests
        .iter()
        .take(LISTED_TESTS)
        .map(String::as_str)
        .collect();
    let more = tests.len() - shown.len();
    let _ = write!(out, "{what}: {}", shown.join(", "));
    if more > 0 {
        let _ = write!(out, " and {more} more (coverage.json lists them all)");
    }
    out.push('\n');
}

fn format_totals(t: &Totals) -> String {
    format!(
        "{:>7.2}% {:>15} {:>7.2}% {:>15}",
        t.line_percent(),
        format!("({}/{})", t.lines_hit, t.lines),
        t.branch_percent(),
        format!("({}/{})", t.branches_hit, t.branches)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn selection_of_files() {
        assert!(is_selected("/tmp/p.c", &[]));
        assert!(!is_selected(
            "/usr/include/x86_64-linux-gnu/bits/stdio.h",
            &[]
        ));
        let only = vec!["src/echo.c".to_string()];
        assert!(is_selected("/b/coreutils-9.1/src/echo.c", &only));
        assert!(!is_selected("/b/coreutils-9.1/lib/quote.c", &only));
    }
}
