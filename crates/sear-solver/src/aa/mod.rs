//! Address-aware query caching (spec 003 §3, thesis Chapter 4).
//!
//! Under the relocatable model, two paths that differ only in where their objects live ask
//! queries that differ only in their symbolic bases β (and, once substituted, in address
//! constants): the exact query cache misses them all. This cache works on the
//! address-agnostic form of a query, where the bases stay symbolic, and answers a query
//! from a cached one that is equal up to a bijective renaming of bases with equal object
//! extents (Algorithm 2):
//!
//! - [`hash`]: a second structural hash, mapping every base to one constant;
//! - [`equisat`]: `equi-sat(e1, e2, m)` building the bijection;
//! - [`cache`]: buckets by that hash, scanned with `equi-sat`, models translated through the
//!   bijection on a hit;
//! - [`layer`]: what [`crate::Solver`] runs above the chain for satisfiability and validity
//!   queries that come with an address-agnostic form ([`crate::query::AgnosticForm`]) and
//!   are not engine-internal ([`crate::QueryMeta::internal`]); `--validate-caching`;
//!   statistics by the thesis's query classes C1, C2, C3.
//!
//! Soundness rests on the thesis's Theorem 4.4.15: the path conditions of well-behaved
//! programs are address-agnostic. sear's resolution queries (is this pointer inside that
//! object? must it be above that base?) are engine-internal and never cached: they are
//! asked exactly where an access may leave its object, where that assumption fails. A SAT
//! answer from the cache is only used when the translated model satisfies the query.

pub mod cache;
pub mod equisat;
pub mod hash;
pub mod layer;

pub use cache::AaCache;
pub use equisat::{Bijection, EquiSat, Extents};
pub use hash::AaHasher;
pub use layer::{AaLayer, AaStats, Agnostic};

#[cfg(test)]
mod tests;
