//! The Bitwuzla core: decides satisfiability queries with Bitwuzla (QF_ABV natively: arrays,
//! constant arrays, bit-vectors) and extracts models as bytes.
//!
//! Bitwuzla is built from the source in the `bitwuzla-sys` crate against Debian's GMP,
//! CaDiCaL and SymFPU by `scripts/build-bitwuzla.sh` (see `build.rs` and
//! docs/architecture.md). Expressions are translated by [`translate::Translator`] with the
//! Z3 core's encoding; its term manager and caches live as long as the core (both are
//! dropped together when the cache exceeds [`crate::z3core::TRANSLATION_CACHE_LIMIT`]).
//!
//! Time limits and interruptions go through Bitwuzla's termination callback, which Bitwuzla
//! (and CaDiCaL below it) polls while solving: it stops a check once the query's deadline has
//! passed or [`crate::interrupt::request`] was called; the check then answers `unknown`,
//! which becomes [`SolverError::Timeout`] or [`SolverError::Interrupted`].
//!
//! Two ways of driving Bitwuzla ([`BitwuzlaMode`]): one instance with `push`/`pop` around
//! each query (the default), or a fresh solver instance per query over the long-lived term
//! manager.
//!
//! `--core-solver=bitwuzla-eager` puts the eager core's assertion encoding of constant arrays
//! ([`crate::eager`]) in front of this core instead of Z3.

pub mod api;
mod fp;
pub mod translate;

use std::time::{Duration, Instant};

use sear_expr::{ArrayRef, Assignment, Expr};

use crate::query::SolverError;
use crate::sat::{SatQuery, SatResult, SatSolver};
use crate::stats::LayerStats;
use crate::z3core::TRANSLATION_CACHE_LIMIT;
use api::{CheckResult, Instance, InstanceOptions, Termination};
use bitwuzla_sys as sys;
use translate::Translator;

/// How the core drives Bitwuzla.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum BitwuzlaMode {
    /// A fresh solver instance per query (the term manager and translations are kept).
    Fresh,
    /// One long-lived instance with `push`/`pop` around each query. The default: on the flex
    /// scanners, whose queries share large constant tables that a fresh instance preprocesses
    /// and bit-blasts again every time, it completed 37 paths of lex-json and 108 of lex-ini
    /// in 30 s where fresh instances completed 0 and 1 (docs/benchmarks.md).
    /// An instance whose check was terminated is dropped, as are instances past
    /// [`INSTANCE_QUERY_LIMIT`] queries (a long-lived SAT solver only grows).
    #[default]
    Incremental,
}

/// An incremental instance is replaced after this many queries: a guard against a SAT solver
/// that grows with every query of a long run (not tuned: the bench runs stay below it).
pub const INSTANCE_QUERY_LIMIT: u64 = 10_000;

/// An incremental instance is also replaced once this many new terms were translated since
/// it was made: popped assertions stay in its SAT solver, which assigns every variable it
/// ever saw at each check, so a run whose queries keep naming new inputs (a loop of 10^5
/// branches on `__VERIFIER_nondet_int()`) made each check cost time in proportion to the
/// queries before it (20 ms per check after 3,000 checks). Queries that share their terms
/// (the flex scanners' constant tables) translate few new ones and keep their instance.
pub const INSTANCE_TERM_LIMIT: usize = 256;

/// The Bitwuzla core solver.
pub struct BitwuzlaCore {
    mode: BitwuzlaMode,
    // Field order matters: the instance must be dropped before the translator's term manager.
    instance: Option<Instance>,
    /// Queries the current incremental instance has answered.
    instance_queries: u64,
    /// Translated terms when the current incremental instance was made.
    instance_terms: usize,
    translator: Translator,
    /// Read by the termination callback; boxed so that its address is stable.
    termination: Box<Termination>,
    timeout: Option<Duration>,
    /// The calling thread's CPU time a check may use (a portfolio's turn).
    cpu_budget: Option<Duration>,
    stats: LayerStats,
}

impl Default for BitwuzlaCore {
    fn default() -> Self {
        Self::new(BitwuzlaMode::default())
    }
}

impl BitwuzlaCore {
    /// A core driving Bitwuzla in `mode`.
    pub fn new(mode: BitwuzlaMode) -> Self {
        BitwuzlaCore {
            mode,
            instance: None,
            instance_queries: 0,
            instance_terms: 0,
            translator: Translator::default(),
            termination: Box::default(),
            timeout: None,
            cpu_budget: None,
            stats: LayerStats::new_core("bitwuzla"),
        }
    }

    /// How this core drives Bitwuzla.
    pub fn mode(&self) -> BitwuzlaMode {
        self.mode
    }

    /// Bitwuzla's version.
    pub fn version() -> String {
        api::version()
    }

    fn new_instance(&self) -> Instance {
        let options = InstanceOptions {
            produce_models: true,
        };
        // SAFETY: the instance is stored in `self.instance` or dropped within `solve`, before
        // the translator (declared after it) and before the boxed termination state.
        unsafe { Instance::new(self.translator.tm(), options, &self.termination) }
    }

    fn solve(&mut self, query: &SatQuery) -> Result<SatResult, SolverError> {
        if self.translator.len() > TRANSLATION_CACHE_LIMIT {
            // Terms belong to the term manager: a new translator needs new instances.
            self.instance = None;
            self.translator = Translator::default();
        }
        let deadline = crate::deadline::from_now(self.timeout);
        let mut assertions: Vec<_> = query.conjuncts().map(|c| self.translator.bool(c)).collect();
        assertions.extend(self.translator.side_conditions(query.conjuncts()));
        // The translation counts against the query's time: the check gets what is left.
        crate::deadline::left(deadline)?;
        let mut instance = match (self.mode, self.instance.take()) {
            (BitwuzlaMode::Incremental, Some(i))
                if self.instance_queries < INSTANCE_QUERY_LIMIT
                    && self.translator.len() <= self.instance_terms + INSTANCE_TERM_LIMIT =>
            {
                i
            }
            _ => {
                self.instance_queries = 0;
                self.instance_terms = self.translator.len();
                self.stats.bump("instances", 1);
                self.new_instance()
            }
        };
        self.instance_queries += 1;
        if self.mode == BitwuzlaMode::Incremental {
            instance.push();
        }
        for &a in &assertions {
            instance.assert(a);
        }
        self.termination.set_deadline(deadline);
        self.termination.set_cpu_budget(self.cpu_budget);
        let checked = instance.check();
        let outcome = match checked {
            CheckResult::Unsat => Ok(SatResult::Unsat),
            CheckResult::Sat => self.extract_model(query, &mut instance).map(SatResult::Sat),
            CheckResult::Unknown => Err(self.unknown_error()),
        };
        self.termination.set_deadline(None);
        self.termination.set_cpu_budget(None);
        // A terminated instance is not reused: a fresh one is cheap next to a timeout, and
        // nothing then depends on the state Bitwuzla keeps after a termination.
        if self.mode == BitwuzlaMode::Incremental && checked != CheckResult::Unknown {
            instance.pop();
            self.instance = Some(instance);
        }
        outcome
    }

    /// The error for `unknown`: an interruption, a timeout, or a failure.
    fn unknown_error(&self) -> SolverError {
        if crate::interrupt::requested() {
            SolverError::Interrupted
        } else if self.termination.expired() {
            SolverError::Timeout
        } else {
            SolverError::Failure("Bitwuzla returned unknown".into())
        }
    }

    fn extract_model(
        &mut self,
        query: &SatQuery,
        instance: &mut Instance,
    ) -> Result<Assignment, SolverError> {
        crate::model_cells::extract(
            query,
            &mut BitwuzlaModel {
                translator: &mut self.translator,
                instance,
            },
        )
    }
}

/// A satisfied Bitwuzla instance with the translator that names its arrays.
struct BitwuzlaModel<'a> {
    translator: &'a mut Translator,
    instance: &'a mut Instance,
}

impl crate::model_cells::ModelCells for BitwuzlaModel<'_> {
    fn index_value(&mut self, index: &Expr) -> Option<u128> {
        let term = self.translator.bv(index);
        self.instance.bv_value(self.translator.tm(), term)
    }

    fn cell(&mut self, array: &ArrayRef, i: u128) -> Option<u8> {
        let root = self.translator.root(array);
        let tm = self.translator.tm_mut();
        let index = tm.bv_value(array.index_width(), i);
        let cell = tm.op2(sys::BITWUZLA_KIND_ARRAY_SELECT, root, index);
        let value = self.instance.bv_value(tm, cell);
        tm.release(cell);
        tm.release(index);
        value.map(|v| v as u8)
    }
}

impl SatSolver for BitwuzlaCore {
    fn name(&self) -> &'static str {
        "bitwuzla"
    }

    fn check(&mut self, query: &SatQuery) -> Result<SatResult, SolverError> {
        if crate::interrupt::requested() {
            return Err(SolverError::Interrupted);
        }
        let start = Instant::now();
        let result = self.solve(query);
        self.stats.record(start, false);
        result
    }

    fn set_timeout(&mut self, timeout: Option<Duration>) {
        self.timeout = timeout;
    }

    fn set_cpu_budget(&mut self, budget: Option<Duration>) {
        self.cpu_budget = budget;
    }

    fn honours_cpu_budget(&mut self) -> bool {
        true
    }

    fn collect_stats(&self, out: &mut Vec<LayerStats>) {
        out.push(self.stats.clone());
    }
}
