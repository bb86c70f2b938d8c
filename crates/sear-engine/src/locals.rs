//! A frame's registers, shared between forked states until one of them writes.
//!
//! A fork copies every frame of the state's stack. With the registers in one vector per
//! frame, that copy was most of a state's memory on programs with large functions (coreutils
//! `head` at the memory limit: 60% of the heap in register copies, 30 KB a state), and the
//! memory limit then decides which paths are explored. Registers are kept in chunks of
//! [`CHUNK`] behind reference counts instead: a fork copies one pointer per chunk, and a
//! state's first write to a chunk after a fork copies that chunk alone.

use std::ops::{Index, IndexMut};
use std::rc::Rc;

use crate::value::Value;

/// Registers per chunk.
pub const CHUNK: usize = 32;

/// The registers of one frame: a fixed number of slots, copied on write by chunk.
#[derive(Clone, Debug, Default)]
pub struct Locals {
    chunks: Vec<Rc<Vec<Value>>>,
    len: usize,
}

impl Locals {
    /// The number of registers.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there are no registers.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The registers in order.
    pub fn iter(&self) -> <&Locals as IntoIterator>::IntoIter {
        self.into_iter()
    }

    /// The registers in order, for writing (every chunk shared with another state is
    /// copied first).
    pub fn iter_mut(&mut self) -> impl Iterator<Item = &mut Value> + '_ {
        self.chunks
            .iter_mut()
            .flat_map(|c| Rc::make_mut(c).iter_mut())
    }
}

impl<'a> IntoIterator for &'a Locals {
    type Item = &'a Value;
    type IntoIter = std::iter::FlatMap<
        std::slice::Iter<'a, Rc<Vec<Value>>>,
        std::slice::Iter<'a, Value>,
        fn(&'a Rc<Vec<Value>>) -> std::slice::Iter<'a, Value>,
    >;

    fn into_iter(self) -> Self::IntoIter {
        self.chunks.iter().flat_map(|c| c.iter())
    }
}

impl From<Vec<Value>> for Locals {
    fn from(values: Vec<Value>) -> Locals {
        let len = values.len();
        let chunks = values.chunks(CHUNK).map(|c| Rc::new(c.to_vec())).collect();
        Locals { chunks, len }
    }
}

impl Index<usize> for Locals {
    type Output = Value;

    fn index(&self, i: usize) -> &Value {
        assert!(i < self.len, "register {i} of {}", self.len);
        &self.chunks[i / CHUNK][i % CHUNK]
    }
}

impl IndexMut<usize> for Locals {
    fn index_mut(&mut self, i: usize) -> &mut Value {
        assert!(i < self.len, "register {i} of {}", self.len);
        &mut Rc::make_mut(&mut self.chunks[i / CHUNK])[i % CHUNK]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn defaults(len: usize) -> Locals {
        Locals::from(vec![Value::default(); len])
    }

    #[test]
    fn a_write_after_a_clone_leaves_the_original() {
        let mut a = defaults(100);
        a[70] = Value::concrete(7, 32);
        let mut b = a.clone();
        b[70] = Value::concrete(8, 32);
        b[3] = Value::concrete(1, 8);
        assert_eq!(a[70].as_concrete(), Some(7));
        assert_eq!(b[70].as_concrete(), Some(8));
        assert!(a[3].as_concrete() != Some(1));
        assert_eq!(a.len(), 100);
        assert_eq!(b.iter().count(), 100);
        // Only the chunks b wrote were copied.
        assert!(Rc::ptr_eq(&a.chunks[1], &b.chunks[1]));
        assert!(!Rc::ptr_eq(&a.chunks[2], &b.chunks[2]));
    }

    #[test]
    fn iter_mut_writes_every_register() {
        let mut a = defaults(40);
        let b = a.clone();
        for (i, v) in a.iter_mut().enumerate() {
            *v = Value::concrete(i as u128, 16);
        }
        assert_eq!(a[39].as_concrete(), Some(39));
        assert_eq!(a.iter().count(), 40);
        assert!(b[39].as_concrete() != Some(39));
    }
}
