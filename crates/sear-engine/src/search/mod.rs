//! Searchers: which state runs next.
//!
//! Every searcher implements [`Searcher`]; [`Interleaved`] alternates between several, as
//! KLEE does when `--search` is repeated (its default is random-path interleaved with
//! nurs:covnew).

pub mod ptree;
pub mod sum_tree;
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
    /// Interleaved: whether this searcher, which made the last selection, makes the next
    /// one too (the dive's quantum, [`Ordered::keeps_turn`]).
    fn keeps_turn(&mut self, _ctx: &SearchContext<'_>) -> bool {
        false
    }
    /// Selections this searcher added by keeping its turn.
    fn turns_kept(&self) -> u64 {
        0
    }
}

/// The instructions a dive runs per turn with `--dive-quantum`: the executor's quantum.
pub const DIVE_TURN: u64 = 2_000;

/// Builds the searcher for a list of kinds (interleaved when there are several);
/// `dive_quantum`: a depth-first searcher among several keeps its turn until its dive has
/// run [`DIVE_TURN`] instructions.
pub fn build(kinds: &[SearchKind], dive_quantum: bool) -> Box<dyn Searcher> {
    let mut searchers: Vec<Box<dyn Searcher>> =
        kinds.iter().map(|k| single(*k, dive_quantum)).collect();
    if searchers.len() == 1 {
        searchers.pop().expect("one searcher")
    } else {
        Box::new(Interleaved {
            searchers,
            next: 0,
            last: None,
        })
    }
}

fn single(kind: SearchKind, dive_quantum: bool) -> Box<dyn Searcher> {
    match kind {
        SearchKind::Dfs => Box::new(Ordered::new(true, dive_quantum)),
        SearchKind::Bfs => Box::new(Ordered::new(false, false)),
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
///
/// With the dive's quantum, interleaved, the dive keeps its turn across the forks of its
/// path until the path has run [`DIVE_TURN`] instructions since the turn began: a fork ends
/// the executor's quantum, so without it a dive through a loop that forks every few
/// instructions (10^5 branches on inputs) advances one iteration per turn while the other
/// searchers' picks fill the memory with states; with it, it advances as far per turn as a
/// path that does not fork. It changes which state runs when, not which paths exist.
struct Ordered {
    states: Vec<StateId>,
    lifo: bool,
    dive: Option<StateId>,
    /// The dive's quantum is on.
    quantum: bool,
    /// The dive's instruction count when its current turn began.
    turn_start: u64,
    /// The next selection continues the current turn.
    continuing: bool,
    /// Selections added by keeping the turn.
    kept: u64,
}

impl Ordered {
    fn new(lifo: bool, quantum: bool) -> Self {
        Ordered {
            states: Vec::new(),
            lifo,
            dive: None,
            quantum,
            turn_start: 0,
            continuing: false,
            kept: 0,
        }
    }
}

impl Searcher for Ordered {
    fn select(&mut self, ctx: &mut SearchContext<'_>) -> Option<StateId> {
        if !self.lifo {
            return self.states.first().copied();
        }
        // The dive is live: `remove` forgets it when it ends.
        if self.dive.is_none() {
            self.dive = self.states.last().copied();
        }
        if self.quantum && !std::mem::take(&mut self.continuing) {
            self.turn_start = self
                .dive
                .and_then(|d| ctx.states.get(&d))
                .map_or(0, |s| s.instructions);
        }
        self.dive
    }
    /// The dive keeps its turn while it is live and its path has run fewer than
    /// [`DIVE_TURN`] instructions since the turn began (a fork cut the executor's quantum
    /// short; the dive moved into the fork's newest state, which continues the count).
    fn keeps_turn(&mut self, ctx: &SearchContext<'_>) -> bool {
        if !self.lifo || !self.quantum {
            return false;
        }
        let keep = self
            .dive
            .and_then(|d| ctx.states.get(&d))
            .is_some_and(|s| s.instructions.saturating_sub(self.turn_start) < DIVE_TURN);
        self.continuing = keep;
        self.kept += u64::from(keep);
        keep
    }
    fn turns_kept(&self) -> u64 {
        self.kept
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

/// Alternates between searchers, one selection each (or, for a searcher that keeps its
/// turn, several in a row).
struct Interleaved {
    searchers: Vec<Box<dyn Searcher>>,
    next: usize,
    /// The searcher that made the last selection.
    last: Option<usize>,
}

impl Searcher for Interleaved {
    fn select(&mut self, ctx: &mut SearchContext<'_>) -> Option<StateId> {
        if let Some(k) = self.last {
            if self.searchers[k].keeps_turn(ctx) {
                return self.searchers[k].select(ctx);
            }
        }
        let n = self.searchers.len();
        let k = self.next;
        let choice = self.searchers[k].select(ctx);
        self.last = Some(k);
        self.next = (k + 1) % n;
        choice
    }
    fn turns_kept(&self) -> u64 {
        self.searchers.iter().map(|s| s.turns_kept()).sum()
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
