//! Counts the queries that reach the core and still need the array theory (a read at a
//! symbolic offset, a read through writes, or a read of a constant array), the measure of
//! how much the engine's array transformations leave to the solver. It sits directly above
//! the core, adds no statistics entry of its own, and records the count on the core's entry
//! ([`LayerStats::array_queries`]).

use std::time::Duration;

use sear_expr::visit::has_array_term;

use crate::query::SolverError;
use crate::sat::{SatQuery, SatResult, SatSolver};
use crate::stats::LayerStats;

/// The counting wrapper around a core.
pub struct ArrayTermCounter {
    inner: Box<dyn SatSolver>,
    array_queries: u64,
}

impl ArrayTermCounter {
    /// Wraps `core`.
    pub fn new(core: Box<dyn SatSolver>) -> Self {
        ArrayTermCounter {
            inner: core,
            array_queries: 0,
        }
    }
}

impl SatSolver for ArrayTermCounter {
    fn name(&self) -> &'static str {
        self.inner.name()
    }

    fn check(&mut self, query: &SatQuery) -> Result<SatResult, SolverError> {
        if has_array_term(query.conjuncts()) {
            self.array_queries += 1;
        }
        self.inner.check(query)
    }

    fn set_timeout(&mut self, timeout: Option<Duration>) {
        self.inner.set_timeout(timeout);
    }

    fn collect_stats(&self, out: &mut Vec<LayerStats>) {
        let first = out.len();
        self.inner.collect_stats(out);
        if let Some(core) = out[first..].iter_mut().rev().find(|l| l.core) {
            core.array_queries += self.array_queries;
        }
    }
}
