//! The `sear` command line: `run`, `replay`, `coverage`, `stats`, `solve`, `ktest`.

mod coverage;
mod cxx;
mod indexify_args;
mod memory_args;
mod overrun;
mod parallel;
mod path_args;
mod progress;
mod replay;
mod run;
mod runtime_dir;
mod runtime_link;
mod seed_args;
mod signals;
mod solve;
mod solve_wide;
mod stats;
mod term;
mod testcomp;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// sear: symbolic execution for C programs.
#[derive(Parser)]
#[command(name = "sear", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Explore a C program (or .bc/.ll) symbolically and write a test per path.
    Run(Box<run::RunArgs>),
    /// Replay tests natively (with AddressSanitizer) and check that errors reproduce.
    Replay(replay::ReplayArgs),
    /// Measure line and branch coverage of tests by native replay on a gcov build.
    Coverage(coverage::CoverageArgs),
    /// Print a table of statistics over output directories of sear or KLEE, like klee-stats.
    Stats(stats::StatsArgs),
    /// Answer an SMT-LIB2 (QF_ABV/QF_BV) script through the solver chain, like KLEE's kleaver.
    Solve(solve::SolveArgs),
    /// Print a .ktest file like KLEE's ktest-tool.
    Ktest {
        /// The .ktest files.
        files: Vec<std::path::PathBuf>,
        /// Also print the float value of 4-byte objects and the double value of 8-byte ones.
        #[arg(long)]
        floats: bool,
    },
}

fn main() -> ExitCode {
    tracing_subscriber::fmt()
        .with_env_filter(tracing_subscriber::EnvFilter::from_env("SEAR_LOG"))
        .with_writer(std::io::stderr)
        .init();
    let cli = Cli::parse();
    let result = match &cli.command {
        Command::Run(args) => on_large_stack(|| run::run(args)),
        Command::Replay(args) => replay::run_replay(args),
        Command::Coverage(args) => coverage::run_coverage(args),
        Command::Stats(args) => stats::run_stats(args),
        Command::Solve(args) => solve::run_solve(args),
        Command::Ktest { files, floats } => ktest_dump(files, *floats),
    };
    match result {
        Ok(code) => ExitCode::from(code.clamp(0, 255) as u8),
        Err(e) => {
            crate::term::errln!("sear: error: {}", error_chain(&e));
            ExitCode::from(1)
        }
    }
}

/// The stack of the thread that runs the exploration: 1 GiB of address space, committed
/// only as it is used. Z3 recurses over the depth of the terms it is given, and an update
/// list of 10^5 writes (a symbolic-offset write into a large array of symbolic values) is a
/// store chain that deep, which overflows an 8 MiB stack.
const RUN_STACK_BYTES: usize = 1 << 30;

/// Runs `f` on a thread with a [`RUN_STACK_BYTES`] stack and returns its result (a panic is
/// passed on).
fn on_large_stack<T: Send>(f: impl FnOnce() -> T + Send) -> T {
    std::thread::scope(|scope| {
        let worker = std::thread::Builder::new()
            .name("sear-run".into())
            .stack_size(RUN_STACK_BYTES)
            .spawn_scoped(scope, f)
            .expect("spawning the run's thread");
        worker
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
    })
}

/// The error and its causes, joined by ": ", leaving out a cause whose text the message
/// already contains (errors that print their source, such as `path: io error`, would
/// otherwise repeat it).
fn error_chain(e: &anyhow::Error) -> String {
    let mut text = String::new();
    for cause in e.chain() {
        let part = cause.to_string();
        if text.contains(&part) {
            continue;
        }
        if !text.is_empty() {
            text.push_str(": ");
        }
        text.push_str(&part);
    }
    text
}

fn ktest_dump(files: &[std::path::PathBuf], floats: bool) -> anyhow::Result<i32> {
    for file in files {
        let ktest = sear_ktest::KTest::read(file)
            .map_err(|e| anyhow::anyhow!("{}: {e}", file.display()))?;
        crate::term::out!(
            "{}",
            sear_ktest::dump_named_with(&file.display().to_string(), &ktest, floats)
        );
    }
    Ok(0)
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    /// clap's own consistency checks (unique option ids and names, valid defaults): the
    /// options declared on the library configuration types meet in one command here.
    #[test]
    fn the_command_line_is_consistent() {
        super::Cli::command().debug_assert();
    }

    /// Each on/off switch takes `--flag`, `--flag=on|off` and KLEE's `--flag=false`.
    #[test]
    fn switches_share_one_style() {
        use clap::Parser;
        let parse = |extra: &[&str]| {
            let mut argv = vec!["sear", "run"];
            argv.extend_from_slice(extra);
            argv.push("p.c");
            match super::Cli::try_parse_from(argv).expect("parses").command {
                super::Command::Run(args) => args,
                _ => unreachable!("a run"),
            }
        };
        let defaults = parse(&[]);
        assert!(defaults.engine.dump_states_on_halt);
        assert!(!defaults.solver.ilp_precheck);
        assert!(defaults.solver.array.axiom_extras);
        assert!(!defaults.solver.quantified.core_only);
        assert!(!defaults.engine.sym_size.incremental.enabled);
        let set = parse(&[
            "--dump-states-on-halt=false",
            "--ilp-precheck",
            "--axiom-extras=off",
            "--quantified-procedure=0",
            "--incremental-merge",
        ]);
        assert!(!set.engine.dump_states_on_halt);
        assert!(set.solver.ilp_precheck);
        assert!(!set.solver.array.axiom_extras);
        assert!(set.solver.quantified.core_only);
        assert!(set.engine.sym_size.incremental.enabled);
        assert_eq!(set.program, std::path::PathBuf::from("p.c"));
    }
}
