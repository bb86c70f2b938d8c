//! The layer/core interface: satisfiability queries.
//!
//! Every layer of the chain and every core implements [`SatSolver`]: "is `constraints ∧ expr`
//! satisfiable?". A layer owns the solver below it as a `Box<dyn SatSolver>`; the facade
//! ([`crate::Solver`]) derives validity, values and initial values from these queries.
//!
//! Model contract: on [`SatResult::Sat`] the assignment satisfies `constraints ∧ expr` and
//! assigns every symbolic array the query reads, whenever `need_model` is set. Cores and every
//! layer below the independence layer always return such a full model; only the independence
//! layer returns a partial model when `need_model` is false (it may have solved a slice).

use std::time::Duration;

use sear_expr::{Assignment, Expr};

use crate::query::{QueryMeta, SolverError};
use crate::stats::LayerStats;

/// "Is `constraints ∧ expr` satisfiable?"
#[derive(Clone, Debug)]
pub struct SatQuery<'a> {
    /// The constraints (a conjunction).
    pub constraints: &'a [Expr],
    /// One more boolean conjunct (`true` when only the constraints are asked about).
    pub expr: Expr,
    /// Engine metadata.
    pub meta: &'a QueryMeta,
    /// The caller knows the constraints alone are satisfiable (a path condition).
    pub constraints_known_sat: bool,
    /// The caller needs a model of every symbolic array in the query. When false, the model
    /// returned on `Sat` covers at least the arrays connected to `expr` and `focus`.
    pub need_model: bool,
    /// An expression that is not asserted but whose arrays the model must cover (the value
    /// asked for by [`crate::Solver::get_value`]); the independence layer keeps the
    /// constraints connected to it.
    pub focus: Option<Expr>,
}

impl<'a> SatQuery<'a> {
    /// A query with no focus.
    pub fn new(
        constraints: &'a [Expr],
        expr: Expr,
        meta: &'a QueryMeta,
        constraints_known_sat: bool,
        need_model: bool,
    ) -> Self {
        SatQuery {
            constraints,
            expr,
            meta,
            constraints_known_sat,
            need_model,
            focus: None,
        }
    }

    /// All conjuncts: the constraints, then `expr` (unless it is `true`).
    pub fn conjuncts(&self) -> impl Iterator<Item = &Expr> + Clone {
        self.constraints
            .iter()
            .chain(std::iter::once(&self.expr).filter(|e| !e.is_true()))
    }
}

/// The answer to a [`SatQuery`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SatResult {
    /// Satisfiable, with a model (see the module docs for when it is complete).
    Sat(Assignment),
    /// Unsatisfiable.
    Unsat,
}

impl SatResult {
    /// True for `Sat`.
    pub fn is_sat(&self) -> bool {
        matches!(self, SatResult::Sat(_))
    }
}

/// A solver layer or core over satisfiability queries.
pub trait SatSolver {
    /// The layer's name in statistics and logs.
    fn name(&self) -> &'static str;
    /// Decides `constraints ∧ expr`.
    fn check(&mut self, query: &SatQuery) -> Result<SatResult, SolverError>;
    /// Sets the per-query time limit of the core(s) below.
    fn set_timeout(&mut self, timeout: Option<Duration>);
    /// Limits the next checks to `budget` of the calling thread's CPU time, besides the
    /// time limit (a portfolio's turn: CPU time, so that a loaded machine gives the turns
    /// the same work as an idle one). Only cores for which [`SatSolver::honours_cpu_budget`]
    /// is true keep it. Default: ignored.
    fn set_cpu_budget(&mut self, _budget: Option<Duration>) {}
    /// Whether [`SatSolver::set_cpu_budget`] limits this core's checks. Default: false.
    fn honours_cpu_budget(&mut self) -> bool {
        false
    }
    /// Appends this layer's statistics and those of the layers below, top first.
    fn collect_stats(&self, out: &mut Vec<LayerStats>);
    /// Offers an answer found above the chain, for the caches below to keep: a SAT answer
    /// whose model the address-aware cache checked by evaluation (it satisfies `query`), or
    /// an UNSAT answer of an address-free hit (a renaming of input arrays only, exact).
    /// Layers pass it on; the counterexample cache stores it. Default: ignored.
    fn learn(&mut self, _query: &SatQuery, _result: &SatResult) {}
}

/// The message of a caught panic (a core that panics answers a `Failure` instead).
pub(crate) fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_else(|| "panic".into())
}
