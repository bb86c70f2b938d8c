//! SV-COMP's verdict for the unreach-call property, from a run's summary:
//!
//! * `FALSE` when a path called `reach_error` (the test that does is named);
//! * `TRUE` when every path was explored to its end and none did: the run exhausted its
//!   states, no path ended early (limits, sizes not explored, solver failures), no state was
//!   dropped, no symbolic value was fixed to one of its values, no symbolic size was cut
//!   by the capacity or fixed (`--sym-size-mode`), and every path that ended
//!   with an error ended in `abort()` (a normal end of the program for SV-COMP);
//! * `UNKNOWN` otherwise, with the first reason that prevents `TRUE`.

use sear_engine::output::Summary;

/// The verdict of a run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// `reach_error` is unreachable.
    True,
    /// The property is violated by the input of `test`: `reach_error` is reached
    /// (unreach-call, `property` `None`), or the memory-safety property named by `property`
    /// (`valid-deref`, `valid-free`, `valid-memtrack`).
    False {
        /// The test (`testNNNNNN`).
        test: String,
        /// The violated memory-safety property.
        property: Option<&'static str>,
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
            property: None,
        };
    }
    exhaustive(summary, &["abort"])
}

/// The memory-safety property an error violates. sear names errors as KLEE does: a double
/// free and a free of a pointer that is no object's base are `ptr` errors ("memory error:
/// double free", "memory error: invalid pointer: free"), and so for `realloc`; SV-COMP
/// counts them under valid-free.
fn memsafety_property(kind: &str, message: &str) -> Option<&'static str> {
    match kind {
        "ptr" if message.contains("double free") || message.ends_with(": free") => {
            Some("valid-free")
        }
        "ptr" if message.ends_with(": realloc") => Some("valid-free"),
        "ptr" => Some("valid-deref"),
        "free" => Some("valid-free"),
        "leak" => Some("valid-memtrack"),
        _ => None,
    }
}

/// SV-COMP's verdict for valid-memsafety (valid-free, valid-deref, valid-memtrack): FALSE
/// of the first path with an invalid access (`ptr`), an invalid free (`free`) or a leak at
/// exit (`leak`); TRUE as [`decide`]'s, where paths ending in `abort()` or `reach_error`
/// end normally.
pub fn decide_memsafety(summary: &Summary) -> Verdict {
    if let Some((e, p)) = summary
        .errors
        .iter()
        .find_map(|e| memsafety_property(&e.kind, &e.message).map(|p| (e, p)))
    {
        return Verdict::False {
            test: e.test.clone(),
            property: Some(p),
        };
    }
    exhaustive(summary, &["abort", "reach"])
}

/// TRUE when the exploration was complete and every error path ended with one of the
/// `normal` kinds; UNKNOWN with the first reason otherwise.
fn exhaustive(summary: &Summary, normal: &[&str]) -> Verdict {
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
    // The symbolic-size modes other than `concretize` cut sizes without ending a path early:
    // the capacity constraint `σ ≤ c` (sizes above `--capacity`) and `max` (σ fixed).
    let sizes = |key: &str| {
        summary
            .symbolic_size
            .get(key)
            .and_then(serde_json::Value::as_u64)
            .unwrap_or(0)
    };
    if sizes("capacity_bounded") > 0 {
        return unknown(format!(
            "{} symbolic sizes were bounded by the capacity (larger sizes not explored)",
            sizes("capacity_bounded")
        ));
    }
    if sizes("max_concretisations") > 0 {
        return unknown(format!(
            "{} symbolic sizes were fixed to their largest value",
            sizes("max_concretisations")
        ));
    }
    let is_normal = |kind: &str| normal.contains(&kind);
    let aborts = summary.errors.iter().filter(|e| is_normal(&e.kind)).count() as u64;
    if summary.error_paths > aborts {
        let other = summary
            .errors
            .iter()
            .find(|e| !is_normal(&e.kind))
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
    /// The word SV-COMP uses, with the violated memory-safety property:
    /// `FALSE(valid-memtrack)`.
    pub fn word(&self) -> String {
        match self {
            Verdict::True => "TRUE".into(),
            Verdict::False {
                property: Some(p), ..
            } => format!("FALSE({p})"),
            Verdict::False { .. } => "FALSE".into(),
            Verdict::Unknown { .. } => "UNKNOWN".into(),
        }
    }

    /// The line sear prints: `sear: verdict: FALSE (reach_error reached by test000002)`.
    pub fn line(&self) -> String {
        let detail = match self {
            Verdict::True => "every path explored, no violation".to_string(),
            Verdict::False {
                test,
                property: None,
            } => format!("reach_error reached by {test}"),
            Verdict::False {
                test,
                property: Some(p),
            } => format!("{p} violated by {test}"),
            Verdict::Unknown { reason } => reason.clone(),
        };
        format!("sear: verdict: {} ({detail})", self.word())
    }

    /// `verdict.json`.
    pub fn to_json(&self) -> serde_json::Value {
        match self {
            Verdict::True => serde_json::json!({ "verdict": "TRUE" }),
            Verdict::False {
                test,
                property: None,
            } => serde_json::json!({ "verdict": "FALSE", "test": test }),
            Verdict::False {
                test,
                property: Some(p),
            } => serde_json::json!({ "verdict": "FALSE", "test": test, "property": p }),
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
                test: "test000002".into(),
                property: None,
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
        // Sizes above the capacity were not explored (`--sym-size-mode=smopt` on an
        // unbounded size: no path ended early, yet the run is no proof).
        for key in ["capacity_bounded", "max_concretisations"] {
            let mut s = exhausted();
            s.symbolic_size = serde_json::json!({ "mode": "smopt", key: 1 });
            assert!(matches!(decide(&s), Verdict::Unknown { .. }), "{key}");
        }
        // An error path without a record (its test could not be written) is not an abort.
        let mut s = exhausted();
        s.error_paths = 1;
        assert!(matches!(decide(&s), Verdict::Unknown { .. }));
    }

    #[test]
    fn memsafety_verdicts() {
        let mut s = exhausted();
        s.error_paths = 2;
        s.errors.push(error("reach", "test000001"));
        s.errors.push(error("abort", "test000002"));
        assert_eq!(
            decide_memsafety(&s),
            Verdict::True,
            "reach_error is no violation"
        );
        for (kind, property) in [
            ("ptr", "valid-deref"),
            ("free", "valid-free"),
            ("leak", "valid-memtrack"),
        ] {
            let mut s = exhausted();
            s.error_paths = 1;
            s.errors.push(error(kind, "test000003"));
            let v = decide_memsafety(&s);
            assert_eq!(v.word(), format!("FALSE({property})"));
            assert!(v.line().contains("violated by test000003"), "{}", v.line());
        }
        let mut s = exhausted();
        s.error_paths = 1;
        let mut e = error("ptr", "test000001");
        e.message = "memory error: double free".into();
        s.errors.push(e);
        assert_eq!(decide_memsafety(&s).word(), "FALSE(valid-free)");
        let mut s = exhausted();
        s.error_paths = 1;
        s.errors.push(error("div", "test000001"));
        assert!(matches!(decide_memsafety(&s), Verdict::Unknown { .. }));
    }
}
