//! Deciding whether a native outcome reproduces the error sear reported.
//!
//! | sear kind                 | native outcomes that reproduce it                          |
//! |---------------------------|------------------------------------------------------------|
//! | `ptr`                     | an ASan memory-access error (overflow, use after free, SEGV, ...), ASan `double-free` or `bad-free` (sear's double and invalid frees), SIGSEGV/SIGBUS |
//! | `read_only`               | SEGV / SIGSEGV (a write to read-only memory)               |
//! | `free`                    | ASan `double-free`, `bad-free`, `alloc-dealloc-mismatch` (free of a local or a global) |
//! | `div`                     | UBSan division by zero, ASan `FPE`, SIGFPE                 |
//! | `overshift`               | UBSan `shift exponent ... is too large`                    |
//! | `overflow`                | UBSan signed/unsigned integer overflow                     |
//! | `assert`                  | a failed `assert`/`klee_assert`                            |
//! | `abort`                   | `abort()` without an assertion message; SIGILL/SIGTRAP (`__builtin_trap`) |
//! | `reach`, `reach_error`    | `reach_error`/`__VERIFIER_error`, or an assertion failing inside `reach_error` |
//! | `unreachable`             | UBSan unreachable, SIGILL, SIGTRAP                         |
//! | `user`                    | `klee_report_error(..., "user")`, a violated `klee_assume` |
//! | `report_error`            | any `klee_report_error`                                    |
//! | any other kind `k`        | `klee_report_error` with suffix `k` or `k.err`; otherwise not checkable |

use serde::Serialize;

use super::outcome::NativeOutcome;

/// The result of comparing a test's expected error with its native outcome.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// sear reported no error for this test.
    NoErrorExpected,
    /// The native run shows the error sear reported.
    Reproduced,
    /// The native run does not show the error sear reported.
    NotReproduced,
    /// The error kind has no native counterpart (e.g. `exec`, `solver`, `model`).
    Unchecked,
}

/// Memory-access errors that ASan reports and sear calls `ptr`.
const ASAN_PTR_KINDS: &[&str] = &[
    "heap-buffer-overflow",
    "stack-buffer-overflow",
    "global-buffer-overflow",
    "dynamic-stack-buffer-overflow",
    "stack-buffer-underflow",
    "heap-use-after-free",
    "stack-use-after-return",
    "stack-use-after-scope",
    "use-after-poison",
    "container-overflow",
    "intra-object-overflow",
    "unknown-crash",
    "negative-size-param",
    "stack-overflow",
    "SEGV",
    "BUS",
];

/// Whether `outcome` reproduces an error of sear kind `kind`.
pub fn judge(kind: &str, outcome: &NativeOutcome) -> Verdict {
    match reproduces(kind, outcome) {
        Some(true) => Verdict::Reproduced,
        Some(false) => Verdict::NotReproduced,
        None => Verdict::Unchecked,
    }
}

/// The messages of the errors sear's UBSan runtime reports (`runtime/src/libc/ubsan.c`):
/// the program was built with `-fsanitize=...`, so the native build reports them with
/// UBSan's own runtime.
const UBSAN_CHECKS: &[&str] = &[
    "signed-integer-overflow",
    "unsigned-integer-overflow",
    "integer-divide-by-zero",
    "float-divide-by-zero",
    "invalid-shift-exponent",
    "invalid-shift-base",
    "float-cast-overflow",
    "implicit-unsigned-integer-truncation",
    "implicit-signed-integer-truncation",
    "implicit-integer-sign-change",
    "implicit-signed-integer-truncation-or-sign-change",
    "null-pointer-use",
    "misaligned-pointer-use",
    "insufficient-object-size",
    "alignment-assumption",
    "nullptr-with-offset",
    "nullptr-with-nonzero-offset",
    "nullptr-after-nonzero-offset",
    "pointer-overflow",
    "out-of-bounds-index",
    "non-positive-vla-index",
    "invalid-bool-load",
    "invalid-enum-load",
    "unreachable-call",
    "missing-return",
    "invalid-builtin-use",
    "function-type-mismatch",
    "invalid-null-argument",
    "invalid-null-return",
];

/// Like [`judge`], for an error with its message: an error sear's UBSan runtime reported is
/// reproduced by any native UBSan report.
pub fn judge_error(kind: &str, message: &str, outcome: &NativeOutcome) -> Verdict {
    if UBSAN_CHECKS.contains(&message) && matches!(outcome, NativeOutcome::Ubsan { .. }) {
        return Verdict::Reproduced;
    }
    judge(kind, outcome)
}

/// `Some(matches)` when the kind can be checked natively, `None` otherwise.
fn reproduces(kind: &str, outcome: &NativeOutcome) -> Option<bool> {
    use NativeOutcome as O;
    let asan_is =
        |kinds: &[&str]| matches!(outcome, O::Asan { kind: k, .. } if kinds.contains(&k.as_str()));
    let ubsan_is =
        |kinds: &[&str]| matches!(outcome, O::Ubsan { kind: k, .. } if kinds.contains(&k.as_str()));
    let signal_is = |names: &[&str]| matches!(outcome, O::Signal { name, .. } if names.contains(&name.as_str()));
    let report_suffix_is = |kind: &str| {
        matches!(outcome, O::ReportError { suffix, .. }
            if suffix.strip_suffix(".err").unwrap_or(suffix) == kind)
    };
    let matched = match kind {
        "ptr" => {
            asan_is(ASAN_PTR_KINDS)
                || asan_is(&["double-free", "bad-free"])
                || signal_is(&["SIGSEGV", "SIGBUS"])
        }
        "read_only" => asan_is(&["SEGV"]) || signal_is(&["SIGSEGV"]),
        "free" => asan_is(&["double-free", "bad-free", "alloc-dealloc-mismatch"]),
        "div" => {
            ubsan_is(&["integer-divide-by-zero"]) || asan_is(&["FPE"]) || signal_is(&["SIGFPE"])
        }
        "overshift" => ubsan_is(&["shift-exponent"]),
        "overlap" => asan_is(&["memcpy-param-overlap"]),
        "overflow" => ubsan_is(&["signed-integer-overflow", "unsigned-integer-overflow"]),
        "assert" => matches!(outcome, O::AssertFailed { .. }),
        // `__builtin_trap` is an abort under sear (as in KLEE) but SIGILL natively.
        "abort" => matches!(outcome, O::Abort) || signal_is(&["SIGILL", "SIGTRAP"]),
        "reach" | "reach_error" => {
            matches!(outcome, O::ReachError)
                || matches!(outcome, O::AssertFailed { function, .. } if function == "reach_error")
        }
        "unreachable" | "unreachable_call" => {
            ubsan_is(&["unreachable"]) || signal_is(&["SIGILL", "SIGTRAP"])
        }
        // sear's user errors include provably false klee_assume calls.
        "user" => report_suffix_is("user") || matches!(outcome, O::AssumptionViolated { .. }),
        "report_error" => matches!(outcome, O::ReportError { .. }),
        other => {
            // Kinds such as exec, solver or model have no native counterpart, unless a program
            // raised them itself through klee_report_error.
            return report_suffix_is(other).then_some(true);
        }
    };
    Some(matched || report_suffix_is(kind))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn asan(kind: &str) -> NativeOutcome {
        NativeOutcome::Asan {
            kind: kind.into(),
            message: String::new(),
        }
    }

    #[test]
    fn table() {
        assert_eq!(
            judge("ptr", &asan("heap-buffer-overflow")),
            Verdict::Reproduced
        );
        assert_eq!(judge("ptr", &asan("double-free")), Verdict::Reproduced);
        assert_eq!(judge("ptr", &asan("bad-free")), Verdict::Reproduced);
        assert_eq!(
            judge("free", &asan("heap-buffer-overflow")),
            Verdict::NotReproduced
        );
        assert_eq!(judge("free", &asan("double-free")), Verdict::Reproduced);
        assert_eq!(judge("free", &asan("bad-free")), Verdict::Reproduced);
        assert_eq!(
            judge("ptr", &NativeOutcome::Exit { code: 0 }),
            Verdict::NotReproduced
        );
        assert_eq!(
            judge(
                "div",
                &NativeOutcome::Signal {
                    number: 8,
                    name: "SIGFPE".into()
                }
            ),
            Verdict::Reproduced
        );
        assert_eq!(judge("abort", &NativeOutcome::Abort), Verdict::Reproduced);
        let trap = NativeOutcome::Signal {
            number: 4,
            name: "SIGILL".into(),
        };
        assert_eq!(judge("abort", &trap), Verdict::Reproduced);
        let assert_in_reach = NativeOutcome::AssertFailed {
            message: String::new(),
            function: "reach_error".into(),
        };
        assert_eq!(judge("reach", &assert_in_reach), Verdict::Reproduced);
        assert_eq!(judge("assert", &assert_in_reach), Verdict::Reproduced);
        assert_eq!(judge("abort", &assert_in_reach), Verdict::NotReproduced);
        let user = NativeOutcome::ReportError {
            message: String::new(),
            suffix: "user".into(),
        };
        assert_eq!(judge("user", &user), Verdict::Reproduced);
        assert_eq!(judge("report_error", &user), Verdict::Reproduced);
        assert_eq!(judge("user", &NativeOutcome::Abort), Verdict::NotReproduced);
        let assume = NativeOutcome::AssumptionViolated {
            message: String::new(),
        };
        assert_eq!(judge("user", &assume), Verdict::Reproduced);
        assert_eq!(judge("ptr", &assume), Verdict::NotReproduced);
        let ill = NativeOutcome::Signal {
            number: 4,
            name: "SIGILL".into(),
        };
        assert_eq!(judge("unreachable", &ill), Verdict::Reproduced);
        assert_eq!(
            judge("exec", &NativeOutcome::Exit { code: 0 }),
            Verdict::Unchecked
        );
        let div_report = NativeOutcome::ReportError {
            message: String::new(),
            suffix: "div.err".into(),
        };
        assert_eq!(judge("div", &div_report), Verdict::Reproduced);
        assert_eq!(judge("model", &div_report), Verdict::Unchecked);
    }
}
