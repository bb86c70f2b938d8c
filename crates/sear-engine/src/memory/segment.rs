//! Segments: the bytes behind memory objects, in one state.
//!
//! A segment is the unit of storage. In the standard model every object has its own
//! segment; a memory model may let several objects share one (a merged segment) or spread
//! one object over several (a split object); `address_space` keeps the mapping.
//!
//! Like KLEE's `ObjectState`, bytes are kept as concrete values or known symbolic
//! expressions for as long as every access uses a constant offset. Only when an access uses
//! a symbolic offset are the bytes *flushed* into an array: a constant root holding the
//! concrete bytes, plus writes for the symbolic ones. After a write at a symbolic offset, a
//! byte's value is only known through the update list. Writes at constant offsets go to the
//! byte cache and are flushed lazily, the next time a symbolic-offset access needs them.
//!
//! Bytes are stored in pages of 4 KiB, shared between forked states and copied on write one
//! page at a time. A page that was never written is not stored at all: it holds the
//! segment's *fill* (zero, KLEE's 0xAB garbage pattern, or "read from the update list" for
//! an object made symbolic whole), so a huge zero-initialised global, a large `malloc` or a
//! large symbolic file costs memory only for the pages a path writes.

use std::sync::Arc;

use sear_expr::{Array, ArrayKind, ArrayRef, Expr, ReadPolicy, UpdateList};

use super::pages::PageTable;

/// Identifies a segment within a run (the object id of the object it was created for, in
/// the standard model).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SegmentId(pub u64);

const PAGE_BITS: u32 = 12;
/// Bytes per page.
pub const PAGE_SIZE: usize = 1 << PAGE_BITS;

/// The largest segment that can be flushed to an array, i.e. accessed at a symbolic offset
/// or made symbolic whole (1 GiB): an array's constant bytes are held densely by the
/// solver layers, and symbolic offsets are 32-bit. Larger objects are accessed at constant
/// offsets only (KLEE refuses symbolic accesses to objects above 4 GiB).
pub const MAX_ARRAY_SIZE: u64 = 1 << 30;

// Per byte, a state in the low two bits and a "flushed" flag (its current value is already
// part of the update list).
const CONCRETE: u8 = 0;
const SYMBOLIC: u8 = 1;
const VIA_UPDATES: u8 = 2;
const STATE_MASK: u8 = 3;
const FLUSHED: u8 = 4;

/// What the bytes of pages that were never written hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Fill {
    /// This concrete byte.
    Byte(u8),
    /// The matching byte of the update list.
    ViaUpdates,
}

/// One page of bytes: their concrete values, states, and symbolic values where written.
#[derive(Clone, Debug)]
struct Page {
    bytes: Box<[u8]>,
    meta: Box<[u8]>,
    symbolic: Option<Box<[Option<Expr>]>>,
    /// Some byte's current value is not in the update list yet.
    dirty: bool,
}

impl Page {
    /// A page of `len` bytes holding `fill`; `flushed` when the fill is in the update list.
    fn filled(len: usize, fill: Fill, flushed: bool) -> Page {
        let (byte, state) = match fill {
            Fill::Byte(b) => (b, CONCRETE),
            Fill::ViaUpdates => (0, VIA_UPDATES),
        };
        let meta = state | if flushed { FLUSHED } else { 0 };
        Page {
            bytes: vec![byte; len].into_boxed_slice(),
            meta: vec![meta; len].into_boxed_slice(),
            symbolic: None,
            dirty: !flushed,
        }
    }
}

/// The bytes of a segment.
#[derive(Clone, Debug)]
pub struct Segment {
    id: SegmentId,
    size: usize,
    /// The pages written; the others hold `fill`.
    pages: PageTable<Arc<Page>>,
    fill: Fill,
    /// The unwritten pages' bytes are already part of `updates`.
    fill_flushed: bool,
    updates: Option<UpdateList>,
    /// How many arrays this segment has been flushed to (for unique names).
    flush_generation: u32,
    /// The smallest width in bytes of an access at a symbolic offset (0: none yet), the
    /// segment's access type for type-aware array solving (spec 001 §4). Part of the state,
    /// so it is copied on fork.
    min_symbolic_access: u32,
    /// A root array to use at the first flush if it holds exactly the segment's bytes then
    /// (segments reused across states share their array, so their queries are equal).
    preset_root: Option<ArrayRef>,
}

impl Segment {
    fn with_fill(id: SegmentId, size: usize, fill: Fill) -> Self {
        Segment {
            id,
            size,
            pages: PageTable::new(size.div_ceil(PAGE_SIZE)),
            fill,
            fill_flushed: false,
            updates: None,
            flush_generation: 0,
            min_symbolic_access: 0,
            preset_root: None,
        }
    }

    /// Uses `root` as the array of the first flush when it holds exactly this segment's
    /// bytes then.
    pub fn preset_root(&mut self, root: ArrayRef) {
        self.preset_root = Some(root);
    }

    /// True when no byte is symbolic or known only through the update list.
    pub fn is_all_concrete(&self) -> bool {
        (self.fill != Fill::ViaUpdates || self.pages.stored_count() == self.pages.page_count())
            && self.pages.stored().into_iter().all(|p| {
                self.pages
                    .get(p)
                    .is_some_and(|page| page.meta.iter().all(|m| m & STATE_MASK == CONCRETE))
            })
    }

    /// The concrete bytes, when every byte is concrete.
    pub fn concrete_bytes(&self) -> Option<Vec<u8>> {
        self.is_all_concrete().then(|| self.root_bytes())
    }

    /// `size` zero bytes.
    pub fn zeroed(id: SegmentId, size: usize) -> Self {
        Self::with_fill(id, size, Fill::Byte(0))
    }

    /// `size` copies of `byte` (KLEE's 0xAB pattern for uninitialised memory).
    pub fn filled(id: SegmentId, size: usize, byte: u8) -> Self {
        Self::with_fill(id, size, Fill::Byte(byte))
    }

    /// A segment holding the given concrete bytes.
    pub fn from_bytes(id: SegmentId, bytes: &[u8]) -> Self {
        let mut s = Self::zeroed(id, bytes.len());
        for (i, chunk) in bytes.chunks(PAGE_SIZE).enumerate() {
            if chunk.iter().any(|b| *b != 0) {
                let page = s.page_mut(i);
                page.bytes.copy_from_slice(chunk);
            }
        }
        s
    }

    /// The segment's identity (used in the names of the arrays it is flushed to).
    pub fn id(&self) -> SegmentId {
        self.id
    }

    /// The number of bytes.
    pub fn size(&self) -> usize {
        self.size
    }

    fn page_len(&self, index: usize) -> usize {
        (self.size - index * PAGE_SIZE).min(PAGE_SIZE)
    }

    /// The page `index`, materialised and unshared, for writing.
    fn page_mut(&mut self, index: usize) -> &mut Page {
        if self.pages.get(index).is_none() {
            let page = Page::filled(self.page_len(index), self.fill, self.fill_flushed);
            self.pages.insert(index, Arc::new(page));
        }
        Arc::make_mut(self.pages.get_mut(index).expect("materialised page"))
    }

    #[inline]
    fn split(offset: usize) -> (usize, usize) {
        (offset >> PAGE_BITS, offset & (PAGE_SIZE - 1))
    }

    /// The byte at `offset` as an expression (8 bits); a byte held by the update list is
    /// read under `reads`.
    pub fn read_byte(&self, offset: usize, reads: ReadPolicy) -> Expr {
        let (p, i) = Self::split(offset);
        let state = match self.pages.get(p) {
            Some(page) => page.meta[i] & STATE_MASK,
            None => match self.fill {
                Fill::Byte(b) => return Expr::constant(b as u128, 8),
                Fill::ViaUpdates => VIA_UPDATES,
            },
        };
        let page = self.pages.get(p);
        match state {
            CONCRETE => Expr::constant(page.expect("page").bytes[i] as u128, 8),
            SYMBOLIC => page
                .and_then(|pg| pg.symbolic.as_ref())
                .and_then(|s| s[i].clone())
                .expect("symbolic byte"),
            _ => reads.read(
                self.updates.as_ref().expect("flushed segment"),
                Expr::constant(offset as u128, 32),
            ),
        }
    }

    /// The concrete byte at `offset`, if it is concrete.
    #[inline]
    pub fn concrete_byte(&self, offset: usize) -> Option<u8> {
        let (p, i) = Self::split(offset);
        match self.pages.get(p) {
            Some(page) => (page.meta[i] & STATE_MASK == CONCRETE).then(|| page.bytes[i]),
            None => match self.fill {
                Fill::Byte(b) => Some(b),
                Fill::ViaUpdates => None,
            },
        }
    }

    /// Reads `len` bytes at a constant offset as one little-endian concrete value, if all
    /// of them are concrete (the fast path for concrete code).
    #[inline]
    pub fn read_concrete(&self, offset: usize, len: usize) -> Option<u128> {
        let (p, i) = Self::split(offset);
        if i + len <= PAGE_SIZE {
            return match self.pages.get(p) {
                Some(page) => {
                    let meta = &page.meta[i..i + len];
                    if meta.iter().any(|m| m & STATE_MASK != CONCRETE) {
                        return None;
                    }
                    let mut value = 0u128;
                    for (k, b) in page.bytes[i..i + len].iter().enumerate() {
                        value |= (*b as u128) << (8 * k);
                    }
                    Some(value)
                }
                None => match self.fill {
                    Fill::Byte(b) => Some(repeat_byte(b, len)),
                    Fill::ViaUpdates => None,
                },
            };
        }
        // Across a page boundary: byte by byte.
        let mut value = 0u128;
        for k in 0..len {
            value |= (self.concrete_byte(offset + k)? as u128) << (8 * k);
        }
        Some(value)
    }

    /// Writes a concrete byte at a constant offset.
    #[inline]
    pub fn write_concrete_byte(&mut self, offset: usize, byte: u8) {
        let (p, i) = Self::split(offset);
        let page = self.page_mut(p);
        page.bytes[i] = byte;
        page.meta[i] = CONCRETE;
        page.dirty = true;
        if let Some(s) = page.symbolic.as_mut() {
            s[i] = None;
        }
    }

    /// Writes `len` bytes of a concrete little-endian value at a constant offset.
    #[inline]
    pub fn write_concrete(&mut self, offset: usize, len: usize, value: u128) {
        let (p, i) = Self::split(offset);
        if i + len <= PAGE_SIZE {
            let page = self.page_mut(p);
            for k in 0..len {
                page.bytes[i + k] = (value >> (8 * k)) as u8;
            }
            page.meta[i..i + len].fill(CONCRETE);
            page.dirty = true;
            if let Some(s) = page.symbolic.as_mut() {
                s[i..i + len].fill(None);
            }
            return;
        }
        for k in 0..len {
            self.write_concrete_byte(offset + k, (value >> (8 * k)) as u8);
        }
    }

    /// Writes `n` copies of a concrete byte from `offset` (`memset`). Whole pages of a
    /// segment never flushed go back to being unstored when `byte` is the fill.
    pub fn fill_concrete(&mut self, offset: usize, n: usize, byte: u8) {
        let end = offset + n;
        let mut at = offset;
        while at < end {
            let (p, i) = Self::split(at);
            let len = (self.page_len(p) - i).min(end - at);
            let whole_page = i == 0 && len == self.page_len(p);
            if whole_page && self.updates.is_none() && self.fill == Fill::Byte(byte) {
                self.pages.remove(p);
            } else {
                let page = self.page_mut(p);
                page.bytes[i..i + len].fill(byte);
                page.meta[i..i + len].fill(CONCRETE);
                page.dirty = true;
                if let Some(s) = page.symbolic.as_mut() {
                    s[i..i + len].fill(None);
                }
            }
            at += len;
        }
    }

    /// Writes an 8-bit expression at a constant offset.
    pub fn write_byte(&mut self, offset: usize, byte: Expr) {
        debug_assert_eq!(byte.width(), 8);
        if let Some(v) = byte.as_constant() {
            self.write_concrete_byte(offset, v as u8);
            return;
        }
        let (p, i) = Self::split(offset);
        let len = self.page_len(p);
        let page = self.page_mut(p);
        page.symbolic
            .get_or_insert_with(|| vec![None; len].into_boxed_slice())[i] = Some(byte);
        page.meta[i] = SYMBOLIC;
        page.dirty = true;
    }

    /// The bytes of every page as the root of a first flush: the concrete values (a
    /// symbolic byte's value is written over the root).
    fn root_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.size);
        for p in 0..self.pages.page_count() {
            match self.pages.get(p) {
                Some(page) => out.extend_from_slice(&page.bytes),
                None => {
                    let b = match self.fill {
                        Fill::Byte(b) => b,
                        Fill::ViaUpdates => 0,
                    };
                    out.resize(out.len() + self.page_len(p), b);
                }
            }
        }
        out
    }

    /// Brings the update list up to date with every byte and returns it. The root is a
    /// constant array of the concrete bytes at the time of the first flush, so reads of
    /// segments that were never written symbolically stay constant-array reads.
    pub fn flush(&mut self, name_prefix: &str) -> UpdateList {
        let mut updates = match self.updates.take() {
            Some(u) => u,
            None => {
                let bytes = self.root_bytes();
                let root = match self.preset_root.take() {
                    Some(root) if root.contents() == Some(&bytes[..]) => root,
                    _ => {
                        let name = format!("{}_{}", name_prefix, self.flush_generation);
                        self.flush_generation += 1;
                        Array::constant(
                            &name,
                            ArrayKind::MemoryObject,
                            Arc::from(bytes.into_boxed_slice()),
                        )
                    }
                };
                // Concrete bytes are in the root already.
                for p in self.pages.stored() {
                    let page = Arc::make_mut(self.pages.get_mut(p).expect("stored page"));
                    for m in page.meta.iter_mut() {
                        if *m & STATE_MASK == CONCRETE {
                            *m |= FLUSHED;
                        }
                    }
                }
                self.fill_flushed = true;
                UpdateList::new(root)
            }
        };
        for p in self.pages.stored() {
            let dirty = self.pages.get(p).is_some_and(|page| page.dirty);
            if !dirty {
                continue;
            }
            let page = Arc::make_mut(self.pages.get_mut(p).expect("page"));
            let base = p * PAGE_SIZE;
            for i in 0..page.meta.len() {
                let m = page.meta[i];
                if m & FLUSHED != 0 {
                    continue;
                }
                let value = match m & STATE_MASK {
                    CONCRETE => Expr::constant(page.bytes[i] as u128, 8),
                    SYMBOLIC => page
                        .symbolic
                        .as_ref()
                        .and_then(|s| s[i].clone())
                        .expect("symbolic byte"),
                    _ => continue,
                };
                updates = updates.write(Expr::constant((base + i) as u128, 32), value);
                page.meta[i] |= FLUSHED;
            }
            page.dirty = false;
        }
        self.updates = Some(updates.clone());
        updates
    }

    /// Makes every byte the matching byte of `updates` (a whole object made symbolic), with
    /// no work per byte: bytes are read from the update list when accessed.
    pub fn replace_with(&mut self, updates: UpdateList) {
        self.all_via_updates();
        self.updates = Some(updates);
    }

    fn all_via_updates(&mut self) {
        self.pages.clear();
        self.fill = Fill::ViaUpdates;
        self.fill_flushed = true;
    }

    /// Records an access of `len` bytes at a symbolic offset.
    fn note_symbolic_access(&mut self, len: u32) {
        if len > 0 && (self.min_symbolic_access == 0 || len < self.min_symbolic_access) {
            self.min_symbolic_access = len;
        }
    }

    /// The array the segment is flushed to and the smallest width of a symbolic-offset
    /// access, once there was one.
    pub fn access_granularity(&self) -> Option<(ArrayRef, u32)> {
        let updates = self.updates.as_ref()?;
        (self.min_symbolic_access > 0).then(|| (updates.root().clone(), self.min_symbolic_access))
    }

    /// Reads `len` bytes at a symbolic offset (32-bit, already known in bounds) as one
    /// little-endian value, each byte read under `reads`.
    pub fn read_symbolic(
        &mut self,
        offset: &Expr,
        len: u32,
        name_prefix: &str,
        reads: ReadPolicy,
    ) -> Expr {
        self.note_symbolic_access(len);
        let updates = self.flush(name_prefix);
        reads.read_lsb(&updates, offset.clone(), len)
    }

    /// Writes bytes at a symbolic offset (32-bit): each `(delta, byte)` goes to
    /// `offset + delta`.
    pub fn write_symbolic(&mut self, offset: &Expr, bytes: &[(u64, Expr)], name_prefix: &str) {
        self.note_symbolic_access(bytes.len() as u32);
        let mut updates = self.flush(name_prefix);
        for (delta, byte) in bytes {
            let index = Expr::add(Expr::constant(*delta as u128, 32), offset.clone());
            updates = updates.write(index, byte.clone());
        }
        self.all_via_updates();
        self.updates = Some(updates);
    }

    /// The offsets where `self` and `other` (of the same size) may hold different bytes:
    /// in pages they do not share, the bytes whose stored value, state or expression differ
    /// (every byte of a page one of them does not store, and all bytes when their update
    /// lists differ).
    pub fn differing_bytes(&self, other: &Segment) -> Vec<usize> {
        let same_updates = self.updates == other.updates;
        let mut out = Vec::new();
        for p in 0..self.pages.page_count() {
            let shared = same_updates
                && match (self.pages.get(p), other.pages.get(p)) {
                    (Some(x), Some(y)) => Arc::ptr_eq(x, y),
                    (None, None) => self.fill == other.fill,
                    _ => false,
                };
            if shared {
                continue;
            }
            let start = p * PAGE_SIZE;
            match (self.pages.get(p), other.pages.get(p)) {
                // Two stored copies of one page: the bytes whose value, state and
                // expression all agree hold the same value (given the same update list).
                (Some(x), Some(y)) if same_updates => {
                    let symbolic =
                        |page: &Page, i: usize| page.symbolic.as_ref().and_then(|s| s[i].clone());
                    let len = self.page_len(p);
                    for chunk in (0..len).step_by(64) {
                        let end = (chunk + 64).min(len);
                        let r = chunk..end;
                        let same_chunk = x.bytes[r.clone()] == y.bytes[r.clone()]
                            && x.meta[r.clone()] == y.meta[r.clone()]
                            && match (&x.symbolic, &y.symbolic) {
                                (None, None) => true,
                                (Some(a), Some(b)) => a[r.clone()] == b[r.clone()],
                                _ => false,
                            };
                        if same_chunk {
                            continue;
                        }
                        for i in r {
                            let same = x.bytes[i] == y.bytes[i]
                                && x.meta[i] == y.meta[i]
                                && (x.meta[i] & STATE_MASK != SYMBOLIC
                                    || symbolic(x, i) == symbolic(y, i));
                            if !same {
                                out.push(start + i);
                            }
                        }
                    }
                }
                _ => out.extend(start..start + self.page_len(p)),
            }
        }
        out
    }

    /// Bytes of pages this segment stores (not counting pages shared unchanged).
    pub fn stored_pages(&self) -> usize {
        self.pages.stored_count()
    }
}

/// `len` copies of `b` as a little-endian value.
#[inline]
fn repeat_byte(b: u8, len: usize) -> u128 {
    (0..len).fold(0u128, |v, k| v | (b as u128) << (8 * k))
}

#[cfg(test)]
mod tests;
