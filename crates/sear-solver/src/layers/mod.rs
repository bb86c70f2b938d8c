//! The layers of the chain, each a [`crate::SatSolver`] owning the one below.

pub mod array_terms;
pub mod byte_search;
pub mod cex_cache;
pub mod disjuncts;
pub mod fp_search;
pub mod independence;
pub mod logger;
pub mod neighbour;
pub mod query_cache;
pub mod rewrite;
pub mod slow_below;
pub mod validating;

pub use array_terms::ArrayTermCounter;
pub use byte_search::ByteSearch;
pub use cex_cache::CexCache;
pub use disjuncts::Disjuncts;
pub use fp_search::FpSearch;
pub use independence::Independence;
pub use logger::QueryLogger;
pub use query_cache::QueryCache;
pub use rewrite::{ConditionRewriter, Rewriting, SharedRewriter};
pub use validating::Validating;
