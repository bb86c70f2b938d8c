//! Memory: objects, their contents, the address space and the allocator.
//!
//! Contents are concrete plus symbolic bytes flushed to arrays on symbolic-offset access
//! (`contents`); the placement of objects and the resolution of symbolic pointers are a
//! [`MemoryModel`] (`model`), of which KLEE's standard model is the default; the executor's
//! `memop` forks once per object a pointer may point into.

pub mod address_space;
pub mod allocator;
pub mod contents;
pub mod model;
pub mod object;

pub use address_space::{AddressSpace, Lookup, ObjectEntry};
pub use allocator::Allocator;
pub use contents::ObjectContents;
pub use model::{in_bounds, MemoryModel, Oracle, StandardModel};
pub use object::{MemoryObject, ObjectId, ObjectKind};
