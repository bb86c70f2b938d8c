//! Terminal output that never fails: stdout and stderr may be closed pipes (`sear run ... |
//! head -1`), and Rust ignores SIGPIPE, so `println!`/`eprintln!` would panic on EPIPE and
//! lose the run. Everything the CLI prints goes through these macros, which drop write
//! errors: the outputs that matter are in the output directory.

/// `print!` that ignores write errors.
macro_rules! out {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = write!(std::io::stdout().lock(), $($arg)*);
    }};
}

/// `println!` that ignores write errors.
macro_rules! outln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stdout().lock(), $($arg)*);
    }};
}

/// `eprintln!` that ignores write errors.
macro_rules! errln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr().lock(), $($arg)*);
    }};
}

pub(crate) use {errln, out, outln};
