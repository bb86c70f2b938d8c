//! The checks on answers a layer gives without the core.
//!
//! A SAT answer found above the core (a model from the byte search or the floating-point
//! search, one of the counterexample cache's stored, uniform or neighbour models) is
//! evaluated against the query's conjuncts before it is returned
//! ([`Audit::model_holds`]): a model that does not satisfy them is counted
//! (`sat_check_failed` in the layer's statistics, summed in `summary.json`'s
//! `solver.sat_checks_failed`) and the layer asks the one below instead.
//! An UNSAT answer given without the core rests on the invariant its layer states; under
//! `--validate-solver` it is also cross-checked against a plain Z3 core
//! ([`Audit::confirm_unsat`]), and a disagreement, like a failed model check, is a solver
//! failure that names the layer.

use std::cell::RefCell;
use std::rc::Rc;
use std::time::Duration;

use sear_expr::Assignment;

use crate::query::SolverError;
use crate::sat::{SatQuery, SatResult, SatSolver};
use crate::stats::LayerStats;

/// The counter of models that failed their check, in every layer's statistics.
pub const SAT_CHECK_FAILED: &str = "sat_check_failed";
/// The counter of UNSAT answers the oracle confirmed.
pub const UNSAT_CONFIRMED: &str = "unsat_confirmed";
/// The counter of UNSAT answers the oracle refuted (each one a solver failure).
pub const UNSAT_REFUTED: &str = "unsat_refuted";
/// The counter of UNSAT answers the oracle could not decide in time.
pub const UNSAT_UNCHECKED: &str = "unsat_unchecked";

/// The checks, shared by the layers of one chain (and the facade above it).
pub struct Audit {
    /// The plain core that cross-checks UNSAT answers (`--validate-solver`).
    oracle: Option<RefCell<Box<dyn SatSolver>>>,
}

impl Audit {
    /// Model checks only (no oracle).
    pub fn checks_only() -> Rc<Audit> {
        Rc::new(Audit { oracle: None })
    }

    /// Model checks, and UNSAT answers cross-checked against `oracle` (whose timeout is
    /// `timeout`); failed checks of either kind are solver failures.
    pub fn validating(mut oracle: Box<dyn SatSolver>, timeout: Option<Duration>) -> Rc<Audit> {
        oracle.set_timeout(timeout);
        Rc::new(Audit {
            oracle: Some(RefCell::new(oracle)),
        })
    }

    /// True when answers are cross-checked against an oracle.
    pub fn is_validating(&self) -> bool {
        self.oracle.is_some()
    }

    /// Whether `model`, found by the layer whose statistics are `stats` without the core,
    /// satisfies every conjunct of `query`. A false answer is counted; under validation it
    /// is a solver failure naming the layer.
    pub fn model_holds(
        &self,
        stats: &mut LayerStats,
        query: &SatQuery,
        model: &Assignment,
    ) -> Result<bool, SolverError> {
        if model.satisfies(query.conjuncts()) {
            return Ok(true);
        }
        stats.bump(SAT_CHECK_FAILED, 1);
        let violated = query
            .conjuncts()
            .find(|c| model.evaluate(c) != 1)
            .map(|c| c.to_string())
            .unwrap_or_default();
        tracing::warn!(layer = %stats.name, %violated, "a model found without the core does not satisfy its query; asking the layer below");
        if self.is_validating() {
            return Err(SolverError::Failure(format!(
                "SOLVER VALIDATION FAILED: the model from layer {} does not satisfy the query \
                 ({} constraints); violated: {violated}",
                stats.name,
                query.constraints.len()
            )));
        }
        Ok(false)
    }

    /// Under validation, cross-checks an UNSAT answer that the layer whose statistics are
    /// `stats` gave without the core: a model from the oracle that satisfies the query is
    /// a solver failure naming the layer. Without an oracle, nothing.
    pub fn confirm_unsat(
        &self,
        stats: &mut LayerStats,
        query: &SatQuery,
    ) -> Result<(), SolverError> {
        let Some(oracle) = &self.oracle else {
            return Ok(());
        };
        let asked = SatQuery {
            need_model: true,
            ..query.clone()
        };
        let answer = crate::deadline::outside(|| oracle.borrow_mut().check(&asked));
        match answer {
            Ok(SatResult::Unsat) => {
                stats.bump(UNSAT_CONFIRMED, 1);
                Ok(())
            }
            Ok(SatResult::Sat(model)) if model.satisfies(query.conjuncts()) => {
                stats.bump(UNSAT_REFUTED, 1);
                Err(SolverError::Failure(format!(
                    "SOLVER VALIDATION FAILED: layer {} says unsat but plain Z3 found a model \
                     ({} constraints, expr {})",
                    stats.name,
                    query.constraints.len(),
                    query.expr
                )))
            }
            Ok(SatResult::Sat(_)) => Err(SolverError::Failure(format!(
                "SOLVER VALIDATION FAILED: the oracle's model does not satisfy the query that \
                 layer {} says is unsat",
                stats.name
            ))),
            Err(SolverError::Timeout) => {
                stats.bump(UNSAT_UNCHECKED, 1);
                tracing::warn!(layer = %stats.name, "validation skipped: the oracle timed out");
                Ok(())
            }
            Err(e) => Err(e),
        }
    }

    /// The oracle's statistics (named `<core>-oracle`), if there is one.
    pub fn collect_stats(&self, out: &mut Vec<LayerStats>) {
        if let Some(oracle) = &self.oracle {
            let mut stats = Vec::new();
            oracle.borrow().collect_stats(&mut stats);
            for mut s in stats {
                s.name = format!("{}-unsat-oracle", s.name);
                s.core = false;
                out.push(s);
            }
        }
    }
}
