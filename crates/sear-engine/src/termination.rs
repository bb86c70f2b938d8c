//! How paths end: one table of termination kinds with their class and `.err` suffix.

use serde::Serialize;

/// Result of executing part of an instruction: `Err` ends the current path.
pub type Exec<T> = Result<T, Termination>;

/// Coarse classes of terminations.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum TerminationClass {
    /// The program returned from `main` or called `exit`.
    Exit,
    /// The program has a bug (or violated a property).
    ProgramError,
    /// sear could not continue this path (unsupported feature, solver failure).
    ExecutionError,
    /// The path was cut short by a limit or an interruption.
    Early,
    /// The path ended without a test (e.g. `klee_silent_exit`).
    Silent,
}

/// Why a path ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Termination {
    /// Normal exit with the program's exit status.
    Exit(i32),
    /// An error found in the program or reported by it.
    Error {
        /// The kind, which is the `.err` suffix (`ptr`, `div`, `assert`, ...).
        kind: ErrorKind,
        /// The message.
        message: String,
    },
    /// Early termination (limits, interruption); no `.err` file.
    Early(String),
    /// Terminated without writing a test.
    Silent,
    /// Not an end: the path reached `klee_close_merge` of merge group `.0` and waits there
    /// for the group's other paths (`executor/merging.rs`).
    Suspend(u32),
    /// Not an end: a path of a merging context left its loop and waits there for the
    /// context's other paths (`executor/loop_merging.rs`).
    LoopExit,
    /// Not an end: the current state was reset to the start of the whole operation it was
    /// in (a fork policy had it follow a side that restarts the operation); the step that
    /// returns it ends without error and the state runs on (`executor/fork.rs`).
    Restart,
    /// Not an end here: the path is explored by another worker of a parallel run (it was
    /// given away before, `work.rs`); it leaves this worker without a test or a count.
    Elsewhere,
}

/// Error kinds, named after KLEE's `.err` suffixes.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ErrorKind {
    /// Out-of-bounds, null or use-after-free access; invalid pointer.
    Ptr,
    /// Invalid or double free.
    Free,
    /// Division or remainder by zero.
    Div,
    /// Shift by at least the bit width.
    Overshift,
    /// A failed `assert` or `klee_assert`.
    Assert,
    /// A call to `abort`.
    Abort,
    /// A misuse of the klee.h API (e.g. an infeasible `klee_assume`).
    User,
    /// Something sear does not support (named in the message).
    Exec,
    /// The solver failed or timed out on this path.
    Solver,
    /// A modelled environment limit (e.g. a symbolic size too large).
    Model,
    /// `memcpy` between overlapping ranges (ASan's `memcpy-param-overlap`).
    Overlap,
    /// `reach_error()` was called (SV-COMP).
    Reach,
    /// An `unreachable` instruction was executed.
    Unreachable,
    /// A kind reported by `klee_report_error` (its suffix without `.err`).
    Custom(String),
}

impl ErrorKind {
    /// The file suffix without `.err` (e.g. `ptr`).
    pub fn suffix(&self) -> &str {
        match self {
            ErrorKind::Ptr => "ptr",
            ErrorKind::Free => "free",
            ErrorKind::Div => "div",
            ErrorKind::Overshift => "overshift",
            ErrorKind::Assert => "assert",
            ErrorKind::Abort => "abort",
            ErrorKind::User => "user",
            ErrorKind::Exec => "exec",
            ErrorKind::Solver => "solver",
            ErrorKind::Model => "model",
            ErrorKind::Overlap => "overlap",
            ErrorKind::Reach => "reach",
            ErrorKind::Unreachable => "unreachable",
            ErrorKind::Custom(s) => s,
        }
    }

    /// The kind for a `klee_report_error` suffix such as `"div.err"` or `"my"`.
    pub fn from_suffix(suffix: &str) -> ErrorKind {
        let s = suffix.strip_suffix(".err").unwrap_or(suffix);
        match s {
            "ptr" => ErrorKind::Ptr,
            "free" => ErrorKind::Free,
            "div" => ErrorKind::Div,
            "overshift" => ErrorKind::Overshift,
            "assert" => ErrorKind::Assert,
            "abort" => ErrorKind::Abort,
            "user" => ErrorKind::User,
            "exec" => ErrorKind::Exec,
            "solver" => ErrorKind::Solver,
            "model" => ErrorKind::Model,
            "overlap" => ErrorKind::Overlap,
            "reach" => ErrorKind::Reach,
            "unreachable" => ErrorKind::Unreachable,
            other => {
                let clean: String = other
                    .chars()
                    .filter(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '-')
                    .collect();
                ErrorKind::Custom(if clean.is_empty() {
                    "report".into()
                } else {
                    clean
                })
            }
        }
    }

    /// The `.err` suffix a kind name stands for: sear's suffixes as they are, KLEE's
    /// termination type names (`Ptr`, `ReadOnly`, `Execution`, `UnreachableCall`, ...) in
    /// snake case (`Execution` is `exec`).
    pub fn suffix_for_name(name: &str) -> String {
        let mut out = String::new();
        for (i, c) in name.trim().chars().enumerate() {
            if c.is_ascii_uppercase() && i > 0 {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
        }
        if out == "execution" {
            "exec".into()
        } else {
            out
        }
    }

    /// The class of this kind.
    pub fn class(&self) -> TerminationClass {
        match self {
            ErrorKind::Exec | ErrorKind::Solver => TerminationClass::ExecutionError,
            _ => TerminationClass::ProgramError,
        }
    }
}

impl Termination {
    /// The class of this termination.
    pub fn class(&self) -> TerminationClass {
        match self {
            Termination::Exit(_) => TerminationClass::Exit,
            Termination::Error { kind, .. } => kind.class(),
            Termination::Early(_) => TerminationClass::Early,
            Termination::Silent
            | Termination::Suspend(_)
            | Termination::LoopExit
            | Termination::Restart
            | Termination::Elsewhere => TerminationClass::Silent,
        }
    }

    /// An error termination.
    pub fn error(kind: ErrorKind, message: impl Into<String>) -> Termination {
        Termination::Error {
            kind,
            message: message.into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::ErrorKind;

    #[test]
    fn klee_type_names_map_to_suffixes() {
        assert_eq!(ErrorKind::suffix_for_name("Assert"), "assert");
        assert_eq!(ErrorKind::suffix_for_name("ReadOnly"), "read_only");
        assert_eq!(ErrorKind::suffix_for_name("Execution"), "exec");
        assert_eq!(ErrorKind::suffix_for_name("ptr"), "ptr");
    }
}
