//! Shared parts of `fp_differential.rs`: the tree generator and the native oracle.

pub mod gen;
pub mod native;
