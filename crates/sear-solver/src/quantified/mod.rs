//! The quantified-query stage (seed 003 Ch. 6, Algorithm 7; spec §5.7): the solving
//! procedure for path conditions with clauses `∀i. 1 ≤ i ≤ k → ψ`.
//!
//! Queries without a quantified clause pass to the layer below unchanged. A quantified query
//! φ is solved in stages, each counted in the layer's statistics:
//!
//! 1. **strip** ([`clauses::Clauses::strip`]): the quantifier-free weakening (each clause's
//!    first instance under `k ≥ 1`, and `¬(1 ≤ t ≤ k)` for quantifier-free clauses that are
//!    negated instances `¬ψ[t/i]`, found by E-matching) goes to the chain below (the caches
//!    and the core). UNSAT there proves φ UNSAT (`strip_unsat`); a model that satisfies φ
//!    (checked by evaluation, enumerating `1..=m(k)`) answers it (`strip`).
//! 2. **duplicate** ([`model::duplicate`]): the cells the clauses read through `i` get the
//!    value of the instance `i = 1` (`duplicate`).
//! 3. **repair**: the cells of violated instances and clauses are conflicts; the stripped
//!    query plus the instances touching conflicts, with every read of a non-quantified array
//!    pinned to its value, is solved again below and duplicated around the conflicts
//!    (`repair`).
//! 4. **fallback**: the quantified core (Z3 or Bitwuzla, [`QuantifiedCore`]) decides φ
//!    (`fallback`).
//!
//! Only strip can prove UNSAT; every other failure falls back. With
//! [`QuantifiedConfig::core_only`] every quantified query goes to the core; with
//! [`QuantifiedConfig::validate`] every answer of stages 1–3 is cross-checked against Z3
//! (`validated`, `validation_failures`: a disagreement is a [`SolverError::Failure`]).

pub mod clauses;
pub mod model;

use std::time::{Duration, Instant};

use rustc_hash::{FxHashMap, FxHashSet};
use sear_expr::visit::collect_symbolic_arrays;
use sear_expr::{Assignment, Expr};

use crate::bitwuzla::BitwuzlaCore;
use crate::config::{QuantifiedConfig, QuantifiedCore};
use crate::query::SolverError;
use crate::sat::{SatQuery, SatResult, SatSolver};
use crate::stats::LayerStats;
use crate::z3core::{Z3Core, Z3Mode};
use clauses::Clauses;

/// Remembered per expression: whether it holds a quantified clause; cleared beyond this.
const MEMO_LIMIT: usize = 100_000;

/// Which stage answered a quantified query.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// Strip was UNSAT.
    StripUnsat,
    /// Strip's model satisfied the query.
    Strip,
    /// Duplicate's model did.
    Duplicate,
    /// Repair's model did.
    Repair,
    /// The quantified core answered.
    Fallback,
}

impl Stage {
    /// The statistics counter of the stage.
    pub fn counter(self) -> &'static str {
        match self {
            Stage::StripUnsat => "strip_unsat",
            Stage::Strip => "strip",
            Stage::Duplicate => "duplicate",
            Stage::Repair => "repair",
            Stage::Fallback => "fallback",
        }
    }
}

/// The quantified-query stage.
pub struct QuantifiedStage {
    inner: Box<dyn SatSolver>,
    core: Box<dyn SatSolver>,
    /// Z3, the oracle of `validate` (a separate instance when the core is not Z3).
    oracle: Option<Box<dyn SatSolver>>,
    config: QuantifiedConfig,
    memo: FxHashMap<Expr, bool>,
    stats: LayerStats,
    last: Option<Stage>,
}

/// A fresh core for quantified queries.
pub fn quantified_core(kind: QuantifiedCore) -> Box<dyn SatSolver> {
    match kind {
        QuantifiedCore::Z3 => Box::new(Z3Core::new(Z3Mode::FreshSmt)),
        QuantifiedCore::Bitwuzla => Box::new(BitwuzlaCore::default()),
    }
}

impl QuantifiedStage {
    /// The stage above `inner`, with its own quantified core.
    pub fn new(inner: Box<dyn SatSolver>, config: &QuantifiedConfig) -> Self {
        QuantifiedStage {
            inner,
            core: quantified_core(config.core),
            oracle: (config.validate && config.core != QuantifiedCore::Z3)
                .then(|| quantified_core(QuantifiedCore::Z3)),
            config: *config,
            memo: FxHashMap::default(),
            stats: LayerStats::new("quantified"),
            last: None,
        }
    }

    /// The stage that answered the last quantified query.
    pub fn last_stage(&self) -> Option<Stage> {
        self.last
    }

    fn quantified(&mut self, query: &SatQuery) -> bool {
        if self.memo.len() > MEMO_LIMIT {
            self.memo.clear();
        }
        query.conjuncts().any(|c| {
            *self
                .memo
                .entry(c.clone())
                .or_insert_with(|| sear_expr::quant::contains_forall([c]))
        })
    }

    /// Solves the quantifier-free `constraints` below, for a full model.
    fn below(&mut self, constraints: &[Expr], query: &SatQuery) -> Result<SatResult, SolverError> {
        let sub = SatQuery::new(constraints, Expr::true_(), query.meta, false, true);
        self.inner.check(&sub)
    }

    /// Stages 1–3; `None` when they leave the query open.
    fn procedure(
        &mut self,
        clauses: &Clauses,
        query: &SatQuery,
    ) -> Result<Option<(Stage, SatResult)>, SolverError> {
        let (stripped, matched) = clauses.strip();
        self.stats.bump("ematch_constraints", matched);
        let m = match self.below(&stripped, query)? {
            SatResult::Unsat => return Ok(Some((Stage::StripUnsat, SatResult::Unsat))),
            SatResult::Sat(m) => m,
        };
        if model::satisfies(&m, clauses) {
            return Ok(Some((Stage::Strip, SatResult::Sat(m))));
        }
        let m_d = model::duplicate(clauses, &m, &FxHashSet::default());
        if model::satisfies(&m_d, clauses) {
            return Ok(Some((Stage::Duplicate, SatResult::Sat(m_d))));
        }
        // Repair.
        let conflicts = model::conflicts(clauses, &m_d);
        let instances = model::conflict_instances(clauses, &m_d, &conflicts);
        let pins = model::pins(clauses, &m_d, &instances);
        let mut strengthened = stripped;
        strengthened.extend(instances);
        strengthened.extend(pins);
        let m2 = match self.below(&strengthened, query)? {
            SatResult::Unsat => return Ok(None),
            SatResult::Sat(m) => m,
        };
        let m_r = model::duplicate(clauses, &m2, &conflicts);
        if model::satisfies(&m_r, clauses) {
            return Ok(Some((Stage::Repair, SatResult::Sat(m_r))));
        }
        Ok(None)
    }

    fn solve(&mut self, query: &SatQuery) -> Result<SatResult, SolverError> {
        self.stats.bump("quantified_queries", 1);
        let clauses = Clauses::of(query.conjuncts());
        // A clause under a negation or a disjunction (an existential, a validity goal) is
        // beyond the procedure.
        let nested = clauses
            .qf
            .iter()
            .any(|c| sear_expr::quant::contains_forall([c]));
        if nested {
            self.stats.bump("nested_quantifiers", 1);
        }
        let answered = if self.config.core_only || nested {
            None
        } else {
            match self.procedure(&clauses, query) {
                Ok(a) => a,
                // Timeouts and failures below: the core gets its chance.
                Err(SolverError::Interrupted) => return Err(SolverError::Interrupted),
                Err(_) => {
                    self.stats.bump("procedure_errors", 1);
                    None
                }
            }
        };
        let (stage, result) = match answered {
            Some((stage, result)) => {
                if self.config.validate {
                    self.cross_check(query, &result)?;
                }
                (stage, result)
            }
            None => (Stage::Fallback, self.fallback(query)?),
        };
        self.stats.bump(stage.counter(), 1);
        self.last = Some(stage);
        Ok(match result {
            SatResult::Sat(m) => SatResult::Sat(complete(m, query)),
            unsat => unsat,
        })
    }

    fn fallback(&mut self, query: &SatQuery) -> Result<SatResult, SolverError> {
        let full = SatQuery {
            need_model: true,
            ..query.clone()
        };
        let r = self.core.check(&full);
        match &r {
            Ok(SatResult::Sat(_)) => self.stats.bump("fallback_sat", 1),
            Ok(SatResult::Unsat) => self.stats.bump("fallback_unsat", 1),
            Err(_) => self.stats.bump("fallback_errors", 1),
        }
        r
    }

    fn cross_check(&mut self, query: &SatQuery, result: &SatResult) -> Result<(), SolverError> {
        let full = SatQuery {
            need_model: true,
            ..query.clone()
        };
        let oracle = self.oracle.as_mut().unwrap_or(&mut self.core);
        match oracle.check(&full) {
            Ok(o) => {
                self.stats.bump("validated", 1);
                if o.is_sat() != result.is_sat() {
                    self.stats.bump("validation_failures", 1);
                    return Err(SolverError::Failure(format!(
                        "QUANTIFIED VALIDATION FAILED: the procedure says {} but the core says {}",
                        if result.is_sat() { "sat" } else { "unsat" },
                        if o.is_sat() { "sat" } else { "unsat" },
                    )));
                }
                Ok(())
            }
            Err(SolverError::Interrupted) => Err(SolverError::Interrupted),
            Err(_) => {
                self.stats.bump("validation_skipped", 1);
                Ok(())
            }
        }
    }
}

/// `m` with every symbolic array of the query assigned (unassigned ones read zero).
fn complete(mut m: Assignment, query: &SatQuery) -> Assignment {
    for a in collect_symbolic_arrays(query.conjuncts()) {
        if m.get(&a).is_none() {
            let size = a.size() as usize;
            m.insert(a, vec![0; size]);
        }
    }
    m
}

impl SatSolver for QuantifiedStage {
    fn name(&self) -> &'static str {
        "quantified"
    }

    fn check(&mut self, query: &SatQuery) -> Result<SatResult, SolverError> {
        if !self.quantified(query) {
            return self.inner.check(query);
        }
        let start = Instant::now();
        let r = self.solve(query);
        self.stats.record(start, false);
        r
    }

    fn set_timeout(&mut self, timeout: Option<Duration>) {
        self.inner.set_timeout(timeout);
        self.core.set_timeout(timeout);
        if let Some(oracle) = &mut self.oracle {
            oracle.set_timeout(timeout);
        }
    }

    fn collect_stats(&self, out: &mut Vec<LayerStats>) {
        out.push(self.stats.clone());
        self.inner.collect_stats(out);
        let mut core = Vec::new();
        self.core.collect_stats(&mut core);
        for mut s in core {
            s.name = format!("{}-quantified", s.name);
            out.push(s);
        }
    }
}

#[cfg(test)]
mod tests;
