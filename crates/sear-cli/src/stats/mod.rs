//! `sear stats OUT...`: one row of statistics per output directory, like KLEE's `klee-stats`,
//! as an aligned table, CSV or JSON.
//!
//! A directory of `sear run` is read from its `summary.json` (and `coverage/coverage.json`
//! if `sear coverage` wrote one there) ([`sear_dir`]); a directory of KLEE from its `info`
//! text and its `run.stats` SQLite database ([`klee_dir`]). Both give a [`RunStats`], whose
//! figures become the columns of [`COLUMNS`], named as `klee-stats` names them where it has
//! the figure ([`render`]).

pub mod klee_dir;
pub mod render;
pub mod sear_dir;

use std::path::{Path, PathBuf};

use anyhow::{bail, Result};

/// Arguments of `sear stats`.
#[derive(Clone, Debug, clap::Args)]
pub struct StatsArgs {
    /// Output directories of `sear run` (with summary.json) or of KLEE (with info and
    /// run.stats).
    #[arg(required = true, value_name = "OUT_DIR")]
    pub dirs: Vec<PathBuf>,
    /// Prints JSON: {"rows": [...], "total": ...}, one object per directory keyed by column.
    #[arg(long, conflicts_with = "csv")]
    pub json: bool,
    /// Prints comma-separated values: a header line, then one line per directory.
    #[arg(long)]
    pub csv: bool,
}

/// Which tool wrote an output directory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tool {
    /// `sear run`.
    Sear,
    /// KLEE.
    Klee,
}

impl Tool {
    /// The name shown in the `Tool` column.
    pub fn name(self) -> &'static str {
        match self {
            Tool::Sear => "sear",
            Tool::Klee => "klee",
        }
    }
}

/// The figures of one run, each `None` when the directory does not record it.
#[derive(Clone, Debug, PartialEq)]
pub struct RunStats {
    /// The tool that wrote the directory.
    pub tool: Tool,
    /// Instructions executed.
    pub instructions: Option<u64>,
    /// Wall time of the run, in seconds.
    pub wall_time_s: Option<f64>,
    /// CPU time in user mode, in seconds.
    pub user_time_s: Option<f64>,
    /// CPU time in user and system mode, in seconds.
    pub cpu_time_s: Option<f64>,
    /// Instructions of the program that some path executed.
    pub covered_instructions: Option<u64>,
    /// Instructions of the program (KLEE's `ICount`).
    pub total_instructions: Option<u64>,
    /// LLVM conditional-branch coverage in percent (KLEE's `BCov`).
    pub branch_coverage: Option<f64>,
    /// Time in the solver chain (caches and solver), in seconds.
    pub solver_time_s: Option<f64>,
    /// Time in the constraint solver itself (the core), in seconds.
    pub query_time_s: Option<f64>,
    /// Queries issued to the solver chain.
    pub queries: Option<u64>,
    /// Queries that reached the constraint solver (core queries).
    pub solver_queries: Option<u64>,
    /// Paths that returned from main or called exit.
    pub completed_paths: Option<u64>,
    /// Paths ended early (limits, halt, silent exits), errors not included.
    pub partial_paths: Option<u64>,
    /// Paths ended by an error.
    pub error_paths: Option<u64>,
    /// Test cases written.
    pub tests: Option<u64>,
    /// Errors reported (`.err` files).
    pub errors: Option<u64>,
    /// Source line coverage of the tests, in percent (`sear coverage`).
    pub source_line_coverage: Option<f64>,
    /// Source branch coverage of the tests, in percent (`sear coverage`).
    pub source_branch_coverage: Option<f64>,
    /// The largest number of states alive at once.
    pub max_states: Option<u64>,
    /// Peak memory in MiB (sear: the resident set size; KLEE: its largest malloc usage).
    pub max_memory_mib: Option<f64>,
    /// Why the run stopped (sear's `stop_reason`).
    pub stop_reason: Option<String>,
}

impl RunStats {
    /// Statistics of `tool` with every figure missing.
    pub fn empty(tool: Tool) -> Self {
        RunStats {
            tool,
            instructions: None,
            wall_time_s: None,
            user_time_s: None,
            cpu_time_s: None,
            covered_instructions: None,
            total_instructions: None,
            branch_coverage: None,
            solver_time_s: None,
            query_time_s: None,
            queries: None,
            solver_queries: None,
            completed_paths: None,
            partial_paths: None,
            error_paths: None,
            tests: None,
            errors: None,
            source_line_coverage: None,
            source_branch_coverage: None,
            max_states: None,
            max_memory_mib: None,
            stop_reason: None,
        }
    }

    /// Covered instructions in percent of the program's (KLEE's `ICov`).
    pub fn instruction_coverage(&self) -> Option<f64> {
        let total = self.total_instructions?;
        let covered = self.covered_instructions?;
        (total > 0).then(|| 100.0 * covered as f64 / total as f64)
    }

    /// Solver-chain time in percent of the wall time (KLEE's `TSolver(%)`).
    pub fn solver_share(&self) -> Option<f64> {
        let wall = self.wall_time_s?;
        let solver = self.solver_time_s?;
        (wall > 0.0).then(|| 100.0 * solver / wall)
    }
}

/// One cell of the table.
#[derive(Clone, Debug, PartialEq)]
pub enum Cell {
    /// Text, centred in the table.
    Text(String),
    /// A count.
    Int(u64),
    /// A measure (times, percentages, MiB), two decimals in the table.
    Float(f64),
    /// Not recorded.
    Missing,
}

impl<T: Into<Cell>> From<Option<T>> for Cell {
    fn from(value: Option<T>) -> Self {
        value.map_or(Cell::Missing, Into::into)
    }
}

impl From<u64> for Cell {
    fn from(value: u64) -> Self {
        Cell::Int(value)
    }
}

impl From<f64> for Cell {
    fn from(value: f64) -> Self {
        Cell::Float(value)
    }
}

impl From<String> for Cell {
    fn from(value: String) -> Self {
        Cell::Text(value)
    }
}

/// How the total row combines a column's cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Total {
    /// No total (text columns).
    None,
    /// The sum.
    Sum,
    /// The mean of the rows that have the figure (as klee-stats does for percentages).
    Mean,
    /// The largest.
    Max,
}

/// A column: its header, how the total combines it, and its cell for a run.
pub struct Column {
    /// The header (klee-stats' name where klee-stats has the figure).
    pub name: &'static str,
    /// How the total row combines the column.
    pub total: Total,
    /// The cell of a run.
    pub cell: fn(&RunStats) -> Cell,
}

/// Every column after `Path`, in order.
pub const COLUMNS: &[Column] = &[
    Column {
        name: "Tool",
        total: Total::None,
        cell: |r| Cell::Text(r.tool.name().into()),
    },
    Column {
        name: "Instrs",
        total: Total::Sum,
        cell: |r| r.instructions.into(),
    },
    Column {
        name: "Time(s)",
        total: Total::Sum,
        cell: |r| r.wall_time_s.into(),
    },
    Column {
        name: "TUser(s)",
        total: Total::Sum,
        cell: |r| r.user_time_s.into(),
    },
    Column {
        name: "TCPU(s)",
        total: Total::Sum,
        cell: |r| r.cpu_time_s.into(),
    },
    Column {
        name: "ICov(%)",
        total: Total::Mean,
        cell: |r| r.instruction_coverage().into(),
    },
    Column {
        name: "BCov(%)",
        total: Total::Mean,
        cell: |r| r.branch_coverage.into(),
    },
    Column {
        name: "ICount",
        total: Total::Sum,
        cell: |r| r.total_instructions.into(),
    },
    Column {
        name: "TSolver(%)",
        total: Total::Mean,
        cell: |r| r.solver_share().into(),
    },
    Column {
        name: "TSolver(s)",
        total: Total::Sum,
        cell: |r| r.solver_time_s.into(),
    },
    Column {
        name: "TQuery(s)",
        total: Total::Sum,
        cell: |r| r.query_time_s.into(),
    },
    Column {
        name: "Queries",
        total: Total::Sum,
        cell: |r| r.queries.into(),
    },
    Column {
        name: "SolverQueries",
        total: Total::Sum,
        cell: |r| r.solver_queries.into(),
    },
    Column {
        name: "Completed",
        total: Total::Sum,
        cell: |r| r.completed_paths.into(),
    },
    Column {
        name: "Partial",
        total: Total::Sum,
        cell: |r| r.partial_paths.into(),
    },
    Column {
        name: "ErrorPaths",
        total: Total::Sum,
        cell: |r| r.error_paths.into(),
    },
    Column {
        name: "Tests",
        total: Total::Sum,
        cell: |r| r.tests.into(),
    },
    Column {
        name: "Errors",
        total: Total::Sum,
        cell: |r| r.errors.into(),
    },
    Column {
        name: "SrcLCov(%)",
        total: Total::Mean,
        cell: |r| r.source_line_coverage.into(),
    },
    Column {
        name: "SrcBCov(%)",
        total: Total::Mean,
        cell: |r| r.source_branch_coverage.into(),
    },
    Column {
        name: "MaxActiveStates",
        total: Total::Max,
        cell: |r| r.max_states.into(),
    },
    Column {
        name: "MaxMem(MiB)",
        total: Total::Max,
        cell: |r| r.max_memory_mib.into(),
    },
    Column {
        name: "Stop",
        total: Total::None,
        cell: |r| r.stop_reason.clone().into(),
    },
];

/// Reads one output directory: sear's if it has `summary.json`, KLEE's if it has `info` and
/// `run.stats`; an error naming the directory otherwise.
pub fn read_dir(dir: &Path) -> Result<RunStats> {
    if !dir.exists() {
        bail!("{}: no such directory", dir.display());
    }
    if !dir.is_dir() {
        bail!("{}: not a directory", dir.display());
    }
    if dir.join("summary.json").is_file() {
        return sear_dir::read(dir);
    }
    if dir.join("info").is_file() && dir.join("run.stats").is_file() {
        return klee_dir::read(dir);
    }
    bail!(
        "{}: not an output directory of sear (no summary.json) or of KLEE (no info and run.stats)",
        dir.display()
    )
}

/// `sear stats`: reads every directory (stopping at the first bad one, which the error
/// names) and prints the table, CSV or JSON.
pub fn run_stats(args: &StatsArgs) -> Result<i32> {
    let runs = args
        .dirs
        .iter()
        .map(|dir| read_dir(dir))
        .collect::<Result<Vec<_>>>()?;
    let paths = render::display_paths(&args.dirs);
    let text = if args.json {
        render::json(&paths, &runs)
    } else if args.csv {
        render::csv(&paths, &runs)
    } else {
        render::table(&paths, &runs)
    };
    crate::term::out!("{text}");
    Ok(0)
}
