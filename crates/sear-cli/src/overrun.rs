//! A hard limit past `--max-time`. The engine stops at its limit, cuts the solver's queries
//! short and writes `summary.json` at once; but a solver call that ignores its timeout and
//! interruption (Z3 on a store chain of 10^5 symbolic writes, sv-benchmarks'
//! `standard_sentinel-2`: over ten minutes in one call) would hold the process however
//! long. Past the limit, the halt's budget and a grace period, a thread ends the process:
//! the tests already written stay, `summary.json` is the halt's or, if the halt had not
//! begun, the last one the engine wrote while running (every 5 s), marked `"overrun"`, and
//! under `--sv-comp` the verdict is UNKNOWN.
//!
//! A thread rather than a forked solver process (KLEE's way with STP): the cores keep their
//! state across queries in the process, and the overrun is rare enough that ending the run
//! is the right answer to it.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use crate::testcomp::Verdict;

/// The exit status of a run ended by the hard limit.
pub const EXIT_OVERRUN: i32 = 3;

/// How long past `max_time` the process may run: the halt's test-writing budget (the
/// engine's [`sear_engine::halt_budget`]) and a grace of a tenth of the limit (at least 5 s)
/// for the last writes.
pub fn hard_limit(max_time: Duration) -> Duration {
    let halt = sear_engine::halt_budget(Some(max_time));
    let grace = (max_time / 10).max(Duration::from_secs(5));
    max_time + halt + grace
}

/// The armed limit: [`Watchdog::disarm`] once the exploration has returned (what follows,
/// such as writing a Test-Comp suite, is not cut short).
pub struct Watchdog {
    done: Arc<AtomicBool>,
}

impl Watchdog {
    /// The exploration returned: the limit no longer applies.
    pub fn disarm(&self) {
        self.done.store(true, Ordering::SeqCst);
    }
}

/// Starts the thread that ends the process at [`hard_limit`] of `max_time` from now, unless
/// disarmed; with `sv_comp`, it first writes an UNKNOWN `verdict.json` into `output_dir`
/// (and prints the verdict line) unless the run wrote one.
pub fn install(max_time: Duration, output_dir: PathBuf, sv_comp: bool) -> Watchdog {
    let limit = hard_limit(max_time);
    let done = Arc::new(AtomicBool::new(false));
    let seen = done.clone();
    std::thread::spawn(move || {
        std::thread::sleep(limit);
        if seen.load(Ordering::SeqCst) {
            return;
        }
        crate::term::errln!(
            "sear: error: the run overran --max-time by {:.0} s (a solver call did not \
             return); exiting with the tests written so far",
            (limit - max_time).as_secs_f64()
        );
        mark_summary_overrun(&output_dir);
        let path = output_dir.join("verdict.json");
        if sv_comp && !path.exists() {
            let verdict = Verdict::Unknown {
                reason: "the run overran --max-time (a solver call did not return)".into(),
            };
            if let Ok(text) = serde_json::to_string_pretty(&verdict.to_json()) {
                let _ = std::fs::write(&path, text + "\n");
            }
            crate::term::outln!("{}", verdict.line());
        }
        std::process::exit(EXIT_OVERRUN);
    });
    Watchdog { done }
}

/// The stop reason of a run ended by the hard limit, in `summary.json`.
pub const OVERRUN_STOP_REASON: &str = "overrun";

/// Marks the interim `summary.json` the engine wrote last (stop reason
/// [`sear_engine::INTERIM_STOP_REASON`]) as that of an overrun run; a summary of the halt's
/// keeps its stop reason.
fn mark_summary_overrun(output_dir: &std::path::Path) {
    let path = output_dir.join("summary.json");
    let Ok(text) = std::fs::read_to_string(&path) else {
        return;
    };
    let Ok(mut summary) = serde_json::from_str::<serde_json::Value>(&text) else {
        return;
    };
    if summary["stop_reason"] != sear_engine::INTERIM_STOP_REASON {
        return;
    }
    summary["stop_reason"] = OVERRUN_STOP_REASON.into();
    if let Ok(text) = serde_json::to_string_pretty(&summary) {
        let _ = std::fs::write(&path, text + "\n");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_interim_summary_is_marked_overrun_and_a_halts_is_kept() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("summary.json");
        std::fs::write(&path, r#"{"stop_reason": "running", "tests": 7}"#).unwrap();
        mark_summary_overrun(dir.path());
        let v: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        assert_eq!(v["stop_reason"], "overrun");
        assert_eq!(v["tests"], 7);
        std::fs::write(&path, r#"{"stop_reason": "max-time"}"#).unwrap();
        mark_summary_overrun(dir.path());
        let v: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        assert_eq!(v["stop_reason"], "max-time");
    }

    #[test]
    fn the_hard_limit_leaves_room_for_the_halt() {
        // SV-COMP's harness kills at 60 + 30 s: the hard limit comes first.
        assert_eq!(hard_limit(Duration::from_secs(60)), Duration::from_secs(81));
        assert_eq!(hard_limit(Duration::from_secs(2)), Duration::from_secs(8));
        assert_eq!(
            hard_limit(Duration::from_secs(3600)),
            Duration::from_secs(3600 + 300 + 360)
        );
    }
}
