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
pub struct Weighted {
    weight: Weight,
    states: Vec<StateId>,
    /// Per state (parallel to `states`): its weight when it depends on the state alone
    /// ([`Weight::is_local`]), computed at the first selection after the state was added
    /// or ran; NaN when not known. Without it each selection looked up and weighed every
    /// state (a run of 10^5 states spent most of its time there); the weights, their order
    /// and their sum are the same, so the choice is too.
    cached: Vec<f64>,
    /// md2u per position, valid while the number of covered instructions is `cache_at`
    /// (states forked at one branch share positions; coverage grows ever more rarely).
    md2u_cache: FxHashMap<(u32, u32, usize), f64>,
    cache_at: u64,
}

impl Weighted {
    /// A searcher weighing states by `weight`.
    pub fn new(weight: Weight) -> Self {
        Weighted {
            weight,
            states: Vec::new(),
            cached: Vec::new(),
            md2u_cache: FxHashMap::default(),
            cache_at: u64::MAX,
        }
    }
}

impl Searcher for Weighted {
    fn select(&mut self, ctx: &mut SearchContext<'_>) -> Option<StateId> {
        if self.states.is_empty() {
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
        let local = self.weight.is_local();
        let weights: Vec<f64> = self
            .states
            .iter()
            .zip(self.cached.iter_mut())
            .map(|(id, cached)| {
                if local && !cached.is_nan() {
                    return *cached;
                }
                match ctx.states.get(id) {
                    Some(s) => {
                        let w = self.weight.of(s, coverage, &mut md2u);
                        if local {
                            *cached = w;
                        }
                        w
                    }
                    None => 0.0,
                }
            })
            .collect();
        let total: f64 = weights.iter().sum();
        if !(total > 0.0 && total.is_finite()) {
            // All weights zero (nurs:depth at the root): uniform.
            return Some(self.states[ctx.rng.usize(..self.states.len())]);
        }
        let mut pick = ctx.rng.f64() * total;
        for (id, w) in self.states.iter().zip(weights) {
            if pick < w {
                return Some(*id);
            }
            pick -= w;
        }
        self.states.last().copied()
    }
    fn add(&mut self, id: StateId) {
        self.states.push(id);
        self.cached.push(f64::NAN);
    }
    fn remove(&mut self, id: StateId) {
        if let Some(pos) = self.states.iter().position(|s| *s == id) {
            self.states.remove(pos);
            self.cached.remove(pos);
        }
    }
    fn ran(&mut self, id: StateId) {
        if let Some(pos) = self.states.iter().rposition(|s| *s == id) {
            self.cached[pos] = f64::NAN;
        }
    }
}
