//! The executor: runs states until every path has ended or a limit is hit.
//!
//! The pieces live in submodules: `step` (the one instruction dispatch), `ops` (value
//! arithmetic), `memop` (loads, stores, pointer resolution and checks), `calls` (calls,
//! returns, varargs), `special` (the klee.h API and libc functions the engine implements),
//! `intrinsics` (`llvm.*`), `branch` (forking and checks), `init` (globals and the entry
//! state), `terminate` (tests and error reports). Each function takes the narrowest receiver
//! that does its work (docs/architecture.md, "The executor"): none for pure work on values,
//! [`Program`] for operand values and jumps, [`Cx`] (`cx.rs`: the configuration, program,
//! memory, solver view, counters and report, borrowed from the executor) for work on one
//! state that makes no new path, and the [`Executor`] only for what may fork or end a path
//! and for the run itself.
//!
//! Program errors end a path through `Err(Termination)` from the step functions; only
//! failures of sear itself are reported as `EngineError`.

mod alloc_size;
mod asm;
mod branch;
mod calls;
mod cells;
mod cx;
pub(crate) mod cxx;
mod eh;
mod fenv;
mod fork;
mod fpsym;
mod halt;
mod hooks;
mod incremental_merging;
mod indexify;
mod init;
mod intrinsics;
mod iteration_merging;
mod layout;
mod leaks;
mod libm;
mod limits;
mod loop_merging;
mod memlen;
mod memop;
mod merging;
pub mod ops;
mod pat_merging;
mod seeding;
mod softfloat;
mod special;
mod step;
mod sym_alloc;
mod terminate;
mod worker;

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

use rustc_hash::{FxHashMap, FxHashSet};
use sear_ir::Module;
use sear_solver::{Solver, SolverConfig};

use crate::config::EngineConfig;
use crate::memory::Memory;
use crate::output::{OutputWriter, Summary};
use crate::search::{self, ProcessTree, SearchContext, Searcher};
use crate::solver_view::SolverView;
use crate::state::{State, StateId};
use crate::stats::{Coverage, Stats};
use crate::value::Value;

pub use halt::{halt_budget, trace_digest};
pub use indexify::{IndexifyRun, RunStats as IndexifyStats};
pub use special::SpecialFn;

pub(crate) use cx::Cx;

pub use crate::termination::Exec;

/// Instructions a state runs before the searcher chooses again (unless it forks first).
const QUANTUM: u64 = 2_000;

/// Failures of sear itself (not of the program under test).
#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    /// The entry function is missing or has an unsupported signature.
    #[error("{0}")]
    Entry(String),
    /// The solver could not be created.
    #[error("solver: {0}")]
    Solver(#[from] sear_solver::SolverError),
    /// Output files could not be written.
    #[error("output: {0}")]
    Output(#[from] crate::output::OutputError),
    /// The program's globals do not fit in its address space (a 32-bit program's).
    #[error("{0}")]
    AddressSpace(String),
}

/// Why the run stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StopReason {
    /// Every path was explored.
    Exhausted,
    /// `--max-time` was reached.
    TimeLimit,
    /// `--max-instructions` was reached.
    InstructionLimit,
    /// The run was interrupted (Ctrl-C).
    Interrupted,
    /// `--exit-on-error` and an error was found.
    ErrorFound,
    /// `--max-memory` was exceeded: states were dropped, so the exploration is incomplete.
    MaxMemory,
    /// `--only-seed`: seeding ended, and the normal search was not run.
    OnlySeed,
}

/// The `stop_reason` of the `summary.json` written while the run goes on.
pub const INTERIM_STOP_REASON: &str = "running";

/// The time between two interim `summary.json` writes.
const INTERIM_SUMMARY_EVERY: Duration = Duration::from_secs(5);

impl StopReason {
    /// A short name for reports.
    pub fn name(self) -> &'static str {
        match self {
            StopReason::Exhausted => "exhausted",
            StopReason::TimeLimit => "max-time",
            StopReason::InstructionLimit => "max-instructions",
            StopReason::Interrupted => "interrupted",
            StopReason::ErrorFound => "exit-on-error",
            StopReason::MaxMemory => "max-memory",
            StopReason::OnlySeed => "only-seed",
        }
    }
}

/// How calls to a function are executed.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Handler {
    /// A function with a body: interpret it.
    Defined,
    /// Implemented by the engine.
    Special(SpecialFn),
    /// Another name of a defined function (the C runtime's `__sear_user_main` is `main`).
    Alias(sear_ir::FuncId),
    /// A declaration sear cannot execute.
    Missing,
}

/// Observer for live progress and errors (the CLI prints; tests stay quiet).
pub trait Observer {
    /// Called when an error is reported.
    fn error(&mut self, _record: &crate::output::ErrorRecord) {}
    /// Called periodically with the current statistics.
    fn progress(&mut self, _stats: &Stats, _live_states: usize, _elapsed: Duration) {}
    /// Called for warnings (`klee_warning`, concretisations).
    fn warning(&mut self, _text: &str) {}
    /// Called for a warning the run prints once (`Report::warn_once`): by default, as any
    /// warning.
    fn warning_once(&mut self, text: &str) {
        self.warning(text);
    }
    /// Called for the debugging lines the user asked for (`--debug-log-merge`).
    fn debug(&mut self, _text: &str) {}
    /// Called for the program's own diagnostic lines (`klee_print_expr`), which KLEE prints
    /// on standard error as they are: by default, there.
    fn print(&mut self, text: &str) {
        // stderr may be a closed pipe: a failed write must not end the run.
        let _ = std::io::Write::write_all(&mut std::io::stderr(), format!("{text}\n").as_bytes());
    }
}

/// An observer that ignores everything.
pub struct Quiet;
impl Observer for Quiet {}

/// The run: the states, how the next one is chosen, and what has been counted so far.
pub(crate) struct Run {
    /// Live states, except the one running.
    pub states: FxHashMap<StateId, State>,
    /// States forked during the current quantum, registered after it.
    pub pending: Vec<State>,
    pub searcher: Box<dyn Searcher>,
    pub ptree: ProcessTree,
    pub rng: fastrand::Rng,
    pub next_state: u64,
    pub coverage: Coverage,
    pub stats: Stats,
    pub summary: Summary,
    pub stop: Option<StopReason>,
    pub interrupt: Arc<AtomicBool>,
    pub start: Instant,
    pub last_memory_check: Instant,
    /// The time between two memory checks (see `check_limits`).
    pub memory_check_interval: Duration,
    /// The last memory check found the allocator above `--max-memory`: branches follow one
    /// side instead of forking until a check finds it below again.
    pub at_memory_limit: bool,
    /// Set when the run is ending: test generation for the states left stops then.
    pub halt_deadline: Option<Instant>,
    /// The trace hash of every ended path, for `summary.json`'s `trace_digest`.
    pub trace_hashes: Vec<u64>,
    /// Merge groups of `klee_open_merge` (`--use-merge`).
    pub merges: merging::MergeGroups,
    /// Counters of symbolic-size allocations (`--sym-size-mode`).
    pub sym_alloc: crate::sym_size::AllocStats,
    /// Merging contexts of size-dependent loops (`--sym-size-mode=sm|smopt`).
    pub loop_contexts: crate::loop_merge::Contexts,
    /// Counters of loop merging.
    pub loop_stats: crate::loop_merge::MergeStats,
    /// Counters of PAT (`--sym-size-mode=pat`).
    pub pat_stats: crate::pat::PatStats,
    /// Loop-iteration merging's contexts and counters (`--merge-loop-iterations`).
    pub iterations: crate::loop_merge::iteration::Iterations,
    /// Counters of incremental merging (`--incremental-merge=on`).
    pub incremental_stats: crate::loop_merge::incremental::IncrementalStats,
    /// The liveness of the functions incremental merging looked at.
    pub liveness: rustc_hash::FxHashMap<sear_ir::FuncId, std::rc::Rc<sear_ir::liveness::Liveness>>,
    /// The state as it was before the whole operation being executed
    /// (`fork::Executor::whole`): paths forked inside it restart from it.
    pub restart_snapshot: Option<Box<State>>,
    /// The initial state as built, from which a worker rebuilds each prefix it receives.
    pub pristine: Option<Box<State>>,
    /// A worker's share of a parallel run.
    pub worker: crate::work::WorkerStats,
    /// A worker's states that its transport may give away during a quantum (`work::Givable`;
    /// `None` outside a parallel run, or under a technique that merges states).
    pub givable: Option<Arc<std::sync::Mutex<crate::work::Givable>>>,
    /// The subtrees the current prefix leaves out (`work::Prefix::exclude`).
    pub excluded: rustc_hash::FxHashSet<crate::path::PathRecord>,
    /// The seeding phase: seeded states run first and seeds decide forks.
    pub seeding: bool,
    /// The states that carried a seed when registered (checked when selected).
    pub seeded: std::collections::BTreeSet<StateId>,
    /// The seeded state selected last: the seeding phase takes the seeded states in turn.
    pub seed_cursor: Option<StateId>,
    /// Set while a deferred side is handed to its fork site: a termination there is kept
    /// for when the side is found feasible.
    pub deferring: bool,
    /// Counters of seeding (`summary.json`'s `seeds`).
    pub seed_stats: crate::seed::SeedStats,
}

/// What the run reports: files in the output directory and the observer.
pub(crate) struct Report<'o> {
    pub output: OutputWriter,
    pub observer: &'o mut dyn Observer,
    /// (kind, file, line, column) of the errors reported so far.
    pub emitted_errors: FxHashSet<(String, String, u32, u32)>,
    pub warned_once: FxHashSet<String>,
    /// The location given by `klee_report_error`, for the error being reported.
    pub reported_location: Option<(String, u32)>,
}

/// The program as the executor runs it: its module, constants and function handlers.
pub(crate) struct Program {
    pub module: Arc<Module>,
    /// The value of every module constant (globals have their addresses).
    pub consts: Vec<Value>,
    /// How each function is executed.
    pub handlers: Vec<Handler>,
    /// The address of every global.
    pub global_addrs: Vec<u64>,
    /// The loops of every function (computed when loops are merged).
    pub loops: sear_ir::loops::ModuleLoops,
}

/// The symbolic executor: the run (states, searcher, process tree, statistics), what it
/// reports, and the step context every instruction uses (the program, memory, and a view
/// of the solver).
pub struct Executor<'o> {
    pub(crate) config: EngineConfig,
    pub(crate) program: Program,
    pub(crate) memory: Memory,
    pub(crate) sv: SolverView,
    pub(crate) run: Run,
    pub(crate) report: Report<'o>,
    /// Indexify's tables and helpers, when the module was indexified.
    pub(crate) indexify: Option<Box<indexify::IndexifyState>>,
    /// Where a worker of a parallel run gets its prefixes (`work.rs`); `None` in a run of
    /// one process.
    pub(crate) work: Option<&'o mut dyn crate::work::WorkQueue>,
    /// The techniques that see forks, steps, terminations and the halt, registered by
    /// their switches (`hooks.rs`).
    pub(crate) techniques: Vec<&'static dyn hooks::Technique>,
}

impl<'o> Executor<'o> {
    /// Creates an executor for `module`, writing to `config.output_dir`.
    pub fn new(
        module: Arc<Module>,
        config: EngineConfig,
        solver_config: &SolverConfig,
        observer: &'o mut dyn Observer,
    ) -> Result<Self, EngineError> {
        init::entry_function(&module, &config.entry)?;
        sear_expr::ac::set_enabled(config.ac_normalize);
        sear_expr::ite_lift::set_enabled(config.ite_lifting);
        sear_expr::ite_compare::set_enabled(config.ite_compare);
        let array_opt = crate::arrayopt::ArrayOpt::new(&config, solver_config)?;
        let solver = Solver::with_rewriter(
            &crate::arrayopt::solver_config(&config, solver_config),
            array_opt.chain_rewriter(),
        )?;
        // The path simplification decides every query the facade's equality answers would,
        // with the whole path's facts (`SolverView::simplified`).
        let solver = if solver_config.path_simplification {
            solver.without_equality_answers()
        } else {
            solver
        };
        let output = OutputWriter::create(&config.output_dir)?;
        let handlers = special::resolve_handlers(&module, config.sv_comp);
        let rng = fastrand::Rng::with_seed(config.seed);
        let searcher = search::build(&config.search, config.dive_quantum.unwrap_or(false));
        let coverage = Coverage::new(&module);
        let sv = SolverView::new(
            solver,
            array_opt,
            solver_config.timeout,
            config.max_time,
            solver_config.path_simplification,
        );
        let memory = Memory::new(crate::memory::build_model(&config), config.max_resolutions);
        let loops = if config.sym_size.mode.merges() || config.iteration_merge.enabled == Some(true)
        {
            sear_ir::loops::ModuleLoops::new(&module)
        } else {
            Default::default()
        };
        Ok(Executor {
            techniques: hooks::registered(&config),
            program: Program {
                loops,
                module,
                consts: Vec::new(),
                handlers,
                global_addrs: Vec::new(),
            },
            memory,
            sv,
            run: Run {
                states: FxHashMap::default(),
                pending: Vec::new(),
                searcher,
                ptree: ProcessTree::default(),
                rng,
                next_state: 0,
                coverage,
                stats: Stats {
                    ac_at_start: sear_expr::ac::stats(),
                    lifted_at_start: sear_expr::ite_lift::lifted(),
                    ite_compare_at_start: (
                        sear_expr::ite_compare::rewritten(),
                        sear_expr::ite_compare::nodes(),
                    ),
                    ..Stats::default()
                },
                summary: Summary::default(),
                stop: None,
                interrupt: Arc::new(AtomicBool::new(false)),
                start: Instant::now(),
                last_memory_check: Instant::now(),
                memory_check_interval: Duration::from_millis(100),
                at_memory_limit: false,
                halt_deadline: None,
                trace_hashes: Vec::new(),
                merges: Default::default(),
                sym_alloc: Default::default(),
                loop_contexts: Default::default(),
                loop_stats: Default::default(),
                pat_stats: Default::default(),
                incremental_stats: Default::default(),
                iterations: Default::default(),
                liveness: Default::default(),
                restart_snapshot: None,
                givable: None,
                pristine: None,
                worker: Default::default(),
                excluded: Default::default(),
                seeding: false,
                seeded: Default::default(),
                seed_cursor: None,
                deferring: false,
                seed_stats: Default::default(),
            },
            report: Report {
                output,
                observer,
                emitted_errors: FxHashSet::default(),
                warned_once: FxHashSet::default(),
                reported_location: None,
            },
            config,
            indexify: None,
            work: None,
        })
    }

    /// Makes this executor a worker of a parallel run: it explores the prefixes `work`
    /// hands it, one at a time, and gives states away when asked (`work.rs`).
    pub fn with_work_queue(mut self, work: &'o mut dyn crate::work::WorkQueue) -> Self {
        if self.techniques.is_empty() {
            let givable = Arc::new(std::sync::Mutex::new(crate::work::Givable::default()));
            work.attach(Arc::clone(&givable));
            self.run.givable = Some(givable);
        }
        self.work = Some(work);
        self.run.coverage.collect_new();
        self
    }

    /// Writes the tests into `dir` (the parallel run's directory) under the numbers
    /// `numbers` hands out (the coordinator's), instead of `1, 2, 3, ...` in the output
    /// directory: a worker's tests need no renaming when the run's outputs are merged.
    pub fn with_test_numbers(
        mut self,
        dir: &std::path::Path,
        numbers: Box<dyn crate::output::TestNumbers>,
    ) -> Self {
        self.report.output.set_tests(dir, numbers);
        self
    }

    /// A flag that stops the run (as Ctrl-C does) when set.
    pub fn interrupt_flag(&self) -> Arc<AtomicBool> {
        self.run.interrupt.clone()
    }

    /// Runs to completion (or a limit) and returns the summary, also written to
    /// `summary.json`.
    pub fn run(mut self) -> Result<Summary, EngineError> {
        self.run.start = Instant::now();
        self.sv.start = self.run.start;
        let initial = self.initial_state()?;
        if self.work.is_some() {
            self.run.pristine = Some(Box::new(initial));
            if !self.take_prefix() {
                return self.finish();
            }
        } else {
            let initial = self.seed_initial(initial);
            self.start_from(initial);
        }
        let mut last_progress = Instant::now();
        let mut last_summary = Instant::now();
        while self.run.stop.is_none() {
            let Some(id) = self.select() else {
                if self.take_prefix() {
                    continue;
                }
                break;
            };
            let Some(mut state) = self.run.states.remove(&id) else {
                break;
            };
            self.begin_quantum(id);
            let result = self
                .settle_deferred(&mut state)
                .and_then(|()| self.run_quantum(&mut state));
            self.run.searcher.ran(id);
            let forked = !self.run.pending.is_empty();
            let alive = result.is_ok();
            match result {
                Ok(()) => {
                    self.run.states.insert(id, state);
                }
                Err(termination) => self.terminate(state, termination),
            }
            if self.run.givable.is_some() {
                let new: Vec<crate::state::StateId> =
                    self.run.pending.iter().map(|s| s.id).collect();
                self.register_pending();
                self.end_quantum(id, &new);
            } else {
                self.register_pending();
            }
            if forked && alive {
                self.run.searcher.forked(id);
            }
            self.flush_solver_warnings();
            self.check_limits();
            self.give_work();
            if last_progress.elapsed() >= Duration::from_millis(250) {
                last_progress = Instant::now();
                self.sync_stats();
                self.report.observer.progress(
                    &self.run.stats,
                    self.run.states.len(),
                    self.run.start.elapsed(),
                );
            }
            if last_summary.elapsed() >= INTERIM_SUMMARY_EVERY {
                self.write_interim_summary();
                last_summary = Instant::now();
            }
        }
        self.finish()
    }

    /// Makes `state` the root of the process tree and the searcher's only state.
    fn start_from(&mut self, mut state: State) {
        state.ptree_node = self.run.ptree.set_root(state.id);
        self.run.searcher.add(state.id);
        self.run.states.insert(state.id, state);
    }

    fn select(&mut self) -> Option<StateId> {
        if self.run.seeding {
            if let Some(id) = self.select_seeded() {
                return Some(id);
            }
            if self.run.stop.is_some() {
                return None;
            }
        }
        let run = &mut self.run;
        let mut ctx = SearchContext {
            states: &run.states,
            module: &self.program.module,
            coverage: &run.coverage,
            ptree: &run.ptree,
            rng: &mut run.rng,
        };
        run.searcher.select(&mut ctx)
    }

    /// Runs `state` until it forks, ends, or has run a quantum of instructions.
    fn run_quantum(&mut self, state: &mut State) -> Exec<()> {
        let module = Arc::clone(&self.program.module);
        let instruction_limit = self.config.max_instructions.unwrap_or(u64::MAX);
        for _ in 0..QUANTUM {
            if self.run.stats.instructions >= instruction_limit {
                self.run.stop = Some(StopReason::InstructionLimit);
                break;
            }
            self.step(&module, state)?;
            if !self.run.pending.is_empty() {
                break;
            }
        }
        Ok(())
    }

    /// Gives forked states searcher membership.
    fn register_pending(&mut self) {
        let pending = std::mem::take(&mut self.run.pending);
        for state in pending {
            if self.run.seeding && !state.seeds.is_empty() {
                self.run.seeded.insert(state.id);
            }
            self.run.searcher.add(state.id);
            self.run.states.insert(state.id, state);
        }
        self.run.stats.max_states = self.run.stats.max_states.max(self.run.states.len() as u64);
    }

    /// Copies the solver's counters into the run's statistics.
    pub(crate) fn sync_stats(&mut self) {
        self.run.stats.queries = self.sv.queries;
        self.run.stats.solver_time = self.sv.solver_time;
    }

    /// Reports the warnings the solver view collected.
    fn flush_solver_warnings(&mut self) {
        for message in std::mem::take(&mut self.sv.warnings) {
            self.report.observer.warning(&message);
            self.report.output.warning(&message);
        }
    }
}
