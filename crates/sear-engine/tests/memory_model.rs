//! Property tests of the memory core against a simple reference model: random sequences of
//! allocations, frees, concrete writes, `memset`s, forks and lookups on an
//! [`AddressSpace`] (with its paged [`Segment`]s) must read back exactly what a map of byte
//! vectors says, and forked copies must never see each other's writes.

use std::collections::BTreeMap;
use std::sync::Arc;

use proptest::prelude::*;
use sear_engine::memory::{
    AddressSpace, Allocator, Lookup, MemoryObject, ObjectId, ObjectKind, Segment, SegmentId,
};

/// The reference: live objects by address with their bytes, and freed addresses.
#[derive(Clone, Default)]
struct Reference {
    live: BTreeMap<u64, Vec<u8>>,
    freed: BTreeMap<u64, u64>,
}

/// One side of the test: the real address space and the reference, kept in step.
#[derive(Clone)]
struct Side {
    space: AddressSpace,
    reference: Reference,
}

#[derive(Clone, Debug)]
enum Op {
    /// Allocate `size` bytes filled with `fill`.
    Alloc { size: u64, fill: u8 },
    /// Free the `n`-th live object (mod the count).
    Free { n: usize },
    /// Write `len` bytes of `value` at `offset` (mod size) of the `n`-th live object.
    Write {
        n: usize,
        offset: u64,
        len: u64,
        value: u64,
    },
    /// Fill `len` bytes from `offset` of the `n`-th object with `byte`.
    Fill {
        n: usize,
        offset: u64,
        len: u64,
        byte: u8,
    },
    /// Fork: continue on a copy; the original must be unchanged by what follows.
    Fork,
    /// Look up an address `delta` bytes around the `n`-th object ever allocated.
    Lookup { n: usize, delta: i64 },
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        3 => (prop_oneof![1u64..64, 4000u64..9000, 1u64..3], any::<u8>())
            .prop_map(|(size, fill)| Op::Alloc { size, fill }),
        1 => any::<usize>().prop_map(|n| Op::Free { n }),
        4 => (any::<usize>(), any::<u64>(), 1u64..=16, any::<u64>())
            .prop_map(|(n, offset, len, value)| Op::Write { n, offset, len, value }),
        2 => (any::<usize>(), any::<u64>(), 0u64..10_000, any::<u8>())
            .prop_map(|(n, offset, len, byte)| Op::Fill { n, offset, len, byte }),
        1 => Just(Op::Fork),
        2 => (any::<usize>(), -80i64..9100).prop_map(|(n, delta)| Op::Lookup { n, delta }),
    ]
}

fn object(id: u64, address: u64, size: u64) -> Arc<MemoryObject> {
    Arc::new(MemoryObject {
        id: ObjectId(id),
        address,
        size,
        base: None,
        symbolic_size: None,
        kind: ObjectKind::Heap,
        name: format!("o{id}"),
        alloc_site: None,
        read_only: false,
    })
}

/// Every live object's bytes read back as the reference says.
fn agree(side: &Side) {
    assert_eq!(side.space.len(), side.reference.live.len());
    for (address, bytes) in &side.reference.live {
        let entry = side.space.get_by_base(*address).expect("live object");
        assert_eq!(entry.object.size, bytes.len() as u64);
        let (segment, at) = side
            .space
            .segment_of(entry, 0, bytes.len() as u64)
            .expect("one segment");
        for (i, b) in bytes.iter().enumerate() {
            assert_eq!(
                segment.concrete_byte(at as usize + i),
                Some(*b),
                "byte {i} of {address:#x}"
            );
        }
        // Multi-byte reads, across page boundaries too.
        for i in (0..bytes.len()).step_by(7) {
            let len = (bytes.len() - i).min(8);
            let want = bytes[i..i + len]
                .iter()
                .enumerate()
                .fold(0u128, |v, (k, b)| v | (*b as u128) << (8 * k));
            assert_eq!(segment.read_concrete(at as usize + i, len), Some(want));
        }
    }
}

fn nth(reference: &Reference, n: usize) -> Option<u64> {
    let len = reference.live.len();
    (len > 0).then(|| *reference.live.keys().nth(n % len).expect("index in range"))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn address_space_matches_the_reference(ops in proptest::collection::vec(op(), 1..60)) {
        let mut allocator = Allocator::new(0x5000_0000_0000, u64::MAX);
        let mut next_id = 1u64;
        let mut all: Vec<u64> = Vec::new();
        let mut side = Side { space: AddressSpace::default(), reference: Reference::default() };
        let mut snapshots: Vec<Side> = Vec::new();
        for op in ops {
            match op {
                Op::Alloc { size, fill } => {
                    let address = allocator.allocate(size, 16);
                    side.space.insert(
                        object(next_id, address, size),
                        Segment::filled(SegmentId(next_id), size as usize, fill),
                    );
                    next_id += 1;
                    side.reference.live.insert(address, vec![fill; size as usize]);
                    all.push(address);
                }
                Op::Free { n } => {
                    if let Some(address) = nth(&side.reference, n) {
                        let size = side.reference.live.remove(&address).unwrap().len() as u64;
                        side.reference.freed.insert(address, size);
                        prop_assert!(side.space.free(address).is_some());
                    }
                }
                Op::Write { n, offset, len, value } => {
                    if let Some(address) = nth(&side.reference, n) {
                        let bytes = side.reference.live.get_mut(&address).unwrap();
                        let size = bytes.len() as u64;
                        let len = len.min(size);
                        let offset = offset % (size - len + 1);
                        for k in 0..len {
                            bytes[(offset + k) as usize] = (value >> (8 * (k % 8))) as u8;
                        }
                        for k in 0..len {
                            let (segment, at) =
                                side.space.segment_mut(address, offset + k, 1).unwrap();
                            segment.write_concrete_byte(at as usize, (value >> (8 * (k % 8))) as u8);
                        }
                    }
                }
                Op::Fill { n, offset, len, byte } => {
                    if let Some(address) = nth(&side.reference, n) {
                        let bytes = side.reference.live.get_mut(&address).unwrap();
                        let size = bytes.len() as u64;
                        let len = len.min(size);
                        let offset = offset % (size - len + 1);
                        bytes[offset as usize..(offset + len) as usize].fill(byte);
                        let (segment, at) = side.space.segment_mut(address, offset, len).unwrap();
                        segment.fill_concrete(at as usize, len as usize, byte);
                    }
                }
                Op::Fork => snapshots.push(side.clone()),
                Op::Lookup { n, delta } => {
                    if all.is_empty() {
                        continue;
                    }
                    let address = all[n % all.len()].wrapping_add_signed(delta);
                    let live = side.reference.live.iter().find(|(a, b)| {
                        address >= **a && address < **a + (b.len() as u64).max(1)
                    });
                    let freed = side.reference.freed.iter().find(|(a, s)| {
                        address >= **a && address < **a + (**s).max(1)
                    });
                    match side.space.lookup(address) {
                        Lookup::Live(e) => prop_assert_eq!(Some(e.object.address), live.map(|(a, _)| *a)),
                        Lookup::Freed(o) => {
                            prop_assert!(live.is_none());
                            prop_assert_eq!(Some(o.address), freed.map(|(a, _)| *a));
                        }
                        Lookup::Nothing => prop_assert!(live.is_none() && freed.is_none()),
                    }
                }
            }
            agree(&side);
        }
        // Forked copies kept their own contents whatever happened after the fork.
        for snapshot in &snapshots {
            agree(snapshot);
        }
    }
}
