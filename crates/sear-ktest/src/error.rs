//! The error type of `.ktest` reading and writing.

use std::path::PathBuf;

/// Why a `.ktest` file could not be read or written.
#[derive(Debug, thiserror::Error)]
pub enum KTestError {
    /// The file could not be read or written.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file involved.
        path: PathBuf,
        /// The underlying I/O error.
        source: std::io::Error,
    },
    /// The file does not start with `KTEST` (or the legacy `BOUT\n`).
    #[error("not a .ktest file (bad magic)")]
    BadMagic,
    /// The file has a version newer than this reader understands.
    #[error("unsupported .ktest version {0} (at most {max} is supported)", max = crate::CURRENT_VERSION)]
    UnsupportedVersion(u32),
    /// The file ends before a field is complete.
    #[error(
        "truncated .ktest file: {what} at byte {offset} needs {needed} bytes, {available} left"
    )]
    Truncated {
        /// The field being read.
        what: &'static str,
        /// Where the field starts.
        offset: usize,
        /// How many bytes the field needs.
        needed: u64,
        /// How many bytes were left.
        available: usize,
    },
    /// Bytes remain after the last object.
    #[error("corrupt .ktest file: {0} unexpected bytes after the last object")]
    TrailingBytes(usize),
    /// A count or length does not fit in the format's 32-bit fields.
    #[error("cannot write .ktest file: {what} ({value}) does not fit in 32 bits")]
    TooLarge {
        /// The field that overflowed.
        what: &'static str,
        /// Its value.
        value: usize,
    },
}
