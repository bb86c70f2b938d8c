//! Running the replay executable on one `.ktest` with a time limit, in the program's
//! environment plus the replay's control variables, capturing stdout and stderr, under
//! the [`super::clock_guard`] filter and, for root, on a [`super::readonly_root`].

use std::ffi::OsString;
use std::fs::File;
use std::io::Read;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{Context, Result};

use super::outcome::Termination;

/// At most this much of stderr is kept.
const MAX_STDERR: u64 = 1 << 20;
/// At most this much of stdout is kept.
const MAX_STDOUT: u64 = 16 << 20;

/// ASan settings: no leak reports (sear has no leak errors), `malloc` returns NULL on huge
/// sizes as under sear, returning a pointer to a local is caught, and `abort` prints a stack
/// trace (which shows, e.g., that it came from the program's own `reach_error`).
const ASAN_OPTIONS: &str = "detect_leaks=0:allocator_may_return_null=1:\
                            detect_stack_use_after_return=1:handle_abort=1";
const UBSAN_OPTIONS: &str = "print_stacktrace=1:halt_on_error=1";
const SYMBOLIZER: &str = "/usr/lib/llvm-19/bin/llvm-symbolizer";

/// How one run ended and what it printed.
#[derive(Clone, Debug)]
pub struct RawRun {
    /// Exit, signal or timeout.
    pub termination: Termination,
    /// stderr (up to 1 MiB, lossily decoded).
    pub stderr: String,
    /// stderr (up to 1 MiB) as bytes.
    pub stderr_bytes: Vec<u8>,
    /// stdout (up to 16 MiB).
    pub stdout: Vec<u8>,
    /// Wall-clock time of the run.
    pub duration: Duration,
}

/// How to start one native run.
#[derive(Clone, Debug)]
pub struct Launch<'a> {
    /// The replay executable.
    pub binary: &'a Path,
    /// The test (passed in `SEAR_KTEST`).
    pub ktest: &'a Path,
    /// argv[0] as the program sees it.
    pub argv0: OsString,
    /// argv[1..].
    pub args: Vec<OsString>,
    /// A file to use as stdin (default: /dev/null).
    pub stdin: Option<PathBuf>,
    /// The working directory.
    pub cwd: &'a Path,
    /// The replay's scratch directory (holding `cwd`), which the run may write to.
    pub scratch: &'a Path,
    /// Where stdout and stderr are captured (`<capture>.stdout`, `<capture>.stderr`).
    pub capture: PathBuf,
    /// The program's environment (as under sear: its `--env-file` or sear's own).
    pub program_env: Vec<(String, String)>,
    /// The replay's control variables (`SEAR_*`), which the replay library removes from
    /// the environment before `main`.
    pub env: Vec<(String, String)>,
    /// Time limit.
    pub timeout: Duration,
}

/// Runs one test natively: the program's environment, then the control variables.
pub fn run(launch: &Launch) -> Result<RawRun> {
    let stderr_path = launch.capture.with_extension("stderr");
    let stdout_path = launch.capture.with_extension("stdout");
    let stderr_file = File::create(&stderr_path)
        .with_context(|| format!("creating {}", stderr_path.display()))?;
    let stdout_file = File::create(&stdout_path)
        .with_context(|| format!("creating {}", stdout_path.display()))?;
    let stdin = match &launch.stdin {
        Some(path) => {
            Stdio::from(File::open(path).with_context(|| format!("opening {}", path.display()))?)
        }
        None => Stdio::null(),
    };
    let ktest = std::path::absolute(launch.ktest).unwrap_or_else(|_| launch.ktest.to_path_buf());
    let mut cmd = Command::new(launch.binary);
    cmd.arg0(&launch.argv0)
        .args(&launch.args)
        .current_dir(launch.cwd)
        .env_clear()
        .envs(launch.program_env.iter().map(|(k, v)| (k, v)))
        .env("SEAR_KTEST", &ktest)
        .env("ASAN_OPTIONS", ASAN_OPTIONS)
        .env("UBSAN_OPTIONS", UBSAN_OPTIONS)
        .envs(launch.env.iter().map(|(k, v)| (k, v)))
        .stdin(stdin)
        .stdout(stdout_file)
        .stderr(stderr_file);
    match std::env::var_os("ASAN_SYMBOLIZER_PATH") {
        Some(path) => {
            cmd.env("ASAN_SYMBOLIZER_PATH", path);
        }
        None if Path::new(SYMBOLIZER).is_file() => {
            cmd.env("ASAN_SYMBOLIZER_PATH", SYMBOLIZER);
        }
        None => {}
    }
    let root = super::readonly_root::ReadOnlyRoot::new(
        &[&std::env::temp_dir(), launch.scratch],
        launch.cwd,
    );
    let guard = super::clock_guard::ClockGuard::new();
    // SAFETY: `enter` and `install` only make system calls; they do not allocate.
    unsafe {
        cmd.pre_exec(move || {
            root.enter();
            guard.install()
        })
    };
    let timeout = launch.timeout;
    let start = Instant::now();
    let mut child = cmd
        .spawn()
        .with_context(|| format!("cannot run {}", launch.binary.display()))?;
    let termination = wait_until(&mut child, start + timeout)?;
    let duration = start.elapsed();
    let stderr_bytes = read_prefix(&stderr_path, MAX_STDERR)?;
    let stdout = read_prefix(&stdout_path, MAX_STDOUT)?;
    Ok(RawRun {
        termination,
        stderr: String::from_utf8_lossy(&stderr_bytes).into_owned(),
        stderr_bytes,
        stdout,
        duration,
    })
}

/// Waits for `child` to end, or for `deadline` (then stops it: [`Termination::TimedOut`]).
///
/// The wait blocks on a pidfd (Linux 5.3 and later), so a test is collected as soon as it
/// ends; `sear coverage` replays tens of thousands of tests that each run for a few
/// milliseconds, where sleeping between polls had cost as much as the tests themselves. A
/// kernel without pidfds gets the polling loop. (Written on libc rather than the
/// `wait-timeout` crate: that one installs a process-wide SIGCHLD handler, and the replay
/// waits on several children from several threads.)
fn wait_until(child: &mut std::process::Child, deadline: Instant) -> Result<Termination> {
    let pidfd = PidFd::open(child.id());
    let mut poll = Duration::from_millis(1);
    loop {
        if let Some(status) = child.try_wait().context("waiting for the replay")? {
            return Ok(match (status.code(), status.signal()) {
                (Some(code), _) => Termination::Exited(code),
                (None, Some(signal)) => Termination::Signaled(signal),
                (None, None) => Termination::Exited(-1),
            });
        }
        let now = Instant::now();
        if now >= deadline {
            stop(child);
            return Ok(Termination::TimedOut);
        }
        match &pidfd {
            Some(fd) => fd.wait_readable(deadline - now),
            None => {
                std::thread::sleep(poll.min(deadline - now));
                poll = (poll * 2).min(Duration::from_millis(20));
            }
        }
    }
}

/// A pidfd: a file descriptor that becomes readable when its process ends.
struct PidFd(std::os::fd::OwnedFd);

impl PidFd {
    /// The pidfd of `pid`, or None where the kernel has none.
    fn open(pid: u32) -> Option<PidFd> {
        use std::os::fd::FromRawFd;
        // SAFETY: pidfd_open(2) takes a pid and flags and returns a new descriptor or -1.
        let fd = unsafe { libc::syscall(libc::SYS_pidfd_open, pid as libc::pid_t, 0) };
        let fd = i32::try_from(fd).ok().filter(|fd| *fd >= 0)?;
        // SAFETY: `fd` was just returned by the kernel and is owned by nobody else.
        Some(PidFd(unsafe { std::os::fd::OwnedFd::from_raw_fd(fd) }))
    }

    /// Blocks until the process ends or `timeout` passes (or a signal interrupts the wait).
    fn wait_readable(&self, timeout: Duration) {
        use std::os::fd::AsRawFd;
        let mut fds = libc::pollfd {
            fd: self.0.as_raw_fd(),
            events: libc::POLLIN,
            revents: 0,
        };
        let ms = timeout.as_millis().clamp(1, i32::MAX as u128) as libc::c_int;
        // SAFETY: one valid pollfd, for at most `ms` milliseconds.
        unsafe { libc::poll(&mut fds, 1, ms) };
    }
}

/// Ends a run over its time limit: SIGTERM first (a coverage build writes its counters
/// then), SIGKILL after [`TERM_GRACE`]. The child is reaped either way.
fn stop(child: &mut std::process::Child) {
    if let Ok(pid) = libc::pid_t::try_from(child.id()) {
        // SAFETY: kill(2) on our own child, which is not reaped yet, so the pid is its own.
        unsafe { libc::kill(pid, libc::SIGTERM) };
        let deadline = Instant::now() + TERM_GRACE;
        while Instant::now() < deadline {
            if matches!(child.try_wait(), Ok(Some(_))) {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }
    // The child may have exited just now; either way it is reaped here.
    let _ = child.kill();
    let _ = child.wait();
}

/// How long a run over its time limit gets between SIGTERM and SIGKILL.
const TERM_GRACE: Duration = Duration::from_secs(2);

fn read_prefix(path: &Path, max: u64) -> Result<Vec<u8>> {
    let mut bytes = Vec::new();
    File::open(path)
        .and_then(|f| f.take(max).read_to_end(&mut bytes))
        .with_context(|| format!("reading {}", path.display()))?;
    Ok(bytes)
}
