//! Running the replay executable on one `.ktest` with a time limit.

use std::fs::File;
use std::io::Read;
use std::os::unix::process::ExitStatusExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{Context, Result};

use super::outcome::Termination;

/// At most this much of stderr is kept.
const MAX_STDERR: u64 = 1 << 20;

/// ASan settings: no leak reports (sear has no leak errors), `malloc` returns NULL on huge
/// sizes as under sear, returning a pointer to a local is caught, and `abort` prints a stack
/// trace (which shows, e.g., that it came from the program's own `reach_error`).
const ASAN_OPTIONS: &str = "detect_leaks=0:allocator_may_return_null=1:\
                            detect_stack_use_after_return=1:handle_abort=1";
const UBSAN_OPTIONS: &str = "print_stacktrace=1:halt_on_error=1";
const SYMBOLIZER: &str = "/usr/lib/llvm-19/bin/llvm-symbolizer";

/// How one run ended and what it printed on stderr.
#[derive(Clone, Debug)]
pub struct RawRun {
    /// Exit, signal or timeout.
    pub termination: Termination,
    /// stderr (up to 1 MiB, lossily decoded).
    pub stderr: String,
    /// Wall-clock time of the run.
    pub duration: Duration,
}

/// Runs `binary argv...` with `SEAR_KTEST=ktest`, in `scratch` (also used for its output).
pub fn run_test(
    binary: &Path,
    ktest: &Path,
    argv: &[String],
    timeout: Duration,
    scratch: &Path,
) -> Result<RawRun> {
    let stderr_path = scratch.join("stderr.txt");
    let stderr_file = File::create(&stderr_path)
        .with_context(|| format!("creating {}", stderr_path.display()))?;
    let ktest = std::path::absolute(ktest).unwrap_or_else(|_| ktest.to_path_buf());
    let mut cmd = Command::new(binary);
    cmd.args(argv)
        .current_dir(scratch)
        .env("SEAR_KTEST", &ktest)
        .env("ASAN_OPTIONS", ASAN_OPTIONS)
        .env("UBSAN_OPTIONS", UBSAN_OPTIONS)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(stderr_file);
    if std::env::var_os("ASAN_SYMBOLIZER_PATH").is_none() && Path::new(SYMBOLIZER).is_file() {
        cmd.env("ASAN_SYMBOLIZER_PATH", SYMBOLIZER);
    }
    let start = Instant::now();
    let mut child = cmd
        .spawn()
        .with_context(|| format!("cannot run {}", binary.display()))?;
    let mut poll = Duration::from_millis(1);
    let termination = loop {
        if let Some(status) = child.try_wait().context("waiting for the replay")? {
            break match (status.code(), status.signal()) {
                (Some(code), _) => Termination::Exited(code),
                (None, Some(signal)) => Termination::Signaled(signal),
                (None, None) => Termination::Exited(-1),
            };
        }
        if start.elapsed() >= timeout {
            // The child may have exited just now; either way it is reaped below.
            let _ = child.kill();
            let _ = child.wait();
            break Termination::TimedOut;
        }
        std::thread::sleep(poll);
        poll = (poll * 2).min(Duration::from_millis(20));
    };
    let duration = start.elapsed();
    let mut bytes = Vec::new();
    File::open(&stderr_path)
        .and_then(|f| f.take(MAX_STDERR).read_to_end(&mut bytes))
        .with_context(|| format!("reading {}", stderr_path.display()))?;
    Ok(RawRun {
        termination,
        stderr: String::from_utf8_lossy(&bytes).into_owned(),
        duration,
    })
}
