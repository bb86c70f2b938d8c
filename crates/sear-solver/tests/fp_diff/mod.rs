//! Shared parts of the floating-point differential tests: the tree generator and the native
//! oracle.
// Each test binary uses a part of them.
#![allow(dead_code)]

pub mod gen;
pub mod native;
