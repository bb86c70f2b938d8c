//! KLEE's non-uniform random searchers (`nurs:*`): a state is chosen at random with a
//! probability proportional to a weight computed from what the run knows about it.
//!
//! The weights follow KLEE's `WeightedRandomSearcher::getWeight`:
//!
//! | name | weight |
//! |---|---|
//! | `nurs:covnew` | `1/max(1, insts since new coverage - 1000)^2 + (1/10000)^2` (KLEE: `+ (1/md2u)^2`) |
//! | `nurs:md2u` | `(1/md2u)^2`, md2u the distance to the nearest uncovered instruction |
//! | `nurs:depth` | the state's fork depth |
//! | `nurs:rp` | `0.5^depth` (random-path's probabilities, without the tree walk) |
//! | `nurs:icnt` | `1/n^2`, n how often the state's next instruction has executed |
//! | `nurs:cpicnt` | `1/n`, n the instructions executed in the state's current function |
//! | `nurs:qc` | 1 below 0.1 s of solver time on the path, else `1/seconds` |
//!
//! Two approximations, both cheaper than KLEE's statistics tracker: md2u is the number of
//! instructions from the state's position to the nearest block of the current function that
//! holds an uncovered instruction (a breadth-first walk over at most [`MD2U_MAX_BLOCKS`]
//! blocks of the control-flow graph, calls not followed; unreachable counts as KLEE's
//! 10,000), and cpicnt counts per function rather than per call path.

use std::collections::VecDeque;

use rustc_hash::{FxHashMap, FxHashSet};
use sear_ir::{BlockId, Module};

use super::sum_tree::SumTree;
use super::{SearchContext, Searcher};
use crate::state::{State, StateId};
use crate::stats::Coverage;

/// Blocks the md2u walk visits at most, per state and selection.
pub const MD2U_MAX_BLOCKS: usize = 256;

/// The distance KLEE gives when no uncovered instruction is reachable.
const FAR: f64 = 10_000.0;

/// What a `nurs:*` searcher weighs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Weight {
    /// Recent new coverage and closeness to uncovered code.
    CovNew,
    /// Closeness to uncovered code.
    MinDistToUncovered,
    /// Fork depth.
    Depth,
    /// `0.5^depth`.
    RandomPath,
    /// Rarely executed next instruction.
    InstCount,
    /// Rarely executed current function.
    CallPathInstCount,
    /// Little solver time.
    QueryCost,
}

impl Weight {
    /// KLEE's name of the searcher.
    pub fn name(self) -> &'static str {
        match self {
            Weight::CovNew => "nurs:covnew",
            Weight::MinDistToUncovered => "nurs:md2u",
            Weight::Depth => "nurs:depth",
            Weight::RandomPath => "nurs:rp",
            Weight::InstCount => "nurs:icnt",
            Weight::CallPathInstCount => "nurs:cpicnt",
            Weight::QueryCost => "nurs:qc",
        }
    }

    /// The weight of `state`; `md2u` gives the distance to uncovered code.
    pub fn of(
        self,
        state: &State,
        coverage: &Coverage,
        md2u: &mut impl FnMut(&State) -> f64,
    ) -> f64 {
        match self {
            Weight::CovNew => {
                let inv_cov_new = if state.insts_since_cov_new > 0 {
                    1.0 / (state.insts_since_cov_new.saturating_sub(1000).max(1) as f64)
                } else {
                    0.0
                };
                // KLEE adds (1/md2u)^2; sear's default searcher keeps the constant floor
                // it had (1/10,000, KLEE's md2u when nothing is reachable): with the md2u
                // term, lex-json ran 5.5k instructions in 10 s instead of 18.9k (one run).
                let floor = 1.0 / FAR;
                inv_cov_new * inv_cov_new + floor * floor
            }
            Weight::MinDistToUncovered => {
                let inv = 1.0 / md2u(state);
                inv * inv
            }
            Weight::Depth => state.depth as f64,
            Weight::RandomPath => 0.5f64.powi(state.depth.min(1000) as i32),
            Weight::InstCount => {
                let n = position(state)
                    .map_or(1, |(f, b, i)| coverage.executions(f, b, i))
                    .max(1) as f64;
                1.0 / (n * n)
            }
            Weight::CallPathInstCount => {
                let n = position(state)
                    .map_or(1, |(f, _, _)| coverage.function_executions(f))
                    .max(1);
                1.0 / n as f64
            }
            Weight::QueryCost => {
                let cost = state.query_cost.get();
                if cost < 0.1 {
                    1.0
                } else {
                    1.0 / cost
                }
            }
        }
    }

    /// True when the weight depends on the state alone, which changes only while it runs:
    /// such weights are kept between selections ([`Weighted`]).
    fn is_local(self) -> bool {
        matches!(
            self,
            Weight::CovNew | Weight::Depth | Weight::RandomPath | Weight::QueryCost
        )
    }
}

/// The state's next instruction: (function, block, index).
fn position(state: &State) -> Option<(u32, u32, usize)> {
    let frame = state.stack.last()?;
    Some((frame.func.0, frame.block.0, frame.inst))
}

/// Instructions from the state's position to the nearest block of its function holding an
/// uncovered instruction ([`FAR`] when none is found within [`MD2U_MAX_BLOCKS`] blocks).
fn min_dist_to_uncovered(state: &State, module: &Module, coverage: &Coverage) -> f64 {
    let Some((f, b, i)) = position(state) else {
        return FAR;
    };
    let function = module.function(sear_ir::FuncId(f));
    let Some(block) = function.blocks.get(b as usize) else {
        return FAR;
    };
    // The rest of the current block first.
    for k in i..=block.insts.len() {
        if coverage.executions(f, b, k) == 0 {
            return (k - i + 1) as f64;
        }
    }
    let mut seen: FxHashSet<u32> = FxHashSet::default();
    let mut queue: VecDeque<(BlockId, u64)> = VecDeque::new();
    let first = (block.insts.len() + 1 - i) as u64;
    for s in block.term.successors() {
        queue.push_back((s, first));
    }
    while let Some((id, dist)) = queue.pop_front() {
        if !seen.insert(id.0) || seen.len() > MD2U_MAX_BLOCKS {
            continue;
        }
        if coverage.block_has_uncovered(f, id.0) {
            return (dist + 1) as f64;
        }
        let Some(next) = function.blocks.get(id.0 as usize) else {
            continue;
        };
        let len = next.insts.len() as u64 + 1;
        for s in next.term.successors() {
            queue.push_back((s, dist + len));
        }
    }
    FAR
}

/// A `nurs:*` searcher.
///
/// The states sit in slots in the order they were added; a [`SumTree`] over the slots'
/// weights finds the chosen one in O(log n), as KLEE's `DiscretePDF` does. (A linear scan
/// over the states at every selection made selection the run's hot spot beyond about
/// 10^4 states: maze at 14 took 9.7 s under the default searcher against 4.3 s depth-first.)
pub struct Weighted {
    weight: Weight,
    /// Per slot, in the order the states were added: the state, `None` once removed.
    slots: Vec<Option<StateId>>,
    /// Per slot: its weight when it depends on the state alone ([`Weight::is_local`]),
    /// computed at the first selection after the state was added or ran; NaN when not
    /// known, 0 for a removed state. The weights and their order are the ones a scan of
    /// the live states would see, so the choice is the same (up to the rounding of sums).
    cached: Vec<f64>,
    /// The slot of each live state.
    slot_of: FxHashMap<StateId, usize>,
    /// Slots whose weight became unknown since the last selection.
    stale: Vec<usize>,
    /// Sums of the slots' weights as the last selection left them.
    tree: SumTree,
    /// md2u per position, valid while the number of covered instructions is `cache_at`
    /// (states forked at one branch share positions; coverage grows ever more rarely).
    md2u_cache: FxHashMap<(u32, u32, usize), f64>,
    cache_at: u64,
}

/// Removed slots beyond which (and beyond the live ones) the slots are compacted.
const COMPACT_AFTER: usize = 1024;

impl Weighted {
    /// A searcher weighing states by `weight`.
    pub fn new(weight: Weight) -> Self {
        Weighted {
            weight,
            slots: Vec::new(),
            cached: Vec::new(),
            slot_of: FxHashMap::default(),
            stale: Vec::new(),
            tree: SumTree::new(),
            md2u_cache: FxHashMap::default(),
            cache_at: u64::MAX,
        }
    }

    /// Rebuilds the tree from the cached weights (unknown ones as 0 until weighed).
    fn rebuild_tree(&mut self) {
        let weights: Vec<f64> = self
            .cached
            .iter()
            .map(|w| if w.is_nan() { 0.0 } else { *w })
            .collect();
        self.tree.rebuild(&weights);
    }

    /// Drops the removed slots, keeping the live states' order.
    fn compact(&mut self) {
        let (slots, cached): (Vec<_>, Vec<_>) = self
            .slots
            .iter()
            .zip(&self.cached)
            .filter(|(s, _)| s.is_some())
            .map(|(s, w)| (*s, *w))
            .unzip();
        self.slots = slots;
        self.cached = cached;
        self.slot_of.clear();
        self.stale.clear();
        for (slot, id) in self.slots.iter().enumerate() {
            self.slot_of.insert(id.expect("live"), slot);
            if self.cached[slot].is_nan() {
                self.stale.push(slot);
            }
        }
        self.rebuild_tree();
    }
}

impl Searcher for Weighted {
    fn select(&mut self, ctx: &mut SearchContext<'_>) -> Option<StateId> {
        if self.slot_of.is_empty() {
            return None;
        }
        if self.cache_at != ctx.coverage.covered() {
            self.md2u_cache.clear();
            self.cache_at = ctx.coverage.covered();
        }
        let (module, coverage, cache) = (ctx.module, ctx.coverage, &mut self.md2u_cache);
        let mut md2u = |s: &State| match position(s) {
            Some(p) => *cache
                .entry(p)
                .or_insert_with(|| min_dist_to_uncovered(s, module, coverage)),
            None => FAR,
        };
        let weigh = |id: &StateId, md2u: &mut dyn FnMut(&State) -> f64| {
            ctx.states
                .get(id)
                .map(|s| self.weight.of(s, coverage, &mut |s| md2u(s)))
        };
        if self.weight.is_local() {
            let mut unknown = Vec::new();
            for slot in std::mem::take(&mut self.stale) {
                let Some(id) = self.slots[slot] else { continue };
                if !self.cached[slot].is_nan() {
                    continue;
                }
                match weigh(&id, &mut md2u) {
                    Some(w) => {
                        self.cached[slot] = w;
                        self.tree.set(slot, w);
                    }
                    None => {
                        self.tree.set(slot, 0.0);
                        unknown.push(slot);
                    }
                }
            }
            self.stale = unknown;
        } else {
            self.stale.clear();
            for slot in 0..self.slots.len() {
                self.cached[slot] = match self.slots[slot] {
                    Some(id) => weigh(&id, &mut md2u).unwrap_or(0.0),
                    None => 0.0,
                };
            }
            self.tree.rebuild(&self.cached);
            self.cached.fill(f64::NAN);
        }
        let total = self.tree.total();
        if !(total > 0.0 && total.is_finite()) {
            // All weights zero (nurs:depth at the root): uniform.
            let k = ctx.rng.usize(..self.slot_of.len());
            return self.slots.iter().flatten().nth(k).copied();
        }
        let point = ctx.rng.f64() * total;
        self.tree.find(point).and_then(|slot| self.slots[slot])
    }
    fn add(&mut self, id: StateId) {
        let slot = self.slots.len();
        self.slots.push(Some(id));
        self.cached.push(f64::NAN);
        self.slot_of.insert(id, slot);
        self.stale.push(slot);
        if slot >= self.tree.capacity() {
            self.rebuild_tree();
        }
    }
    fn remove(&mut self, id: StateId) {
        let Some(slot) = self.slot_of.remove(&id) else {
            return;
        };
        self.slots[slot] = None;
        self.cached[slot] = 0.0;
        self.tree.set(slot, 0.0);
        let removed = self.slots.len() - self.slot_of.len();
        if removed > COMPACT_AFTER && removed > self.slot_of.len() {
            self.compact();
        }
    }
    fn ran(&mut self, id: StateId) {
        if let Some(&slot) = self.slot_of.get(&id) {
            if !self.cached[slot].is_nan() {
                self.cached[slot] = f64::NAN;
                self.stale.push(slot);
            }
        }
    }
}
