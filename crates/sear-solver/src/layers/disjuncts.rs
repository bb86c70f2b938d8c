//! Deep disjunctions answered by one disjunct: `constraints ∧ (d1 ∨ … ∨ dn)` is satisfiable
//! when `constraints ∧ d1` is, and a model of the second is one of the first.
//!
//! A branch on a flag a merged loop cleared on one side of each iteration is a conjunction
//! over the iterations' conditions (`sear_expr::ite_compare`), and its false side a
//! disjunction as long as the loop: `p[0] ≠ g[0] ∨ … ∨ p[n-1] ≠ g[n-1]` for n = 10^5. Its
//! disjuncts read different inputs, so the first one alone is satisfiable, but the core gets
//! the whole formula (10^5 comparisons of 32-bit words) and does not answer it in minutes.
//! This layer asks the layers below about a few single disjuncts first ([`TRIES`]): the
//! independence of the constraints is then the disjunct's own, one comparison.
//!
//! **Soundness.** A query strengthened by replacing its disjunction with one disjunct
//! implies the original: a `Sat` answer (and its model) is one of the original query.
//! Arrays the strengthened query does not read are those only other disjuncts read; the
//! model leaves them out (all zeros for the caller), and any value of theirs satisfies the
//! original query since the chosen disjunct holds. An `Unsat` answer of a strengthened query
//! says nothing: after [`TRIES`] of them (or an error) the original query goes below as it
//! is.
//!
//! **Scope.** Only a disjunction (`a ∨ b` or `¬(a ∧ b)`, nested) of depth at least
//! [`MIN_DEPTH`] is split, as the asked expression or as a constraint: short disjunctions of
//! ordinary branches go below unchanged.
//!
//! Switch: `SolverConfig::disjunct_split` (`--no-disjunct-split`); statistics: the layer
//! `disjuncts`, with counters `split` (queries with a deep disjunction), `answered` (a
//! disjunct was satisfiable) and `tries` (strengthened queries asked).

use std::time::{Duration, Instant};

use sear_expr::{BinOp, Expr, ExprKind};

use crate::query::SolverError;
use crate::sat::{SatQuery, SatResult, SatSolver};
use crate::stats::LayerStats;

/// The depth from which a disjunction is split. Not less: a flex scanner's character
/// classes are disjunctions 16 to some hundred deep, and splitting those (a threshold of 16)
/// made lex-ini at 3 ask 9,539 strengthened queries, 88% of them unsatisfiable, and take
/// 3.1 s instead of 2.2 s.
pub const MIN_DEPTH: u32 = 1024;
/// Disjuncts tried, one query each, before the original query goes below.
pub const TRIES: usize = 2;

/// The layer (see the module docs).
pub struct Disjuncts {
    inner: Box<dyn SatSolver>,
    stats: LayerStats,
}

impl Disjuncts {
    /// The layer over `inner`.
    pub fn new(inner: Box<dyn SatSolver>) -> Self {
        Disjuncts {
            inner,
            stats: LayerStats::new("disjuncts"),
        }
    }
}

/// True when `e` is a boolean `a ∨ b` or `¬(a ∧ b)`.
fn is_disjunction(e: &Expr) -> bool {
    if !e.is_bool() {
        return false;
    }
    match e.kind() {
        ExprKind::Binary { op: BinOp::Or, .. } => true,
        ExprKind::Not(x) => matches!(x.kind(), ExprKind::Binary { op: BinOp::And, .. }),
        _ => false,
    }
}

/// A deep disjunction ([`MIN_DEPTH`]).
fn is_deep_disjunction(e: &Expr) -> bool {
    e.depth() >= MIN_DEPTH && is_disjunction(e)
}

impl SatSolver for Disjuncts {
    fn name(&self) -> &'static str {
        "disjuncts"
    }

    fn check(&mut self, query: &SatQuery) -> Result<SatResult, SolverError> {
        let start = Instant::now();
        // The disjunction: the asked expression, else the first deep one of the constraints.
        let target = if is_deep_disjunction(&query.expr) {
            None
        } else {
            match query.constraints.iter().position(is_deep_disjunction) {
                Some(i) => Some(i),
                None => {
                    let result = self.inner.check(query);
                    self.stats.record(start, false);
                    return result;
                }
            }
        };
        self.stats.bump("split", 1);
        let disjunction = match target {
            None => &query.expr,
            Some(i) => &query.constraints[i],
        };
        for d in sear_expr::junctions::disjuncts(disjunction, TRIES) {
            self.stats.bump("tries", 1);
            let answer = match target {
                None => self.inner.check(&SatQuery {
                    expr: d,
                    ..query.clone()
                }),
                Some(i) => {
                    let mut constraints = query.constraints.to_vec();
                    constraints[i] = d;
                    self.inner.check(&SatQuery {
                        constraints: &constraints,
                        constraints_known_sat: false,
                        ..query.clone()
                    })
                }
            };
            match answer {
                Ok(SatResult::Sat(model)) => {
                    self.stats.bump("answered", 1);
                    self.stats.record(start, true);
                    return Ok(SatResult::Sat(model));
                }
                Ok(SatResult::Unsat) => {}
                // A timeout or a failure of the stronger query: the original one decides.
                Err(_) => break,
            }
        }
        let result = self.inner.check(query);
        self.stats.record(start, false);
        result
    }

    fn set_timeout(&mut self, timeout: Option<Duration>) {
        self.inner.set_timeout(timeout);
    }

    fn set_cpu_budget(&mut self, budget: Option<Duration>) {
        self.inner.set_cpu_budget(budget);
    }

    fn honours_cpu_budget(&mut self) -> bool {
        self.inner.honours_cpu_budget()
    }

    fn collect_stats(&self, out: &mut Vec<LayerStats>) {
        out.push(self.stats.clone());
        self.inner.collect_stats(out);
    }

    fn learn(&mut self, query: &SatQuery, result: &SatResult) {
        self.inner.learn(query, result);
    }
}
