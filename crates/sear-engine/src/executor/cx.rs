//! The step context: what an instruction may touch when it makes no new path.
//!
//! [`Cx`] borrows, from the [`Executor`], the configuration, the program, the memory model,
//! the solver view, the run's counters, the seeding phase's view and the report (for
//! warnings), and nothing else: no states but the one it is given, no searcher, no process
//! tree, no techniques, no work queue. A function that takes a `Cx` can query the solver,
//! constrain its state, read and write memory at a resolved target and warn, but it cannot
//! fork or end another path; the functions that may fork (a check through
//! [`Executor::require`], a pointer resolution, a symbolic allocation size, a call) stay on
//! [`Executor`], because the fork point needs the whole run (the searcher, the process
//! tree, the techniques' hooks, the seeds, and the tests of the paths it ends).
//!
//! [`Executor::cx`] builds it by disjoint field borrows; a method of `Executor` calls
//! `self.cx().concretize(..)` for a narrow part of its work. The fields keep the
//! executor's names, so a body moved from `Executor` to `Cx` reads the same.

use super::{Executor, Program, Report};
use crate::config::EngineConfig;
use crate::memory::Memory;
use crate::seed::SeedStats;
use crate::solver_view::SolverView;
use crate::stats::Stats;

/// The narrow context of a step function that makes no new path (module doc).
pub(crate) struct Cx<'a, 'o> {
    /// The options of the run.
    pub config: &'a EngineConfig,
    /// The module, its constants and function handlers.
    pub program: &'a Program,
    /// The memory model, object ids and array names.
    pub memory: &'a mut Memory,
    /// The solver chain and its query metadata.
    pub sv: &'a mut SolverView,
    /// The run's counters.
    pub stats: &'a mut Stats,
    /// Whether the run is in its seeding phase (seeds decide values and forks).
    pub seeding: bool,
    /// The seeding counters (`summary.json`'s `seeds`).
    pub seed_stats: &'a mut SeedStats,
    /// The output directory and observer: warnings, the location `klee_report_error` gave.
    pub report: &'a mut Report<'o>,
}

impl<'o> Executor<'o> {
    /// The narrow context of the step functions, borrowed from this executor.
    #[inline]
    pub(crate) fn cx(&mut self) -> Cx<'_, 'o> {
        Cx {
            config: &self.config,
            program: &self.program,
            memory: &mut self.memory,
            sv: &mut self.sv,
            stats: &mut self.run.stats,
            seeding: self.run.seeding,
            seed_stats: &mut self.run.seed_stats,
            report: &mut self.report,
        }
    }
}

impl Report<'_> {
    /// Prints a warning once per distinct text.
    pub(crate) fn warn_once(&mut self, text: &str) {
        if self.warned_once.insert(text.to_string()) {
            self.output.warning(text);
            self.observer.warning_once(text);
        }
    }
}
