//! The exact query cache (KLEE's `CachingSolver`).
//!
//! Keyed by the set of constraints (order and duplicates ignored) and `expr`, by expression
//! identity (expressions are hash-consed, so structurally equal queries share a key). Stores
//! `Sat(model)` and `Unsat`. Errors are not cached. The cache is emptied when it holds more
//! than [`QUERY_CACHE_LIMIT`] entries.

use std::hash::{Hash, Hasher};
use std::rc::Rc;
use std::time::{Duration, Instant};

use rustc_hash::FxHashMap;
use sear_expr::Expr;

use crate::query::SolverError;
use crate::sat::{SatQuery, SatResult, SatSolver};
use crate::stats::LayerStats;

/// Constraint lists remembered with their sets (`QueryCache::recent`).
const RECENT_LISTS: usize = 8;

/// The cache is cleared beyond this many entries.
pub const QUERY_CACHE_LIMIT: usize = 100_000;

/// The sorted, deduplicated constraints of a key, with their hash computed once.
#[derive(Debug)]
struct ConstraintSet {
    hash: u64,
    exprs: Box<[Expr]>,
}

impl ConstraintSet {
    fn of(constraints: &[Expr]) -> ConstraintSet {
        let mut cs: Vec<Expr> = constraints
            .iter()
            .filter(|c| !c.is_true())
            .cloned()
            .collect();
        cs.sort();
        cs.dedup();
        let mut hasher = rustc_hash::FxHasher::default();
        cs.hash(&mut hasher);
        ConstraintSet {
            hash: hasher.finish(),
            exprs: cs.into_boxed_slice(),
        }
    }
}

/// A cache key: the constraint set (shared between keys of one constraint list) and the
/// expression.
#[derive(Clone, Debug)]
struct Key(Rc<ConstraintSet>, Expr);

impl PartialEq for Key {
    fn eq(&self, other: &Key) -> bool {
        self.1 == other.1
            && (Rc::ptr_eq(&self.0, &other.0)
                || (self.0.hash == other.0.hash && self.0.exprs == other.0.exprs))
    }
}
impl Eq for Key {}

impl Hash for Key {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.0.hash.hash(state);
        self.1.hash(state);
    }
}

/// The exact query cache layer.
pub struct QueryCache {
    inner: Box<dyn SatSolver>,
    cache: FxHashMap<Key, SatResult>,
    /// The constraint lists of the last queries and their sets, most recent first: a path
    /// asks many queries of a few constraint lists in a row, which then share one sorted
    /// set and its hash.
    recent: Vec<(Vec<Expr>, Rc<ConstraintSet>)>,
    stats: LayerStats,
}

impl QueryCache {
    /// Wraps `inner`.
    pub fn new(inner: Box<dyn SatSolver>) -> Self {
        QueryCache {
            inner,
            cache: FxHashMap::default(),
            recent: Vec::new(),
            stats: LayerStats::new("query-cache"),
        }
    }
}

impl QueryCache {
    /// The constraint set of `constraints`, reused when they are a recent query's.
    fn constraint_set(&mut self, constraints: &[Expr]) -> Rc<ConstraintSet> {
        let same = |list: &Vec<Expr>| {
            list.len() == constraints.len()
                && list.last() == constraints.last()
                && list.as_slice() == constraints
        };
        if let Some(i) = self.recent.iter().position(|(list, _)| same(list)) {
            let set = self.recent[i].1.clone();
            self.recent[..=i].rotate_right(1);
            return set;
        }
        let set = Rc::new(ConstraintSet::of(constraints));
        if self.recent.len() == RECENT_LISTS {
            self.recent.pop();
        }
        self.recent.insert(0, (constraints.to_vec(), set.clone()));
        set
    }
}

impl SatSolver for QueryCache {
    fn name(&self) -> &'static str {
        "query-cache"
    }

    fn check(&mut self, query: &SatQuery) -> Result<SatResult, SolverError> {
        let start = Instant::now();
        let key = Key(self.constraint_set(query.constraints), query.expr.clone());
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

    fn learn(&mut self, query: &SatQuery, result: &SatResult) {
        self.inner.learn(query, result);
    }
}
