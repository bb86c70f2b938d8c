//! Rewriting of conditions just above the core: the place where the engine's array-read
//! transformations (spec 000, `sear-arrayopt`) run when they run inside the chain
//! (`--optimize-array-at core`).
//!
//! The layers above (independence, the caches, the byte search) see the conditions as the
//! program built them, with reads of constant tables at symbolic offsets, which the byte
//! search decides by evaluation; only the queries that get past them are rewritten, and
//! the core sees the rewritten form. Rewriting conjunct by conjunct is sound because each
//! rewrite is an equivalence under the path condition (the engine's invariant: every
//! symbolic-offset read was made by an access whose bounds are in the path condition), and
//! the constraints of a query include those of the reads it contains (the independence
//! layer keeps every constraint that shares an input array with them).
//!
//! Answers: a SAT model from below is evaluated against the *original* conjuncts before it
//! is returned; one that fails (which would mean a rewrite is not an equivalence) is counted
//! (`model_rechecked_failed`) and the original query is asked below instead. UNSAT rests on
//! the rewrites being equivalences under the query's constraints.

use std::cell::RefCell;
use std::rc::Rc;
use std::time::{Duration, Instant};

use sear_expr::Expr;

use crate::query::SolverError;
use crate::sat::{SatQuery, SatResult, SatSolver};
use crate::stats::LayerStats;

/// What rewrites conditions for the layers below (the engine's array-read transformations).
pub trait ConditionRewriter {
    /// `condition` rewritten into an equivalent form under `context` (the other conjuncts
    /// of the query, as the program built them). An error ends the query (a failed
    /// validation of the rewrite).
    fn rewrite(&mut self, condition: &Expr, context: &[Expr]) -> Result<Expr, SolverError>;
}

/// A rewriter shared between the chain and its owner (who reads its statistics).
pub type SharedRewriter = Rc<RefCell<dyn ConditionRewriter>>;

/// The rewriting layer.
pub struct Rewriting {
    inner: Box<dyn SatSolver>,
    rewriter: SharedRewriter,
    stats: LayerStats,
}

impl Rewriting {
    /// Rewrites the queries that `inner` receives with `rewriter`.
    pub fn new(inner: Box<dyn SatSolver>, rewriter: SharedRewriter) -> Self {
        Rewriting {
            inner,
            rewriter,
            stats: LayerStats::new("rewrite"),
        }
    }

    /// The query's conjuncts rewritten, or `None` when no conjunct changed.
    fn rewritten(&self, query: &SatQuery) -> Result<Option<(Vec<Expr>, Expr)>, SolverError> {
        let mut rewriter = self.rewriter.borrow_mut();
        let mut changed = false;
        let mut constraints = Vec::with_capacity(query.constraints.len());
        for c in query.constraints {
            let r = rewriter.rewrite(c, query.constraints)?;
            changed |= &r != c;
            constraints.push(r);
        }
        let expr = if query.expr.is_true() {
            query.expr.clone()
        } else {
            rewriter.rewrite(&query.expr, query.constraints)?
        };
        changed |= expr != query.expr;
        Ok(changed.then_some((constraints, expr)))
    }
}

impl SatSolver for Rewriting {
    fn name(&self) -> &'static str {
        "rewrite"
    }

    fn check(&mut self, query: &SatQuery) -> Result<SatResult, SolverError> {
        let start = Instant::now();
        let Some((constraints, expr)) = self.rewritten(query)? else {
            let r = self.inner.check(query);
            self.stats.record(start, false);
            return r;
        };
        self.stats.bump("rewritten", 1);
        let rewritten = SatQuery {
            constraints: &constraints,
            expr,
            ..query.clone()
        };
        let mut r = self.inner.check(&rewritten);
        if let Ok(SatResult::Sat(model)) = &r {
            if !model.satisfies(query.conjuncts()) {
                self.stats.bump("model_rechecked_failed", 1);
                tracing::warn!(
                    "a model of a rewritten query does not satisfy the original; asking again unrewritten"
                );
                r = self.inner.check(query);
            }
        }
        self.stats.record(start, false);
        r
    }

    fn set_timeout(&mut self, timeout: Option<Duration>) {
        self.inner.set_timeout(timeout);
    }

    fn collect_stats(&self, out: &mut Vec<LayerStats>) {
        out.push(self.stats.clone());
        self.inner.collect_stats(out);
    }

    fn learn(&mut self, query: &SatQuery, result: &SatResult) {
        self.inner.learn(query, result);
    }
}
