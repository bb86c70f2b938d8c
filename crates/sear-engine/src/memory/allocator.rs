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

/// Where the regions of a 32-bit (ILP32) program start: every address below 4 GiB.
pub const GLOBAL_BASE_32: u64 = 0x1000_0000;
/// Start of the heap of a 32-bit program (1.5 GiB up to its stack).
pub const HEAP_BASE_32: u64 = 0x4000_0000;
/// Start of the stack of a 32-bit program.
pub const STACK_BASE_32: u64 = 0xA000_0000;
/// End of the address space of a 32-bit program (the last page stays unmapped).
pub const END_32: u64 = 0xFFFF_F000;

/// A region's bump pointer (ordered by how far it has gone) and the region's end.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Allocator {
    next: u64,
    end: u64,
}

/// The heap, stack and global allocators of a new state, placed for the data model.
pub fn initial(model: sear_ir::DataModel) -> [Allocator; 3] {
    let (globals, heap, stack, end) = match model {
        sear_ir::DataModel::Lp64 => (GLOBAL_BASE, HEAP_BASE, STACK_BASE, u64::MAX),
        sear_ir::DataModel::Ilp32 => (GLOBAL_BASE_32, HEAP_BASE_32, STACK_BASE_32, END_32),
    };
    [
        Allocator::new(heap, stack),
        Allocator::new(stack, end),
        Allocator::new(globals, heap),
    ]
}

impl Allocator {
    /// An allocator of the region from `base` to `end`.
    pub fn new(base: u64, end: u64) -> Self {
        Allocator { next: base, end }
    }

    /// Whether `size` more bytes aligned to `align` fit in the region (a 64-bit region
    /// never fills up; a 32-bit program's heap does).
    pub fn fits(&self, size: u64, align: u64) -> bool {
        let align = align.max(16).next_power_of_two();
        self.next
            .div_ceil(align)
            .checked_mul(align)
            .and_then(|a| a.checked_add(size.max(1)))
            .is_some_and(|last| last <= self.end)
    }

    /// Reserves `size` bytes aligned to `align` (a power of two, at least 16 is used).
    pub fn allocate(&mut self, size: u64, align: u64) -> u64 {
        let align = align.max(16).next_power_of_two();
        let address = self.next.div_ceil(align) * align;
        self.next = address + size.max(1) + RED_ZONE;
        address
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_32_bit_program_allocates_below_4_gib_until_its_heap_is_full() {
        let [mut heap, mut stack, mut globals] = initial(sear_ir::DataModel::Ilp32);
        for allocator in [&mut heap, &mut stack, &mut globals] {
            assert!(allocator.allocate(100, 16) + 100 < 1 << 32);
        }
        assert!(heap.fits(1 << 30, 16));
        assert!(!heap.fits(0x6000_0000, 16), "1.5 GiB heap");
        assert!(!stack.fits(u64::MAX, 16));
        let [heap, ..] = initial(sear_ir::DataModel::Lp64);
        assert!(heap.fits(1 << 40, 16));
    }
}
