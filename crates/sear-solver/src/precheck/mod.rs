//! The ILP UNSAT pre-check layer (Opt 1 of the paper; spec 001 §6): between the
//! counterexample cache and the core.
//!
//! For a query with array reads it linearises the constraints, bounds every index term by
//! exact ILP (`analyze`), and either answers UNSAT without calling the core or passes the
//! query down with the index intervals attached ([`crate::QueryMeta::index_intervals`]), for
//! the CEGAR core's interval-aware axiom generation. Queries without array reads, or with
//! reads through symbolic-index writes, pass through untouched.
//!
//! Soundness: every linearisation step over-approximates (`C ⇒ C_lin`), and the ILP back
//! end is exact ([`crate::ilp`]), so UNSAT claims and intervals are sound by construction.
//! With `precheck_validate` every UNSAT is additionally confirmed by a plain Z3 core; a
//! disagreement is a loud [`SolverError::Failure`].
//!
//! Statistics (counters of the `precheck` layer): `calls` (queries with array reads
//! analysed), `unsat`, `skipped_symbolic_write`, `skipped_budget`, `no_arrays`,
//! `lp_solves`, `cache_hits`, `point_hits`, `validated`, and the layer's time.

pub mod analyze;
pub mod linearize;

use std::sync::Arc;
use std::time::{Duration, Instant};

use sear_expr::visit::collect_arrays;

use crate::config::ArrayConfig;
use crate::ilp::IlpSolver;
use crate::query::{QueryMeta, SolverError};
use crate::sat::{SatQuery, SatResult, SatSolver};
use crate::stats::LayerStats;
use analyze::{precheck, Outcome};

/// The pre-check layer.
pub struct Precheck {
    inner: Box<dyn SatSolver>,
    oracle: Option<Box<dyn SatSolver>>,
    ilp: IlpSolver,
    max_rows: usize,
    stats: LayerStats,
}

impl Precheck {
    /// Wraps `inner`; `oracle` (a plain core) confirms every UNSAT when given.
    pub fn new(
        inner: Box<dyn SatSolver>,
        oracle: Option<Box<dyn SatSolver>>,
        config: &ArrayConfig,
    ) -> Self {
        Precheck {
            inner,
            oracle,
            ilp: IlpSolver::default(),
            max_rows: config.precheck_max_rows,
            stats: LayerStats::new("precheck"),
        }
    }

    fn validate(&mut self, query: &SatQuery) -> Result<(), SolverError> {
        let Some(oracle) = &mut self.oracle else {
            return Ok(());
        };
        match oracle.check(query) {
            Ok(SatResult::Unsat) => {
                self.stats.bump("validated", 1);
                Ok(())
            }
            Ok(SatResult::Sat(_)) => Err(SolverError::Failure(format!(
                "PRE-CHECK VALIDATION FAILED: the pre-check says unsat but Z3 says sat \
                 ({} constraints, expr {})",
                query.constraints.len(),
                query.expr
            ))),
            Err(SolverError::Timeout) => Ok(()),
            Err(e) => Err(e),
        }
    }
}

impl SatSolver for Precheck {
    fn name(&self) -> &'static str {
        "precheck"
    }

    fn check(&mut self, query: &SatQuery) -> Result<SatResult, SolverError> {
        // Quantified clauses are passed by: the ILP does not model them.
        if sear_expr::quant::contains_forall(query.conjuncts()) {
            self.stats.bump("quantified_passed", 1);
            return self.inner.check(query);
        }
        let start = Instant::now();
        let conjuncts: Vec<_> = query.conjuncts().cloned().collect();
        let before = self.ilp.stats.clone();
        let outcome = precheck(
            &conjuncts,
            &query.meta.access_granularity,
            &mut self.ilp,
            self.max_rows,
        );
        let after = &self.ilp.stats;
        self.stats
            .bump("lp_solves", after.lp_solves - before.lp_solves);
        self.stats
            .bump("cache_hits", after.cache_hits - before.cache_hits);
        self.stats
            .bump("point_hits", after.point_hits - before.point_hits);
        let precheck_time = start.elapsed();
        self.stats.bump("time_us", precheck_time.as_micros() as u64);
        let result = match outcome {
            Outcome::NoArrays => {
                self.stats.bump("no_arrays", 1);
                self.inner.check(query)
            }
            Outcome::SymbolicWrite => {
                self.stats.bump("calls", 1);
                self.stats.bump("skipped_symbolic_write", 1);
                self.inner.check(query)
            }
            Outcome::Budget => {
                self.stats.bump("calls", 1);
                self.stats.bump("skipped_budget", 1);
                self.inner.check(query)
            }
            Outcome::Unsat => {
                self.stats.bump("calls", 1);
                self.stats.bump("unsat", 1);
                self.validate(query).map(|_| SatResult::Unsat)
            }
            Outcome::Unknown(intervals) => {
                self.stats.bump("calls", 1);
                let arrays = collect_arrays(&conjuncts);
                let meta = QueryMeta {
                    access_granularity: query
                        .meta
                        .access_granularity
                        .iter()
                        .filter(|(a, _)| arrays.contains(*a))
                        .map(|(a, g)| (a.clone(), *g))
                        .collect(),
                    address_arrays: query.meta.address_arrays.clone(),
                    internal: query.meta.internal,
                    index_intervals: Some(Arc::new(intervals)),
                };
                let sub = SatQuery {
                    meta: &meta,
                    ..query.clone()
                };
                self.inner.check(&sub)
            }
        };
        self.stats.queries += 1;
        self.stats.time_secs += start.elapsed().as_secs_f64();
        result
    }

    fn set_timeout(&mut self, timeout: Option<Duration>) {
        self.inner.set_timeout(timeout);
        if let Some(o) = &mut self.oracle {
            o.set_timeout(timeout);
        }
    }

    fn collect_stats(&self, out: &mut Vec<LayerStats>) {
        let mut s = self.stats.clone();
        s.hits = s.counter("unsat");
        out.push(s);
        self.inner.collect_stats(out);
    }
}
