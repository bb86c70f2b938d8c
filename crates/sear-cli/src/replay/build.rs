//! Building the program under test natively, with sanitizers, against the replay runtime.

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{bail, Context, Result};

/// The environment variable naming the clang to use (default `clang-19`).
pub const CLANG_ENV: &str = "SEAR_CLANG";

/// Sanitizer checks every replay build has: ASan for memory errors and the UBSan checks that
/// match sear's `div`, `overshift` and `unreachable_call` errors.
const BASE_SANITIZERS: &str = "address,integer-divide-by-zero,shift-exponent,unreachable";

/// Flags of a bitcode build that make no sense for a native executable.
const DROPPED_FLAGS: &[&str] = &["-emit-llvm", "-c", "-S", "-flto"];

/// What to build.
#[derive(Clone, Debug)]
pub struct BuildConfig {
    /// The clang executable.
    pub clang: String,
    /// sear's runtime directory (holds `include/` and `replay/sear_replay.c`).
    pub runtime_dir: PathBuf,
    /// The C source of the program under test.
    pub program: PathBuf,
    /// Extra compiler flags for the program (include dirs, defines, user flags).
    pub cflags: Vec<String>,
    /// Also check signed integer overflow (when sear reported `overflow` errors).
    pub check_overflow: bool,
    /// Interpose `read` and `write` to replay `--fd-fail` failures.
    pub fd_fail: bool,
}

impl BuildConfig {
    /// The clang named by `SEAR_CLANG`, or `clang-19`.
    pub fn default_clang() -> String {
        std::env::var(CLANG_ENV).unwrap_or_else(|_| "clang-19".to_string())
    }

    fn sanitize_flag(&self) -> String {
        let mut checks = BASE_SANITIZERS.to_string();
        if self.check_overflow {
            checks.push_str(",signed-integer-overflow");
        }
        format!("-fsanitize={checks}")
    }
}

/// Compiles the runtime and the program into `out_dir` and returns the executable's path.
pub fn build(config: &BuildConfig, out_dir: &Path) -> Result<PathBuf> {
    let include = config.runtime_dir.join("include");
    let runtime_src = config.runtime_dir.join("replay/sear_replay.c");
    if !runtime_src.is_file() {
        bail!("replay runtime {} not found", runtime_src.display());
    }
    let common = [
        "-g".to_string(),
        "-O0".to_string(),
        "-fno-omit-frame-pointer".to_string(),
        config.sanitize_flag(),
        "-fno-sanitize-recover=all".to_string(),
    ];

    // The runtime gets only our flags, so user flags such as -Werror cannot break it.
    let runtime_obj = out_dir.join("sear_replay.o");
    let mut cmd = Command::new(&config.clang);
    if config.fd_fail {
        cmd.arg("-DSEAR_REPLAY_FD_FAIL");
    }
    cmd.args(&common)
        .arg("-I")
        .arg(&include)
        .arg("-c")
        .arg(&runtime_src)
        .arg("-o")
        .arg(&runtime_obj);
    run_compiler(cmd, "the replay runtime")?;

    let exe = out_dir.join("replay-program");
    let mut cmd = Command::new(&config.clang);
    cmd.args(&common)
        .arg("-I")
        .arg(&include)
        .args(filter_cflags(&config.cflags))
        .arg(&config.program)
        .arg(&runtime_obj)
        .arg("-lm")
        .arg("-o")
        .arg(&exe);
    run_compiler(cmd, &config.program.display().to_string())?;
    Ok(exe)
}

/// Drops flags meant for a bitcode build (`-emit-llvm`, `-c`, `-o <file>`, ...).
pub fn filter_cflags(flags: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    let mut iter = flags.iter();
    while let Some(flag) = iter.next() {
        if flag == "-o" {
            iter.next();
        } else if !DROPPED_FLAGS.contains(&flag.as_str()) && !flag.starts_with("-o") {
            out.push(flag.clone());
        }
    }
    out
}

fn run_compiler(mut cmd: Command, what: &str) -> Result<()> {
    let output = cmd
        .output()
        .with_context(|| format!("cannot run {:?}", cmd.get_program()))?;
    if !output.status.success() {
        bail!(
            "building {what} for replay failed ({}):\n{}",
            output.status,
            String::from_utf8_lossy(&output.stderr)
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bitcode_flags_are_dropped() {
        let flags: Vec<String> = [
            "-emit-llvm",
            "-c",
            "-DX=1",
            "-o",
            "a.bc",
            "-I/inc",
            "-oa.bc",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        assert_eq!(filter_cflags(&flags), vec!["-DX=1", "-I/inc"]);
    }
}
