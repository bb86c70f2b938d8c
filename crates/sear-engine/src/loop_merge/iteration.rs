//! Loop-iteration merging (`--merge-loop-iterations`, docs/techniques/loop-iteration-merging.md):
//! the paths that fork inside one iteration of a loop are held when they come back to the
//! loop's header (or leave the loop), and when every path of that iteration has arrived the
//! paths at one place are merged into one.
//!
//! The contexts, execution trees and the tree encoding are those of the merging of
//! size-dependent loops ([`super::context`], [`super::tree`], [`super::encoding`]); a context
//! here spans one iteration instead of a whole loop. This module holds the option, the
//! counters and the reasons a merge is refused; the executor's side is
//! `executor/iteration_merging.rs`.

use serde::Serialize;

use crate::merge::group;
use crate::state::State;

/// The defaults of loop-iteration merging's options.
pub mod defaults {
    /// The most paths one iteration may hold (forks of its paths plus one) before its
    /// context is dissolved and its paths go on unmerged.
    pub const MAX_PATHS: usize = 64;
}

/// The options of loop-iteration merging.
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(feature = "cli", derive(clap::Args))]
pub struct IterationMergeConfig {
    /// Loop-iteration merging (on/off): the paths that fork inside one iteration of a loop
    /// wait when they reach the loop's header again (or leave the loop), and once every
    /// path of the iteration is there the paths at one place become one path (memory cells
    /// and registers that differ become `ite`s on the forks' conditions). Not with
    /// `--use-merge`, `--sym-size-mode=sm|smopt|pat` or `--incremental-merge`. Default: on
    /// under `--sv-comp` (not with `--jobs` or `--test-comp`), off otherwise.
    #[cfg_attr(feature = "cli", arg(
        id = "merge-loop-iterations",
        long = "merge-loop-iterations",
        value_name = "on|off",
        num_args = 0..=1,
        require_equals = true,
        default_missing_value = "on",
        value_parser = sear_solver::cli::switch(),
    ))]
    pub enabled: Option<bool>,
    /// The most paths one loop iteration may hold for merging (2 to 10^6); beyond it the
    /// iteration's paths go on unmerged.
    #[cfg_attr(feature = "cli", arg(
        id = "merge-iteration-max-paths",
        long = "merge-iteration-max-paths",
        value_name = "N",
        default_value_t = defaults::MAX_PATHS,
        value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(2..=1_000_000),
    ))]
    pub max_paths: usize,
    /// Merge the paths of an iteration where some allocated heap objects the others did not
    /// (on/off, default on): the merged path keeps the objects, and a pointer to one is an
    /// `ite` on its side's condition. Off (and always under `--property valid-memsafety`'s
    /// leak check): such paths are not merged.
    #[cfg_attr(feature = "cli", arg(
        id = "merge-iteration-allocations",
        long = "merge-iteration-allocations",
        value_name = "on|off",
        num_args = 0..=1,
        require_equals = true,
        default_value = "on",
        default_missing_value = "on",
        value_parser = sear_solver::cli::switch(),
    ))]
    pub allocations: bool,
}

impl Default for IterationMergeConfig {
    fn default() -> Self {
        IterationMergeConfig {
            enabled: None,
            max_paths: defaults::MAX_PATHS,
            allocations: true,
        }
    }
}

/// Why the paths of one place were not merged (counted in [`IterationStats::refused`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// Different call stacks (frames, allocas, places).
    CallStack,
    /// Different symbolic inputs (one side read an input the other did not).
    Inputs,
    /// Different objects in memory (one side allocated or freed what the other did not).
    Allocations,
    /// The path conditions no longer share the prefix the iteration began with.
    Prefix,
    /// Anything else the merge refuses (outputs, address constraints, rounding mode, ...).
    Other,
}

/// Refusals by reason (`summary.json`'s `loop_iteration_merging.refused`).
#[derive(Clone, Debug, Default, Serialize)]
pub struct Refusals {
    /// Different call stacks.
    pub call_stack: u64,
    /// Different symbolic inputs.
    pub inputs: u64,
    /// Different objects in memory.
    pub allocations: u64,
    /// Path-condition prefixes that differ.
    pub prefix: u64,
    /// Other differences.
    pub other: u64,
}

impl Refusals {
    /// Counts one refusal.
    pub fn count(&mut self, why: Refusal) {
        let n = match why {
            Refusal::CallStack => &mut self.call_stack,
            Refusal::Inputs => &mut self.inputs,
            Refusal::Allocations => &mut self.allocations,
            Refusal::Prefix => &mut self.prefix,
            Refusal::Other => &mut self.other,
        };
        *n += 1;
    }
}

/// Counters of loop-iteration merging (`summary.json`'s `loop_iteration_merging`).
#[derive(Clone, Debug, Default, Serialize)]
pub struct IterationStats {
    /// Iterations whose paths were held for merging (one per fork outside an iteration).
    pub iterations: u64,
    /// Iterations where at least one group of paths was merged.
    pub iterations_merged: u64,
    /// Groups of paths merged into one.
    pub merges: u64,
    /// Paths that disappeared into merged paths.
    pub paths_merged: u64,
    /// Paths released unmerged (alone at their place, or refused).
    pub released_unmerged: u64,
    /// Paths that ended inside an iteration (errors, exits, limits).
    pub ended_in_iteration: u64,
    /// Iterations whose paths went on unmerged because they held more than
    /// `--merge-iteration-max-paths`.
    pub over_cap: u64,
    /// Forks in loops that are not merged: several entries or a nested loop.
    pub unsupported_loop_forks: u64,
    /// Forks that opened no iteration because the loop's last merged iteration forked on
    /// the same condition.
    pub repeated_forks: u64,
    /// Merges refused, by reason.
    pub refused: Refusals,
    /// The longest path condition an iteration began with (constraints).
    pub largest_prefix: u64,
    /// Heap objects that some paths of a merged group had and others not (allocated on one
    /// side of a fork), kept by the merged path (`--merge-iteration-allocations`).
    pub one_sided_objects: u64,
    /// Seconds spent merging.
    pub merge_time_s: f64,
}

/// Why `b` may not be merged with `a` (paths at the same place whose path conditions
/// should share `prefix_len` constraints and whose inputs should share the first `inputs`;
/// the inputs after those may differ, [`align_inputs`] joins them; their objects may differ
/// as `objects` accepts); `None` when they may.
pub fn refusal(
    a: &State,
    b: &State,
    prefix_len: usize,
    inputs: usize,
    objects: group::Objects,
) -> Option<Refusal> {
    if !same_input_prefix(a, b, inputs) {
        return Some(Refusal::Inputs);
    }
    if a.symbolics.ptr_eq(&b.symbolics) && a.memory.same_quarantine(&b.memory) {
        return refusal_aligned(a, b, prefix_len, objects);
    }
    let mut pair = [a.clone(), b.clone()];
    align(&mut pair, prefix_len, inputs);
    refusal_aligned(&pair[0], &pair[1], prefix_len, objects)
}

/// True when [`align`] would change something in `members`.
pub fn needs_alignment(members: &[State], inputs: usize) -> bool {
    members
        .iter()
        .any(|m| m.symbolics.len() != inputs || !m.memory.same_quarantine(&members[0].memory))
}

/// Aligns what merge-compatible paths of an iteration may have differently: their own
/// inputs ([`align_inputs`]) and the objects they freed (`AddressSpace::join_quarantine`:
/// the allocas of a function a path called, freed at its return). Members whose freed
/// objects cannot be joined keep theirs (and are refused).
pub fn align(members: &mut [State], prefix_len: usize, inputs: usize) {
    align_inputs(members, prefix_len, inputs);
    if let Some((first, rest)) = members.split_first_mut() {
        let joined: Vec<bool> = rest
            .iter()
            .map(|m| first.memory.join_quarantine(&m.memory))
            .collect();
        for (m, ok) in rest.iter_mut().zip(joined) {
            if ok {
                m.memory.copy_quarantine(&first.memory);
            }
        }
    }
}

/// True when `a` and `b` have the same first `inputs` inputs. Inputs are only appended
/// (the paths of an iteration descend from one path that had `inputs` of them), so the
/// last of those identifies the prefix.
fn same_input_prefix(a: &State, b: &State, inputs: usize) -> bool {
    if a.symbolics.ptr_eq(&b.symbolics) {
        return true;
    }
    if a.symbolics.len() < inputs || b.symbolics.len() < inputs {
        return false;
    }
    inputs == 0 || {
        let (x, y) = (&a.symbolics[inputs - 1], &b.symbolics[inputs - 1]);
        x.array == y.array && x.object == y.object
    }
}

/// Gives every member the same inputs: the first `inputs` they share, then each member's
/// own later inputs (in member order), guarded by that member's condition after the first
/// `prefix_len` constraints (a test of the merged path holds the inputs of the side its
/// model is on, `State::Symbolic::guard`).
pub fn align_inputs(members: &mut [State], prefix_len: usize, inputs: usize) {
    if members.iter().all(|m| m.symbolics.len() == inputs) {
        return;
    }
    let mut unified = members[0].symbolics.take(inputs);
    for m in members.iter() {
        if m.symbolics.len() == inputs {
            continue;
        }
        let side = sear_expr::Expr::and_all(m.constraints.suffix(prefix_len));
        for s in m.symbolics.skip(inputs) {
            let mut s = s.clone();
            s.guard = Some(match s.guard.take() {
                Some(g) => sear_expr::Expr::and(side.clone(), g),
                None => side.clone(),
            });
            unified.push_back(s);
        }
    }
    for m in members.iter_mut() {
        m.symbolics = unified.clone();
    }
}

/// [`refusal`] of two paths with the same inputs.
fn refusal_aligned(
    a: &State,
    b: &State,
    prefix_len: usize,
    objects: group::Objects,
) -> Option<Refusal> {
    if group::group_compatible_with(&[a, b], prefix_len, objects) {
        return None;
    }
    let same_stack = a.stack.len() == b.stack.len()
        && a.stack_bytes == b.stack_bytes
        && a.stack
            .iter()
            .zip(&b.stack)
            .all(|(f, g)| crate::merge::same_place(f, g));
    if !same_stack {
        return Some(Refusal::CallStack);
    }
    let same_inputs = a.symbolics.ptr_eq(&b.symbolics)
        || (a.symbolics.len() == b.symbolics.len()
            && a.symbolics
                .iter()
                .zip(&b.symbolics)
                .all(|(x, y)| x.array == y.array && x.object == y.object));
    if !same_inputs {
        return Some(Refusal::Inputs);
    }
    if !group::mergeable_objects(&a.memory, &b.memory, objects) {
        return Some(Refusal::Allocations);
    }
    let same_prefix = a.constraints.len() >= prefix_len
        && b.constraints.len() >= prefix_len
        && a.constraints
            .iter()
            .zip(b.constraints.iter())
            .take(prefix_len)
            .all(|(x, y)| x == y);
    if !same_prefix {
        return Some(Refusal::Prefix);
    }
    Some(Refusal::Other)
}

/// What the run keeps for loop-iteration merging (`Run::iterations`).
#[derive(Debug, Default)]
pub struct Iterations {
    /// The open iterations: one context each (its loop, its paths' counter, the paths
    /// waiting at the header or at an exit, the execution tree of its forks).
    pub contexts: super::Contexts,
    /// Per open context: the instructions its first path had run when it opened, and the
    /// path condition then (the common prefix of its paths).
    pub opened: rustc_hash::FxHashMap<u32, Opened>,
    /// Per loop (function, loop): the fork conditions of its last merged iteration. A fork
    /// on one of them again opens no iteration: the merge had forgotten which side the path
    /// was on (an input read once before the loop), and merging every later iteration would
    /// repeat a fork the unmerged paths decide once.
    pub merged_conditions:
        rustc_hash::FxHashMap<(sear_ir::FuncId, sear_ir::loops::LoopId), Vec<sear_expr::Expr>>,
    /// The counters.
    pub stats: IterationStats,
}

/// What an iteration's context remembers of its start.
#[derive(Clone, Debug)]
pub struct Opened {
    /// The instructions the opening path had run (a path is back at the header only once
    /// it ran more: a path restarted at the fork's own instruction has not).
    pub instructions: u64,
    /// The path condition when the context opened.
    pub prefix: sear_solver::PathCondition,
    /// The number of inputs (`State::symbolics`) when the context opened: what the paths
    /// have in common; the ones after it were read by one path each.
    pub inputs: usize,
}

impl Iterations {
    /// Every waiting path of every open iteration (for the halt).
    pub fn take_waiting(&mut self) -> Vec<State> {
        self.opened.clear();
        self.contexts.take_waiting()
    }
}
