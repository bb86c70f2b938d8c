//! A global, thread-safe hash-consing table of weak references.
//!
//! Nodes are looked up by their precomputed structural hash and a shallow equality test
//! (children are compared by pointer, because they are interned already). The table holds
//! only `Weak` references, so a node is freed as soon as the last expression using it is
//! dropped; dead entries are swept when a shard doubles in size. Written by hand instead of
//! using `hashconsing`/`internment` because those either keep every node alive forever or
//! need a single-threaded factory, and sear needs both `Send + Sync` and reclamation.

use std::sync::{Arc, Mutex, Weak};

use rustc_hash::FxHashMap;

const SHARDS: usize = 64;

/// A value that can be hash-consed: it knows its structural hash and a shallow equality.
pub trait Internable: Send + Sync + 'static {
    /// The structural hash, computed once when the value is built.
    fn structural_hash(&self) -> u64;
    /// Equality that compares children by identity.
    fn shallow_eq(&self, other: &Self) -> bool;
}

struct Shard<T> {
    map: FxHashMap<u64, Vec<Weak<T>>>,
    live_estimate: usize,
    sweep_at: usize,
}

/// A sharded table from structural hash to the live node with that structure.
pub struct Interner<T> {
    shards: Vec<Mutex<Shard<T>>>,
}

impl<T: Internable> Interner<T> {
    /// Creates an empty table.
    pub fn new() -> Self {
        Interner {
            shards: (0..SHARDS)
                .map(|_| {
                    Mutex::new(Shard {
                        map: FxHashMap::default(),
                        live_estimate: 0,
                        sweep_at: 1024,
                    })
                })
                .collect(),
        }
    }

    /// Returns the canonical `Arc` for `value`, inserting it if no equal node is alive.
    pub fn intern(&self, value: T) -> Arc<T> {
        let hash = value.structural_hash();
        let shard_index = (hash as usize ^ (hash >> 32) as usize) % SHARDS;
        let mut shard = self.shards[shard_index]
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some(bucket) = shard.map.get_mut(&hash) {
            // Dead entries go as the bucket is scanned: a temporary node built and dropped
            // over and over (a negated branch condition) would otherwise leave one dead
            // entry per build in its bucket until the next sweep, and every lookup of that
            // structure would walk them all.
            let before = bucket.len();
            bucket.retain(|weak| weak.strong_count() > 0);
            let swept = before - bucket.len();
            let found = bucket
                .iter()
                .filter_map(Weak::upgrade)
                .find(|existing| existing.shallow_eq(&value));
            shard.live_estimate = shard.live_estimate.saturating_sub(swept);
            if let Some(existing) = found {
                return existing;
            }
        }
        let node = Arc::new(value);
        shard
            .map
            .entry(hash)
            .or_default()
            .push(Arc::downgrade(&node));
        shard.live_estimate += 1;
        if shard.live_estimate >= shard.sweep_at {
            shard.map.retain(|_, bucket| {
                bucket.retain(|weak| weak.strong_count() > 0);
                !bucket.is_empty()
            });
            let live: usize = shard.map.values().map(Vec::len).sum();
            shard.live_estimate = live;
            shard.sweep_at = (live * 2).max(1024);
        }
        node
    }

    /// The number of entries currently held (live or not yet swept).
    pub fn len(&self) -> usize {
        self.shards
            .iter()
            .map(|s| {
                s.lock()
                    .unwrap_or_else(|p| p.into_inner())
                    .map
                    .values()
                    .map(Vec::len)
                    .sum::<usize>()
            })
            .sum()
    }

    /// True when the table holds no entries.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl<T: Internable> Default for Interner<T> {
    fn default() -> Self {
        Self::new()
    }
}
