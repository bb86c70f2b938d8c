//! The address space of one state: which objects exist, where, and where their bytes are.
//!
//! Objects are placed by concrete address (the hidden address of a symbolic base) in a
//! persistent ordered map shared between forked states: cloning is O(1), and a write copies
//! only the path to the changed entry and, the first time after a fork, the touched page of
//! the object's bytes.
//!
//! Storage is one level removed from objects: an object's bytes live in a [`Segment`],
//! either its own (held in the object's entry, the standard model's fast path) or ranges of
//! segments shared with other objects or spread over several (`Storage::Chunks`, for memory
//! models that merge objects into one segment or split one object). Freed objects move to a
//! quarantine map so that a later access can be reported as a use after free; the allocator
//! never reuses addresses.

use std::cell::Cell;
use std::sync::Arc;

use imbl::OrdMap;

use super::object::{MemoryObject, ObjectId, ObjectKind};
use super::segment::{Segment, SegmentId};

/// A range of an object's bytes stored in a range of a segment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Chunk {
    /// The first byte of the object in this chunk.
    pub start: u64,
    /// Bytes in the chunk.
    pub len: u64,
    /// The segment holding them.
    pub segment: SegmentId,
    /// Where `start` is in the segment.
    pub at: u64,
}

/// Where an object's bytes are.
#[derive(Clone, Debug)]
pub enum Storage {
    /// A segment of the object's own, at offset 0 (no indirection).
    Own(Arc<Segment>),
    /// Ranges of the address space's shared segments, in object order.
    Chunks(Arc<[Chunk]>),
}

/// An object and where its bytes are, in one state.
#[derive(Clone, Debug)]
pub struct ObjectEntry {
    /// The object.
    pub object: Arc<MemoryObject>,
    /// Its bytes.
    pub storage: Storage,
}

/// Two entries are equal when they are the same object (one allocation, not copied) with the
/// same storage (the same segment, not a copy): the identity a persistent map's diff needs.
impl PartialEq for ObjectEntry {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.object, &other.object)
            && match (&self.storage, &other.storage) {
                (Storage::Own(a), Storage::Own(b)) => Arc::ptr_eq(a, b),
                (Storage::Chunks(a), Storage::Chunks(b)) => a == b,
                _ => false,
            }
    }
}

/// Freed objects kept for use-after-free detection. Beyond this many, the oldest
/// allocations leave the quarantine (an access to them is then reported as out of bounds).
pub const QUARANTINE_LIMIT: usize = 1 << 16;

/// What an address points into.
#[derive(Clone, Debug)]
pub enum Lookup<'a> {
    /// A live object containing the address.
    Live(&'a ObjectEntry),
    /// A freed object containing the address.
    Freed(&'a Arc<MemoryObject>),
    /// Nothing.
    Nothing,
}

/// The objects of one state, by concrete base address, and the segments they share.
#[derive(Clone, Debug, Default)]
pub struct AddressSpace {
    objects: OrdMap<u64, ObjectEntry>,
    segments: OrdMap<SegmentId, Arc<Segment>>,
    /// How many live objects keep bytes in each shared segment (dropped at zero).
    segment_users: OrdMap<SegmentId, u32>,
    freed: OrdMap<u64, Arc<MemoryObject>>,
    /// Base addresses of the two objects found last by [`AddressSpace::lookup`], tried
    /// first: an exact-key lookup is a plain tree search, where finding the object below an
    /// address needs an iterator (an allocation in `imbl`). Only a hint: always checked.
    recent: Cell<[u64; 2]>,
}

impl AddressSpace {
    /// Adds a new object with its own segment.
    pub fn insert(&mut self, object: Arc<MemoryObject>, segment: Segment) {
        // A new object is usually accessed next.
        let recent = self.recent.get();
        self.recent.set([object.address, recent[0]]);
        self.objects.insert(
            object.address,
            ObjectEntry {
                object,
                storage: Storage::Own(Arc::new(segment)),
            },
        );
    }

    /// Adds a segment shared by objects placed with [`AddressSpace::insert_in_chunks`].
    pub fn add_segment(&mut self, segment: Segment) {
        self.segments.insert(segment.id(), Arc::new(segment));
    }

    /// Adds an object whose bytes are ranges of shared segments. The chunks must cover the
    /// object's bytes in order and lie inside segments added before.
    pub fn insert_in_chunks(&mut self, object: Arc<MemoryObject>, chunks: Vec<Chunk>) {
        debug_assert!(chunks.iter().all(|c| self
            .segments
            .get(&c.segment)
            .is_some_and(|s| c.at + c.len <= s.size() as u64)));
        debug_assert_eq!(chunks.iter().map(|c| c.len).sum::<u64>(), object.size);
        for c in &chunks {
            *self.segment_users.entry(c.segment).or_insert(0) += 1;
        }
        self.objects.insert(
            object.address,
            ObjectEntry {
                object,
                storage: Storage::Chunks(chunks.into()),
            },
        );
    }

    /// Gives the live object based at `address` another kind (`klee_mark_global`); false when
    /// there is none.
    pub fn set_kind(&mut self, address: u64, kind: ObjectKind) -> bool {
        let Some(entry) = self.objects.get_mut(&address) else {
            return false;
        };
        let mut object = (*entry.object).clone();
        object.kind = kind;
        entry.object = Arc::new(object);
        true
    }

    /// True when a live object occupies some byte of `[address, address + size)`.
    pub fn overlaps(&self, address: u64, size: u64) -> bool {
        let end = address.saturating_add(size.max(1));
        if let Lookup::Live(_) = self.lookup(address) {
            return true;
        }
        self.objects.range(address..end).next().is_some()
    }

    /// Removes an object, keeping it in quarantine. Returns it if it was live.
    pub fn free(&mut self, address: u64) -> Option<Arc<MemoryObject>> {
        let entry = self.take(address)?;
        self.freed.insert(address, entry.object.clone());
        self.trim_quarantine();
        Some(entry.object)
    }

    /// Drops the oldest freed objects beyond [`QUARANTINE_LIMIT`] (addresses grow with
    /// allocation time, so the smallest are the oldest). One at a time, not down to a
    /// fraction of the limit: paths whose quarantines are joined at every merge
    /// ([`AddressSpace::join_quarantine`]) would otherwise take back, at each merge, the
    /// half that one of them had just dropped.
    fn trim_quarantine(&mut self) {
        while self.freed.len() > QUARANTINE_LIMIT {
            let oldest = self.freed.get_min().expect("non-empty quarantine").0;
            self.freed.remove(&oldest);
        }
    }

    /// Removes the object at `address` from the address space without quarantine (it is
    /// being moved), releasing the shared segments no other object uses.
    pub fn take(&mut self, address: u64) -> Option<ObjectEntry> {
        let entry = self.objects.remove(&address)?;
        if let Storage::Chunks(chunks) = &entry.storage {
            for c in chunks.iter() {
                let users = self.segment_users.get(&c.segment).copied().unwrap_or(1);
                if users <= 1 {
                    self.segment_users.remove(&c.segment);
                    self.segments.remove(&c.segment);
                } else {
                    self.segment_users.insert(c.segment, users - 1);
                }
            }
        }
        Some(entry)
    }

    /// The shared segment `id`.
    pub fn segment(&self, id: SegmentId) -> Option<&Segment> {
        self.segments.get(&id).map(|s| s.as_ref())
    }

    /// The number of shared segments.
    pub fn shared_segments(&self) -> usize {
        self.segments.len()
    }

    /// The live object whose base address is exactly `address`.
    pub fn get_by_base(&self, address: u64) -> Option<&ObjectEntry> {
        self.objects.get(&address)
    }

    /// The freed object whose base address is exactly `address`.
    pub fn freed_by_base(&self, address: u64) -> Option<&Arc<MemoryObject>> {
        self.freed.get(&address)
    }

    /// The object (live or freed) containing `address`. Zero-sized objects contain their
    /// base address.
    #[inline]
    pub fn lookup(&self, address: u64) -> Lookup<'_> {
        let recent = self.recent.get();
        for base in recent {
            if base <= address {
                if let Some(entry) = self.objects.get(&base) {
                    if contains(&entry.object, address) {
                        return Lookup::Live(entry);
                    }
                }
            }
        }
        self.lookup_slow(address)
    }

    fn lookup_slow(&self, address: u64) -> Lookup<'_> {
        if let Some((_, entry)) = self.objects.get_prev(&address) {
            if contains(&entry.object, address) {
                let recent = self.recent.get();
                self.recent.set([entry.object.address, recent[0]]);
                return Lookup::Live(entry);
            }
        }
        if let Some((_, o)) = self.freed.get_prev(&address) {
            if contains(o, address) {
                return Lookup::Freed(o);
            }
        }
        Lookup::Nothing
    }

    /// The segment holding `len` bytes of `entry`'s object from `offset`, and where they
    /// start in it; `None` when they are not in one chunk.
    #[inline]
    pub fn segment_of<'a>(
        &'a self,
        entry: &'a ObjectEntry,
        offset: u64,
        len: u64,
    ) -> Option<(&'a Segment, u64)> {
        match &entry.storage {
            Storage::Own(segment) => Some((segment, offset)),
            Storage::Chunks(chunks) => {
                let c = chunk_for(chunks, offset, len)?;
                let segment = self.segments.get(&c.segment)?;
                Some((segment, c.at + (offset - c.start)))
            }
        }
    }

    /// Like [`AddressSpace::segment_of`] for the object based at `address`, mutably (the
    /// segment is copied first if another state shares it).
    pub fn segment_mut(
        &mut self,
        address: u64,
        offset: u64,
        len: u64,
    ) -> Option<(&mut Segment, u64)> {
        let entry = self.objects.get_mut(&address)?;
        match &mut entry.storage {
            Storage::Own(segment) => Some((Arc::make_mut(segment), offset)),
            Storage::Chunks(chunks) => {
                let c = *chunk_for(chunks, offset, len)?;
                let segment = self.segments.get_mut(&c.segment)?;
                Some((Arc::make_mut(segment), c.at + (offset - c.start)))
            }
        }
    }

    /// The segment a symbolic-offset access into the object at `address` uses, and the
    /// number to add to an object offset to get a segment offset: its own segment, the one
    /// chunk it is stored in (a member of a merged segment), or chunk `chunk` of a split
    /// object (offsets then stay inside the chunk, as its resolution required). `None` for
    /// a split object without a chunk.
    pub fn segment_for_symbolic(
        &mut self,
        address: u64,
        chunk: Option<usize>,
    ) -> Option<(&mut Segment, i128)> {
        let entry = self.objects.get_mut(&address)?;
        match &mut entry.storage {
            Storage::Own(segment) => Some((Arc::make_mut(segment), 0)),
            Storage::Chunks(chunks) => {
                let c = match (chunk, chunks.len()) {
                    (Some(k), _) => *chunks.get(k)?,
                    (None, 1) => chunks[0],
                    (None, _) => return None,
                };
                let segment = self.segments.get_mut(&c.segment)?;
                Some((Arc::make_mut(segment), c.at as i128 - c.start as i128))
            }
        }
    }

    /// The whole segment of an object stored in one piece (its own, or one chunk), mutably,
    /// and the object's offset in it.
    pub fn whole_segment_mut(&mut self, address: u64) -> Option<(&mut Segment, u64)> {
        let size = self.objects.get(&address)?.object.size;
        self.segment_mut(address, 0, size)
    }

    /// The base addresses where the live objects of `self` and `other` differ (another
    /// object, or other bytes), with each side's entry (`None`: no object based there). The
    /// diff skips the structure both maps share, so paths forked from one state compare in
    /// the size of what they changed, not of the whole space.
    pub fn object_diff<'a>(
        &'a self,
        other: &'a AddressSpace,
    ) -> impl Iterator<Item = (u64, Option<&'a ObjectEntry>, Option<&'a ObjectEntry>)> + 'a {
        self.objects.diff(&other.objects).map(|d| match d {
            imbl::ordmap::DiffItem::Add(k, v) => (*k, None, Some(v)),
            imbl::ordmap::DiffItem::Remove(k, v) => (*k, Some(v), None),
            imbl::ordmap::DiffItem::Update { old, new } => (*old.0, Some(old.1), Some(new.1)),
        })
    }

    /// Adds a live object whose own segment is `segment` (an object a merged path takes
    /// from one of its members).
    pub fn insert_with_segment(&mut self, object: Arc<MemoryObject>, segment: Arc<Segment>) {
        self.objects.insert(
            object.address,
            ObjectEntry {
                object,
                storage: Storage::Own(segment),
            },
        );
    }

    /// Gives the object at `address` a segment of its own (a merge's result).
    pub fn replace_segment(&mut self, address: u64, segment: Segment) {
        if let Some(entry) = self.objects.get_mut(&address) {
            entry.storage = Storage::Own(Arc::new(segment));
        }
    }

    /// The shared segments (those of merged or split objects), by id.
    pub fn shared_segments_by_id(&self) -> Vec<(SegmentId, Arc<Segment>)> {
        self.segments.iter().map(|(k, v)| (*k, v.clone())).collect()
    }

    /// Replaces the bytes of the shared segment `id` (kept at its place).
    pub fn replace_shared_segment(&mut self, id: SegmentId, segment: Segment) {
        if self.segments.contains_key(&id) {
            self.segments.insert(id, Arc::new(segment));
        }
    }

    /// Merges the shared segments of `self` with those of `other` under `cond` (see
    /// `crate::merge`); `None` when they do not have the same shared segments.
    pub fn merge_shared_segments(
        &mut self,
        cond: &sear_expr::Expr,
        other: &AddressSpace,
    ) -> Option<()> {
        if self.segments.len() != other.segments.len() {
            return None;
        }
        let ids: Vec<SegmentId> = self.segments.keys().copied().collect();
        for id in ids {
            let mine = self.segments.get(&id).expect("own segment").clone();
            let theirs = other.segments.get(&id)?;
            if !Arc::ptr_eq(&mine, theirs) {
                let merged = crate::merge::segments(cond, &mine, theirs)?;
                self.segments.insert(id, Arc::new(merged));
            }
        }
        Some(())
    }

    /// True when both spaces hold the same freed objects (by address and identity).
    pub fn same_quarantine(&self, other: &AddressSpace) -> bool {
        // The diff skips the structure both maps share (paths forked from one state).
        self.freed.ptr_eq(&other.freed)
            || (self.freed.len() == other.freed.len()
                && self.freed.diff(&other.freed).next().is_none())
    }

    /// Joins `other`'s freed objects into this space's quarantine, when the objects both
    /// hold at one address are alike but for their identities (the same place, size, kind,
    /// name and allocation site: the allocas of one function called on two paths, freed at
    /// its return); returns false, changing nothing, otherwise. An object only `other`
    /// freed joins too: an access to it is then a use after free where on `other`'s side
    /// alone it would be an access to no object, a pointer error either way.
    /// Loop-iteration merging aligns its paths so ([`AddressSpace::copy_quarantine`]).
    pub fn join_quarantine(&mut self, other: &AddressSpace) -> bool {
        if self.same_quarantine(other) {
            return true;
        }
        let alike = |x: &MemoryObject, y: &MemoryObject| {
            x.address == y.address
                && x.size == y.size
                && x.kind == y.kind
                && x.name == y.name
                && x.alloc_site == y.alloc_site
                && x.read_only == y.read_only
                && x.base == y.base
                && x.symbolic_size == y.symbolic_size
        };
        let mut added: Vec<(u64, Arc<MemoryObject>)> = Vec::new();
        for d in self.freed.diff(&other.freed) {
            match d {
                imbl::ordmap::DiffItem::Add(a, y) => {
                    // A freed object of `other` must not be a live object of this space.
                    if self.objects.contains_key(a) {
                        return false;
                    }
                    added.push((*a, y.clone()));
                }
                imbl::ordmap::DiffItem::Update { old, new } => {
                    if !alike(old.1, new.1) {
                        return false;
                    }
                }
                imbl::ordmap::DiffItem::Remove(..) => {}
            }
        }
        for (a, y) in added {
            self.freed.insert(a, y);
        }
        self.trim_quarantine();
        true
    }

    /// Gives this space `other`'s quarantine (after [`AddressSpace::join_quarantine`]).
    pub fn copy_quarantine(&mut self, other: &AddressSpace) {
        self.freed = other.freed.clone();
    }

    /// Live objects in address order.
    pub fn iter(&self) -> impl Iterator<Item = &ObjectEntry> {
        self.objects.values()
    }

    /// Live objects with base address below `address`, nearest first.
    pub fn below(&self, address: u64) -> impl Iterator<Item = &ObjectEntry> {
        self.objects.range(..address).rev().map(|(_, e)| e)
    }

    /// Live objects with base address at or above `address`, nearest first.
    pub fn at_or_above(&self, address: u64) -> impl Iterator<Item = &ObjectEntry> {
        self.objects.range(address..).map(|(_, e)| e)
    }

    /// The number of live objects.
    pub fn len(&self) -> usize {
        self.objects.len()
    }

    /// True when there are no live objects.
    pub fn is_empty(&self) -> bool {
        self.objects.is_empty()
    }

    /// The object with a given id, if live (linear; for diagnostics and tests).
    pub fn find_id(&self, id: ObjectId) -> Option<&ObjectEntry> {
        self.objects.values().find(|e| e.object.id == id)
    }
}

/// True if `address` is in the object (a zero-sized object contains its base address).
#[inline]
fn contains(o: &MemoryObject, address: u64) -> bool {
    address >= o.address && (address < o.end() || (o.size == 0 && address == o.address))
}

/// The chunk holding `[offset, offset + len)` entirely, if one does.
fn chunk_for(chunks: &[Chunk], offset: u64, len: u64) -> Option<&Chunk> {
    let i = chunks.partition_point(|c| c.start + c.len <= offset);
    let c = chunks.get(i)?;
    (offset >= c.start && offset + len.max(1) <= c.start + c.len.max(1)).then_some(c)
}

#[cfg(test)]
mod tests {
    use super::*;

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

    #[test]
    fn objects_sharing_a_segment_see_each_others_writes() {
        // Two objects merged into one segment of 24 bytes: a at [0, 8), b at [8, 24).
        let mut space = AddressSpace::default();
        space.add_segment(Segment::zeroed(SegmentId(100), 24));
        let chunk = |start, len, at| Chunk {
            start,
            len,
            segment: SegmentId(100),
            at,
        };
        space.insert_in_chunks(object(1, 0x1000, 8), vec![chunk(0, 8, 0)]);
        space.insert_in_chunks(object(2, 0x1008, 16), vec![chunk(0, 16, 8)]);
        let (seg, at) = space.segment_mut(0x1008, 4, 4).unwrap();
        assert_eq!(at, 12);
        seg.write_concrete(at as usize, 4, 0xdead_beef);
        // A fork shares the segment until it writes.
        let snapshot = space.clone();
        let Lookup::Live(entry) = space.lookup(0x1008 + 4) else {
            panic!("live object")
        };
        let (seg, at) = space.segment_of(entry, 4, 4).unwrap();
        assert_eq!(seg.read_concrete(at as usize, 4), Some(0xdead_beef));
        let (seg, _) = space.whole_segment_mut(0x1000).unwrap();
        seg.write_concrete(12, 1, 0x11);
        let entry = snapshot.get_by_base(0x1008).unwrap();
        let (seg, at) = snapshot.segment_of(entry, 4, 4).unwrap();
        assert_eq!(seg.read_concrete(at as usize, 4), Some(0xdead_beef));
    }

    #[test]
    fn a_split_object_is_read_per_chunk() {
        // One 16-byte object over two segments of 8 bytes.
        let mut space = AddressSpace::default();
        space.add_segment(Segment::filled(SegmentId(7), 8, 1));
        space.add_segment(Segment::filled(SegmentId(8), 8, 2));
        let chunks = vec![
            Chunk {
                start: 0,
                len: 8,
                segment: SegmentId(7),
                at: 0,
            },
            Chunk {
                start: 8,
                len: 8,
                segment: SegmentId(8),
                at: 0,
            },
        ];
        space.insert_in_chunks(object(3, 0x2000, 16), chunks);
        let entry = space.get_by_base(0x2000).unwrap();
        let (seg, at) = space.segment_of(entry, 9, 2).unwrap();
        assert_eq!((seg.id(), at), (SegmentId(8), 1));
        assert_eq!(seg.read_concrete(at as usize, 2), Some(0x0202));
        // An access across the chunk boundary has no single segment.
        assert!(space.segment_of(entry, 6, 4).is_none());
    }

    #[test]
    fn quarantines_alike_but_for_identities_join() {
        let named = |id: u64, address: u64, size: u64| {
            let mut o = MemoryObject::clone(&object(id, address, size));
            o.name = "cond".into();
            o.kind = ObjectKind::Stack;
            Arc::new(o)
        };
        let freed = |objects: &[Arc<MemoryObject>]| {
            let mut space = AddressSpace::default();
            for o in objects {
                space.insert(
                    o.clone(),
                    Segment::zeroed(SegmentId(o.id.0), o.size as usize),
                );
                space.free(o.address);
            }
            space
        };
        let mut a = freed(&[named(1, 0x3000, 4)]);
        let mut b = freed(&[named(2, 0x3000, 4), named(3, 0x4000, 4)]);
        assert!(!a.same_quarantine(&b));
        assert!(a.join_quarantine(&b));
        assert!(a.freed_by_base(0x4000).is_some());
        b.copy_quarantine(&a);
        assert!(a.same_quarantine(&b));
        // A different object at the same place: no join, nothing changed.
        let c = freed(&[named(4, 0x3000, 8)]);
        let before = a.clone();
        assert!(!a.join_quarantine(&c));
        assert!(a.same_quarantine(&before));
    }

    #[test]
    fn freed_objects_are_quarantined() {
        let mut space = AddressSpace::default();
        space.insert(object(1, 0x3000, 4), Segment::zeroed(SegmentId(1), 4));
        assert!(matches!(space.lookup(0x3002), Lookup::Live(_)));
        space.free(0x3000);
        assert!(matches!(space.lookup(0x3002), Lookup::Freed(_)));
        assert!(space.freed_by_base(0x3000).is_some());
        assert!(matches!(space.lookup(0x3004), Lookup::Nothing));
    }
}
