//! A recording solver that remembers the queries reaching it.

use std::cell::RefCell;
use std::rc::Rc;
use std::time::Duration;

use sear_expr::Expr;

use crate::query::SolverError;
use crate::sat::{SatQuery, SatResult, SatSolver};
use crate::stats::LayerStats;

/// What a [`Recorder`] saw of one query.
#[derive(Clone, Debug)]
pub struct Seen {
    /// The constraints.
    pub constraints: Vec<Expr>,
    /// The expression.
    pub expr: Expr,
    /// Whether a model was asked for.
    pub need_model: bool,
}

/// Forwards to an inner solver and records every query.
pub struct Recorder {
    inner: Box<dyn SatSolver>,
    /// The queries seen so far (shared with the test).
    pub seen: Rc<RefCell<Vec<Seen>>>,
}

impl Recorder {
    /// Wraps `inner`; returns the recorder and the shared log.
    pub fn new(inner: Box<dyn SatSolver>) -> (Self, Rc<RefCell<Vec<Seen>>>) {
        let seen = Rc::new(RefCell::new(Vec::new()));
        (
            Recorder {
                inner,
                seen: seen.clone(),
            },
            seen,
        )
    }
}

impl SatSolver for Recorder {
    fn name(&self) -> &'static str {
        "recorder"
    }
    fn check(&mut self, q: &SatQuery) -> Result<SatResult, SolverError> {
        self.seen.borrow_mut().push(Seen {
            constraints: q.constraints.to_vec(),
            expr: q.expr.clone(),
            need_model: q.need_model,
        });
        self.inner.check(q)
    }
    fn set_timeout(&mut self, timeout: Option<Duration>) {
        self.inner.set_timeout(timeout);
    }
    fn collect_stats(&self, out: &mut Vec<LayerStats>) {
        self.inner.collect_stats(out);
    }
}
