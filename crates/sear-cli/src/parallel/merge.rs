//! One output directory from the workers' directories: the tests (written by the workers
//! into the run's directory under the numbers they were handed) made dense, an error
//! reported once per (kind, file, line) as in one
//! process (unless `--emit-all-errors`), `summary.json` aggregated (sums of the workers'
//! counters, the union of their coverage, the trace digest of all their paths, a section
//! per worker), their messages and warnings, and `info.json` with the number of jobs.

use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{Context, Result};

use super::numbering;
use serde_json::{json, Map, Value};

/// What a worker sent at its end.
#[derive(Debug)]
pub struct WorkerResult {
    /// The trace hash of every path it ended.
    pub trace_hashes: Vec<u64>,
    /// The instructions it covered.
    pub covered: Vec<(u32, u32, u32)>,
    /// For a worker that died: how many of its tests to keep (the ones it wrote for the
    /// prefixes it finished).
    pub tests_kept: Option<u32>,
    /// The test numbers it was handed, in the order it used them.
    pub numbers: Vec<u32>,
    /// The test files it wrote, as it said at its end (`None`: it died).
    pub test_files: Option<sear_engine::output::TestFiles>,
}

/// What the coordinator reports of its own work (`summary.json`'s `coordinator` section).
#[derive(Clone, Debug, Default)]
pub struct CoordinatorReport {
    /// The run-wide limit that stopped the workers, if one did.
    pub limit_reached: Option<&'static str>,
    /// Messages from workers.
    pub messages_received: u64,
    /// Messages to workers.
    pub messages_sent: u64,
    /// Prefixes handed to workers (the first, whole-program one included).
    pub prefixes_handed_out: u64,
    /// The coordinator's CPU seconds up to the merge (its threads, not the workers).
    pub cpu_s: f64,
    /// Every error keeps its test (`--emit-all-errors`, the competition modes), not only the
    /// first of each kind and location.
    pub emit_all_errors: bool,
}

/// The suffixes of each test file in `out`: as the workers said they wrote them, or, when
/// a worker died without saying, as the directory lists them.
fn test_files(
    out: &Path,
    workers: &[(PathBuf, Option<WorkerResult>)],
) -> Result<BTreeMap<u32, Vec<String>>> {
    let mut files = BTreeMap::new();
    for (_, result) in workers {
        match result.as_ref().and_then(|r| r.test_files.as_ref()) {
            Some(written) => files.extend(written.by_test()),
            None => return numbering::test_files(out),
        }
    }
    Ok(files)
}

/// Merges the workers' directories (in order) into `out`; prints the run's totals and
/// returns the exit status.
pub fn merge(
    out: &Path,
    workers: &[(PathBuf, Option<WorkerResult>)],
    mut warnings: Vec<String>,
    elapsed: Duration,
    report: CoordinatorReport,
) -> Result<i32> {
    let mut summaries = Vec::new();
    let mut seen_errors = HashSet::new();
    let mut errors = Vec::new();
    let mut messages = Vec::new();
    let files = test_files(out, workers)?;
    let mut kept = BTreeSet::new();
    for (id, (dir, result)) in workers.iter().enumerate() {
        let summary: Value = match std::fs::read_to_string(dir.join("summary.json")) {
            Ok(text) => serde_json::from_str(&text).unwrap_or(Value::Null),
            Err(_) => Value::Null,
        };
        let mut error_of: BTreeMap<String, Value> = BTreeMap::new();
        if let Some(list) = summary["errors"].as_array() {
            for e in list {
                if let Some(test) = e["test"].as_str() {
                    error_of.insert(test.to_string(), e.clone());
                }
            }
        }
        let (numbers, written) = match result {
            Some(r) => (&r.numbers[..], r.tests_kept),
            None => (&[][..], None),
        };
        let written = written
            .or(summary["tests"].as_u64().map(|n| n as u32))
            .unwrap_or(numbers.len() as u32) as usize;
        for &number in numbers.iter().take(written) {
            if !files
                .get(&number)
                .is_some_and(|f| f.iter().any(|s| s == ".ktest"))
            {
                continue;
            }
            if let Some(e) = error_of.get(&format!("test{number:06}")) {
                let key = format!("{} {} {}", e["kind"], e["file"], e["line"]);
                if !report.emit_all_errors && !seen_errors.insert(key) {
                    continue;
                }
                errors.push((number, e.clone()));
            }
            kept.insert(number);
        }
        for file in ["messages.txt", "warnings.txt"] {
            if let Ok(text) = std::fs::read_to_string(dir.join(file)) {
                messages.push((file, text));
            }
        }
        if id == 0 {
            if let Ok(info) = std::fs::read_to_string(dir.join("info.json")) {
                let mut info: Value = serde_json::from_str(&info).unwrap_or(json!({}));
                info["jobs"] = json!(workers.len());
                std::fs::write(out.join("info.json"), serde_json::to_string_pretty(&info)?)?;
            }
        }
        summaries.push(summary);
    }
    let renames = numbering::compact(out, &files, &kept)?;
    let errors = errors
        .into_iter()
        .map(|(number, mut e)| {
            let number = renames.get(&number).copied().unwrap_or(number);
            e["test"] = json!(format!("test{number:06}"));
            e
        })
        .collect();
    for (file, text) in messages {
        append_unique(&out.join(file), &text)?;
    }
    if summaries.iter().any(Value::is_null) {
        warnings.push("a worker wrote no summary.json: its counters are missing".into());
    }
    if !warnings.is_empty() {
        append_unique(&out.join("warnings.txt"), &(warnings.join("\n") + "\n"))?;
    }
    let mut summary = aggregate(&summaries, workers, errors, kept.len() as u32, elapsed);
    if let Some(limit) = report.limit_reached {
        // The coordinator stopped the workers (each says `interrupted`) for a run-wide limit.
        summary["stop_reason"] = json!(limit);
    }
    summary["coordinator"] = json!({
        "messages_received": report.messages_received,
        "messages_sent": report.messages_sent,
        "prefixes_handed_out": report.prefixes_handed_out,
        "cpu_s": report.cpu_s,
    });
    std::fs::write(
        out.join("summary.json"),
        serde_json::to_string_pretty(&summary)?,
    )
    .context("writing summary.json")?;
    // The workers' own files (logs, summaries) stay for debugging with SEAR_KEEP_WORKERS.
    if std::env::var_os("SEAR_KEEP_WORKERS").is_none() {
        let _ = std::fs::remove_dir_all(out.join(".workers"));
    }
    let n = |k: &str| summary[k].as_u64().unwrap_or(0);
    crate::term::errln!("sear: output directory: {}", out.display());
    crate::term::errln!("sear: done: workers = {}", workers.len());
    crate::term::errln!("sear: done: total instructions = {}", n("instructions"));
    crate::term::errln!("sear: done: completed paths = {}", n("completed_paths"));
    crate::term::errln!("sear: done: error paths = {}", n("error_paths"));
    crate::term::errln!(
        "sear: done: partially completed paths = {}",
        n("early_paths")
    );
    crate::term::errln!("sear: done: generated tests = {}", n("tests"));
    crate::term::errln!(
        "sear: done: errors = {}",
        summary["errors"].as_array().map_or(0, Vec::len)
    );
    Ok(match summary["stop_reason"].as_str() {
        Some("interrupted") => 130,
        _ => 0,
    })
}

/// Appends the lines of `text` that `path` does not have yet.
fn append_unique(path: &Path, text: &str) -> Result<()> {
    let old = std::fs::read_to_string(path).unwrap_or_default();
    let have: HashSet<&str> = old.lines().collect();
    let mut new = old.clone();
    for line in text.lines() {
        if !have.contains(line) && !new.lines().any(|l| l == line) {
            new.push_str(line);
            new.push('\n');
        }
    }
    std::fs::write(path, new).with_context(|| format!("writing {}", path.display()))
}

/// The run's `summary.json`: the workers' counters summed (nested sections too), the
/// coverage's union, the trace digest of all paths, and a `workers` section.
fn aggregate(
    summaries: &[Value],
    workers: &[(PathBuf, Option<WorkerResult>)],
    errors: Vec<Value>,
    tests: u32,
    elapsed: Duration,
) -> Value {
    let mut total = Value::Null;
    for s in summaries.iter().filter(|s| !s.is_null()) {
        total = if total.is_null() {
            s.clone()
        } else {
            sum(&total, s)
        };
    }
    if total.is_null() {
        total = json!({});
    }
    let mut hashes = Vec::new();
    let mut covered = HashSet::new();
    for (_, result) in workers {
        if let Some(r) = result {
            hashes.extend(&r.trace_hashes);
            covered.extend(r.covered.iter().copied());
        }
    }
    total["trace_digest"] = json!(sear_engine::executor::trace_digest(&hashes));
    total["covered_instructions"] = json!(covered.len());
    total["tests"] = json!(tests);
    total["errors"] = Value::Array(errors);
    total["time_s"] = json!(elapsed.as_secs_f64());
    total["stop_reason"] = json!(stop_reason(summaries));
    total["jobs"] = json!(workers.len());
    let per_worker: Vec<Value> = summaries
        .iter()
        .map(|s| {
            json!({
                "completed_paths": s["completed_paths"],
                "error_paths": s["error_paths"],
                "early_paths": s["early_paths"],
                "instructions": s["instructions"],
                "queries": s["queries"],
                "solver_time_s": s["solver_time_s"],
                "time_s": s["time_s"],
                "stop_reason": s["stop_reason"],
                "prefixes_received": s["worker"]["prefixes_received"],
                "groups_received": s["worker"]["groups_received"],
                "prefixes_given": s["worker"]["prefixes_given"],
                "replay_instructions": s["worker"]["replay_instructions"],
                "idle_s": s["worker"]["idle_s"],
                "covered_elsewhere": s["worker"]["covered_elsewhere"],
                "edges_elsewhere": s["worker"]["edges_elsewhere"],
                "rebuilds_from_snapshot": s["worker"]["rebuilds_from_snapshot"],
            })
        })
        .collect();
    // Instructions re-executed to rebuild prefixes (counted in `instructions` too).
    let replayed: u64 = summaries
        .iter()
        .filter_map(|s| s["worker"]["replay_instructions"].as_u64())
        .sum();
    total["replay_instructions"] = json!(replayed);
    if let Some(map) = total.as_object_mut() {
        map.remove("worker");
        map.insert("workers".into(), Value::Array(per_worker));
    }
    total
}

/// The run's stop reason: a limit or interruption any worker met, else `exhausted`.
fn stop_reason(summaries: &[Value]) -> String {
    let reasons: Vec<&str> = summaries
        .iter()
        .filter_map(|s| s["stop_reason"].as_str())
        .collect();
    // A worker's own reason first (`exit-on-error`: the coordinator then interrupts the
    // others, which say `interrupted`), then an interruption, else every worker exhausted.
    reasons
        .iter()
        .find(|r| !matches!(**r, "exhausted" | "interrupted"))
        .or_else(|| reasons.iter().find(|r| **r != "exhausted"))
        .copied()
        .unwrap_or("exhausted")
        .to_string()
}

/// Two summaries' sum: numbers add, objects add key by key (a `largest_*` number is the
/// larger of the two: a size, not a count), lists of the same length (the solver's layers)
/// element by element, a missing or null value is the other's, anything else is the first's.
fn sum(a: &Value, b: &Value) -> Value {
    match (a, b) {
        (Value::Null, _) => b.clone(),
        (_, Value::Null) => a.clone(),
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => {
            Value::Array(x.iter().zip(y).map(|(v, w)| sum(v, w)).collect())
        }
        (Value::Number(x), Value::Number(y)) => match (x.as_u64(), y.as_u64()) {
            (Some(x), Some(y)) => json!(x + y),
            _ => json!(x.as_f64().unwrap_or(0.0) + y.as_f64().unwrap_or(0.0)),
        },
        (Value::Object(x), Value::Object(y)) => {
            let mut out = Map::new();
            for (k, v) in x {
                let s = match y.get(k) {
                    Some(w) if k.starts_with("largest_") && v.is_number() && w.is_number() => {
                        if v.as_f64() >= w.as_f64() {
                            v.clone()
                        } else {
                            w.clone()
                        }
                    }
                    Some(w) => sum(v, w),
                    None => v.clone(),
                };
                out.insert(k.clone(), s);
            }
            for (k, v) in y {
                out.entry(k.clone()).or_insert_with(|| v.clone());
            }
            Value::Object(out)
        }
        _ => a.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summaries_add_up_key_by_key() {
        let a = json!({"paths": 2, "solver": {"queries": 3, "name": "z3"}, "t": 0.5,
            "memory": {"largest_symbolic_array": 256}});
        let b = json!({"paths": 5, "solver": {"queries": 4, "name": "z3"}, "t": 1.0, "x": 1,
            "memory": {"largest_symbolic_array": 64}});
        let s = sum(&a, &b);
        assert_eq!(s["paths"], 7);
        assert_eq!(s["solver"]["queries"], 7);
        assert_eq!(s["solver"]["name"], "z3");
        assert_eq!(s["t"], 1.5);
        assert_eq!(s["x"], 1);
        assert_eq!(s["memory"]["largest_symbolic_array"], 256);
    }

    #[test]
    fn layer_lists_add_up_and_a_null_section_takes_the_others() {
        let a = json!({"solver": {"layers": [{"name": "cex", "hits": 1}, {"name": "core", "hits": 2}]},
            "quantified": null});
        let b = json!({"solver": {"layers": [{"name": "cex", "hits": 3}, {"name": "core", "hits": 4}]},
            "quantified": {"queries": 5}});
        let s = sum(&a, &b);
        assert_eq!(s["solver"]["layers"][0]["hits"], 4);
        assert_eq!(s["solver"]["layers"][1]["hits"], 6);
        assert_eq!(s["solver"]["layers"][1]["name"], "core");
        assert_eq!(s["quantified"]["queries"], 5);
    }

    #[test]
    fn a_workers_own_stop_reason_beats_the_interruption_it_caused() {
        let r = |rs: &[&str]| {
            let summaries: Vec<Value> = rs.iter().map(|r| json!({ "stop_reason": r })).collect();
            stop_reason(&summaries)
        };
        assert_eq!(r(&["interrupted", "exit-on-error"]), "exit-on-error");
        assert_eq!(r(&["exit-on-error", "interrupted"]), "exit-on-error");
        assert_eq!(r(&["exhausted", "interrupted"]), "interrupted");
        assert_eq!(r(&["exhausted", "exhausted"]), "exhausted");
    }
}
