//! The engine's side of parallel exploration: an executor that is one worker of a run asks a
//! [`WorkQueue`] for path prefixes to explore and gives states away as prefixes when asked.
//!
//! A prefix is a [`PathRecord`]: the worker rebuilds the state by re-executing the program
//! from the initial state along the recorded decisions (`path::Follow`, not exact), then
//! explores below it as any state. States are given away when they stand at an instruction
//! boundary: between quanta, or, while the executor runs one (a long solver query, say),
//! by the transport's thread from the [`Givable`] list the executor keeps. They go in groups
//! of neighbours in the tree around the one nearest the root (the largest subtree, the
//! cheapest to rebuild), which the receiver rebuilds together. A state inside a merge region
//! or a loop-merging context, or a merged state, stays (its path is not one record).
//! The coordinator and the transport (processes, sockets, Ray) live in `sear-cli`.

use std::sync::{Arc, Mutex};

use crate::path::PathRecord;
use crate::state::StateId;

/// Where a worker's work comes from and where given-away work goes.
pub trait WorkQueue {
    /// Called between quanta with the worker's progress; returns into how many groups the
    /// coordinator asked states to be given away now (0: none) and what the other workers
    /// covered.
    /// The queue takes `progress.covered` when it reports it (and leaves it otherwise).
    fn poll(&mut self, progress: Progress<'_>) -> Polled;
    /// Hands over the prefixes of the states given away, in groups (each one idle worker's
    /// share, rebuilt together; possibly none, answering a request that came when nothing
    /// could be given).
    fn give(&mut self, groups: Vec<Vec<PathRecord>>);
    /// Called when the worker has no state left (its last prefix is explored: `done` says
    /// what came of it): blocks until the next prefix to explore, or returns `None` when the
    /// run is over.
    fn next_prefix(&mut self, done: Explored) -> Option<Prefix>;
    /// Called once, before the run: the list of states the queue may give away itself while
    /// the executor runs a quantum (a request the executor would answer only after a long
    /// solver query). A queue that does not need it ignores it.
    fn attach(&mut self, _givable: Arc<Mutex<Givable>>) {}
}

/// The states of a worker that the transport may give away while the executor runs a quantum
/// ([`WorkQueue::attach`]). The executor lists here the waiting states it could give (not the
/// running one), marks the quantum, and drops at its end the states taken meanwhile.
#[derive(Debug, Default)]
pub struct Givable {
    /// The path records of the waiting states that may be given away.
    pub waiting: rustc_hash::FxHashMap<StateId, PathRecord>,
    /// States given away during the current quantum, for the executor to drop.
    pub taken: Vec<StateId>,
    /// The executor runs a quantum: the waiting states stay as they are until it ends.
    pub in_quantum: bool,
}

impl Givable {
    /// During a quantum, takes `groups` groups of the waiting states away (chosen as
    /// [`choose`] does; the running state is the share kept): their records by group, or
    /// `None` between quanta, when the executor answers itself.
    pub fn take(&mut self, groups: usize) -> Option<Vec<Vec<PathRecord>>> {
        if !self.in_quantum {
            return None;
        }
        let candidates: Vec<(Vec<u16>, StateId)> = self
            .waiting
            .iter()
            .map(|(id, record)| (record.iter().map(|d| d.taken).collect(), *id))
            .collect();
        let count = candidates.len();
        let chosen = choose(candidates, groups, count);
        let mut given = Vec::with_capacity(chosen.len());
        for group in chosen {
            let records = group
                .into_iter()
                .filter_map(|id| {
                    self.taken.push(id);
                    self.waiting.remove(&id)
                })
                .collect();
            given.push(records);
        }
        Some(given)
    }
}

/// The states to give away, by group: of `candidates` (each state's sides taken, in order,
/// and its id), `g / (g + 1)` for `g` groups (at least one per group while there are states,
/// and at most `most`), a run of neighbours in depth-first order around the state nearest the
/// root, cut into `groups` runs: neighbours share most of their decisions, which the
/// receiver rebuilds once.
pub fn choose(
    mut candidates: Vec<(Vec<u16>, StateId)>,
    groups: usize,
    most: usize,
) -> Vec<Vec<StateId>> {
    candidates.sort_unstable();
    let n = candidates.len();
    let count = (n * groups / (groups + 1)).max(groups.min(n)).min(most);
    if count == 0 {
        return Vec::new();
    }
    let shallowest = (0..n).min_by_key(|&i| candidates[i].0.len()).unwrap_or(0);
    let start = shallowest.saturating_sub(count / 2).min(n - count);
    let chosen = &candidates[start..start + count];
    let groups = groups.clamp(1, count);
    (0..groups)
        .map(|g| {
            chosen[g * count / groups..(g + 1) * count / groups]
                .iter()
                .map(|(_, id)| *id)
                .collect()
        })
        .collect()
}

/// A worker's progress, offered to the queue between quanta.
#[derive(Debug)]
pub struct Progress<'a> {
    /// Live states.
    pub live: usize,
    /// Instructions executed so far (rebuilding included): the run's instruction limit is
    /// over all workers.
    pub instructions: u64,
    /// Paths ended so far.
    pub paths: u64,
    /// Instructions newly covered here and not yet reported (`Coverage::unreported`).
    pub covered: &'a mut Vec<(u32, u32, u32)>,
    /// Control-flow edges newly taken here and not yet reported
    /// (`Coverage::unreported`; only under `--only-output-states-covering-new`).
    pub edges: &'a mut Vec<(u32, u32, u32)>,
}

/// The queue's answer to [`WorkQueue::poll`].
#[derive(Clone, Debug, Default)]
pub struct Polled {
    /// Groups of states to give away now (about `give / (give + 1)` of the states in all,
    /// so that the giver keeps a share as large as each group).
    pub give: usize,
    /// Instructions the other workers covered: covered here too from now on.
    pub covered: Vec<(u32, u32, u32)>,
    /// Edges the other workers took first: no longer new coverage here.
    pub edges: Vec<(u32, u32, u32)>,
}

/// What a worker has done when it asks for the next prefix.
#[derive(Clone, Debug, Default)]
pub struct Explored {
    /// Tests written so far (all prefixes).
    pub tests: u32,
    /// The trace hash of every path ended since the last request.
    pub trace_hashes: Vec<u64>,
}

/// A part of the execution tree to explore: the subtrees below `records` (one, or a group
/// of states given away together, rebuilt as a tree: `path::Follow`), without the subtrees
/// below `exclude` (explored elsewhere: the prefixes a worker that died had given away before
/// its own prefix was handed out again).
#[derive(Clone, Debug, Default)]
pub struct Prefix {
    /// The paths to the subtrees' roots, sorted (one empty record: the whole program).
    pub records: Vec<PathRecord>,
    /// Subtrees to leave out.
    pub exclude: Vec<PathRecord>,
}

/// Statistics of a worker's share of a parallel run (`summary.json`'s `worker` section).
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct WorkerStats {
    /// Subtree roots (path records) this worker received and explored, in all its groups.
    pub prefixes_received: u64,
    /// Groups of prefixes received: one per message from the coordinator (the first one
    /// the whole program for the worker that starts the run).
    pub groups_received: u64,
    /// States given away as prefixes.
    pub prefixes_given: u64,
    /// Instructions re-executed to rebuild received prefixes (the replay overhead).
    pub replay_instructions: u64,
    /// Seconds spent waiting for work.
    pub idle_s: f64,
    /// Instructions first covered by another worker and learnt from it (the covnew
    /// searchers and `--only-output-states-covering-new` see the run's coverage).
    pub covered_elsewhere: u64,
    /// Control-flow edges another worker took first and this one learnt (new coverage for
    /// `--only-output-states-covering-new` no more).
    pub edges_elsewhere: u64,
    /// The trace hashes already reported (`Explored::trace_hashes`).
    #[serde(skip)]
    pub hashes_reported: usize,
    /// A copy of the path's state just before the first fork (every path runs the same
    /// instructions up to it): rebuilds start there instead of at the initial state.
    #[serde(skip)]
    pub before_first_fork: Option<Box<crate::state::State>>,
    /// The instruction count at which to take [`WorkerStats::before_first_fork`] (the first
    /// decision's `at` of the first received prefix, less one).
    #[serde(skip)]
    pub snapshot_at: Option<u64>,
    /// Rebuilds that started from the snapshot before the first fork instead of the initial
    /// state.
    pub rebuilds_from_snapshot: u64,
    /// The input arrays this worker made on rebuilt paths, by (base name, size, ordinal among
    /// the path's symbolics): a path rebuilt from a later prefix reuses the arrays the first
    /// one made (arrays compare by identity), so the caches' entries keep answering its
    /// queries.
    #[serde(skip)]
    pub rebuilt_arrays: rustc_hash::FxHashMap<(String, u64, usize), sear_expr::ArrayRef>,
}
