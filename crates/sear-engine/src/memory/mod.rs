//! Memory: objects, segments, the address space, the allocators and the memory model.
//!
//! - [`Memory`] (`facade`) is the API the executor uses: allocation, resolution of symbolic
//!   pointers, frees and their checks, bad-pointer classification.
//! - [`MemoryModel`] (`model`) is the policy: where objects go and which objects a symbolic
//!   pointer may reach ([`Resolution`]); KLEE's [`StandardModel`] is the default.
//! - [`AddressSpace`] (`address_space`) holds a state's objects by concrete address, and
//!   where their bytes are: in [`Segment`]s (`segment`), paged, copy-on-write storage that
//!   is flushed to arrays on symbolic-offset access. Storage is one level removed from
//!   objects, so a segment can hold several objects and an object can span segments.
//! - [`relocatable::RelocatableModel`] is seed 003's relocatable addressing model: symbolic
//!   bases, DSMM (merging objects into segments) and splitting.
//! - A state's address constraints (symbolic bases bound to addresses) are a
//!   [`sear_solver::address::AddressBindings`] in the state, substituted by the solver.

pub mod address_space;
pub mod allocator;
pub mod facade;
pub mod model;
pub mod object;
pub mod pages;
pub mod relocatable;
pub mod relocatable_config;
pub mod request;
pub mod segment;

pub use address_space::{AddressSpace, Chunk, Lookup, ObjectEntry, Storage};
pub use allocator::Allocator;
pub use facade::{bad_free, bad_pointer, ptr_error, read_only_error, Memory, Offset, Target};
pub use model::{in_bounds, Hit, MemoryModel, Placement, Resolution, StandardModel};
pub use object::{MemoryObject, ObjectId, ObjectKind};
pub use request::{AllocRequest, Init};
pub use segment::{Segment, SegmentId};

/// The memory model a run's configuration names (`--memory-model`), with its options.
pub fn build_model(config: &crate::EngineConfig) -> Box<dyn MemoryModel> {
    match config.memory_model {
        crate::MemoryModelKind::Standard => Box::new(StandardModel::default()),
        crate::MemoryModelKind::Relocatable => Box::new(relocatable::RelocatableModel::new(
            config.relocatable.clone(),
        )),
    }
}
