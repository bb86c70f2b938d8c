//! Errors of loading, lowering, verifying and compiling.

use std::path::PathBuf;

/// Everything that can go wrong in `sear-ir`.
#[derive(Debug, thiserror::Error)]
pub enum IrError {
    /// A file could not be read or written.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The underlying error.
        source: std::io::Error,
    },
    /// LLVM could not parse a bitcode or textual IR file.
    #[error("{}: cannot parse LLVM IR: {message}", path.display())]
    Parse {
        /// The file.
        path: PathBuf,
        /// LLVM's message.
        message: String,
    },
    /// The module parsed but LLVM's verifier rejected it.
    #[error("{}: invalid LLVM module: {message}", path.display())]
    InvalidModule {
        /// The file.
        path: PathBuf,
        /// LLVM's verifier output.
        message: String,
    },
    /// The module targets a machine sear cannot execute (big endian, 32-bit pointers).
    #[error("{}: unsupported target: {message}", path.display())]
    UnsupportedTarget {
        /// The file.
        path: PathBuf,
        /// What is wrong with the target.
        message: String,
    },
    /// The lowered IR broke one of its invariants (a bug in sear).
    #[error("sear IR verification failed: {0}")]
    Verify(String),
    /// An external tool (clang-19, llvm-link-19) was not found.
    #[error("{tool} not found on PATH or in /usr/lib/llvm-19/bin; run scripts/setup.sh")]
    ToolNotFound {
        /// The tool's name.
        tool: String,
    },
    /// An external tool could not be started.
    #[error("cannot run {tool}: {source}")]
    ToolSpawn {
        /// The tool's path.
        tool: String,
        /// The underlying error.
        source: std::io::Error,
    },
    /// clang failed to compile a C file; `diagnostics` is clang's output, verbatim.
    #[error("compiling {} failed ({status}):\n{diagnostics}", source_file.display())]
    Compile {
        /// The C file.
        source_file: PathBuf,
        /// The exit status.
        status: String,
        /// clang's diagnostics exactly as printed.
        diagnostics: String,
    },
    /// llvm-link failed.
    #[error("linking {} failed ({status}):\n{diagnostics}", output.display())]
    Link {
        /// The output file.
        output: PathBuf,
        /// The exit status.
        status: String,
        /// llvm-link's diagnostics exactly as printed.
        diagnostics: String,
    },
}
