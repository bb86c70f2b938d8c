//! Loading LLVM bitcode or textual IR and lowering it to sear's executable IR.

pub mod ir;

pub use ir::*;
