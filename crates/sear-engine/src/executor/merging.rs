//! `klee_open_merge` / `klee_close_merge` with `--use-merge`, as KLEE's `MergeHandler`.
//!
//! `klee_open_merge` opens a merge group and puts the path in it; paths forked inside it
//! join it. A path that reaches `klee_close_merge` leaves the group's open paths and
//! waits, suspended (off the searcher, inactive in the process tree); if another waiting
//! path of the group is at the same place and merge-compatible, the two become one
//! (`crate::merge::states`) and the arriving path is gone. When no path of the group is
//! open any more (each closed or ended), the waiting paths are resumed. Without
//! `--use-merge`, both calls are ignored (with a warning, as KLEE).

use rustc_hash::FxHashMap;

use super::hooks::Technique;
use super::Executor;
use crate::state::State;
use crate::termination::Termination;

/// The technique (`--use-merge`): forked paths join their parent's groups, a path at
/// `klee_close_merge` is suspended, an ending path leaves its groups, the halt ends the
/// waiting paths.
pub(crate) struct KleeMerge;

impl Technique for KleeMerge {
    fn name(&self) -> &'static str {
        "klee-merge"
    }

    fn after_fork(
        &self,
        ex: &mut Executor<'_>,
        _state: &mut State,
        child: &mut State,
        _cond: &sear_expr::Expr,
    ) {
        ex.join_merge_groups(child);
    }

    fn take_ending(
        &self,
        ex: &mut Executor<'_>,
        state: State,
        termination: &Termination,
    ) -> Option<State> {
        match termination {
            Termination::Suspend(group) => {
                ex.arrive_at_merge(state, *group);
                None
            }
            _ => Some(state),
        }
    }

    fn ended(&self, ex: &mut Executor<'_>, state: &State) {
        ex.leave_merge_groups(state);
    }

    fn take_waiting(&self, ex: &mut Executor<'_>) -> Vec<State> {
        ex.take_waiting()
    }
}

/// One merge group: how many of its paths are still open, and the ones waiting.
#[derive(Default)]
pub(crate) struct MergeGroup {
    open: usize,
    waiting: Vec<State>,
}

/// The run's merge groups by id.
#[derive(Default)]
pub(crate) struct MergeGroups {
    groups: FxHashMap<u32, MergeGroup>,
    next: u32,
}

impl Executor<'_> {
    /// `klee_open_merge`: `state` enters a new merge group.
    pub(crate) fn open_merge(&mut self, state: &mut State) {
        if !self.config.use_merge {
            self.report
                .warn_once("klee_open_merge ignored, use '--use-merge'");
            return;
        }
        let merges = &mut self.run.merges;
        let id = merges.next;
        merges.next += 1;
        merges.groups.insert(
            id,
            MergeGroup {
                open: 1,
                waiting: Vec::new(),
            },
        );
        state.open_merges.push(id);
        self.log_merge(&format!("open merge: {id} (state {})", state.id.0));
    }

    /// A `--debug-log-merge` line.
    fn log_merge(&mut self, text: &str) {
        if self.config.debug_log_merge {
            self.report.output.message(text);
            self.report.observer.debug(text);
        }
    }

    /// `klee_close_merge`: the innermost group of `state`, if it is in one (the caller then
    /// suspends the state in it).
    pub(crate) fn close_merge_group(&mut self, state: &mut State) -> Option<u32> {
        if !self.config.use_merge {
            self.report
                .warn_once("klee_close_merge ignored, use '--use-merge'");
            return None;
        }
        let id = state.open_merges.pop();
        match id {
            Some(id) => self.log_merge(&format!("close merge: {id} (state {})", state.id.0)),
            None => {
                // KLEE's wording, which its users' scripts look for.
                let place = self.program.place(state);
                self.report.warn_once(&format!(
                    "ran into a close at {}:{} without a preceding open",
                    place.file, place.line
                ));
            }
        }
        id
    }

    /// A forked path joins its parent's groups.
    fn join_merge_groups(&mut self, child: &State) {
        for id in &child.open_merges {
            if let Some(group) = self.run.merges.groups.get_mut(id) {
                group.open += 1;
            }
        }
    }

    /// A path that ends (or disappears into a merge) leaves its groups.
    fn leave_merge_groups(&mut self, state: &State) {
        for id in state.open_merges.clone() {
            if let Some(group) = self.run.merges.groups.get_mut(&id) {
                group.open = group.open.saturating_sub(1);
            }
            self.release_if_closed(id);
        }
    }

    /// `state` arrived at the `klee_close_merge` of group `id` (already popped from its
    /// open groups): merged into a waiting path, or waiting itself.
    fn arrive_at_merge(&mut self, state: State, id: u32) {
        self.run.searcher.remove(state.id);
        let Some(group) = self.run.merges.groups.get_mut(&id) else {
            return;
        };
        group.open = group.open.saturating_sub(1);
        let merged = group
            .waiting
            .iter()
            .enumerate()
            .find_map(|(i, w)| crate::merge::states(w, &state).map(|m| (i, m)));
        match merged {
            Some((i, m)) => {
                group.waiting[i] = m;
                self.run.stats.merged_states += 1;
                self.run.ptree.remove(state.ptree_node);
                // The merged path stands for both in the enclosing groups.
                for outer in &state.open_merges {
                    if let Some(g) = self.run.merges.groups.get_mut(outer) {
                        g.open = g.open.saturating_sub(1);
                    }
                }
                let outer = state.open_merges.clone();
                for o in outer {
                    self.release_if_closed(o);
                }
            }
            None => {
                self.run.ptree.deactivate(state.ptree_node);
                group.waiting.push(state);
            }
        }
        self.release_if_closed(id);
    }

    /// Resumes the waiting paths of group `id` once none of its paths is open.
    fn release_if_closed(&mut self, id: u32) {
        let closed = self.run.merges.groups.get(&id).is_some_and(|g| g.open == 0);
        if !closed {
            return;
        }
        let group = self.run.merges.groups.remove(&id).expect("group");
        for state in group.waiting {
            self.run.ptree.activate(state.ptree_node);
            self.run.searcher.add(state.id);
            self.run.states.insert(state.id, state);
        }
    }

    /// Paths waiting at merge points (suspended), for the halt.
    fn take_waiting(&mut self) -> Vec<State> {
        let mut out = Vec::new();
        for (_, group) in self.run.merges.groups.drain() {
            out.extend(group.waiting);
        }
        out
    }
}
