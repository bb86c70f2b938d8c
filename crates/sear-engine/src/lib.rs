//! sear's executor: execution states, memory, searchers, special functions and outputs.
//!
//! [`run`] is the entry point: it takes a lowered module and a configuration and explores
//! the program's paths, writing a test for each path and a report for each error.

pub(crate) mod arrayopt;
pub mod config;
pub mod executor;
pub mod locals;
pub mod loop_merge;
pub mod memory;
pub mod merge;
pub mod output;
pub mod pat;
pub mod path;
pub mod program_output;
pub mod search;
pub mod seed;
pub mod solver_view;
pub mod state;
pub mod stats;
pub mod sym_size;
pub mod termination;
pub mod value;
pub mod work;

use std::sync::Arc;

pub use config::{EngineConfig, MemoryModelKind, SearchKind};
pub use executor::{
    halt_budget, EngineError, Executor, Observer, Quiet, StopReason, INTERIM_STOP_REASON,
};
pub use output::Summary;
pub use termination::{ErrorKind, Termination};

/// Runs `module` under `config` and returns the run's summary.
pub fn run(
    module: Arc<sear_ir::Module>,
    config: EngineConfig,
    solver: &sear_solver::SolverConfig,
    observer: &mut dyn Observer,
) -> Result<Summary, EngineError> {
    Executor::new(module, config, solver, observer)?.run()
}
