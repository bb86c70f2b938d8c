//! The test harness of the program suites (`harness = false` targets, libtest-mimic): one
//! trial per program, so that cargo's filter selects programs by name and each is reported
//! as its own test.

use std::path::PathBuf;

use libtest_mimic::{Arguments, Failed, Trial};

/// The threads trials run in when neither `--test-threads` nor `RUST_TEST_THREADS` says:
/// each trial spends most of its time in a `sear` child process (and in replays).
const DEFAULT_THREADS: usize = 4;

/// The command line of the test binary; the thread count defaults to `RUST_TEST_THREADS`,
/// else [`DEFAULT_THREADS`].
pub fn arguments() -> Arguments {
    let mut args = Arguments::from_args();
    if args.test_threads.is_none() {
        let env = std::env::var("RUST_TEST_THREADS").ok();
        args.test_threads = Some(env.and_then(|t| t.parse().ok()).unwrap_or(DEFAULT_THREADS));
    }
    args
}

/// True under `SEAR_BLESS=1`.
pub fn bless_requested() -> bool {
    std::env::var("SEAR_BLESS").is_ok_and(|v| v == "1")
}

/// The name of a program's trial: its path under `tests/` (`c/branch_basic.c`).
pub fn trial_name(program: &std::path::Path) -> String {
    program
        .strip_prefix(super::repo_root().join("tests"))
        .unwrap_or(program)
        .to_string_lossy()
        .into_owned()
}

/// A trial per program: `check(program)` gives the failure message.
pub fn trials(
    programs: Vec<PathBuf>,
    check: impl Fn(&std::path::Path) -> Result<(), String> + Send + Sync + Clone + 'static,
) -> Vec<Trial> {
    programs
        .into_iter()
        .map(|p| {
            let check = check.clone();
            Trial::test(trial_name(&p), move || check(&p).map_err(Failed::from))
        })
        .collect()
}
