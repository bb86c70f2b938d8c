//! The facade the engine uses: validity, values and models derived from satisfiability
//! queries, over the chain built by [`crate::build_chain`].
//!
//! Preconditions are established here once: constant expressions are answered directly
//! (counted as the `constant` layer), and validity queries must be boolean.

use std::rc::Rc;
use std::time::{Duration, Instant};

use sear_expr::interval::Intervals;
use sear_expr::visit::collect_symbolic_arrays;
use sear_expr::{ArrayRef, Assignment, CmpOp, Expr, ExprKind};

use crate::aa::{AaLayer, Agnostic};
use crate::address::AddressBindings;
use crate::audit::{Audit, SAT_CHECK_FAILED};
use crate::chain::{build_chain_with, new_audit};
use crate::config::SolverConfig;
use crate::query::{AgnosticForm, Query, QueryMeta, SolverError, Validity};
use crate::sat::{SatQuery, SatResult, SatSolver};
use crate::stats::{ChainStats, LayerStats};

/// `e` and the form the expression builder gives the same condition written the other way
/// round: `¬(x < y)` is `y ≤ x` and `¬(x ≤ y)` is `y < x`, signed and unsigned (a program's
/// `a >= 0` and `a < 0` are such a pair).
fn equivalent_forms(e: &Expr) -> Vec<Expr> {
    let flipped = |op: CmpOp, lhs: &Expr, rhs: &Expr| {
        let op = match op {
            CmpOp::Ult => CmpOp::Ule,
            CmpOp::Ule => CmpOp::Ult,
            CmpOp::Slt => CmpOp::Sle,
            CmpOp::Sle => CmpOp::Slt,
            CmpOp::Eq => return None,
        };
        Some(Expr::cmp(op, rhs.clone(), lhs.clone()))
    };
    let other = match e.kind() {
        ExprKind::Cmp { op, lhs, rhs } => flipped(*op, lhs, rhs).map(Expr::not),
        ExprKind::Not(inner) => match inner.kind() {
            ExprKind::Cmp { op, lhs, rhs } => flipped(*op, lhs, rhs),
            _ => None,
        },
        _ => None,
    };
    std::iter::once(e.clone()).chain(other).collect()
}

/// The solver: a chain of layers over a core, with KLEE's query API.
pub struct Solver {
    chain: Box<dyn SatSolver>,
    constant: LayerStats,
    /// The address-aware cache above the chain (`SolverConfig::aa_cache`).
    aa: Option<AaLayer>,
    /// The chain slices queries by constraint independence (`SolverConfig::independence`).
    independence: bool,
    /// Answers decided by intervals (`SolverConfig::interval_answers`); the memo keeps each
    /// constant array's smallest and largest byte between queries.
    intervals: Option<Intervals>,
    /// Cross-check every interval and equality answer against the chain
    /// (`SolverConfig::validate`).
    validate_facade: bool,
    /// Answers decided by the path condition's equalities (`SolverConfig::equality_answers`,
    /// [`crate::equalities`]), cross-checked against the chain under `validate_facade`.
    equalities: bool,
    /// The checks the chain's layers put on answers given without the core (shared with
    /// them; its oracle's statistics are reported here).
    audit: Rc<Audit>,
}

impl Solver {
    /// Builds the chain described by `config`.
    pub fn new(config: &SolverConfig) -> Result<Solver, SolverError> {
        Solver::with_rewriter(config, None)
    }

    /// Builds the chain described by `config`, with the queries that reach the core's side
    /// of the byte search rewritten by `rewriter` (the array-read transformations when they
    /// run in the chain; `crate::layers::rewrite`).
    pub fn with_rewriter(
        config: &SolverConfig,
        rewriter: Option<crate::layers::SharedRewriter>,
    ) -> Result<Solver, SolverError> {
        let audit = new_audit(config);
        Ok(Solver {
            chain: build_chain_with(config, audit.clone(), rewriter)?,
            constant: LayerStats::new("constant"),
            // `--validate-solver` cross-checks the address-aware cache's hits too.
            aa: config
                .aa_cache
                .then(|| AaLayer::new(config.validate_caching || config.validate)),
            independence: config.independence,
            intervals: config.interval_answers.then(Intervals::new),
            equalities: config.equality_answers,
            validate_facade: config.validate,
            audit,
        })
    }

    /// Wraps an already built chain (for tests and experiments).
    pub fn from_chain(chain: Box<dyn SatSolver>) -> Solver {
        Solver {
            chain,
            constant: LayerStats::new("constant"),
            aa: None,
            independence: false,
            intervals: None,
            validate_facade: false,
            equalities: false,
            audit: Audit::checks_only(),
        }
    }

    /// Puts the address-aware cache (spec 003 Ch. 4) above the chain; with `validate`,
    /// every hit is cross-checked against the chain.
    pub fn with_aa_cache(mut self, validate: bool) -> Solver {
        self.aa = Some(AaLayer::new(validate));
        self
    }

    /// The solver without the facade's equality answers: for a caller that asks every
    /// query already simplified by its whole path condition's fixed terms (the engine's path
    /// simplification), where they would decide nothing more at the cost of a second pass.
    pub fn without_equality_answers(mut self) -> Solver {
        self.equalities = false;
        self
    }

    /// True when the chain slices queries by constraint independence: a caller may then
    /// pass, for a query about `e` (validity or a value), only the constraints of the
    /// factors `e` touches ([`crate::PathCondition::slice_for`]), which is what the
    /// independence layer would keep of the whole list.
    pub fn slices_by_independence(&self) -> bool {
        self.independence
    }

    /// True when [`Solver::validate_simplification`] checks anything (`--validate-solver`):
    /// callers can skip building its arguments otherwise.
    pub fn validates_simplification(&self) -> bool {
        self.validate_facade
    }

    /// Under `--validate-solver`, checks that `simplified` equals `original` in every model
    /// of `constraints` (the path simplification's invariant,
    /// [`crate::PathCondition::simplify`]) by asking the chain, below the facade's own
    /// answers, whether they can differ; a disagreement is a solver failure. Without
    /// validation it checks nothing.
    pub fn validate_simplification(
        &mut self,
        constraints: &[Expr],
        meta: &crate::QueryMeta,
        original: &Expr,
        simplified: &Expr,
    ) -> Result<(), SolverError> {
        if !self.validate_facade || original == simplified {
            return Ok(());
        }
        let differ = Expr::not(Expr::eq(original.clone(), simplified.clone()));
        let sq = SatQuery::new(constraints, differ, meta, true, false);
        if self.chain.check(&sq)?.is_sat() {
            return Err(SolverError::Failure(format!(
                "SOLVER VALIDATION FAILED: the path simplification rewrote {original} to \
                 {simplified}, which differ in a model of the path condition"
            )));
        }
        Ok(())
    }

    /// True when the address-aware cache is on (callers then pass address-agnostic forms).
    pub fn uses_aa_cache(&self) -> bool {
        self.aa.is_some()
    }

    /// Is `q.constraints ∧ q.expr` (or `¬q.expr` when `negated`) satisfiable? Through the
    /// address-aware cache when the query has an address-agnostic form and is not
    /// engine-internal.
    fn sat(&mut self, q: &Query, negated: bool) -> Result<bool, SolverError> {
        if let Some(value) = self.by_equalities(q)? {
            return Ok(value != negated);
        }
        self.sat_undecided(q, negated)
    }

    /// [`Solver::sat`] once the path condition's equalities did not decide `q.expr`.
    fn sat_undecided(&mut self, q: &Query, negated: bool) -> Result<bool, SolverError> {
        let flip = |e: &Expr| {
            if negated {
                Expr::not(e.clone())
            } else {
                e.clone()
            }
        };
        let asserted = flip(&q.expr);
        if let Some(sat) = self.syntactic(q.constraints, &asserted) {
            return Ok(sat);
        }
        let sq = SatQuery::new(q.constraints, asserted.clone(), q.meta, true, false);
        if let Some(sat) = self.by_intervals(&sq.expr) {
            if self.validate_facade && self.chain.check(&sq)?.is_sat() != sat {
                return Err(SolverError::Failure(format!(
                    "SOLVER VALIDATION FAILED: the interval answers (layer constant) say {} \
                     but the chain says {} on {asserted}",
                    if sat { "sat" } else { "unsat" },
                    if sat { "unsat" } else { "sat" },
                )));
            }
            return Ok(sat);
        }
        if let Some(aa) = &mut self.aa {
            aa.count(true, q.meta.internal);
            if let Some(form) = q.agnostic.as_ref().filter(|_| !q.meta.internal) {
                let expr = flip(&form.expr);
                let agnostic = Agnostic {
                    constraints: form.constraints,
                    expr: &expr,
                    extents: form.bindings,
                };
                return Ok(aa.check(&mut *self.chain, &sq, agnostic)?.is_sat());
            }
        }
        Ok(self.chain.check(&sq)?.is_sat())
    }

    /// The answer to "are `constraints ∧ asserted` satisfiable?" when it needs no solver,
    /// the constraints being satisfiable (a path condition): yes when `asserted` is one of
    /// them, no when its negation is (each in any of its [`equivalent_forms`]). This is the
    /// query of every branch whose condition the
    /// path already decided (KLEE's constraint manager rewrites such a condition to a
    /// constant before asking). Counted as `implied` and `contradicted` of the `constant`
    /// layer.
    fn syntactic(&mut self, constraints: &[Expr], asserted: &Expr) -> Option<bool> {
        // Most branch queries on fresh inputs have an empty slice: nothing to match, and no
        // forms to build (each is an interned node).
        if constraints.is_empty() {
            return None;
        }
        let start = Instant::now();
        let same = equivalent_forms(asserted);
        let opposite = equivalent_forms(&Expr::not(asserted.clone()));
        let answer = constraints.iter().find_map(|c| {
            if same.contains(c) {
                Some(true)
            } else if opposite.contains(c) {
                Some(false)
            } else {
                None
            }
        })?;
        self.constant.record(start, true);
        self.constant
            .bump(if answer { "implied" } else { "contradicted" }, 1);
        Some(answer)
    }

    /// The answer to "are `constraints ∧ asserted` satisfiable?" when the intervals of
    /// `asserted`'s terms decide it in every assignment (the constraints being
    /// satisfiable): a bounds check on reads of constant tables, a comparison against a
    /// value no table byte reaches. Counted as `interval_implied` and
    /// `interval_contradicted` of the `constant` layer.
    fn by_intervals(&mut self, asserted: &Expr) -> Option<bool> {
        let intervals = self.intervals.as_mut()?;
        let start = Instant::now();
        let answer = intervals.decide(asserted);
        intervals.forget_terms();
        let answer = answer?;
        // The intervals claim the answer for every assignment: it must hold at one (all
        // inputs zero); where it does not, the chain decides and the event is counted.
        if (Assignment::new().evaluate(asserted) == 1) != answer {
            self.constant.bump(SAT_CHECK_FAILED, 1);
            tracing::warn!(%asserted, "an interval answer fails at the zero assignment; asking the chain");
            return None;
        }
        self.constant.record(start, true);
        self.constant.bump(
            if answer {
                "interval_implied"
            } else {
                "interval_contradicted"
            },
            1,
        );
        Some(answer)
    }

    /// The value `q.expr` takes in every model of `q.constraints` when the terms they fix
    /// make it a constant ([`crate::equalities`]). Counted as `equality_implied` and
    /// `equality_contradicted` of the `constant` layer; under validation the chain is asked
    /// too and a disagreement is a solver failure.
    fn by_equalities(&mut self, q: &Query) -> Result<Option<bool>, SolverError> {
        if !self.equalities {
            return Ok(None);
        }
        let start = Instant::now();
        let Some(value) = crate::equalities::decide(q.constraints, &q.expr) else {
            return Ok(None);
        };
        if self.validate_facade {
            let sq = SatQuery::new(q.constraints, q.expr.clone(), q.meta, true, false);
            if self.chain.check(&sq)?.is_sat() != value {
                return Err(SolverError::Failure(format!(
                    "SOLVER VALIDATION FAILED: the path condition's equalities (layer constant) \
                     say {} is {value} in every model, but the chain disagrees",
                    q.expr
                )));
            }
        }
        self.constant.record(start, true);
        self.constant.bump(
            if value {
                "equality_implied"
            } else {
                "equality_contradicted"
            },
            1,
        );
        Ok(Some(value))
    }

    /// Counts a model query for the address-aware cache's statistics.
    fn count_model_query(&mut self) {
        if let Some(aa) = &mut self.aa {
            aa.count(false, false);
        }
    }

    fn constant_bool(&mut self, e: &Expr) -> Option<bool> {
        assert!(
            e.is_bool(),
            "solver query expression must be boolean (width {})",
            e.width()
        );
        let start = Instant::now();
        let value = e.as_constant().map(|v| v == 1);
        if value.is_some() {
            self.constant.record(start, true);
        }
        value
    }

    /// Runs `f` on `q` with its address constraints substituted (spec 003 §2.2): the chain
    /// below never sees a symbolic base. Queries without address constraints pass as they
    /// are.
    fn substituted<T>(
        &mut self,
        q: &Query,
        f: impl FnOnce(&mut Self, &Query) -> Result<T, SolverError>,
    ) -> Result<T, SolverError> {
        match q.addresses {
            Some(bindings) if !bindings.is_empty() => {
                let constraints = bindings.substitute_all(q.constraints);
                let mut meta = q.meta.clone();
                meta.address_arrays.extend(bindings.arrays().cloned());
                let mut sq = Query::new(&constraints, bindings.substitute(&q.expr), &meta);
                let agnostic: Vec<Expr>;
                if let Some(form) = &q.agnostic {
                    sq.agnostic = Some(form.clone());
                } else if self.aa.is_some() {
                    agnostic = q.constraints.iter().map(|c| bindings.agnostic(c)).collect();
                    sq.agnostic = Some(AgnosticForm {
                        constraints: &agnostic,
                        expr: bindings.agnostic(&q.expr),
                        bindings,
                    });
                }
                f(self, &sq)
            }
            _ => f(self, q),
        }
    }

    /// The validity of `q.expr` under `q.constraints` (assumed satisfiable).
    pub fn evaluate(&mut self, q: &Query) -> Result<Validity, SolverError> {
        if q.addresses.is_some_and(|a| !a.is_empty()) {
            return self.substituted(q, |s, q| s.evaluate(q));
        }
        if let Some(b) = self.constant_bool(&q.expr) {
            return Ok(if b { Validity::True } else { Validity::False });
        }
        if let Some(b) = self.by_equalities(q)? {
            return Ok(if b { Validity::True } else { Validity::False });
        }
        if !self.sat_undecided(q, true)? {
            return Ok(Validity::True);
        }
        if !self.sat_undecided(q, false)? {
            return Ok(Validity::False);
        }
        Ok(Validity::Unknown)
    }

    /// True if `q.expr` holds in every model of the constraints.
    pub fn must_be_true(&mut self, q: &Query) -> Result<bool, SolverError> {
        if q.addresses.is_some_and(|a| !a.is_empty()) {
            return self.substituted(q, |s, q| s.must_be_true(q));
        }
        if let Some(b) = self.constant_bool(&q.expr) {
            return Ok(b);
        }
        Ok(!self.sat(q, true)?)
    }

    /// True if `q.expr` is false in every model of the constraints.
    pub fn must_be_false(&mut self, q: &Query) -> Result<bool, SolverError> {
        if q.addresses.is_some_and(|a| !a.is_empty()) {
            return self.substituted(q, |s, q| s.must_be_false(q));
        }
        if let Some(b) = self.constant_bool(&q.expr) {
            return Ok(!b);
        }
        Ok(!self.sat(q, false)?)
    }

    /// True if `q.expr` holds in some model of the constraints.
    pub fn may_be_true(&mut self, q: &Query) -> Result<bool, SolverError> {
        Ok(!self.must_be_false(q)?)
    }

    /// True if `q.expr` is false in some model of the constraints.
    pub fn may_be_false(&mut self, q: &Query) -> Result<bool, SolverError> {
        Ok(!self.must_be_true(q)?)
    }

    /// A feasible value of `q.expr` (any width) under `q.constraints` (assumed satisfiable).
    pub fn get_value(&mut self, q: &Query) -> Result<u128, SolverError> {
        if q.addresses.is_some_and(|a| !a.is_empty()) {
            return self.substituted(q, |s, q| s.get_value(q));
        }
        let start = Instant::now();
        if let Some(v) = q.expr.as_constant() {
            self.constant.record(start, true);
            return Ok(v);
        }
        self.count_model_query();
        let mut sq = SatQuery::new(q.constraints, Expr::true_(), q.meta, true, false);
        sq.focus = Some(q.expr.clone());
        match self.chain.check(&sq)? {
            SatResult::Sat(model) => Ok(model.evaluate(&q.expr)),
            SatResult::Unsat => Err(SolverError::Failure(
                "get_value: the path condition is unsatisfiable".into(),
            )),
        }
    }

    /// A model of `constraints` giving bytes for every array of `arrays` (None if the
    /// constraints are unsatisfiable). Arrays no constraint reads are all zeros; constant
    /// arrays get their contents.
    pub fn get_initial_values(
        &mut self,
        constraints: &[Expr],
        meta: &QueryMeta,
        arrays: &[ArrayRef],
    ) -> Result<Option<Assignment>, SolverError> {
        self.get_initial_values_under(constraints, meta, arrays, None)
    }

    /// [`Solver::get_initial_values`] under a state's address constraints.
    pub fn get_initial_values_under(
        &mut self,
        constraints: &[Expr],
        meta: &QueryMeta,
        arrays: &[ArrayRef],
        addresses: Option<&AddressBindings>,
    ) -> Result<Option<Assignment>, SolverError> {
        if let Some(bindings) = addresses.filter(|a| !a.is_empty()) {
            let substituted = bindings.substitute_all(constraints);
            let mut meta = meta.clone();
            meta.address_arrays.extend(bindings.arrays().cloned());
            return self.get_initial_values_under(&substituted, &meta, arrays, None);
        }
        self.count_model_query();
        let sq = SatQuery::new(constraints, Expr::true_(), meta, false, true);
        let SatResult::Sat(model) = self.chain.check(&sq)? else {
            return Ok(None);
        };
        let mut out = Assignment::new();
        for a in arrays {
            let bytes = (0..a.size()).map(|i| model.byte(a, i as u128)).collect();
            out.insert(a.clone(), bytes);
            out.copy_outside_from(&model, a);
        }
        Ok(Some(out))
    }

    /// Satisfiability of `constraints` without assuming them satisfiable, with a model of
    /// every symbolic array they read (for `sear solve`).
    pub fn check_sat(
        &mut self,
        constraints: &[Expr],
        meta: &QueryMeta,
    ) -> Result<Option<Assignment>, SolverError> {
        let arrays: Vec<ArrayRef> = collect_symbolic_arrays(constraints).into_iter().collect();
        self.get_initial_values(constraints, meta, &arrays)
    }

    /// Sets the per-query time limit of the core(s).
    pub fn set_timeout(&mut self, timeout: Option<Duration>) {
        self.chain.set_timeout(timeout);
    }

    /// The statistics of every layer, top first.
    pub fn stats(&self) -> ChainStats {
        let mut layers = vec![self.constant.clone()];
        layers.extend(self.aa.as_ref().map(AaLayer::layer_stats));
        self.chain.collect_stats(&mut layers);
        self.audit.collect_stats(&mut layers);
        let sat_checks_failed = layers.iter().map(|l| l.counter(SAT_CHECK_FAILED)).sum();
        let (core_queries, core_time_secs) = layers
            .iter()
            .filter(|l| l.core)
            .fold((0, 0.0), |(q, t), l| (q + l.queries, t + l.time_secs));
        let core_queries_with_arrays = layers
            .iter()
            .filter(|l| l.core)
            .map(|l| l.array_queries)
            .sum();
        ChainStats {
            layers,
            core_queries,
            core_time_secs,
            core_queries_with_arrays,
            sat_checks_failed,
            aa_cache: self.aa.as_ref().map(AaLayer::stats),
        }
    }
}
