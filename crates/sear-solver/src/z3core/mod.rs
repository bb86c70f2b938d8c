//! The Z3 core: decides satisfiability queries with Z3 (the `z3` crate over the system
//! libz3) and extracts models as bytes.
//!
//! Expressions are translated by [`translate::Translator`], whose caches live as long as the
//! core (cleared when they exceed [`TRANSLATION_CACHE_LIMIT`] entries). Three ways of using
//! Z3 are available ([`Z3Mode`]); a fresh `smt`-tactic solver per query is the default. (The
//! measurement that preferred fresh solvers, in the crate docs, was taken while
//! `Incremental` worked on a copy of its solver each query, so it compared fresh with fresh;
//! an eager-core experiment with a truly incremental solver, November 2026, was 1.2–1.5×
//! faster on some flex scanners and 10–30 % slower on table programs.) Z3 never aborts the process: the `z3` crate
//! installs no error handler, and the panics it raises on a failed call are caught and turned
//! into [`SolverError::Failure`]. The Z3 context is thread-local, so a core (and any chain
//! holding one) must stay on the thread that created it.

mod cpu_watch;
mod fp;
pub mod translate;

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::{Duration, Instant};

use sear_expr::{ArrayRef, Assignment, Expr};
use z3::ast::BV;
use z3::{Params, SatResult as Z3Result};

use crate::query::SolverError;
use crate::sat::{panic_message, SatQuery, SatResult, SatSolver};
use crate::stats::LayerStats;
use translate::{ExprTranslator, Translator};

/// Translation caches are dropped when they grow beyond this many expressions.
pub const TRANSLATION_CACHE_LIMIT: usize = 500_000;

/// How the core drives Z3.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Z3Mode {
    /// A fresh `z3::Solver` per query (Z3 picks its non-incremental tactics), as KLEE does.
    Fresh,
    /// A fresh solver per query built from Z3's `smt` tactic (no logic-specific preprocessing).
    #[default]
    FreshSmt,
    /// One long-lived solver with `push`/`pop` around each query. With Z3 4.8.12 the time
    /// limit is not reliably enforced in this mode (a hard query may run past it).
    Incremental,
}

/// The Z3 core solver.
pub struct Z3Core {
    mode: Z3Mode,
    translator: Translator,
    solver: Option<z3::Solver>,
    timeout: Option<Duration>,
    /// The CPU time the next check may take (a portfolio's turn), metered by
    /// [`cpu_watch::CpuWatch`].
    cpu_budget: Option<Duration>,
    stats: LayerStats,
    _interrupt: crate::interrupt::ContextRegistration,
}

impl Z3Core {
    /// Creates a core using Z3 in `mode`.
    pub fn new(mode: Z3Mode) -> Self {
        Z3Core {
            mode,
            translator: Translator::default(),
            solver: None,
            timeout: None,
            cpu_budget: None,
            stats: LayerStats::new_core("z3"),
            _interrupt: crate::interrupt::register_thread_context(),
        }
    }

    /// How this core drives Z3.
    pub fn mode(&self) -> Z3Mode {
        self.mode
    }

    fn params(&self) -> Params {
        solver_params(self.timeout)
    }

    /// A new solver of the core's mode under `timeout`.
    fn fresh_solver(&self, timeout: Option<Duration>) -> z3::Solver {
        let s = match self.mode {
            // Tactic solvers ignore the `timeout` parameter; `try_for` bounds them instead.
            Z3Mode::FreshSmt => match timeout {
                Some(t) => z3::Tactic::new("smt").try_for(t).solver(),
                None => z3::Tactic::new("smt").solver(),
            },
            Z3Mode::Fresh | Z3Mode::Incremental => z3::Solver::new(),
        };
        s.set_params(&solver_params(timeout));
        s
    }

    fn solve(&mut self, query: &SatQuery) -> Result<SatResult, SolverError> {
        if self.translator.len() > TRANSLATION_CACHE_LIMIT {
            self.translator.clear();
        }
        let deadline = crate::deadline::from_now(self.timeout);
        let longest = longest_update_list(query);
        if longest > MAX_UPDATE_LIST {
            return Err(SolverError::Failure(format!(
                "an update list of {longest} writes (Z3 is given at most {MAX_UPDATE_LIST}: \
                 one call recursed through such a store chain for minutes, past its timeout \
                 and interruption)"
            )));
        }
        let assertions: Vec<z3::ast::Bool> =
            query.conjuncts().map(|c| self.translator.bool(c)).collect();
        // The translation counts against the query's time (a store chain of 10^5 writes
        // takes seconds to translate): the check gets what is left.
        let left = crate::deadline::left(deadline)?;
        // The long-lived solver is taken out for the query and put back after, so that model
        // extraction may use the translator meanwhile. (`z3::Solver::clone` copies the
        // solver: a clone is not a shared handle, and asserting on it would leave the
        // long-lived solver untouched.)
        let fresh;
        let mut taken = None;
        let solver: &z3::Solver = match self.mode {
            Z3Mode::Fresh | Z3Mode::FreshSmt => {
                fresh = self.fresh_solver(left);
                &fresh
            }
            Z3Mode::Incremental => {
                taken = Some(match self.solver.take() {
                    Some(s) => s,
                    None => self.fresh_solver(left),
                });
                let s = taken.as_ref().expect("just set");
                s.push();
                s
            }
        };
        solver.set_params(&solver_params(left));
        for a in &assertions {
            solver.assert(a);
        }
        let watch = self.cpu_budget.and_then(|budget| {
            cpu_watch::CpuWatch::start(budget, crate::interrupt::thread_context_address())
        });
        let checked = solver.check();
        let budget_spent = watch.is_some_and(|w| w.finish());
        let outcome = match checked {
            Z3Result::Unsat => Ok(SatResult::Unsat),
            Z3Result::Sat => match solver.get_model() {
                Some(model) => self.extract_model(query, &model).map(SatResult::Sat),
                None => Err(SolverError::Failure(
                    "Z3 answered sat without a model".into(),
                )),
            },
            Z3Result::Unknown if budget_spent && !crate::interrupt::requested() => {
                self.stats.bump("cpu_budget_spent", 1);
                Err(SolverError::Timeout)
            }
            Z3Result::Unknown => Err(unknown_error(solver.get_reason_unknown())),
        };
        if self.mode == Z3Mode::Incremental {
            solver.pop(1);
            solver.set_params(&self.params());
            self.solver = taken;
        }
        outcome
    }

    fn extract_model(
        &mut self,
        query: &SatQuery,
        model: &z3::Model,
    ) -> Result<Assignment, SolverError> {
        crate::model_cells::extract(
            query,
            &mut Z3Model {
                translator: &mut self.translator,
                model,
            },
        )
    }
}

/// A Z3 model with the translator that names its arrays.
struct Z3Model<'a> {
    translator: &'a mut Translator,
    model: &'a z3::Model,
}

impl crate::model_cells::ModelCells for Z3Model<'_> {
    fn index_value(&mut self, index: &Expr) -> Option<u128> {
        let term = self.translator.term(index).to_bv();
        self.model
            .eval(&term, true)
            .and_then(|v| v.as_u64())
            .map(u128::from)
    }

    fn cell(&mut self, array: &ArrayRef, i: u128) -> Option<u8> {
        let index = BV::from_u64(i as u64, array.index_width());
        let cell = self.translator.root(array).select(&index);
        self.model
            .eval(&cell, true)
            .and_then(|v| v.as_bv())
            .and_then(|v| v.as_u64())
            .map(|v| v as u8)
    }
}

/// The longest update list (writes) the Z3 core is given. sv-benchmarks'
/// `standard_sentinel-2` writes 10^5 symbolic ints and then one at a symbolic offset: on
/// its store chain of 4·10^5 writes one Z3 call recursed 329,000 frames deep for over ten
/// minutes, ignoring its timeout and `Z3_interrupt`. A longer list is refused (a failure,
/// which a portfolio answers with its other core).
pub const MAX_UPDATE_LIST: usize = 100_000;

/// The number of writes of the longest update list `query` reads.
fn longest_update_list(query: &SatQuery) -> usize {
    let mut longest = 0;
    sear_expr::visit::for_each_node(query.conjuncts(), |e| {
        if let sear_expr::ExprKind::Read { updates, .. } = e.kind() {
            longest = longest.max(updates.len());
        }
    });
    longest
}

/// The parameters of every Z3 solver sear creates: the per-query timeout, and Z3's own
/// Ctrl-C handling off (sear handles signals itself, `crate::interrupt`).
pub(crate) fn solver_params(timeout: Option<Duration>) -> Params {
    let mut p = Params::new();
    // Z3 reads 0 as "no limit"; u32::MAX ms is about 50 days.
    let ms = timeout.map_or(u32::MAX, |t| {
        t.as_millis().clamp(1, u32::MAX as u128) as u32
    });
    p.set_u32("timeout", ms);
    p.set_bool("ctrl_c", false);
    p
}

/// The error for Z3's `unknown` with `reason`: an interruption, a timeout, or a failure.
pub(crate) fn unknown_error(reason: Option<String>) -> SolverError {
    if crate::interrupt::requested() {
        return SolverError::Interrupted;
    }
    let reason = reason.unwrap_or_else(|| "unknown".into());
    let r = reason.to_ascii_lowercase();
    if r.contains("timeout") || r.contains("canceled") || r.contains("resource") {
        SolverError::Timeout
    } else {
        SolverError::Failure(format!("Z3 returned unknown: {reason}"))
    }
}

impl SatSolver for Z3Core {
    fn name(&self) -> &'static str {
        "z3"
    }

    fn check(&mut self, query: &SatQuery) -> Result<SatResult, SolverError> {
        if crate::interrupt::requested() {
            return Err(SolverError::Interrupted);
        }
        let start = Instant::now();
        let result = catch_unwind(AssertUnwindSafe(|| self.solve(query))).unwrap_or_else(|panic| {
            // A failed Z3 call: forget everything that may refer to a broken state.
            self.translator.clear();
            self.solver = None;
            let msg = panic_message(panic.as_ref());
            Err(SolverError::Failure(format!("Z3 call failed: {msg}")))
        });
        self.stats.record(start, false);
        result
    }

    fn set_timeout(&mut self, timeout: Option<Duration>) {
        self.timeout = timeout;
        if let Some(s) = &self.solver {
            s.set_params(&self.params());
        }
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
