//! Sound intervals of index terms: what the pre-check ([`crate::precheck`]) learns about each
//! symbolic array index and hands to the core through [`crate::QueryMeta::index_intervals`].
//!
//! An entry `t ↦ [lo, hi]` promises that in every model of the query the index term `t`
//! (an expression of the query, compared by identity) takes an unsigned value in
//! `lo..=hi`. The CEGAR core uses it to drop axioms about impossible offsets.

use rustc_hash::FxHashMap;
use sear_expr::Expr;

/// Intervals of index terms.
#[derive(Clone, Debug, Default)]
pub struct IndexIntervals {
    map: FxHashMap<Expr, (u128, u128)>,
}

impl IndexIntervals {
    /// Records the interval of `term`.
    pub fn insert(&mut self, term: Expr, lo: u128, hi: u128) {
        self.map.insert(term, (lo, hi));
    }

    /// The interval of `term`, if known.
    pub fn get(&self, term: &Expr) -> Option<(u128, u128)> {
        self.map.get(term).copied()
    }

    /// The number of terms with an interval.
    pub fn len(&self) -> usize {
        self.map.len()
    }

    /// True when no interval is known.
    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }

    /// Every `(term, (lo, hi))`.
    pub fn iter(&self) -> impl Iterator<Item = (&Expr, &(u128, u128))> {
        self.map.iter()
    }
}
