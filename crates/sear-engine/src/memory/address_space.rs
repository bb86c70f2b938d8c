//! The address space of one state: which objects exist, where, and their contents.
//!
//! A persistent ordered map from base address to object, shared between forked states
//! (cloning is O(1); a write copies only the path to the changed entry and, the first time
//! after a fork, the object's contents). Freed objects move to a quarantine map so that a
//! later access can be reported as a use after free; the allocator never reuses addresses.

use std::sync::Arc;

use imbl::OrdMap;

use super::contents::ObjectContents;
use super::object::{MemoryObject, ObjectId};

/// An object and its contents in one state.
#[derive(Clone, Debug)]
pub struct ObjectEntry {
    /// The object.
    pub object: Arc<MemoryObject>,
    /// Its contents (copied on write).
    pub contents: Arc<ObjectContents>,
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

/// The objects of one state, by base address.
#[derive(Clone, Debug, Default)]
pub struct AddressSpace {
    objects: OrdMap<u64, ObjectEntry>,
    freed: OrdMap<u64, Arc<MemoryObject>>,
}

impl AddressSpace {
    /// Adds a new object with its contents.
    pub fn insert(&mut self, object: Arc<MemoryObject>, contents: ObjectContents) {
        self.objects.insert(
            object.address,
            ObjectEntry {
                object,
                contents: Arc::new(contents),
            },
        );
    }

    /// Gives the live object based at `address` another kind (`klee_mark_global`); false when
    /// there is none.
    pub fn set_kind(&mut self, address: u64, kind: super::ObjectKind) -> bool {
        let Some(entry) = self.objects.get(&address) else {
            return false;
        };
        let mut object = (*entry.object).clone();
        object.kind = kind;
        let contents = entry.contents.clone();
        self.objects.insert(
            address,
            ObjectEntry {
                object: Arc::new(object),
                contents,
            },
        );
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
        let entry = self.objects.remove(&address)?;
        self.freed.insert(address, entry.object.clone());
        if self.freed.len() > QUARANTINE_LIMIT {
            // Addresses grow with allocation time, so the smallest are the oldest.
            while self.freed.len() > QUARANTINE_LIMIT / 2 {
                let oldest = self.freed.get_min().expect("non-empty quarantine").0;
                self.freed.remove(&oldest);
            }
        }
        Some(entry.object)
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
    pub fn lookup(&self, address: u64) -> Lookup<'_> {
        if let Some((_, entry)) = self.objects.get_prev(&address) {
            let o = &entry.object;
            if address < o.end() || (o.size == 0 && address == o.address) {
                return Lookup::Live(entry);
            }
        }
        if let Some((_, o)) = self.freed.get_prev(&address) {
            if address < o.end() || (o.size == 0 && address == o.address) {
                return Lookup::Freed(o);
            }
        }
        Lookup::Nothing
    }

    /// Mutable contents of the object at base `address` (copied if shared).
    pub fn contents_mut(&mut self, address: u64) -> &mut ObjectContents {
        let entry = self.objects.get_mut(&address).expect("live object");
        Arc::make_mut(&mut entry.contents)
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
