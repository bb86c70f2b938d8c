//! Incremental state merging (seed 003 §6.3, spec §5.6), `--incremental-merge=on`: inside
//! a merging context, every node of the execution tree keeps a snapshot of its path as it
//! was when the node was created (the *non-active* states of the internal nodes). When a
//! new leaf `n1` starts running, it is merged with the highest node `n2` (closest to the
//! root) whose snapshot is at the same place, merge-compatible, with the same symbolic
//! store w.r.t. the live variables (`sear_ir::liveness`), not an ancestor of `n1`, and
//! whose lowest common ancestor with `n1` is the parent of one of them. `n2`'s subtree goes
//! (its paths are re-explored by the merged path), and the tree is rewritten by
//! `tree_merge`. This module holds the switch (`IncrementalConfig`), the snapshots, the
//! store comparison and the counters; the executor's side is
//! `executor/incremental_merging.rs`.

use rustc_hash::FxHashMap;
use sear_ir::liveness::{Liveness, Var};
use sear_ir::Function;
use serde::Serialize;

use super::context::{place, Place};
use super::tree::NodeId;
use crate::memory::Storage;
use crate::merge::{same_memory, same_value};
use crate::state::State;

/// The switch of incremental merging, which serves every merging mode (sm, smopt, pat).
#[derive(Clone, Debug, Default, Serialize)]
#[cfg_attr(feature = "cli", derive(clap::Args))]
pub struct IncrementalConfig {
    /// Incremental merging inside size-dependent loops (seed 003 §6.3; sm, smopt, pat): a new
    /// path of a loop's execution tree merges with the highest earlier node at the same place
    /// with the same live variables; snapshots of the tree's nodes are kept (on/off).
    #[cfg_attr(feature = "cli", arg(
        id = "incremental-merge",
        long = "incremental-merge",
        value_name = "on|off",
        num_args = 0..=1,
        require_equals = true,
        default_missing_value = "on",
        default_value = sear_solver::cli::shown_switch(IncrementalConfig::default().enabled),
        value_parser = sear_solver::cli::switch(),
    ))]
    pub enabled: bool,
}

/// Counters of incremental merging (`summary.json`'s `symbolic_size.incremental`).
#[derive(Clone, Debug, Default, Serialize)]
pub struct IncrementalStats {
    /// Snapshots kept (one per tree node that started running).
    pub snapshots: u64,
    /// Snapshots at the new leaf's place that the tree rules allowed (compared stores).
    pub candidates: u64,
    /// Of those, stores that differed in a live variable or in memory.
    pub store_mismatches: u64,
    /// Of those, snapshots not merge-compatible or whose subtree held a path that had
    /// left the loop or ended.
    pub refused: u64,
    /// Leaves merged with a node.
    pub merges: u64,
    /// Paths of the merged nodes' subtrees dropped (their inputs belong to the merged path).
    pub subsumed_states: u64,
    /// Nodes spliced out (left with one child).
    pub splices: u64,
    /// Dead allocas and registers whose values were taken from the new leaf.
    pub dead_values: u64,
    /// Seconds spent in incremental merging.
    pub time_s: f64,
}

/// The snapshots of one context's nodes, by place.
#[derive(Debug, Default)]
pub struct Snapshots {
    states: FxHashMap<NodeId, State>,
    by_place: FxHashMap<Place, Vec<NodeId>>,
}

impl Snapshots {
    /// True when `node` has its snapshot (it has started running).
    pub fn has(&self, node: NodeId) -> bool {
        self.states.contains_key(&node)
    }

    /// Keeps `state` as the snapshot of `node`.
    pub fn keep(&mut self, node: NodeId, state: &State) {
        self.by_place.entry(place(state)).or_default().push(node);
        self.states.insert(node, state.clone());
    }

    /// The nodes with a snapshot at `at`.
    pub fn at(&self, at: &Place) -> &[NodeId] {
        self.by_place.get(at).map_or(&[], |v| v.as_slice())
    }

    /// The snapshot of `node`.
    pub fn get(&self, node: NodeId) -> Option<&State> {
        self.states.get(&node)
    }

    /// Drops the snapshots of `nodes` (taken out of the tree).
    pub fn drop_nodes(&mut self, nodes: &[NodeId]) {
        for n in nodes {
            if let Some(s) = self.states.remove(n) {
                if let Some(v) = self.by_place.get_mut(&place(&s)) {
                    v.retain(|x| x != n);
                }
            }
        }
    }
}

/// If `a` and `b` (merge-compatible, at the same place) have the same store w.r.t. the
/// variables live at that place, `b` with its dead registers and dead promotable allocas
/// set to `a`'s values (so that merging them adds no `ite` for a dead variable) and the
/// number of values so replaced; `None` when a live value differs.
pub fn equal_live_store(
    a: &State,
    b: &State,
    live: &Liveness,
    f: &Function,
) -> Option<(State, u64)> {
    let depth = a.stack.len();
    // Frames below the loop's: every register equal.
    for (fa, fb) in a.stack[..depth - 1].iter().zip(&b.stack[..depth - 1]) {
        if !fa
            .locals
            .iter()
            .zip(&fb.locals)
            .all(|(x, y)| same_value(x, y))
        {
            return None;
        }
    }
    let (ta, tb) = (a.frame(), b.frame());
    let set = live.live_set(f, ta.block, ta.inst);
    let mut b = b.clone();
    let mut replaced = 0u64;
    for (i, (x, y)) in ta.locals.iter().zip(&tb.locals).enumerate() {
        if same_value(x, y) {
            continue;
        }
        if live.contains(&set, Var::Slot(i as u32)) {
            tracing::trace!(target: "sear::incremental", "live register {i} differs");
            return None;
        }
        b.frame_mut().locals[i] = x.clone();
        replaced += 1;
    }
    // Dead promotable allocas: their bytes do not matter; the frame's k-th alloca is the
    // entry block's k-th when the function has no other.
    let mut dead: Vec<u64> = Vec::new();
    let entry = live.entry_allocas();
    if entry.len() == ta.allocas.len() {
        for (slot, pointer) in entry.iter().zip(ta.allocas.iter()) {
            if live.is_promotable(*slot) && !live.contains(&set, Var::Alloca(*slot)) {
                if let Some(address) = pointer.as_concrete() {
                    dead.push(address as u64);
                }
            }
        }
    }
    if !same_memory(&a.memory, &b.memory, &dead) {
        tracing::trace!(target: "sear::incremental", "memory differs (dead allocas {dead:?})");
        return None;
    }
    for address in dead {
        let (Some(x), Some(y)) = (a.memory.get_by_base(address), b.memory.get_by_base(address))
        else {
            continue;
        };
        if let (Storage::Own(s), Storage::Own(t)) = (&x.storage, &y.storage) {
            if !std::sync::Arc::ptr_eq(s, t) {
                let segment = s.as_ref().clone();
                b.memory.replace_segment(address, segment);
                replaced += 1;
            }
        }
    }
    Some((b, replaced))
}
