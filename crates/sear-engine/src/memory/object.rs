//! Memory objects: the identity, placement and provenance of an allocation.

use sear_ir::Loc;

/// Identifies a memory object within a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ObjectId(pub u64);

/// Where an object lives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ObjectKind {
    /// A global variable.
    Global,
    /// A stack allocation (`alloca`), freed when its frame returns.
    Stack,
    /// A heap allocation (`malloc` and friends).
    Heap,
    /// Memory the engine allocates for the program (argv strings, varargs areas).
    Environment,
}

/// An allocation: concrete base address and size.
#[derive(Clone, Debug)]
pub struct MemoryObject {
    /// Identity.
    pub id: ObjectId,
    /// Base address.
    pub address: u64,
    /// Size in bytes.
    pub size: u64,
    /// Where it lives.
    pub kind: ObjectKind,
    /// A name for diagnostics (global name, or the allocating function).
    pub name: String,
    /// The allocation site, if known.
    pub alloc_site: Option<Loc>,
    /// True for constant globals.
    pub read_only: bool,
}

impl MemoryObject {
    /// One past the last byte.
    pub fn end(&self) -> u64 {
        self.address.wrapping_add(self.size)
    }

    /// True if `[addr, addr + len)` lies inside the object.
    pub fn contains_range(&self, addr: u64, len: u64) -> bool {
        addr >= self.address && len <= self.size && addr - self.address <= self.size - len
    }
}
