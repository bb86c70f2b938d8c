//! Searchers: which state runs next.
//!
//! Every searcher implements [`Searcher`]; [`Interleaved`] alternates between several, as
//! KLEE does when `--search` is repeated (its default is random-path interleaved with
//! nurs:covnew).

pub mod ptree;
pub mod weighted;

use rustc_hash::FxHashMap;

use crate::config::SearchKind;
use crate::state::{State, StateId};
pub use ptree::ProcessTree;

/// What a searcher may look at when choosing.
pub struct SearchContext<'a> {
    /// The live states.
    pub states: &'a FxHashMap<StateId, State>,
    /// The program.
    pub module: &'a sear_ir::Module,
    /// Per-instruction execution counts (coverage).
    pub coverage: &'a crate::stats::Coverage,
    /// The process tree.
    pub ptree: &'a ProcessTree,
    /// The run's random number generator.
    pub rng: &'a mut fastrand::Rng,
}

/// A search strategy.
pub trait Searcher {
    /// Chooses the next state to run, if any.
    fn select(&mut self, ctx: &mut SearchContext<'_>) -> Option<StateId>;
    /// Records a new state.
    fn add(&mut self, id: StateId);
    /// Forgets a state that ended.
    fn remove(&mut self, id: StateId);
    /// Notes that state `id` just forked (its new siblings were added already).
    fn forked(&mut self, _id: StateId) {}
    /// `id` ran a quantum (whoever selected it): what a searcher knows of it may be stale.
    fn ran(&mut self, _id: StateId) {}
    /// Adds the states this searcher is following down a path (a depth-first dive), which
    /// the memory limit should drop last.
    fn followed(&self, _out: &mut Vec<StateId>) {}
}

/// Builds the searcher for a list of kinds (interleaved when there are several).
pub fn build(kinds: &[SearchKind]) -> Box<dyn Searcher> {
    let mut searchers: Vec<Box<dyn Searcher>> = kinds.iter().map(|k| single(*k)).collect();
    if searchers.len() == 1 {
        searchers.pop().expect("one searcher")
    } else {
        Box::new(Interleaved { searchers, next: 0 })
    }
}

fn single(kind: SearchKind) -> Box<dyn Searcher> {
    match kind {
        SearchKind::Dfs => Box::new(Ordered {
            states: Vec::new(),
            lifo: true,
            dive: None,
        }),
        SearchKind::Bfs => Box::new(Ordered {
            states: Vec::new(),
            lifo: false,
            dive: None,
        }),
        SearchKind::RandomState => Box::new(RandomState { states: Vec::new() }),
        SearchKind::RandomPath => Box::new(RandomPath),
        SearchKind::Nurs(weight) => Box::new(weighted::Weighted::new(weight)),
    }
}

/// Depth-first (newest state first) or breadth-first (oldest first).
///
/// Depth-first keeps its *dive*: the state it chose last, followed into the newest state
/// its forks create. Alone, that is the newest state anyway; interleaved with other
/// searchers, whose states' forks add newer ones, the dive still goes on down one path
/// instead of restarting at whatever forked last, so a path of 10^5 branches reaches its
/// end while the other searchers look elsewhere.
struct Ordered {
    states: Vec<StateId>,
    lifo: bool,
    dive: Option<StateId>,
}

impl Searcher for Ordered {
    fn select(&mut self, _ctx: &mut SearchContext<'_>) -> Option<StateId> {
        if !self.lifo {
            return self.states.first().copied();
        }
        // The dive is live: `remove` forgets it when it ends.
        if self.dive.is_none() {
            self.dive = self.states.last().copied();
        }
        self.dive
    }
    fn add(&mut self, id: StateId) {
        self.states.push(id);
    }
    fn remove(&mut self, id: StateId) {
        if let Some(pos) = self.states.iter().rposition(|s| *s == id) {
            self.states.remove(pos);
        }
        if self.dive == Some(id) {
            self.dive = None;
        }
    }
    fn followed(&self, out: &mut Vec<StateId>) {
        out.extend(self.dive);
    }
    /// Depth-first: the dive moves to the fork's newest state. Breadth-first: a state that
    /// forked goes to the back of the queue, behind its new siblings (as KLEE's BFS), so
    /// that a loop's continuing path does not starve the rest.
    fn forked(&mut self, id: StateId) {
        if self.lifo {
            if self.dive == Some(id) {
                self.dive = self.states.last().copied();
            }
            return;
        }
        if let Some(pos) = self.states.iter().position(|s| *s == id) {
            self.states.remove(pos);
            self.states.push(id);
        }
    }
}

/// A uniformly random live state.
struct RandomState {
    states: Vec<StateId>,
}

impl Searcher for RandomState {
    fn select(&mut self, ctx: &mut SearchContext<'_>) -> Option<StateId> {
        if self.states.is_empty() {
            return None;
        }
        Some(self.states[ctx.rng.usize(..self.states.len())])
    }
    fn add(&mut self, id: StateId) {
        self.states.push(id);
    }
    fn remove(&mut self, id: StateId) {
        if let Some(pos) = self.states.iter().position(|s| *s == id) {
            self.states.swap_remove(pos);
        }
    }
}

/// KLEE's random-path: a random walk down the process tree.
struct RandomPath;

impl Searcher for RandomPath {
    fn select(&mut self, ctx: &mut SearchContext<'_>) -> Option<StateId> {
        ctx.ptree.random_walk(ctx.rng)
    }
    fn add(&mut self, _id: StateId) {}
    fn remove(&mut self, _id: StateId) {}
}

/// Alternates between searchers, one selection each.
struct Interleaved {
    searchers: Vec<Box<dyn Searcher>>,
    next: usize,
}

impl Searcher for Interleaved {
    fn select(&mut self, ctx: &mut SearchContext<'_>) -> Option<StateId> {
        let n = self.searchers.len();
        let choice = self.searchers[self.next].select(ctx);
        self.next = (self.next + 1) % n;
        choice
    }
    fn add(&mut self, id: StateId) {
        for s in &mut self.searchers {
            s.add(id);
        }
    }
    fn remove(&mut self, id: StateId) {
        for s in &mut self.searchers {
            s.remove(id);
        }
    }
    fn forked(&mut self, id: StateId) {
        for s in &mut self.searchers {
            s.forked(id);
        }
    }
    fn ran(&mut self, id: StateId) {
        for s in &mut self.searchers {
            s.ran(id);
        }
    }
    fn followed(&self, out: &mut Vec<StateId>) {
        for s in &self.searchers {
            s.followed(out);
        }
    }
}
