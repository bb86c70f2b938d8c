//! The engine's one way into the solver: questions about a state's path.
//!
//! [`SolverView`] owns the solver chain, the query metadata the engine collects, and the
//! array-read transformations (`executor::arrayopt`, spec 000) that rewrite conditions
//! before they are asked. Every question is about a [`State`]: its path condition and its
//! address constraints (substituted by the solver before the chain sees the query). The
//! executor and the memory model both ask through it, so a memory model never needs the
//! executor.

use std::time::{Duration, Instant};

use rustc_hash::FxHashMap;
use sear_expr::Expr;
use sear_solver::{AgnosticForm, Query, QueryMeta, Solver, SolverError, Validity};

use crate::arrayopt::ArrayOpt;
use crate::state::State;
use crate::termination::Exec;
use crate::termination::{ErrorKind, Termination};

/// The termination for a solver failure on a path.
pub(crate) fn solver_failure(error: SolverError, during: &str) -> Termination {
    let message = match error {
        SolverError::Timeout => format!("query timed out ({during})"),
        SolverError::Interrupted => format!("query interrupted ({during})"),
        SolverError::Failure(reason) => format!("solver failure ({during}): {reason}"),
    };
    Termination::error(ErrorKind::Solver, message)
}

/// The constraints of `state`'s path condition a query about `expr` needs: with the
/// chain's independence layer on and no address constraints, the factors `expr` touches
/// (found through the path condition's index: the independence layer would keep exactly
/// these of the whole list, so the answer is the same and its cost does not grow with the
/// path); otherwise the whole path condition.
pub(crate) fn relevant(solver: &Solver, state: &State, expr: &Expr) -> Vec<Expr> {
    if solver.slices_by_independence() && state.addresses.is_empty() {
        state.constraints.slice_for(&[expr])
    } else {
        state.constraints.to_vec()
    }
}

/// The value of `e` under the state's address constraints, when they fix it (no query
/// needed); `None` without address constraints.
fn settled(state: &State, e: &Expr) -> Option<u128> {
    if state.addresses.is_empty() {
        return None;
    }
    state.addresses.concrete(e)
}

/// The solver, as the engine asks it about states.
pub struct SolverView {
    /// The solver chain.
    pub(crate) solver: Solver,
    /// Metadata the engine collects for the layers (access granularity of arrays).
    pub(crate) meta: QueryMeta,
    /// Array-read transformations applied to conditions and values before they are asked.
    pub(crate) array_opt: ArrayOpt,
    /// The solver's own per-query timeout (`--max-solver-time`).
    pub(crate) base_timeout: Option<Duration>,
    /// `--max-time`, measured from `start`: no query may run past it.
    pub(crate) max_time: Option<Duration>,
    /// When the run started.
    pub(crate) start: Instant,
    /// Queries asked.
    pub(crate) queries: u64,
    /// Time spent answering them.
    pub(crate) solver_time: Duration,
    /// Queries and their time by what the engine asked them for (the `during` of each
    /// call: "fork", "resolve", "allocation size", ...), for `summary.json`.
    pub(crate) by_purpose: std::collections::BTreeMap<String, (u64, Duration)>,
    /// What the path simplification did ([`SolverView::simplified`]).
    pub(crate) simplification: crate::output::SimplificationStats,
    /// Warnings for the run's outputs (array-transformation validation failures).
    pub(crate) warnings: Vec<String>,
    /// Substituted and transformed forms of expressions, by (binding generation, value?,
    /// expression): the relocatable model's path conditions as queries see them.
    relocated: FxHashMap<(u64, bool, Expr), Expr>,
    /// Address-agnostic forms of expressions (bases bound relative to others substituted),
    /// by (binding generation, expression), for the address-aware cache.
    agnostic: FxHashMap<(u64, Expr), Expr>,
}

/// A query's timeout under `--max-time` without `--max-solver-time`: a quarter of the run's
/// time (at least a second). One query must not take the run: on coreutils `stat` at 60 s,
/// one query that neither Bitwuzla nor Z3 answered took 54 s of the 60 (KLEE has no default
/// either, but its users pass `--max-solver-time`).
pub fn default_query_timeout(max_time: Duration) -> Duration {
    (max_time / 4).max(Duration::from_secs(1))
}

/// Entries of [`SolverView::relocated`] before it is cleared.
const RELOCATED_MEMO_LIMIT: usize = 1 << 18;

impl SolverView {
    /// A view over `solver`.
    pub(crate) fn new(
        solver: Solver,
        array_opt: ArrayOpt,
        base_timeout: Option<Duration>,
        max_time: Option<Duration>,
        path_simplification: bool,
    ) -> Self {
        SolverView {
            simplification: crate::output::SimplificationStats {
                enabled: path_simplification,
                ..Default::default()
            },
            solver,
            meta: QueryMeta::default(),
            array_opt,
            base_timeout,
            max_time,
            start: Instant::now(),
            queries: 0,
            solver_time: Duration::ZERO,
            by_purpose: Default::default(),
            warnings: Vec::new(),
            relocated: FxHashMap::default(),
            agnostic: FxHashMap::default(),
        }
    }

    /// Runs `f` with its queries tagged engine-internal (`QueryMeta::internal`): queries
    /// whose answers depend on where objects are, which the address-aware cache must not
    /// answer (spec 003 §3.3).
    pub(crate) fn internally<T>(&mut self, f: impl FnOnce(&mut Self) -> T) -> T {
        let was = std::mem::replace(&mut self.meta.internal, true);
        let result = f(self);
        self.meta.internal = was;
        result
    }

    /// Runs a query of `state`, counting it and its time (also in the state's query cost,
    /// which `nurs:qc` weighs).
    fn timed<T>(
        &mut self,
        state: &State,
        during: &str,
        f: impl FnOnce(&mut Self) -> Result<T, SolverError>,
    ) -> Result<T, SolverError> {
        self.apply_deadline();
        let start = Instant::now();
        let r = f(self);
        let spent = start.elapsed();
        self.queries += 1;
        self.solver_time += spent;
        match self.by_purpose.get_mut(during) {
            Some((n, t)) => {
                *n += 1;
                *t += spent;
            }
            None => {
                self.by_purpose.insert(during.to_owned(), (1, spent));
            }
        }
        state
            .query_cost
            .set(state.query_cost.get() + spent.as_secs_f64());
        r
    }

    /// Caps the solver's timeout at the time left under `--max-time`, so that one hard query
    /// cannot hold the run past its limit; without `--max-solver-time`, a query may take a
    /// quarter of `--max-time` ([`default_query_timeout`]).
    fn apply_deadline(&mut self) {
        let Some(limit) = self.max_time else {
            return;
        };
        let left = limit
            .saturating_sub(self.start.elapsed())
            .max(Duration::from_millis(10));
        let base = self
            .base_timeout
            .unwrap_or_else(|| default_query_timeout(limit));
        let timeout = base.min(left);
        self.solver.set_timeout(Some(timeout));
    }

    /// The termination for a failed query: a solver error, or an early termination when the
    /// run's time is up (the query was cut short by `--max-time`) or it was interrupted.
    fn failure(&self, error: SolverError, during: &str) -> Termination {
        let out_of_time = self
            .max_time
            .is_some_and(|limit| self.start.elapsed() >= limit);
        if out_of_time && error == SolverError::Timeout {
            return Termination::Early("max-time reached during a solver query".into());
        }
        if error == SolverError::Interrupted {
            // The run was interrupted (a signal): no failure of the solver or the program.
            return Termination::Early("interrupted during a solver query".into());
        }
        solver_failure(error, during)
    }

    /// Asks `ask` about `e` (a condition, or a value when `value`) on `state`'s path. The
    /// array-read transformations apply first. With address constraints, the query is
    /// built from the substituted and transformed forms of the path condition (memoised per
    /// constraint), so the transformations see the constant tables behind pointers, while
    /// the path condition itself keeps naming symbolic bases.
    fn ask<T>(
        &mut self,
        state: &State,
        e: &Expr,
        value: bool,
        during: &str,
        ask: impl FnOnce(&mut Solver, &Query) -> Result<T, SolverError>,
    ) -> Exec<T> {
        if state.addresses.is_empty() {
            let e = if value {
                self.opt_value(state, e.clone())?
            } else {
                self.opt_condition(state, e.clone())?
            };
            let constraints = relevant(&self.solver, state, &e);
            return self
                .timed(state, during, |sv| {
                    let q = Query::new(&constraints, e, &sv.meta).with_addresses(&state.addresses);
                    ask(&mut sv.solver, &q)
                })
                .map_err(|err| self.failure(err, during));
        }
        let constraints: Vec<Expr> = state
            .constraints
            .iter()
            .map(|c| self.relocated(state, c, false))
            .collect::<Exec<_>>()?;
        let concrete = self.relocated(state, e, value)?;
        // The address-agnostic forms, for the address-aware cache (conditions only: value
        // queries need models, which it does not give; engine-internal queries bypass it).
        let agnostic: Option<(Vec<Expr>, Expr)> =
            (!value && !self.meta.internal && self.solver.uses_aa_cache()).then(|| {
                let pc = state
                    .constraints
                    .iter()
                    .map(|c| self.agnostic(state, c))
                    .collect();
                (pc, self.agnostic(state, e))
            });
        self.timed(state, during, |sv| {
            let mut q = Query::new(&constraints, concrete, &sv.meta);
            if let Some((pc, expr)) = &agnostic {
                q = q.with_agnostic(AgnosticForm {
                    constraints: pc,
                    expr: expr.clone(),
                    bindings: &state.addresses,
                });
            }
            ask(&mut sv.solver, &q)
        })
        .map_err(|err| self.failure(err, during))
    }

    /// `e` in its address-agnostic form under the state's bindings, memoised per binding
    /// generation.
    fn agnostic(&mut self, state: &State, e: &Expr) -> Expr {
        let key = (state.addresses.generation(), e.clone());
        if let Some(done) = self.agnostic.get(&key) {
            return done.clone();
        }
        let done = state.addresses.agnostic(e);
        if self.agnostic.len() > RELOCATED_MEMO_LIMIT {
            self.agnostic.clear();
        }
        self.agnostic.insert(key, done.clone());
        done
    }

    /// The state's path condition as its queries present it to the solver: with address
    /// constraints, substituted and transformed as in [`SolverView::ask`] (so that a test's
    /// model query meets the caches' entries of the path's other queries); without, as it
    /// is.
    pub(crate) fn solver_form(&mut self, state: &State, constraints: &[Expr]) -> Exec<Vec<Expr>> {
        if state.addresses.is_empty() {
            return Ok(constraints.to_vec());
        }
        constraints
            .iter()
            .map(|c| self.relocated(state, c, false))
            .collect()
    }

    /// `e` with the state's address constraints substituted and the array-read
    /// transformations applied, memoised per binding generation.
    fn relocated(&mut self, state: &State, e: &Expr, value: bool) -> Exec<Expr> {
        let key = (state.addresses.generation(), value, e.clone());
        if let Some(done) = self.relocated.get(&key) {
            return Ok(done.clone());
        }
        let substituted = state.addresses.substitute(e);
        let done = if value {
            self.opt_value_unchecked(&substituted)
        } else {
            self.opt_condition_unchecked(&substituted)
        };
        if self.relocated.len() > RELOCATED_MEMO_LIMIT {
            self.relocated.clear();
        }
        self.relocated.insert(key, done.clone());
        Ok(done)
    }

    /// `e` as the terms `state`'s path fixed make it ([`sear_solver::PathCondition::simplify`],
    /// KLEE's `simplifyExpr` before every query): what the methods below ask about. The
    /// same value in every model of the path, so the same answers; often a constant (no
    /// query) or a smaller query that touches fewer factors. Under `--validate-solver` each
    /// rewrite is checked against the chain.
    pub(crate) fn simplified(&mut self, state: &State, e: &Expr) -> Exec<Expr> {
        if e.is_constant() || !self.simplification.enabled {
            return Ok(e.clone());
        }
        let simplified = state.constraints.simplify(e);
        if simplified.is_constant() {
            self.simplification.decided += 1;
        } else if simplified != *e {
            self.simplification.rewritten += 1;
        }
        // The whole path condition is copied only when it is checked (`--validate-solver`):
        // at 10^5 constraints, a copy per rewritten condition was half of a run's time.
        if simplified != *e && self.solver.validates_simplification() {
            let constraints = state.constraints.to_vec();
            self.solver
                .validate_simplification(&constraints, &self.meta, e, &simplified)
                .map_err(|err| self.failure(err, "simplification"))?;
        }
        Ok(simplified)
    }

    /// Whether `cond` must be true, must be false, or may be either on this path.
    pub(crate) fn evaluate(&mut self, state: &State, cond: &Expr, during: &str) -> Exec<Validity> {
        let cond = &self.simplified(state, cond)?;
        if let Some(c) = cond.as_constant().or_else(|| settled(state, cond)) {
            return Ok(if c == 1 {
                Validity::True
            } else {
                Validity::False
            });
        }
        self.ask(state, cond, false, during, |s, q| s.evaluate(q))
    }

    /// Whether `cond` may be true on this path.
    pub(crate) fn may_be_true(&mut self, state: &State, cond: &Expr, during: &str) -> Exec<bool> {
        let cond = &self.simplified(state, cond)?;
        if let Some(c) = cond.as_constant().or_else(|| settled(state, cond)) {
            return Ok(c == 1);
        }
        self.ask(state, cond, false, during, |s, q| s.may_be_true(q))
    }

    /// Whether `cond` must be true on this path.
    pub(crate) fn must_be_true(&mut self, state: &State, cond: &Expr, during: &str) -> Exec<bool> {
        let cond = &self.simplified(state, cond)?;
        if let Some(c) = cond.as_constant().or_else(|| settled(state, cond)) {
            return Ok(c == 1);
        }
        self.ask(state, cond, false, during, |s, q| s.must_be_true(q))
    }

    /// A feasible value of `e` on this path.
    pub(crate) fn get_value(&mut self, state: &State, e: &Expr, during: &str) -> Exec<u128> {
        let e = &self.simplified(state, e)?;
        if let Some(c) = e.as_constant().or_else(|| settled(state, e)) {
            return Ok(c);
        }
        self.ask(state, e, true, during, |s, q| s.get_value(q))
    }
}
