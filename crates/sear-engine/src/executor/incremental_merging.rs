//! The executor's side of incremental merging (`--incremental-merge=on`; seed 003 §6.3,
//! `crate::loop_merge::incremental`): when a new leaf of a context's execution tree runs
//! its first instruction, its state is kept as the node's snapshot and merged with the
//! highest node whose snapshot has the same place and the same live store.

use std::rc::Rc;
use std::time::Instant;

use sear_expr::Expr;
use sear_ir::liveness::Liveness;

use super::hooks::Technique;
use super::{Exec, Executor};
use crate::loop_merge::context::place;
use crate::loop_merge::incremental::equal_live_store;
use crate::loop_merge::{Member, NodeId};
use crate::merge;
use crate::state::State;

/// The technique (`--incremental-merge=on`, with loop merging): a context's path that
/// reaches a new node of the context's tree is merged there with an earlier snapshot.
pub(crate) struct IncrementalMerging;

impl Technique for IncrementalMerging {
    fn name(&self) -> &'static str {
        "incremental-merging"
    }

    fn before_step(&self, ex: &mut Executor<'_>, state: &mut State) -> Exec<()> {
        if state.loop_member.is_some() {
            ex.incremental_arrive(state);
        }
        Ok(())
    }

    fn summarize(
        &self,
        ex: &Executor<'_>,
        symbolic_size: &mut serde_json::Map<String, serde_json::Value>,
    ) {
        if let Ok(inc) = serde_json::to_value(&ex.run.incremental_stats) {
            symbolic_size.insert("incremental".into(), inc);
        }
    }
}

impl Executor<'_> {
    /// `state`, a path of a context, is about to run: if its tree node is new, keep its
    /// snapshot and merge it with a node of the same place and live store (repeatedly: the
    /// merged leaf is a new leaf too).
    fn incremental_arrive(&mut self, state: &mut State) {
        let Some(m) = state.loop_member else {
            return;
        };
        let Some(ctx) = self.run.loop_contexts.get_mut(m.ctx) else {
            return;
        };
        if ctx.snapshots.has(m.node) {
            return;
        }
        let start = Instant::now();
        ctx.snapshots.keep(m.node, state);
        self.run.incremental_stats.snapshots += 1;
        while self.merge_with_snapshot(state) {}
        self.run.incremental_stats.time_s += start.elapsed().as_secs_f64();
    }

    /// The liveness of the function `func` (computed once).
    fn liveness_of(&mut self, func: sear_ir::FuncId) -> Rc<Liveness> {
        let module = &self.program.module;
        self.run
            .liveness
            .entry(func)
            .or_insert_with(|| Rc::new(Liveness::new(module.function(func))))
            .clone()
    }

    /// One incremental merge of `state`'s leaf with the highest matching node; false when
    /// there is none.
    fn merge_with_snapshot(&mut self, state: &mut State) -> bool {
        let m = state.loop_member.expect("a path of a context");
        let func = state.frame().func;
        let live = self.liveness_of(func);
        let f = self.program.module.function(func);
        let run = &mut self.run;
        let Some(ctx) = run.loop_contexts.get_mut(m.ctx) else {
            return false;
        };
        let mut candidates: Vec<(usize, NodeId)> = ctx
            .snapshots
            .at(&place(state))
            .iter()
            .filter(|&&n| n != m.node && ctx.tree.alive(n) && ctx.tree.may_merge(m.node, n))
            .map(|&n| (ctx.tree.depth(n), n))
            .collect();
        candidates.sort_by_key(|&(d, n)| (d, n.0));
        let stats = &mut run.incremental_stats;
        for (_, n2) in candidates {
            stats.candidates += 1;
            // The paths below n2 must be running or waiting at the loop's exits: one that
            // ended has written its test, and re-exploring its inputs would repeat it.
            let below: Vec<NodeId> = ctx.tree.subtree(n2);
            let leaves: Vec<_> = below
                .iter()
                .filter(|&&n| ctx.tree.node(n).children.is_none())
                .map(|&n| ctx.tree.node(n).state)
                .collect();
            let reachable = leaves
                .iter()
                .all(|id| run.states.contains_key(id) || ctx.waiting.iter().any(|w| w.id == *id));
            let snapshot = ctx.snapshots.get(n2).expect("a candidate has a snapshot");
            if !reachable || !merge::compatible(state, snapshot) {
                stats.refused += 1;
                continue;
            }
            let Some((prepared, dead)) = equal_live_store(state, snapshot, &live, f) else {
                stats.store_mismatches += 1;
                continue;
            };
            // The side on the left of the common ancestor first, whichever arrived first,
            // so that the merged conditions read alike at every level (PAT hashes them).
            let lca = ctx.tree.lca(m.node, n2);
            let left = ctx.tree.node(lca).children.map(|(l, _)| l);
            let n2_left = left.is_some_and(|l| ctx.tree.is_ancestor(l, n2));
            let ordered = if n2_left {
                merge::states(&prepared, state)
            } else {
                merge::states(state, &prepared)
            };
            let Some(mut merged) = ordered else {
                stats.refused += 1;
                continue;
            };
            // The merged path is the new leaf's.
            merged.id = state.id;
            merged.ptree_node = state.ptree_node;
            merged.trace_hash = state.trace_hash;
            let common = state
                .constraints
                .iter()
                .zip(prepared.constraints.iter())
                .take_while(|(x, y)| x == y)
                .count();
            let cond = merged
                .constraints
                .iter()
                .nth(common)
                .cloned()
                .unwrap_or_else(Expr::true_);
            // n2's paths go: their inputs are the merged path's now.
            for id in &leaves {
                if let Some(s) = run.states.remove(id) {
                    run.searcher.remove(*id);
                    run.ptree.remove(s.ptree_node);
                    ctx.open = ctx.open.saturating_sub(1);
                } else if let Some(i) = ctx.waiting.iter().position(|w| w.id == *id) {
                    let s = ctx.waiting.swap_remove(i);
                    run.ptree.remove(s.ptree_node);
                }
            }
            stats.subsumed_states += leaves.len() as u64;
            run.stats.merged_states += leaves.len() as u64;
            stats.dead_values += dead;
            stats.merges += 1;
            stats.splices += 1;
            tracing::debug!(
                target: "sear::incremental",
                "merged leaf {:?} with node {:?} ({} paths below) at {:?}: {}",
                m.node,
                n2,
                leaves.len(),
                place(state),
                cond
            );
            let new = ctx.tree.merge_nodes(m.node, n2, cond, state.id);
            let mut gone = below;
            gone.push(m.node);
            ctx.snapshots.drop_nodes(&gone);
            *state = merged;
            state.loop_member = Some(Member {
                ctx: m.ctx,
                node: new,
            });
            ctx.snapshots.drop_nodes(&[new]);
            ctx.snapshots.keep(new, state);
            return true;
        }
        false
    }
}
