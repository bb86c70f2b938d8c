//! A deterministic bump allocator for addresses.
//!
//! Each state owns its allocator (copied on fork), so an object's address depends only on
//! the path that allocated it, never on the search order or the host's `malloc`. Addresses
//! are never reused, which makes the quarantine for use-after-free detection complete, and
//! objects are separated by red zones so that small overflows never land in a neighbour.

/// Start of the region for globals.
pub const GLOBAL_BASE: u64 = 0x0000_1000_0000;
/// Start of the region for heap objects.
pub const HEAP_BASE: u64 = 0x0000_5000_0000_0000;
/// Start of the region for stack objects.
pub const STACK_BASE: u64 = 0x0000_7000_0000_0000;
/// Start of the pseudo-addresses of functions (no memory object behind them).
pub const FUNCTION_BASE: u64 = 0x0000_0400_0000;
/// Where the pseudo-addresses of basic blocks (`blockaddress`, computed goto) start: one
/// per block of the module, between the functions' and the globals' ranges.
pub const BLOCK_BASE: u64 = 0x0000_0800_0000;
/// Bytes between neighbouring objects.
pub const RED_ZONE: u64 = 64;
/// Addresses below this are reported as null-page accesses.
pub const NULL_PAGE: u64 = 4096;

/// A region's bump pointer (ordered by how far it has gone).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Allocator {
    next: u64,
}

impl Allocator {
    /// An allocator starting at `base`.
    pub fn new(base: u64) -> Self {
        Allocator { next: base }
    }

    /// Reserves `size` bytes aligned to `align` (a power of two, at least 16 is used).
    pub fn allocate(&mut self, size: u64, align: u64) -> u64 {
        let align = align.max(16).next_power_of_two();
        let address = self.next.div_ceil(align) * align;
        self.next = address + size.max(1) + RED_ZONE;
        address
    }
}
