//! The executor: runs states until every path has ended or a limit is hit.
//!
//! The pieces live in submodules, each taking the executor and the state it works on:
//! `step` (the one instruction dispatch), `ops` (value arithmetic), `memop` (loads, stores,
//! pointer resolution and checks), `calls` (calls, returns, varargs), `special` (the klee.h
//! API and libc functions the engine implements), `intrinsics` (`llvm.*`), `branch` (forking
//! and concretisation), `init` (globals and the entry state), `terminate` (tests and error
//! reports).
//!
//! Program errors end a path through `Err(Termination)` from the step functions; only
//! failures of sear itself are reported as `EngineError`.

mod alloc_size;
mod arrayopt;
mod asm;
mod branch;
mod calls;
mod halt;
mod init;
mod intrinsics;
mod layout;
mod libm;
mod limits;
mod memlen;
mod memop;
pub mod ops;
mod softfloat;
mod special;
mod step;
mod terminate;

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

use rustc_hash::{FxHashMap, FxHashSet};
use sear_ir::Module;
use sear_solver::{QueryMeta, Solver, SolverConfig};

use crate::config::EngineConfig;
use crate::output::{OutputWriter, Summary};
use crate::search::{self, ProcessTree, SearchContext, Searcher};
use crate::state::{State, StateId};
use crate::stats::{Coverage, Stats};
use crate::termination::Termination;
use crate::value::Value;

pub use special::SpecialFn;

/// Result of executing part of an instruction: `Err` ends the current path.
pub type Exec<T> = Result<T, Termination>;

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
}

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
}

/// An observer that ignores everything.
pub struct Quiet;
impl Observer for Quiet {}

/// The symbolic executor.
pub struct Executor<'o> {
    pub(crate) module: Arc<Module>,
    pub(crate) config: EngineConfig,
    pub(crate) solver: Solver,
    pub(crate) meta: QueryMeta,
    pub(crate) consts: Vec<Value>,
    pub(crate) handlers: Vec<Handler>,
    pub(crate) global_addrs: Vec<u64>,
    pub(crate) states: FxHashMap<StateId, State>,
    pub(crate) pending: Vec<State>,
    pub(crate) searcher: Box<dyn Searcher>,
    pub(crate) ptree: ProcessTree,
    pub(crate) rng: fastrand::Rng,
    pub(crate) next_state: u64,
    pub(crate) next_object: u64,
    pub(crate) coverage: Coverage,
    pub(crate) stats: Stats,
    pub(crate) summary: Summary,
    pub(crate) output: OutputWriter,
    pub(crate) emitted_errors: FxHashSet<(String, String, u32, u32)>,
    pub(crate) warned_once: FxHashSet<String>,
    pub(crate) array_names: FxHashMap<String, u32>,
    /// The location given by `klee_report_error`, for the error being reported.
    pub(crate) reported_location: Option<(String, u32)>,
    pub(crate) interrupt: Arc<AtomicBool>,
    pub(crate) observer: &'o mut dyn Observer,
    pub(crate) start: Instant,
    pub(crate) last_memory_check: Instant,
    /// The solver's own per-query timeout (`--max-solver-time`).
    pub(crate) base_solver_timeout: Option<Duration>,
    /// Object placement and pointer resolution (taken out while it runs).
    pub(crate) memory_model: Option<Box<dyn crate::memory::MemoryModel>>,
    pub(crate) stop: Option<StopReason>,
    /// Array-read transformations (`executor/arrayopt.rs`).
    pub(crate) array_opt: arrayopt::ArrayOpt,
    /// The trace hash of every ended path, for `summary.json`'s `trace_digest`.
    pub(crate) trace_hashes: Vec<u64>,
    /// The state as it was before the call instruction being executed, when that call may
    /// fork inside (`calls::call_whole`): states forked while resolving memory restart the
    /// call from it.
    pub(crate) restart_snapshot: Option<Box<State>>,
    /// Set when the run is ending: test generation for the states left stops then.
    pub(crate) halt_deadline: Option<Instant>,
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
        let solver = Solver::new(&arrayopt::solver_config(&config, solver_config))?;
        let output = OutputWriter::create(&config.output_dir)?;
        let handlers = special::resolve_handlers(&module);
        let rng = fastrand::Rng::with_seed(config.seed);
        let searcher = search::build(&config.search);
        let coverage = Coverage::new(&module);
        let array_opt = arrayopt::ArrayOpt::new(&config, solver_config)?;
        Ok(Executor {
            module,
            solver,
            meta: QueryMeta::default(),
            consts: Vec::new(),
            handlers,
            global_addrs: Vec::new(),
            states: FxHashMap::default(),
            pending: Vec::new(),
            searcher,
            ptree: ProcessTree::default(),
            rng,
            next_state: 0,
            next_object: 1,
            coverage,
            stats: Stats::default(),
            summary: Summary::default(),
            output,
            emitted_errors: FxHashSet::default(),
            warned_once: FxHashSet::default(),
            array_names: FxHashMap::default(),
            reported_location: None,
            interrupt: Arc::new(AtomicBool::new(false)),
            observer,
            start: Instant::now(),
            last_memory_check: Instant::now(),
            base_solver_timeout: solver_config.timeout,
            memory_model: Some(Box::new(crate::memory::StandardModel)),
            stop: None,
            array_opt,
            trace_hashes: Vec::new(),
            restart_snapshot: None,
            halt_deadline: None,
            config,
        })
    }

    /// A flag that stops the run (as Ctrl-C does) when set.
    pub fn interrupt_flag(&self) -> Arc<AtomicBool> {
        self.interrupt.clone()
    }

    /// Runs to completion (or a limit) and returns the summary, also written to
    /// `summary.json`.
    pub fn run(mut self) -> Result<Summary, EngineError> {
        self.start = Instant::now();
        let initial = self.initial_state()?;
        let root = self.ptree.set_root(initial.id);
        let mut initial = initial;
        initial.ptree_node = root;
        self.searcher.add(initial.id);
        self.states.insert(initial.id, initial);
        let mut last_progress = Instant::now();
        while self.stop.is_none() {
            let Some(id) = self.select() else {
                break;
            };
            let Some(mut state) = self.states.remove(&id) else {
                break;
            };
            let result = self.run_quantum(&mut state);
            let forked = !self.pending.is_empty();
            let alive = result.is_ok();
            match result {
                Ok(()) => {
                    self.states.insert(id, state);
                }
                Err(termination) => self.terminate(state, termination),
            }
            self.register_pending();
            if forked && alive {
                self.searcher.forked(id);
            }
            self.check_limits();
            if last_progress.elapsed() >= Duration::from_millis(250) {
                last_progress = Instant::now();
                self.observer
                    .progress(&self.stats, self.states.len(), self.start.elapsed());
            }
        }
        self.finish()
    }

    fn select(&mut self) -> Option<StateId> {
        let mut ctx = SearchContext {
            states: &self.states,
            module: &self.module,
            coverage: &self.coverage,
            ptree: &self.ptree,
            rng: &mut self.rng,
        };
        self.searcher.select(&mut ctx)
    }

    /// Runs `state` until it forks, ends, or has run a quantum of instructions.
    fn run_quantum(&mut self, state: &mut State) -> Exec<()> {
        let module = Arc::clone(&self.module);
        let instruction_limit = self.config.max_instructions.unwrap_or(u64::MAX);
        for _ in 0..QUANTUM {
            if self.stats.instructions >= instruction_limit {
                self.stop = Some(StopReason::InstructionLimit);
                break;
            }
            self.step(&module, state)?;
            if !self.pending.is_empty() {
                break;
            }
        }
        Ok(())
    }

    /// Gives forked states ids, process-tree nodes and searcher membership.
    fn register_pending(&mut self) {
        let pending = std::mem::take(&mut self.pending);
        for state in pending {
            self.searcher.add(state.id);
            self.states.insert(state.id, state);
        }
        self.stats.max_states = self.stats.max_states.max(self.states.len() as u64);
    }

    /// Clones `state` as a new state with its own id and process-tree leaf.
    pub(crate) fn fork_state(&mut self, state: &mut State) -> State {
        let mut child = state.clone();
        child.id = StateId(self.next_state);
        self.next_state += 1;
        let (left, right) = self.ptree.split(state.ptree_node, state.id, child.id);
        state.ptree_node = left;
        child.ptree_node = right;
        state.depth += 1;
        child.depth += 1;
        self.stats.forks += 1;
        child
    }

    /// Prints a warning once per distinct text.
    pub(crate) fn warn_once(&mut self, text: &str) {
        if self.warned_once.insert(text.to_string()) {
            self.output.warning(text);
            self.observer.warning(text);
        }
    }
}
