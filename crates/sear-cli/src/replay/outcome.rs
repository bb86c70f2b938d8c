//! Classifying how a natively replayed test ended, from its exit status and stderr.
//!
//! The replay runtime (`runtime/replay/sear_replay.c`) uses exit codes 79–82 and messages
//! starting with `sear-replay:`; the sanitizers print `ERROR: AddressSanitizer: <kind>` or
//! `runtime error: <message>`.

use std::fmt;

use serde::Serialize;

/// Exit code of the replay runtime: no usable `.ktest`.
pub const EXIT_SETUP: i32 = 79;
/// Exit code of the replay runtime: the program asked for other objects than the test has.
pub const EXIT_MISMATCH: i32 = 80;
/// Exit code of the replay runtime: an assumption did not hold.
pub const EXIT_ASSUME: i32 = 81;
/// Exit code of the replay runtime: `klee_report_error` was called.
pub const EXIT_REPORT_ERROR: i32 = 82;

const SIGABRT: i32 = 6;

/// How a native run ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "outcome", rename_all = "snake_case")]
pub enum NativeOutcome {
    /// The program exited normally with this code.
    Exit {
        /// The exit code.
        code: i32,
    },
    /// AddressSanitizer reported an error.
    Asan {
        /// The kind, e.g. `heap-buffer-overflow`, `double-free`, `bad-free`, `SEGV`, `FPE`.
        kind: String,
        /// The report's first line.
        message: String,
    },
    /// UndefinedBehaviorSanitizer reported an error.
    Ubsan {
        /// The check, e.g. `integer-divide-by-zero`, `shift-exponent`, `signed-integer-overflow`.
        kind: String,
        /// The text after `runtime error: `.
        message: String,
    },
    /// A failed `assert` or `klee_assert`.
    AssertFailed {
        /// The `file:line: function: Assertion ... failed.` line.
        message: String,
        /// The function the assertion is in.
        function: String,
    },
    /// `reach_error` or `__VERIFIER_error` was reached (the replay runtime's versions).
    ReachError,
    /// `abort()` (or `klee_abort`) without an assertion message.
    Abort,
    /// `klee_report_error` was called.
    ReportError {
        /// The error message.
        message: String,
        /// The suffix argument (the error kind), e.g. `user` or `div.err`.
        suffix: String,
    },
    /// Killed by a signal not explained otherwise.
    Signal {
        /// The signal number.
        number: i32,
        /// Its name, e.g. `SIGSEGV`.
        name: String,
    },
    /// The run exceeded the time limit and was killed.
    Timeout,
    /// A `klee_assume` (or similar) did not hold: the test does not follow this path.
    AssumptionViolated {
        /// The replay runtime's message.
        message: String,
    },
    /// The program asked for objects the test does not have.
    InputMismatch {
        /// The replay runtime's message.
        message: String,
    },
    /// The program called a function nothing defines natively (the replay build's stub;
    /// sear reports such calls as `exec` errors).
    UndefinedFunction {
        /// The function's name.
        name: String,
    },
    /// The test could not be set up (unreadable `.ktest` and the like).
    SetupError {
        /// What went wrong.
        message: String,
    },
}

impl NativeOutcome {
    /// True for outcomes that are errors in the program (not normal exits, timeouts or replay
    /// problems).
    pub fn is_program_error(&self) -> bool {
        matches!(
            self,
            NativeOutcome::Asan { .. }
                | NativeOutcome::Ubsan { .. }
                | NativeOutcome::AssertFailed { .. }
                | NativeOutcome::ReachError
                | NativeOutcome::Abort
                | NativeOutcome::ReportError { .. }
                | NativeOutcome::Signal { .. }
        )
    }
}

impl fmt::Display for NativeOutcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NativeOutcome::Exit { code } => write!(f, "exit {code}"),
            NativeOutcome::Asan { kind, .. } => write!(f, "AddressSanitizer {kind}"),
            NativeOutcome::Ubsan { message, .. } => write!(f, "UBSan: {message}"),
            NativeOutcome::AssertFailed { message, .. } => write!(f, "assertion failed: {message}"),
            NativeOutcome::ReachError => write!(f, "reach_error reached"),
            NativeOutcome::Abort => write!(f, "abort"),
            NativeOutcome::ReportError { message, suffix } => {
                write!(f, "klee_report_error [{suffix}]: {message}")
            }
            NativeOutcome::Signal { name, .. } => write!(f, "killed by {name}"),
            NativeOutcome::Timeout => write!(f, "timeout"),
            NativeOutcome::AssumptionViolated { message } => write!(f, "{message}"),
            NativeOutcome::InputMismatch { message } => write!(f, "{message}"),
            NativeOutcome::SetupError { message } => write!(f, "replay setup error: {message}"),
            NativeOutcome::UndefinedFunction { name } => {
                write!(f, "called {name}, which is not defined natively")
            }
        }
    }
}

/// How the process ended, before classification.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Termination {
    /// Normal exit with a code.
    Exited(i32),
    /// Killed by a signal.
    Signaled(i32),
    /// Killed by us at the time limit.
    TimedOut,
}

/// Classifies a run from how it ended and what it printed on stderr.
pub fn classify(termination: Termination, stderr: &str) -> NativeOutcome {
    if termination == Termination::TimedOut {
        return NativeOutcome::Timeout;
    }
    // Sanitizer reports come first: they explain any exit code or signal that follows.
    // ASan also reports SIGABRT (handle_abort=1, for its stack trace): that is an abort.
    match asan_report(stderr).or_else(|| ubsan_report(stderr)) {
        Some(NativeOutcome::Asan { kind, .. }) if kind == "ABRT" => return classify_abort(stderr),
        Some(outcome) => return outcome,
        None => {}
    }
    match termination {
        Termination::Exited(code) => classify_exit(code, stderr),
        Termination::Signaled(SIGABRT) => classify_abort(stderr),
        Termination::Signaled(number) => NativeOutcome::Signal {
            number,
            name: signal_name(number),
        },
        Termination::TimedOut => NativeOutcome::Timeout,
    }
}

fn classify_exit(code: i32, stderr: &str) -> NativeOutcome {
    let runtime_line = |marker: &str| {
        stderr
            .lines()
            .find_map(|l| l.strip_prefix(marker))
            .map(|rest| rest.trim().to_string())
    };
    match code {
        EXIT_SETUP => {
            if let Some(message) = runtime_line("sear-replay: setup error:") {
                return NativeOutcome::SetupError { message };
            }
        }
        EXIT_MISMATCH => {
            if let Some(message) = runtime_line("sear-replay: input mismatch:") {
                return NativeOutcome::InputMismatch {
                    message: format!("input mismatch: {message}"),
                };
            }
        }
        EXIT_ASSUME => {
            if let Some(message) = runtime_line("sear-replay: assumption violated") {
                return NativeOutcome::AssumptionViolated {
                    message: format!("assumption violated {message}").trim().to_string(),
                };
            }
        }
        EXIT_REPORT_ERROR => {
            if let Some(line) = runtime_line("sear-replay: ERROR:") {
                let (message, suffix) = match line.rsplit_once(" [") {
                    Some((message, suffix)) => (message, suffix.trim_end_matches(']')),
                    None => (line.as_str(), ""),
                };
                return NativeOutcome::ReportError {
                    message: message.to_string(),
                    suffix: suffix.to_string(),
                };
            }
        }
        _ => {}
    }
    NativeOutcome::Exit { code }
}

fn classify_abort(stderr: &str) -> NativeOutcome {
    if let Some(name) = stderr.lines().find_map(|l| {
        l.strip_prefix(super::build::UNDEFINED_FUNCTION_MARKER)
            .and_then(|rest| rest.strip_suffix(" called"))
    }) {
        return NativeOutcome::UndefinedFunction {
            name: name.to_string(),
        };
    }
    if stderr
        .lines()
        .any(|l| l.starts_with("sear-replay: reach_error reached"))
    {
        return NativeOutcome::ReachError;
    }
    let assertion = assert_failure(stderr);
    // A program's own reach_error that aborts: ASan's stack trace shows it.
    let in_reach_error = stderr.lines().any(|l| {
        let l = l.trim_start();
        l.starts_with('#')
            && (l.contains(" in reach_error ") || l.contains(" in __VERIFIER_error "))
    });
    if in_reach_error && assertion.is_none() {
        return NativeOutcome::ReachError;
    }
    assertion.unwrap_or(NativeOutcome::Abort)
}

/// A glibc-style assertion failure, `prog: file:line: function: Assertion `expr' failed.`.
fn assert_failure(stderr: &str) -> Option<NativeOutcome> {
    let line = stderr
        .lines()
        .find(|l| l.contains(": Assertion `") && l.trim_end().ends_with("' failed."))?;
    let before = &line[..line.find(": Assertion `").unwrap_or(0)];
    let function = function_name(before.rsplit(": ").next().unwrap_or(""));
    let message = line
        .strip_prefix("sear-replay: ")
        .unwrap_or(line)
        .trim()
        .to_string();
    Some(NativeOutcome::AssertFailed { message, function })
}

/// The bare name in a `__PRETTY_FUNCTION__` such as `int main(void)` (→ `main`).
fn function_name(pretty: &str) -> String {
    let before_params = pretty.split('(').next().unwrap_or(pretty);
    let name = before_params.split_whitespace().last().unwrap_or("");
    name.trim_start_matches(['*', '&']).to_string()
}

/// Finds `ERROR: AddressSanitizer: <kind> ...` and names the kind.
fn asan_report(stderr: &str) -> Option<NativeOutcome> {
    let line = stderr
        .lines()
        .find(|l| l.contains("ERROR: AddressSanitizer: "))?;
    let rest = &line[line.find("ERROR: AddressSanitizer: ")? + "ERROR: AddressSanitizer: ".len()..];
    let kind = if rest.starts_with("attempting double-free") {
        "double-free".to_string()
    } else if rest.starts_with("attempting free on address which was not malloc()-ed") {
        "bad-free".to_string()
    } else if rest.starts_with("requested allocation size") {
        "allocation-size-too-big".to_string()
    } else {
        let word = rest.split_whitespace().next().unwrap_or("unknown");
        word.trim_end_matches(':').to_string()
    };
    Some(NativeOutcome::Asan {
        kind,
        message: rest.trim().to_string(),
    })
}

/// Finds `<file>:<line>:<col>: runtime error: <message>` and names the check.
fn ubsan_report(stderr: &str) -> Option<NativeOutcome> {
    let line = stderr.lines().find(|l| l.contains("runtime error: "))?;
    let message = line[line.find("runtime error: ")? + "runtime error: ".len()..]
        .trim()
        .to_string();
    let kind = if message.starts_with("division by zero") {
        "integer-divide-by-zero"
    } else if message.starts_with("shift exponent") {
        "shift-exponent"
    } else if message.starts_with("left shift of") {
        "shift-base"
    } else if message.starts_with("signed integer overflow") || message.contains("negation of") {
        "signed-integer-overflow"
    } else if message.starts_with("unsigned integer overflow") {
        "unsigned-integer-overflow"
    } else if message.starts_with("execution reached an unreachable program point") {
        "unreachable"
    } else if message.contains("null pointer") {
        "null"
    } else {
        "other"
    };
    Some(NativeOutcome::Ubsan {
        kind: kind.to_string(),
        message,
    })
}

/// The usual name of a Linux signal.
pub fn signal_name(number: i32) -> String {
    let name = match number {
        1 => "SIGHUP",
        2 => "SIGINT",
        3 => "SIGQUIT",
        4 => "SIGILL",
        5 => "SIGTRAP",
        6 => "SIGABRT",
        7 => "SIGBUS",
        8 => "SIGFPE",
        9 => "SIGKILL",
        11 => "SIGSEGV",
        13 => "SIGPIPE",
        14 => "SIGALRM",
        15 => "SIGTERM",
        24 => "SIGXCPU",
        25 => "SIGXFSZ",
        31 => "SIGSYS",
        _ => return format!("signal {number}"),
    };
    name.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn asan(kind: &str) -> NativeOutcome {
        let stderr = format!(
            "=================================================================\n\
             ==123==ERROR: AddressSanitizer: {kind} on address 0x602 at pc 0x1 bp 0x2 sp 0x3\n"
        );
        classify(Termination::Exited(1), &stderr)
    }

    #[test]
    fn asan_kinds() {
        for kind in [
            "heap-buffer-overflow",
            "stack-buffer-overflow",
            "global-buffer-overflow",
            "heap-use-after-free",
            "SEGV",
        ] {
            assert!(matches!(asan(kind), NativeOutcome::Asan { kind: k, .. } if k == kind));
        }
        let double = "==1==ERROR: AddressSanitizer: attempting double-free on 0x6 in thread T0:\n";
        assert!(
            matches!(classify(Termination::Exited(1), double), NativeOutcome::Asan { kind, .. } if kind == "double-free")
        );
        let bad = "==1==ERROR: AddressSanitizer: attempting free on address which was not malloc()-ed: 0x7ff in thread T0\n";
        assert!(
            matches!(classify(Termination::Exited(1), bad), NativeOutcome::Asan { kind, .. } if kind == "bad-free")
        );
    }

    #[test]
    fn ubsan_checks() {
        let div = "p.c:4:12: runtime error: division by zero\nSUMMARY: UndefinedBehaviorSanitizer: undefined-behavior p.c:4:12\n";
        assert!(
            matches!(classify(Termination::Exited(1), div), NativeOutcome::Ubsan { kind, .. } if kind == "integer-divide-by-zero")
        );
        let shift =
            "p.c:4:12: runtime error: shift exponent 40 is too large for 32-bit type 'int'\n";
        assert!(
            matches!(classify(Termination::Exited(1), shift), NativeOutcome::Ubsan { kind, .. } if kind == "shift-exponent")
        );
    }

    #[test]
    fn runtime_exit_codes() {
        assert_eq!(
            classify(Termination::Exited(0), ""),
            NativeOutcome::Exit { code: 0 }
        );
        assert!(matches!(
            classify(
                Termination::Exited(81),
                "sear-replay: assumption violated (klee_assume)\n"
            ),
            NativeOutcome::AssumptionViolated { .. }
        ));
        // Without the runtime's message, 81 is just an exit code.
        assert_eq!(
            classify(Termination::Exited(81), ""),
            NativeOutcome::Exit { code: 81 }
        );
        assert_eq!(
            classify(
                Termination::Exited(82),
                "sear-replay: ERROR: p.c:3: bad input [user]\n"
            ),
            NativeOutcome::ReportError {
                message: "p.c:3: bad input".into(),
                suffix: "user".into()
            }
        );
        assert!(matches!(
            classify(
                Termination::Exited(80),
                "sear-replay: input mismatch: klee_int asks ...\n"
            ),
            NativeOutcome::InputMismatch { .. }
        ));
    }

    #[test]
    fn aborts() {
        let glibc = "prog: /tmp/p.c:7: int main(void): Assertion `x != 5' failed.\n";
        assert_eq!(
            classify(Termination::Signaled(6), glibc),
            NativeOutcome::AssertFailed {
                message: glibc.trim().into(),
                function: "main".into()
            }
        );
        let reach = "prog: p.c:3: void reach_error(): Assertion `0' failed.\n";
        assert!(matches!(
            classify(Termination::Signaled(6), reach),
            NativeOutcome::AssertFailed { function, .. } if function == "reach_error"
        ));
        assert_eq!(
            classify(
                Termination::Signaled(6),
                "sear-replay: reach_error reached\n"
            ),
            NativeOutcome::ReachError
        );
        assert_eq!(classify(Termination::Signaled(6), ""), NativeOutcome::Abort);
        let asan_abrt = "==1==ERROR: AddressSanitizer: ABRT on unknown address 0x03e9 (pc 0x7f T0)\n\
                         \x20   #0 0x7f in __pthread_kill_implementation nptl/pthread_kill.c:44:76\n\
                         \x20   #3 0x7f in abort stdlib/abort.c:79:7\n";
        assert_eq!(
            classify(Termination::Exited(1), asan_abrt),
            NativeOutcome::Abort
        );
        let asan_reach = format!("{asan_abrt}    #4 0x55 in reach_error /tmp/p.c:4:22\n");
        assert_eq!(
            classify(Termination::Exited(1), &asan_reach),
            NativeOutcome::ReachError
        );
        assert_eq!(
            classify(Termination::Signaled(8), ""),
            NativeOutcome::Signal {
                number: 8,
                name: "SIGFPE".into()
            }
        );
        assert_eq!(
            classify(Termination::TimedOut, "anything"),
            NativeOutcome::Timeout
        );
    }
}
