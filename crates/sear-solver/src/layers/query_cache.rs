//! The exact query cache (KLEE's `CachingSolver`).
//!
//! Keyed by the set of constraints (order and duplicates ignored) and `expr`, by expression
//! identity (expressions are hash-consed, so structurally equal queries share a key). Stores
//! `Sat(model)` and `Unsat`. Errors are not cached. The cache is emptied when it holds more
//! than [`QUERY_CACHE_LIMIT`] entries.

use std::time::{Duration, Instant};

use rustc_hash::FxHashMap;
use sear_expr::Expr;

use crate::query::SolverError;
use crate::sat::{SatQuery, SatResult, SatSolver};
use crate::stats::LayerStats;

/// The cache is cleared beyond this many entries.
pub const QUERY_CACHE_LIMIT: usize = 100_000;

/// A cache key: the sorted, deduplicated constraints and the expression.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Key(Box<[Expr]>, Expr);

impl Key {
    fn of(query: &SatQuery) -> Key {
        let mut cs: Vec<Expr> = query
            .constraints
            .iter()
            .filter(|c| !c.is_true())
            .cloned()
            .collect();
        cs.sort();
        cs.dedup();
        Key(cs.into_boxed_slice(), query.expr.clone())
    }
}

/// The exact query cache layer.
pub struct QueryCache {
    inner: Box<dyn SatSolver>,
    cache: FxHashMap<Key, SatResult>,
    stats: LayerStats,
}

impl QueryCache {
    /// Wraps `inner`.
    pub fn new(inner: Box<dyn SatSolver>) -> Self {
        QueryCache {
            inner,
            cache: FxHashMap::default(),
            stats: LayerStats::new("query-cache"),
        }
    }
}

impl SatSolver for QueryCache {
    fn name(&self) -> &'static str {
        "query-cache"
    }

    fn check(&mut self, query: &SatQuery) -> Result<SatResult, SolverError> {
        let start = Instant::now();
        let key = Key::of(query);
        if let Some(r) = self.cache.get(&key) {
            let r = r.clone();
            self.stats.record(start, true);
            return Ok(r);
        }
        let result = self.inner.check(query);
        if let Ok(r) = &result {
            if self.cache.len() >= QUERY_CACHE_LIMIT {
                self.cache.clear();
            }
            self.cache.insert(key, r.clone());
        }
        self.stats.record(start, false);
        result
    }

    fn set_timeout(&mut self, timeout: Option<Duration>) {
        self.inner.set_timeout(timeout);
    }

    fn collect_stats(&self, out: &mut Vec<LayerStats>) {
        out.push(self.stats.clone());
        self.inner.collect_stats(out);
    }
}
