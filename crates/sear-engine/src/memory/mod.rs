//! Memory: objects, their contents, the address space and the allocator.
//!
//! This is KLEE's standard model: concrete base addresses from a deterministic allocator,
//! contents as concrete plus symbolic bytes flushed to arrays on symbolic-offset access,
//! and resolution of symbolic pointers by forking once per object they may point into
//! (in `crate::executor::memop`).

pub mod address_space;
pub mod allocator;
pub mod contents;
pub mod object;

pub use address_space::{AddressSpace, Lookup, ObjectEntry};
pub use allocator::Allocator;
pub use contents::ObjectContents;
pub use object::{MemoryObject, ObjectId, ObjectKind};
