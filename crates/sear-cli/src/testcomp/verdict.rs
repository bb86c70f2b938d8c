//! SV-COMP's verdict for the unreach-call property, from a run's summary:
//!
//! * `FALSE` when a path called `reach_error` (the test that does is named);
//! * `TRUE` when every path was explored to its end and none did: the run exhausted its
//!   states, no path ended early (limits, sizes not explored, solver failures), no state was
//!   dropped, no symbolic value was fixed to one of its values, and every path that ended
//!   with an error ended in `abort()` (a normal end of the program for SV-COMP);
//! * `UNKNOWN` otherwise, with the first reason that prevents `TRUE`.

use sear_engine::output::Summary;

/// The verdict of a run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// `reach_error` is unreachable.
    True,
    /// `reach_error` is reached by the input of `test`.
    False {
        /// The test (`testNNNNNN`).
        test: String,
    },
    /// Neither could be shown.
    Unknown {
        /// Why not `TRUE`.
        reason: String,
    },
}

/// The verdict of a run whose summary is `summary`.
pub fn decide(summary: &Summary) -> Verdict {
    if let Some(e) = summary.errors.iter().find(|e| e.kind == "reach") {
        return Verdict::False {
            test: e.test.clone(),
        };
    }
    let unknown = |reason: String| Verdict::Unknown { reason };
    if summary.stop_reason != "exhausted" {
        return unknown(format!("the run stopped ({})", summary.stop_reason));
    }
    if summary.early_paths > 0 {
        return unknown(format!("{} paths ended early", summary.early_paths));
    }
    if summary.dropped_states > 0 {
        return unknown(format!("{} states dropped", summary.dropped_states));
    }
    if summary.forks_inhibited > 0 {
        return unknown(format!(
            "{} branches at the memory limit followed one side",
            summary.forks_inhibited
        ));
    }
    if summary.concretisations > 0 {
        return unknown(format!(
            "{} symbolic values were concretized",
            summary.concretisations
        ));
    }
    let aborts = summary.errors.iter().filter(|e| e.kind == "abort").count() as u64;
    if summary.error_paths > aborts {
        let other = summary
            .errors
            .iter()
            .find(|e| e.kind != "abort")
            .map_or("an error without a test".to_string(), |e| {
                format!("{} error at {}:{}", e.kind, e.file, e.line)
            });
        return unknown(format!(
            "{} paths ended with another error ({other})",
            summary.error_paths - aborts
        ));
    }
    Verdict::True
}

impl Verdict {
    /// The word SV-COMP uses.
    pub fn word(&self) -> &'static str {
        match self {
            Verdict::True => "TRUE",
            Verdict::False { .. } => "FALSE",
            Verdict::Unknown { .. } => "UNKNOWN",
        }
    }

    /// The line sear prints: `sear: verdict: FALSE (reach_error reached by test000002)`.
    pub fn line(&self) -> String {
        let detail = match self {
            Verdict::True => "every path explored, reach_error unreachable".to_string(),
            Verdict::False { test } => format!("reach_error reached by {test}"),
            Verdict::Unknown { reason } => reason.clone(),
        };
        format!("sear: verdict: {} ({detail})", self.word())
    }

    /// `verdict.json`.
    pub fn to_json(&self) -> serde_json::Value {
        match self {
            Verdict::True => serde_json::json!({ "verdict": "TRUE" }),
            Verdict::False { test } => serde_json::json!({ "verdict": "FALSE", "test": test }),
            Verdict::Unknown { reason } => {
                serde_json::json!({ "verdict": "UNKNOWN", "reason": reason })
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sear_engine::output::ErrorRecord;

    fn error(kind: &str, test: &str) -> ErrorRecord {
        ErrorRecord {
            kind: kind.into(),
            message: String::new(),
            file: "p.c".into(),
            line: 3,
            function: "main".into(),
            test: test.into(),
        }
    }

    fn exhausted() -> Summary {
        Summary {
            stop_reason: "exhausted".into(),
            completed_paths: 3,
            ..Summary::default()
        }
    }

    #[test]
    fn verdicts() {
        assert_eq!(decide(&exhausted()), Verdict::True);
        let mut s = exhausted();
        s.error_paths = 1;
        s.errors.push(error("abort", "test000001"));
        assert_eq!(decide(&s), Verdict::True, "abort() ends a path normally");
        s.error_paths = 2;
        s.errors.push(error("reach", "test000002"));
        assert_eq!(
            decide(&s),
            Verdict::False {
                test: "test000002".into()
            }
        );
        let mut s = exhausted();
        s.error_paths = 1;
        s.errors.push(error("ptr", "test000001"));
        assert!(matches!(decide(&s), Verdict::Unknown { .. }));
        let mut s = exhausted();
        s.stop_reason = "max-time".into();
        assert!(decide(&s)
            .line()
            .starts_with("sear: verdict: UNKNOWN (the run stopped"));
        let mut s = exhausted();
        s.early_paths = 1;
        assert!(matches!(decide(&s), Verdict::Unknown { .. }));
        let mut s = exhausted();
        s.concretisations = 2;
        assert!(matches!(decide(&s), Verdict::Unknown { .. }));
        // An error path without a record (its test could not be written) is not an abort.
        let mut s = exhausted();
        s.error_paths = 1;
        assert!(matches!(decide(&s), Verdict::Unknown { .. }));
    }
}
