//! The statistics of a KLEE output directory, read as KLEE 3.x writes it (and 2.x, whose
//! `run.stats` names the solver's queries `NumQueries`):
//!
//! - `info`: the command line, start and end times, `Elapsed: HH:MM:SS`, then
//!   `KLEE: done: NAME = N` lines (`total instructions`, `completed paths`, `partially
//!   completed paths` (every path that did not exit, errors included), `generated tests`,
//!   `total queries`, ...). A run that was killed has none of them.
//! - `run.stats`: an SQLite database whose table `stats` has one row per sample; times are in
//!   microseconds, `MallocUsage` in bytes, counts are running totals (`Instructions`,
//!   `CoveredInstructions`, `UncoveredInstructions`, `FullBranches`, `PartialBranches`,
//!   `NumBranches`, `UserTime`, `WallTime`, `SolverTime`, `QueryTime`, `Queries`,
//!   `SolverQueries`, `NumStates`, `Termination*`, ...). klee-stats reads the last row, and
//!   the largest `NumStates` and `MallocUsage` over all rows.

use std::collections::HashMap;
use std::path::Path;

use anyhow::{Context, Result};
use rusqlite::types::ValueRef;
use rusqlite::{Connection, OpenFlags};

use super::{RunStats, Tool};

/// The `KLEE: done: NAME = N` figures of `info`, by NAME, and its `Elapsed:` time.
#[derive(Debug, Default)]
struct Info {
    done: HashMap<String, u64>,
    elapsed_s: Option<u64>,
}

/// Parses the text of `info`. Lines it does not know are skipped (the command line and the
/// searcher's description come first).
fn parse_info(text: &str) -> Info {
    let mut info = Info::default();
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("KLEE: done: ") {
            if let Some((name, value)) = rest.split_once(" = ") {
                if let Ok(n) = value.trim().parse() {
                    info.done.insert(name.trim().to_string(), n);
                }
            }
        } else if let Some(hms) = line.strip_prefix("Elapsed: ") {
            info.elapsed_s = parse_hms(hms.trim());
        }
    }
    info
}

/// `HH:MM:SS` in seconds.
fn parse_hms(text: &str) -> Option<u64> {
    let mut parts = text.split(':').map(|p| p.parse::<u64>().ok());
    let (h, m, s) = (parts.next()??, parts.next()??, parts.next()??);
    parts.next().is_none().then_some(h * 3600 + m * 60 + s)
}

/// The last row of `run.stats` by column name (numbers only), and the largest `NumStates`
/// and `MallocUsage` over all rows.
#[derive(Debug, Default)]
struct Samples {
    last: HashMap<String, f64>,
    max_states: Option<f64>,
    max_malloc: Option<f64>,
}

impl Samples {
    fn get(&self, column: &str) -> Option<f64> {
        self.last.get(column).copied()
    }

    /// A count column.
    fn count(&self, column: &str) -> Option<u64> {
        self.get(column).map(|v| v.max(0.0) as u64)
    }

    /// A time column (microseconds) in seconds.
    fn seconds(&self, column: &str) -> Option<f64> {
        self.get(column).map(|v| v / 1e6)
    }

    /// The sum of the count columns of `columns` that exist (`None` if none does).
    fn sum(&self, columns: &[&str]) -> Option<u64> {
        let present: Vec<u64> = columns.iter().filter_map(|c| self.count(c)).collect();
        (!present.is_empty()).then(|| present.iter().sum())
    }
}

/// Reads `run.stats` at `path`.
fn read_samples(path: &Path) -> Result<Samples> {
    let bad = || format!("{}: not a KLEE statistics database", path.display());
    let db =
        Connection::open_with_flags(path, OpenFlags::SQLITE_OPEN_READ_ONLY).with_context(bad)?;
    let mut samples = Samples::default();
    {
        let mut query = db
            .prepare("SELECT * FROM stats ORDER BY rowid DESC LIMIT 1")
            .with_context(bad)?;
        let names: Vec<String> = query.column_names().iter().map(|s| s.to_string()).collect();
        let mut rows = query.query([]).with_context(bad)?;
        if let Some(row) = rows.next().with_context(bad)? {
            for (i, name) in names.iter().enumerate() {
                let value = match row.get_ref(i).with_context(bad)? {
                    ValueRef::Integer(n) => Some(n as f64),
                    ValueRef::Real(x) => Some(x),
                    _ => None,
                };
                if let Some(v) = value {
                    samples.last.insert(name.clone(), v);
                }
            }
        }
    }
    samples.max_states = column_max(&db, "NumStates");
    samples.max_malloc = column_max(&db, "MallocUsage");
    Ok(samples)
}

/// The largest value of `column` over the rows, `None` if there is no such column or row.
fn column_max(db: &Connection, column: &str) -> Option<f64> {
    db.query_row(
        &format!("SELECT max({column}) * 1.0 FROM stats"),
        [],
        |row| row.get::<_, Option<f64>>(0),
    )
    .ok()
    .flatten()
}

/// The number of files in `dir` whose name ends with `suffix`.
fn count_files(dir: &Path, suffix: &str) -> Result<u64> {
    let entries = std::fs::read_dir(dir).with_context(|| format!("listing {}", dir.display()))?;
    Ok(entries
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().ends_with(suffix))
        .count() as u64)
}

/// Reads the KLEE output directory `dir`.
pub fn read(dir: &Path) -> Result<RunStats> {
    let info_path = dir.join("info");
    let text =
        std::fs::read(&info_path).with_context(|| format!("reading {}", info_path.display()))?;
    let info = parse_info(&String::from_utf8_lossy(&text));
    let samples = read_samples(&dir.join("run.stats"))?;
    let mut stats = from_parts(&info, &samples);
    stats.errors = Some(count_files(dir, ".err")?);
    if stats.tests.is_none() {
        stats.tests = Some(count_files(dir, ".ktest")?);
    }
    super::sear_dir::read_coverage(dir, &mut stats)?;
    Ok(stats)
}

/// The figures of `info` and `run.stats` (the `info` figure where both have one).
fn from_parts(info: &Info, s: &Samples) -> RunStats {
    let done = |name: &str| info.done.get(name).copied();
    let covered = s.count("CoveredInstructions");
    let total = covered
        .zip(s.count("UncoveredInstructions"))
        .map(|(c, u)| c + u);
    // KLEE's "partially completed paths" are every path that did not exit: errors too.
    let error_paths = s.sum(&[
        "TerminationProgramError",
        "TerminationUserError",
        "TerminationExecutionError",
        "TerminationSolverError",
    ]);
    let partial = match done("partially completed paths") {
        Some(p) => Some(p.saturating_sub(error_paths.unwrap_or(0))),
        None => s.sum(&[
            "TerminationEarly",
            "TerminationEarlyAlgorithm",
            "TerminationEarlyUser",
        ]),
    };
    RunStats {
        instructions: done("total instructions").or_else(|| s.count("Instructions")),
        wall_time_s: s
            .seconds("WallTime")
            .or_else(|| info.elapsed_s.map(|t| t as f64)),
        user_time_s: s.seconds("UserTime"),
        covered_instructions: covered,
        total_instructions: total,
        branch_coverage: branch_coverage(s),
        solver_time_s: s.seconds("SolverTime"),
        query_time_s: s.seconds("QueryTime"),
        queries: s.count("Queries"),
        solver_queries: s
            .count("SolverQueries")
            .or_else(|| s.count("NumQueries"))
            .or_else(|| done("total queries")),
        completed_paths: done("completed paths").or_else(|| s.count("TerminationExit")),
        partial_paths: partial,
        error_paths,
        tests: done("generated tests"),
        max_states: s.max_states.map(|v| v as u64),
        max_memory_mib: s.max_malloc.map(|b| b / (1024.0 * 1024.0)),
        ..RunStats::empty(Tool::Klee)
    }
}

/// klee-stats' `BCov`: a branch explored both ways counts twice, one way once, out of two
/// per conditional branch; 100 without branches.
fn branch_coverage(s: &Samples) -> Option<f64> {
    let full = s.get("FullBranches")?;
    let partial = s.get("PartialBranches")?;
    let branches = s.get("NumBranches")?;
    Some(if branches > 0.0 {
        100.0 * (2.0 * full + partial) / (2.0 * branches)
    } else {
        100.0
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn info_done_lines_and_elapsed_are_read() {
        let text = "klee --libc=uclibc prog.bc\nPID: 7\nStarted: 2024-01-01 10:00:00\n\
                    Finished: 2024-01-01 11:02:03\nElapsed: 01:02:03\n\
                    KLEE: done: explored paths = 12\nKLEE: done: total queries = 40\n\n\
                    KLEE: done: total instructions = 123456\n\
                    KLEE: done: completed paths = 5\n";
        let info = parse_info(text);
        assert_eq!(info.elapsed_s, Some(3723));
        assert_eq!(info.done.get("total instructions"), Some(&123456));
        assert_eq!(info.done.get("completed paths"), Some(&5));
        assert_eq!(info.done.get("total queries"), Some(&40));
    }

    #[test]
    fn malformed_elapsed_is_ignored() {
        assert_eq!(parse_hms("01:02"), None);
        assert_eq!(parse_hms("1:2:3:4"), None);
        assert_eq!(parse_hms("a:b:c"), None);
        assert_eq!(parse_hms("00:00:07"), Some(7));
    }

    #[test]
    fn branch_coverage_counts_full_branches_twice() {
        let mut s = Samples::default();
        for (k, v) in [
            ("FullBranches", 3.0),
            ("PartialBranches", 2.0),
            ("NumBranches", 10.0),
        ] {
            s.last.insert(k.into(), v);
        }
        assert_eq!(branch_coverage(&s), Some(40.0));
        s.last.insert("NumBranches".into(), 0.0);
        assert_eq!(branch_coverage(&s), Some(100.0));
    }
}
