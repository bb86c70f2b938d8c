//! Indexify (seed 004, "Indexing Operators to Extend the Reach of Symbolic Execution"):
//! the program's string and float literals are grown into finite gardens, every hard
//! operator becomes an indexed operator table computed by the real implementation, and
//! the program is rewritten to compute over garden indices, so the solver sees equalities
//! over small integers (table lookups) instead of string or floating-point constraints.
//!
//! Pieces, one job each: [`value`] (the indexed types and values), [`garden`] (δ₀),
//! [`ops`] (F₊ and B₊), [`oracle`] (host libc/libm), [`harvest`] (seeds), [`builder`]
//! (Algorithms 1 and 2, Kleene closure), [`tables`] (Algorithm 3 and slices), [`rewrite`]
//! (rules 3–10 over sear-ir), [`encode`] (the solver encoding the engine uses), [`cache`]
//! (tables across runs), [`prepare`] (the whole preprocessing of a run).

pub mod builder;
pub mod cache;
pub mod encode;
pub mod garden;
pub mod harvest;
pub mod ops;
pub mod oracle;
pub mod prepare;
pub mod rewrite;
pub mod tables;
pub mod value;

pub use builder::BuilderKind;
pub use prepare::{prepare, Prepared, Settings};
pub use rewrite::Helper;
pub use tables::Tables;
pub use value::{GValue, Ty, BOTTOM, NULL};
