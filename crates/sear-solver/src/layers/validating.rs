//! The validating layer: cross-checks every answer of the chain below against an oracle core
//! with no layers, and checks every model by evaluation (KLEE's `ValidatingSolver` and
//! `AssignmentValidatingSolver` in one). A disagreement is a loud
//! [`SolverError::Failure`]; an oracle timeout leaves the chain's answer unchecked.

use std::time::{Duration, Instant};

use sear_expr::Assignment;

use crate::query::SolverError;
use crate::sat::{SatQuery, SatResult, SatSolver};
use crate::stats::LayerStats;

/// The validating layer.
pub struct Validating {
    inner: Box<dyn SatSolver>,
    oracle: Box<dyn SatSolver>,
    stats: LayerStats,
}

impl Validating {
    /// Checks `inner` against `oracle`.
    pub fn new(inner: Box<dyn SatSolver>, oracle: Box<dyn SatSolver>) -> Self {
        Validating {
            inner,
            oracle,
            stats: LayerStats::new("validate"),
        }
    }
}

fn check_model(who: &str, model: &Assignment, query: &SatQuery) -> Result<(), SolverError> {
    if model.satisfies(query.conjuncts()) {
        return Ok(());
    }
    let failed: Vec<String> = query
        .conjuncts()
        .filter(|c| model.evaluate(c) != 1)
        .take(3)
        .map(|c| format!("{c}"))
        .collect();
    Err(SolverError::Failure(format!(
        "SOLVER VALIDATION FAILED: the model from {who} does not satisfy the query; \
         violated: {}",
        failed.join(" ; ")
    )))
}

impl Validating {
    /// Per layer below, its name and its queries and hits so far.
    fn answers_below(&self) -> Vec<(String, bool, u64, u64)> {
        let mut stats = Vec::new();
        self.inner.collect_stats(&mut stats);
        stats
            .into_iter()
            .map(|s| (s.name, s.core, s.queries, s.hits))
            .collect()
    }

    /// The layers that answered a query since `before` (a layer's hits, a core's queries):
    /// which layer a disagreement is to be blamed on.
    fn answered_since(&self, before: &[(String, bool, u64, u64)]) -> String {
        let after = self.answers_below();
        // A lazily built core appears in the list when first asked: entries are compared by
        // position and name, a new one with nothing.
        let names: Vec<&str> = after
            .iter()
            .enumerate()
            .filter(|(i, (name, core, q, h))| {
                let (q0, h0) = before
                    .get(*i)
                    .filter(|b| &b.0 == name)
                    .map_or((0, 0), |b| (b.2, b.3));
                *h > h0 || (*core && *q > q0)
            })
            .map(|(_, (name, ..))| name.as_str())
            .collect();
        if names.is_empty() {
            "no layer that counts its answers".into()
        } else {
            names.join(", ")
        }
    }
}

impl SatSolver for Validating {
    fn name(&self) -> &'static str {
        "validate"
    }

    fn check(&mut self, query: &SatQuery) -> Result<SatResult, SolverError> {
        let start = Instant::now();
        let before = self.answers_below();
        let result = self.inner.check(query);
        let checked = result.and_then(|r| {
            if let (SatResult::Sat(m), true) = (&r, query.need_model) {
                check_model("the chain", m, query)?;
            }
            let oracle_query = SatQuery {
                need_model: true,
                ..query.clone()
            };
            match self.oracle.check(&oracle_query) {
                Ok(o) => {
                    if let SatResult::Sat(m) = &o {
                        check_model("the oracle", m, query)?;
                    }
                    if o.is_sat() != r.is_sat() {
                        return Err(SolverError::Failure(format!(
                            "SOLVER VALIDATION FAILED: the chain says {} (answered by {}) but \
                             plain Z3 says {} ({} constraints, expr {})",
                            if r.is_sat() { "sat" } else { "unsat" },
                            self.answered_since(&before),
                            if o.is_sat() { "sat" } else { "unsat" },
                            query.constraints.len(),
                            query.expr
                        )));
                    }
                }
                Err(SolverError::Timeout) => {
                    tracing::warn!("validation skipped: the oracle timed out");
                }
                Err(e) => return Err(e),
            }
            Ok(r)
        });
        self.stats.record(start, false);
        checked
    }

    fn set_timeout(&mut self, timeout: Option<Duration>) {
        self.inner.set_timeout(timeout);
        self.oracle.set_timeout(timeout);
    }

    fn collect_stats(&self, out: &mut Vec<LayerStats>) {
        out.push(self.stats.clone());
        self.inner.collect_stats(out);
        let mut oracle = Vec::new();
        self.oracle.collect_stats(&mut oracle);
        for mut s in oracle {
            s.name = format!("{}-oracle", s.name);
            s.core = false;
            out.push(s);
        }
    }
    fn learn(&mut self, query: &SatQuery, result: &SatResult) {
        self.inner.learn(query, result);
    }
}
