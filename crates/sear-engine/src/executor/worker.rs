//! An executor as one worker of a parallel run (`crate::work`): starting each received
//! prefix from the initial state, and giving states away as prefixes between quanta.

use std::sync::Arc;
use std::time::Instant;

use sear_expr::{Array, ArrayKind, ArrayRef};

use super::Executor;
use crate::path::Follow;
use crate::state::{State, StateId};
use crate::work::Progress;

impl Executor<'_> {
    /// A worker with no state left takes the next prefix (blocking until the coordinator
    /// sends one): a copy of the initial state that follows its records. False when the run is over
    /// (or this is no worker).
    pub(super) fn take_prefix(&mut self) -> bool {
        if self.run.stop.is_some() || self.work.is_none() {
            return false;
        }
        let reported = self.run.worker.hashes_reported;
        let done = crate::work::Explored {
            tests: self.report.output.tests_written(),
            trace_hashes: self.run.trace_hashes[reported..].to_vec(),
        };
        self.run.worker.hashes_reported = self.run.trace_hashes.len();
        let waiting = Instant::now();
        let prefix = self.work.as_mut().and_then(|work| work.next_prefix(done));
        self.run.worker.idle_s += waiting.elapsed().as_secs_f64();
        let (Some(prefix), Some(pristine)) = (prefix, self.run.pristine.as_ref()) else {
            return false;
        };
        let mut records = prefix.records;
        // In the order of their sides, so that the records that share decisions are next to
        // each other where the group parts (`Follow`).
        records.sort_by(|a, b| a.iter().map(|d| d.taken).cmp(b.iter().map(|d| d.taken)));
        self.run.excluded = prefix.exclude.into_iter().collect();
        let first_fork = records.first().and_then(|r| r.get(0)).map(|d| d.at);
        // From the snapshot before the first fork when there is one (every path shares what
        // runs before it: the runtime's set-up, the program's start), else from the start.
        let mut state = match (&self.run.worker.before_first_fork, first_fork) {
            (Some(snapshot), Some(at)) if snapshot.instructions + 1 == at => {
                let mut state = State::clone(snapshot);
                state.covered_new = false;
                self.run.worker.rebuilds_from_snapshot += 1;
                state
            }
            _ => {
                if self.run.worker.before_first_fork.is_none() && self.techniques.is_empty() {
                    self.run.worker.snapshot_at = first_fork;
                }
                State::clone(pristine)
            }
        };
        state.id = StateId(self.run.next_state);
        self.run.next_state += 1;
        self.run.worker.prefixes_received += records.len() as u64;
        self.run.worker.groups_received += 1;
        if records.iter().all(|r| r.is_empty()) {
            // The whole program: the run's seeds start here (the worker that explores the
            // root runs the seeding phase; prefixes it gives away are rebuilt without seeds).
            state = self.seed_initial(state);
        } else {
            state.follow = Some(Follow {
                records: Arc::from(records),
                exact: false,
                since: state.instructions,
            });
        }
        self.start_from(state);
        true
    }

    /// Keeps `state` (about to execute an instruction) as the snapshot before the first
    /// fork, when it is the instruction the worker's first received prefix forked at and no
    /// decision has been made yet. Not with techniques that keep state of their own about
    /// states (merging): a rebuilt path must run their hooks from the start.
    #[inline]
    pub(super) fn maybe_snapshot(&mut self, state: &State) {
        if self.run.worker.snapshot_at == Some(state.instructions + 1)
            && state.path.is_empty()
            && state.open_merges.is_empty()
            && state.loop_member.is_none()
        {
            self.run.worker.snapshot_at = None;
            let mut snapshot = state.clone();
            snapshot.follow = None;
            self.run.worker.before_first_fork = Some(Box::new(snapshot));
        }
    }

    /// A new input array (`klee_make_symbolic` and the like) of `size` bytes made by `state`,
    /// named uniquely within the run as KLEE's. In a worker, the k-th array of a path with a
    /// given base name and size is the array the worker's first such path made: the arrays
    /// of one path still differ, which is what a query needs (it is over one path), and a
    /// path rebuilt from a later prefix asks the queries the caches already answered instead
    /// of the same queries over new arrays (also the paths of the subtree the worker started
    /// with, which are not rebuilt).
    pub(super) fn input_array(&mut self, state: &State, name: &str, size: u64) -> ArrayRef {
        let fresh = |executor: &mut Self| {
            let unique = executor.memory.unique_array_name(name);
            Array::new(unique, size, ArrayKind::SymbolicInput, None)
        };
        if self.work.is_none() {
            return fresh(self);
        }
        let key = (name.to_string(), size, state.symbolics.len());
        if let Some(known) = self.run.worker.rebuilt_arrays.get(&key) {
            return known.clone();
        }
        let array = fresh(self);
        self.run.worker.rebuilt_arrays.insert(key, array.clone());
        array
    }

    /// Gives states away when the coordinator asked for some, in the number of groups it
    /// asked for (one per idle worker): of the states that can be given, `g / (g + 1)` for
    /// `g` groups, keeping at least one state. The states are taken in the order of their
    /// decisions' sides (the order of a depth-first walk of the tree), a run of neighbours
    /// including the one nearest the root (the largest subtree), and cut into runs, one per
    /// group: neighbours share most of their decisions, which the receiver rebuilds once.
    /// A state still rebuilding its own prefix, inside a merge region or a loop-merging
    /// context, or any state once this worker has merged states, is not given: its path is
    /// not one record.
    pub(super) fn give_work(&mut self) {
        let Some(work) = self.work.as_mut() else {
            return;
        };
        let stats = &self.run.stats;
        let (covered, edges) = self.run.coverage.unreported();
        let polled = work.poll(Progress {
            live: self.run.states.len(),
            instructions: stats.instructions,
            paths: stats.completed_paths + stats.error_paths,
            covered,
            edges,
        });
        for (f, b, i) in polled.covered {
            if self.run.coverage.mark_elsewhere(f, b, i) {
                self.run.worker.covered_elsewhere += 1;
            }
        }
        for (f, from, to) in polled.edges {
            if self.run.coverage.mark_edge_elsewhere(f, from, to) {
                self.run.worker.edges_elsewhere += 1;
            }
        }
        let groups = polled.give;
        if groups == 0 {
            return;
        }
        // Under `--only-seed` or `--only-replay-seeds` the sides no seed took are not
        // explored (or not before the seeding phase ends): none is given away meanwhile.
        let seeding = self.run.seeding;
        let only_seeds =
            seeding && (self.config.seeding.only_seed || self.config.seeding.only_replay_seeds);
        let candidates: Vec<(Vec<u16>, StateId)> = if self.run.stats.merged_states > 0 || only_seeds
        {
            Vec::new()
        } else {
            self.run
                .states
                .values()
                .filter(|s| givable(s, seeding))
                .map(|s| (s.path.iter().map(|d| d.taken).collect(), s.id))
                .collect()
        };
        let keep_one = self.run.states.len().saturating_sub(1);
        let mut given = Vec::with_capacity(groups);
        let mut prefixes = 0;
        // The states given away leave after the answer is sent, so that the idle worker
        // starts sooner: removing and dropping 4,000 states took 30 ms of a 45 ms answer.
        let mut leaving = Vec::new();
        for run in crate::work::choose(candidates, groups, keep_one) {
            let mut group = Vec::with_capacity(run.len());
            for id in run {
                let Some(state) = self.run.states.get(&id) else {
                    continue;
                };
                if state.deferred.is_none() {
                    group.push(state.path.clone());
                    leaving.push(id);
                    continue;
                }
                let Some(mut state) = self.run.states.remove(&id) else {
                    continue;
                };
                self.unlist_givable(id);
                // A deferred side of a seeded fork is asked about first (as when it would
                // first run here): a prefix is a feasible path.
                if let Err(termination) = self.settle_deferred(&mut state) {
                    self.terminate(state, termination);
                    continue;
                }
                self.run.searcher.remove(id);
                self.run.ptree.remove(state.ptree_node);
                group.push(state.path);
            }
            prefixes += group.len();
            if !group.is_empty() {
                given.push(group);
            }
        }
        self.run.worker.prefixes_given += prefixes as u64;
        if let Some(work) = self.work.as_mut() {
            work.give(given);
        }
        for id in leaving {
            let Some(state) = self.run.states.remove(&id) else {
                continue;
            };
            self.unlist_givable(id);
            self.run.searcher.remove(id);
            self.run.ptree.remove(state.ptree_node);
        }
    }
}

impl Executor<'_> {
    /// Starts a quantum of `id` (taken off the givable list): the transport may give the
    /// listed states away until [`Executor::end_quantum`].
    pub(super) fn begin_quantum(&mut self, id: StateId) {
        if let Some(givable) = &self.run.givable {
            let mut list = givable.lock().expect("the givable list's lock");
            list.waiting.remove(&id);
            list.in_quantum = true;
        }
    }

    /// Ends a quantum: drops the states the transport gave away during it, and lists the
    /// states that can now be given (`ran`, if alive, and the new ones).
    pub(super) fn end_quantum(&mut self, ran: StateId, new: &[StateId]) {
        let Some(shared) = self.run.givable.clone() else {
            return;
        };
        let mut list = shared.lock().expect("the givable list's lock");
        list.in_quantum = false;
        for id in std::mem::take(&mut list.taken) {
            if let Some(state) = self.run.states.remove(&id) {
                self.run.searcher.remove(id);
                self.run.ptree.remove(state.ptree_node);
                self.run.worker.prefixes_given += 1;
            }
        }
        let seeding = self.run.seeding;
        for &id in std::iter::once(&ran).chain(new) {
            if let Some(state) = self.run.states.get(&id) {
                if !seeding && givable(state, false) {
                    list.waiting.insert(id, state.path.clone());
                }
            }
        }
    }

    /// Takes `id` off the givable list (a state removed between quanta).
    pub(super) fn unlist_givable(&mut self, id: StateId) {
        if let Some(givable) = &self.run.givable {
            givable
                .lock()
                .expect("the givable list's lock")
                .waiting
                .remove(&id);
        }
    }
}

/// Whether a live state's path is one record another worker can rebuild: not inside a
/// merge, not still rebuilding its own prefix, no value fixed by a seed, and during the
/// seeding phase no seed of its own (a seeded path stays with the seeds; `seeding.rs`).
fn givable(state: &State, seeding: bool) -> bool {
    state.open_merges.is_empty()
        && state.loop_member.is_none()
        && !state.seed_fixed
        && (!seeding || state.seeds.is_empty())
        && state
            .follow
            .as_ref()
            .is_none_or(|f| f.ended(state.path.len()))
}
