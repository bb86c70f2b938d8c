//! Comparing a native run's stdout, stderr and exit code with what sear recorded for the
//! test (`testNNNNNN.stdout`, `.stderr`, `.exit`; see the engine's `program_output`).
//! Only tests whose path exited normally have an `.exit` file; only those are compared.
//! Lines the replay runtime prints on stderr (`sear-replay: ...`) are ignored.

use std::path::Path;

use serde::Serialize;

use super::outcome::NativeOutcome;

/// What sear recorded for a test that exited.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expected {
    /// The exit code.
    pub exit: i32,
    /// stdout.
    pub stdout: Vec<u8>,
    /// stderr.
    pub stderr: Vec<u8>,
}

/// The result of the comparison.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "output", rename_all = "snake_case")]
pub enum OutputCheck {
    /// Same exit code, stdout and stderr.
    Match,
    /// Something differs.
    Mismatch {
        /// What differs, e.g. `stdout differs at byte 3: sear "ab\n", native "ax\n"`.
        detail: String,
    },
}

/// Reads the recorded outcome of test `stem` in `dir`; `None` without an `.exit` file.
pub fn read_expected(dir: &Path, stem: &str) -> Option<Expected> {
    let exit = std::fs::read_to_string(dir.join(format!("{stem}.exit"))).ok()?;
    let exit = exit.trim().parse().ok()?;
    let read =
        |suffix: &str| std::fs::read(dir.join(format!("{stem}.{suffix}"))).unwrap_or_default();
    Some(Expected {
        exit,
        stdout: read("stdout"),
        stderr: read("stderr"),
    })
}

/// Compares a native run with the recorded outcome.
pub fn compare(
    expected: &Expected,
    outcome: &NativeOutcome,
    stdout: &[u8],
    stderr: &[u8],
) -> OutputCheck {
    let code = match outcome {
        NativeOutcome::Exit { code } => *code,
        other => {
            return OutputCheck::Mismatch {
                detail: format!("sear: exit {}, native: {other}", expected.exit),
            }
        }
    };
    // A process exits with the low 8 bits of its status (`exit(-1)` is 255).
    if code != expected.exit & 0xFF {
        return OutputCheck::Mismatch {
            detail: format!("exit code: sear {}, native {code}", expected.exit),
        };
    }
    if let Some(detail) = difference("stdout", &expected.stdout, stdout) {
        return OutputCheck::Mismatch { detail };
    }
    if let Some(detail) = difference("stderr", &expected.stderr, &without_replay_lines(stderr)) {
        return OutputCheck::Mismatch { detail };
    }
    OutputCheck::Match
}

/// stderr without the replay runtime's own lines and the sanitizers' warnings
/// (`==PID==WARNING: ...`, e.g. when `malloc` returns NULL for a huge size).
fn without_replay_lines(stderr: &[u8]) -> Vec<u8> {
    stderr
        .split_inclusive(|&b| b == b'\n')
        .filter(|line| !line.starts_with(b"sear-replay: ") && !is_sanitizer_warning(line))
        .flatten()
        .copied()
        .collect()
}

/// True for a sanitizer's line, such as `==1234==WARNING: AddressSanitizer failed to
/// allocate ...` or `==1234==AddressSanitizer: WARNING: unexpected format specifier ...`.
fn is_sanitizer_warning(line: &[u8]) -> bool {
    let Some(rest) = line.strip_prefix(b"==") else {
        return false;
    };
    let digits = rest.iter().take_while(|b| b.is_ascii_digit()).count();
    digits > 0 && rest[digits..].starts_with(b"==")
}

fn difference(what: &str, sear: &[u8], native: &[u8]) -> Option<String> {
    if sear == native {
        return None;
    }
    let at = sear.iter().zip(native).take_while(|(a, b)| a == b).count();
    let show = |bytes: &[u8]| {
        let from = at.saturating_sub(20);
        let to = (at + 20).min(bytes.len());
        format!("{:?}", String::from_utf8_lossy(&bytes[from.min(to)..to]))
    };
    Some(format!(
        "{what} differs at byte {at}: sear {}, native {}",
        show(sear),
        show(native)
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn expected(exit: i32, stdout: &[u8], stderr: &[u8]) -> Expected {
        Expected {
            exit,
            stdout: stdout.to_vec(),
            stderr: stderr.to_vec(),
        }
    }

    #[test]
    fn equal_runs_match() {
        let e = expected(1, b"a\n", b"warn\n");
        let native_stderr =
            b"sear-replay: warning: x\n==42==WARNING: AddressSanitizer failed\nwarn\n";
        assert_eq!(
            compare(&e, &NativeOutcome::Exit { code: 1 }, b"a\n", native_stderr),
            OutputCheck::Match
        );
    }

    #[test]
    fn differences_are_described() {
        let e = expected(0, b"abc", b"");
        let OutputCheck::Mismatch { detail } =
            compare(&e, &NativeOutcome::Exit { code: 0 }, b"abd", b"")
        else {
            panic!("expected a mismatch");
        };
        assert!(detail.contains("stdout differs at byte 2"), "{detail}");
        let OutputCheck::Mismatch { detail } =
            compare(&e, &NativeOutcome::Exit { code: 3 }, b"abc", b"")
        else {
            panic!("expected a mismatch");
        };
        assert!(detail.contains("exit code: sear 0, native 3"), "{detail}");
        assert_eq!(
            compare(
                &expected(-1, b"", b""),
                &NativeOutcome::Exit { code: 255 },
                b"",
                b""
            ),
            OutputCheck::Match
        );
        assert!(matches!(
            compare(&e, &NativeOutcome::Abort, b"abc", b""),
            OutputCheck::Mismatch { .. }
        ));
        assert!(matches!(
            compare(&e, &NativeOutcome::Exit { code: 0 }, b"abc", b"x"),
            OutputCheck::Mismatch { .. }
        ));
    }

    #[test]
    fn expectations_need_an_exit_file() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(read_expected(dir.path(), "test000001"), None);
        std::fs::write(dir.path().join("test000001.exit"), "2\n").unwrap();
        std::fs::write(dir.path().join("test000001.stdout"), "hi").unwrap();
        assert_eq!(
            read_expected(dir.path(), "test000001"),
            Some(expected(2, b"hi", b""))
        );
    }
}
