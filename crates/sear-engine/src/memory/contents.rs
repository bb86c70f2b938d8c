//! The contents of one memory object in one state.
//!
//! Like KLEE's `ObjectState`, bytes are kept as concrete values or known symbolic
//! expressions for as long as every access uses a constant offset. Only when an access uses
//! a symbolic offset are the bytes *flushed* into an array: a constant root holding the
//! concrete bytes, plus writes for the symbolic ones. After a write at a symbolic offset, a
//! byte's value is only known through the update list. Writes at constant offsets go to the
//! byte cache and are flushed lazily, the next time a symbolic-offset access needs them.

use std::sync::Arc;

use sear_expr::{Array, ArrayKind, ArrayRef, Expr, ReadPolicy, UpdateList};

/// The state of one byte.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
enum ByteState {
    /// The value is `concrete[i]`.
    Concrete = 0,
    /// The value is `symbolic[i]`.
    Symbolic,
    /// The value is only known through the update list.
    ViaUpdates,
}

/// `size` bytes in state `Concrete`, from zeroed memory: like `vec![0u8; size]` (and unlike
/// `vec![ByteState::Concrete; size]`, which writes every byte) it takes the allocator's zeroed
/// pages, untouched until written, so a large zero-initialised object costs no memory until
/// it is used.
fn all_concrete(size: usize) -> Vec<ByteState> {
    let mut zeros = std::mem::ManuallyDrop::new(vec![0u8; size]);
    let (ptr, len, capacity) = (zeros.as_mut_ptr(), zeros.len(), zeros.capacity());
    // SAFETY: `ByteState` is `repr(u8)` (same size and alignment as `u8`) and 0 is
    // `ByteState::Concrete`, so every byte of the buffer is a valid `ByteState`; the buffer
    // came from a `Vec` of the same layout and is not used through `zeros` again.
    unsafe { Vec::from_raw_parts(ptr as *mut ByteState, len, capacity) }
}

/// Bytes of a memory object.
#[derive(Clone, Debug)]
pub struct ObjectContents {
    concrete: Vec<u8>,
    symbolic: Vec<Option<Expr>>,
    state: Vec<ByteState>,
    /// Per byte: its current value is already part of `updates`.
    flushed: Vec<bool>,
    updates: Option<UpdateList>,
    /// How many arrays this object has been flushed to (for unique names).
    flush_generation: u32,
    /// The smallest width in bytes of an access at a symbolic offset (0: none yet), the
    /// object's access type for type-aware array solving (spec 001 §4). Part of the state,
    /// so it is copied on fork.
    min_symbolic_access: u32,
}

impl ObjectContents {
    /// `size` zero bytes.
    pub fn zeroed(size: usize) -> Self {
        ObjectContents {
            concrete: vec![0; size],
            symbolic: Vec::new(),
            state: all_concrete(size),
            flushed: vec![false; size],
            updates: None,
            flush_generation: 0,
            min_symbolic_access: 0,
        }
    }

    /// Contents with the given concrete bytes.
    pub fn from_bytes(bytes: Vec<u8>) -> Self {
        let size = bytes.len();
        ObjectContents {
            concrete: bytes,
            ..Self::zeroed(size)
        }
    }

    /// The number of bytes.
    pub fn size(&self) -> usize {
        self.concrete.len()
    }

    /// True if every byte is concrete.
    pub fn is_all_concrete(&self) -> bool {
        self.state.iter().all(|s| *s == ByteState::Concrete)
    }

    /// The byte at `offset` as an expression (8 bits); a byte held by the update list is
    /// read under `reads`.
    pub fn read_byte(&self, offset: usize, reads: ReadPolicy) -> Expr {
        match self.state[offset] {
            ByteState::Concrete => Expr::constant(self.concrete[offset] as u128, 8),
            ByteState::Symbolic => self.symbolic[offset].clone().expect("symbolic byte"),
            ByteState::ViaUpdates => reads.read(
                self.updates.as_ref().expect("flushed object"),
                Expr::constant(offset as u128, 32),
            ),
        }
    }

    /// The concrete byte at `offset`, if it is concrete.
    #[inline]
    pub fn concrete_byte(&self, offset: usize) -> Option<u8> {
        (self.state[offset] == ByteState::Concrete).then(|| self.concrete[offset])
    }

    /// Reads `len` bytes at a constant offset as one little-endian concrete value, if all
    /// of them are concrete (the fast path for concrete code).
    #[inline]
    pub fn read_concrete(&self, offset: usize, len: usize) -> Option<u128> {
        let states = &self.state[offset..offset + len];
        if states.iter().any(|s| *s != ByteState::Concrete) {
            return None;
        }
        let mut value = 0u128;
        for (i, b) in self.concrete[offset..offset + len].iter().enumerate() {
            value |= (*b as u128) << (8 * i);
        }
        Some(value)
    }

    /// Writes a concrete byte at a constant offset.
    #[inline]
    pub fn write_concrete_byte(&mut self, offset: usize, byte: u8) {
        self.concrete[offset] = byte;
        self.state[offset] = ByteState::Concrete;
        self.flushed[offset] = false;
    }

    /// Writes `len` bytes of a concrete little-endian value at a constant offset.
    #[inline]
    pub fn write_concrete(&mut self, offset: usize, len: usize, value: u128) {
        for i in 0..len {
            self.write_concrete_byte(offset + i, (value >> (8 * i)) as u8);
        }
    }

    /// Writes an 8-bit expression at a constant offset.
    pub fn write_byte(&mut self, offset: usize, byte: Expr) {
        debug_assert_eq!(byte.width(), 8);
        if let Some(v) = byte.as_constant() {
            self.write_concrete_byte(offset, v as u8);
            return;
        }
        if self.symbolic.is_empty() {
            self.symbolic = vec![None; self.concrete.len()];
        }
        self.symbolic[offset] = Some(byte);
        self.state[offset] = ByteState::Symbolic;
        self.flushed[offset] = false;
    }

    /// Brings the update list up to date with every byte and returns it. The root is a
    /// constant array of the concrete bytes at the time of the first flush, so reads of
    /// objects that were never written symbolically stay constant-array reads.
    pub fn flush(&mut self, name_prefix: &str) -> UpdateList {
        let mut updates = match self.updates.take() {
            Some(u) => u,
            None => {
                let name = format!("{}_{}", name_prefix, self.flush_generation);
                self.flush_generation += 1;
                let root = Array::new(
                    name,
                    self.concrete.len() as u64,
                    ArrayKind::MemoryObject,
                    Some(Arc::from(self.concrete.clone().into_boxed_slice())),
                );
                for (i, state) in self.state.iter().enumerate() {
                    // Concrete bytes are in the root already.
                    self.flushed[i] = *state == ByteState::Concrete;
                }
                UpdateList::new(root)
            }
        };
        for i in 0..self.concrete.len() {
            if self.flushed[i] {
                continue;
            }
            let value = match self.state[i] {
                ByteState::Concrete => Expr::constant(self.concrete[i] as u128, 8),
                ByteState::Symbolic => self.symbolic[i].clone().expect("symbolic byte"),
                ByteState::ViaUpdates => continue,
            };
            updates = updates.write(Expr::constant(i as u128, 32), value);
            self.flushed[i] = true;
        }
        self.updates = Some(updates.clone());
        updates
    }

    /// Makes every byte the matching byte of `updates` (a whole object made symbolic), with
    /// no work per byte: bytes are read from the update list when accessed.
    pub fn replace_with(&mut self, updates: UpdateList) {
        self.state.fill(ByteState::ViaUpdates);
        self.flushed.fill(true);
        self.symbolic = Vec::new();
        self.updates = Some(updates);
    }

    /// Records an access of `len` bytes at a symbolic offset.
    fn note_symbolic_access(&mut self, len: u32) {
        if len > 0 && (self.min_symbolic_access == 0 || len < self.min_symbolic_access) {
            self.min_symbolic_access = len;
        }
    }

    /// The array the object is flushed to and the smallest width of a symbolic-offset access,
    /// once there was one.
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
        for i in 0..self.concrete.len() {
            self.state[i] = ByteState::ViaUpdates;
            self.flushed[i] = true;
        }
        self.symbolic.clear();
        self.updates = Some(updates);
    }

    /// Approximate heap bytes used, for the memory limit.
    pub fn approx_bytes(&self) -> usize {
        self.concrete.len() * 3 + self.symbolic.len() * 8
    }
}

#[cfg(test)]
mod tests {
    //! Access-type inference (spec 001 §11 T4) at the level of one object's contents.

    use super::*;

    fn off() -> Expr {
        let a = Array::new("k", 4, ArrayKind::SymbolicInput, None);
        Expr::read_lsb(&UpdateList::new(a), Expr::constant(0, 32), 4)
    }

    #[test]
    fn smallest_symbolic_access_width_per_object() {
        let mut c = ObjectContents::zeroed(32);
        // Constant-offset accesses never set the access type.
        c.write_concrete(0, 4, 7);
        assert_eq!(c.access_granularity(), None);
        // int a[8] accessed via a[k]: 4.
        c.read_symbolic(&off(), 4, "a", ReadPolicy::Fold);
        let (root, w) = c.access_granularity().unwrap();
        assert_eq!(w, 4);
        // A fork copies the contents: the two paths evolve independently.
        let mut other = c.clone();
        // short view on one path: 2; a char access: 1.
        other.read_symbolic(&off(), 2, "a", ReadPolicy::Fold);
        assert_eq!(other.access_granularity().unwrap().1, 2);
        other.write_symbolic(&off(), &[(0, Expr::constant(1, 8))], "a");
        assert_eq!(other.access_granularity().unwrap().1, 1);
        assert_eq!(c.access_granularity(), Some((root, 4)));
        // A new allocation starts without an access type.
        assert_eq!(ObjectContents::zeroed(32).access_granularity(), None);
    }
}
