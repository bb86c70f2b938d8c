//! The statistics of a `sear run` output directory: `summary.json`, and
//! `coverage/coverage.json` when `sear coverage` wrote it there.

use std::path::Path;

use anyhow::{bail, Context, Result};
use serde::Deserialize;

use super::{RunStats, Tool};

/// The fields of `summary.json` that `sear stats` shows. Those added after the first
/// releases of the format (`silent_paths`, the process's times and memory) may be absent.
#[derive(Debug, Deserialize)]
struct Summary {
    completed_paths: u64,
    error_paths: u64,
    early_paths: u64,
    #[serde(default)]
    silent_paths: u64,
    tests: u64,
    errors: Vec<serde_json::Value>,
    instructions: u64,
    queries: u64,
    solver_time_s: f64,
    time_s: f64,
    user_time_s: Option<f64>,
    system_time_s: Option<f64>,
    peak_memory_mib: Option<f64>,
    stop_reason: String,
    covered_instructions: u64,
    total_instructions: u64,
    max_states: Option<u64>,
    #[serde(default)]
    solver: Option<SolverSummary>,
}

/// `summary.json`'s `solver` section: the core's counts.
#[derive(Debug, Deserialize)]
struct SolverSummary {
    core_queries: Option<u64>,
    core_time_secs: Option<f64>,
}

/// The percentages of `coverage/coverage.json` (`sear coverage`).
#[derive(Debug, Deserialize)]
struct Coverage {
    line_percent: f64,
    branch_percent: f64,
}

/// Reads the sear output directory `dir`.
pub fn read(dir: &Path) -> Result<RunStats> {
    let path = dir.join("summary.json");
    let text =
        std::fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?;
    let summary: Summary = serde_json::from_str(&text)
        .map_err(|e| anyhow::anyhow!("{}: malformed summary: {e}", path.display()))?;
    let mut stats = from_summary(&summary);
    read_coverage(dir, &mut stats)?;
    Ok(stats)
}

/// Sets the source coverage of `stats` from `dir/coverage/coverage.json` if `sear coverage`
/// wrote one there (for sear's and KLEE's directories alike).
pub(super) fn read_coverage(dir: &Path, stats: &mut RunStats) -> Result<()> {
    let coverage = dir.join("coverage").join("coverage.json");
    if coverage.is_file() {
        let text = std::fs::read_to_string(&coverage)
            .with_context(|| format!("reading {}", coverage.display()))?;
        let Ok(cov) = serde_json::from_str::<Coverage>(&text) else {
            bail!("{}: malformed coverage report", coverage.display());
        };
        stats.source_line_coverage = Some(cov.line_percent);
        stats.source_branch_coverage = Some(cov.branch_percent);
    }
    Ok(())
}

/// The figures of a summary.
fn from_summary(s: &Summary) -> RunStats {
    let solver = s.solver.as_ref();
    RunStats {
        instructions: Some(s.instructions),
        wall_time_s: Some(s.time_s),
        user_time_s: s.user_time_s,
        cpu_time_s: s.user_time_s.zip(s.system_time_s).map(|(u, k)| u + k),
        covered_instructions: Some(s.covered_instructions),
        total_instructions: Some(s.total_instructions),
        solver_time_s: Some(s.solver_time_s),
        query_time_s: solver.and_then(|x| x.core_time_secs),
        queries: Some(s.queries),
        solver_queries: solver.and_then(|x| x.core_queries),
        completed_paths: Some(s.completed_paths),
        partial_paths: Some(s.early_paths + s.silent_paths),
        error_paths: Some(s.error_paths),
        tests: Some(s.tests),
        errors: Some(s.errors.len() as u64),
        max_states: s.max_states,
        max_memory_mib: s.peak_memory_mib,
        stop_reason: Some(s.stop_reason.clone()),
        ..RunStats::empty(Tool::Sear)
    }
}
