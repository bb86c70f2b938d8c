//! The executor's side of loop-iteration merging (`--merge-loop-iterations`,
//! docs/techniques/loop-iteration-merging.md).
//!
//! A fork of a path that is in no iteration, inside a loop (the innermost frame whose block
//! is in a loop of `sear_ir::loops`), opens a context for that iteration; the forks of its
//! paths extend the context's execution tree. A path of the context that comes back to the
//! loop's header (having run at least one instruction since the context opened), or leaves
//! the loop (an exit block, or a return from the loop's function), waits; one that ends
//! leaves the counter. When no path of the iteration is running, the waiting paths are
//! grouped by place, each group split into merge-compatible subgroups, and each subgroup
//! merged with the execution tree's encoding (the complete subtree of a fork collapses to
//! the prefix: the path condition does not grow). Paths that are not merged go on as they
//! are. An iteration that holds more than `--merge-iteration-max-paths` paths is
//! dissolved: its paths go on unmerged.
//!
//! The merge is `crate::merge::group::states_over`: the merged path condition is the
//! prefix and the encoding's condition (the disjunction of the members' suffixes, exact,
//! with the constraints a member added without a fork kept as its leaf's extras), and each
//! differing register or memory cell an `ite` over the forks' conditions, so the merged
//! path stands for exactly the union of its members.

use std::time::Instant;

use sear_expr::Expr;

use super::hooks::Technique;
use super::{Exec, Executor};
use crate::loop_merge::context::{place, Context};
use crate::loop_merge::encoding::TreeEncoding;
use crate::loop_merge::iteration::{align, needs_alignment, refusal, Opened};
use crate::loop_merge::NodeId;
use crate::merge::group;
use crate::state::State;
use crate::termination::Termination;

/// The technique: one context per loop iteration that forks, merged at the loop's header.
pub(crate) struct IterationMerging;

impl Technique for IterationMerging {
    fn name(&self) -> &'static str {
        "loop-iteration-merging"
    }

    fn before_fork(&self, ex: &mut Executor<'_>, state: &mut State, cond: &Expr) {
        ex.iteration_open(state, cond);
    }

    fn after_fork(&self, ex: &mut Executor<'_>, state: &mut State, child: &mut State, cond: &Expr) {
        ex.iteration_fork(state, child, cond);
    }

    fn before_step(&self, ex: &mut Executor<'_>, state: &mut State) -> Exec<()> {
        if state.loop_member.is_none() {
            return Ok(());
        }
        match ex.iteration_position(state) {
            Position::Inside => Ok(()),
            Position::Arrived => Err(Termination::LoopExit),
            Position::Dissolved => {
                state.loop_member = None;
                Ok(())
            }
        }
    }

    fn take_ending(
        &self,
        ex: &mut Executor<'_>,
        state: State,
        termination: &Termination,
    ) -> Option<State> {
        match termination {
            Termination::LoopExit if state.loop_member.is_some() => {
                ex.iteration_arrive(state);
                None
            }
            _ => Some(state),
        }
    }

    fn ended(&self, ex: &mut Executor<'_>, state: &State) {
        if state.loop_member.is_some() {
            ex.iteration_end(state);
        }
    }

    fn take_waiting(&self, ex: &mut Executor<'_>) -> Vec<State> {
        ex.run.iterations.take_waiting()
    }
}

/// Where a path of an iteration is.
enum Position {
    /// Still running the iteration (in the loop's body or in a function it called).
    Inside,
    /// Back at the loop's header, or out of the loop: it waits.
    Arrived,
    /// Its iteration was dissolved: it goes on as a path of no iteration.
    Dissolved,
}

impl Executor<'_> {
    /// Before `state` forks under `cond`: a path in no iteration whose innermost frame in a
    /// loop is in a loop with one entry and no nested loop opens a context for the
    /// iteration, unless the loop's last merged iteration forked on `cond` too.
    fn iteration_open(&mut self, state: &mut State, cond: &Expr) {
        if state.loop_member.is_some() {
            return;
        }
        let found = state.stack.iter().enumerate().rev().find_map(|(i, f)| {
            let (id, l) = self.program.loops.loop_of(f.func, f.block)?;
            Some((i + 1, f.func, id, l.entry.is_some() && !l.has_nested))
        });
        let Some((depth, func, loop_id, supported)) = found else {
            return;
        };
        let its = &mut self.run.iterations;
        if !supported {
            its.stats.unsupported_loop_forks += 1;
            return;
        }
        if its
            .merged_conditions
            .get(&(func, loop_id))
            .is_some_and(|conds| conds.contains(cond))
        {
            its.stats.repeated_forks += 1;
            return;
        }
        let member = its.contexts.open(state, func, loop_id);
        if let Some(ctx) = its.contexts.get_mut(member.ctx) {
            ctx.depth = depth;
        }
        its.opened.insert(
            member.ctx,
            Opened {
                instructions: state.instructions,
                prefix: state.constraints.clone(),
                inputs: state.symbolics.len(),
            },
        );
        its.stats.iterations += 1;
        its.stats.largest_prefix = its.stats.largest_prefix.max(state.constraints.len() as u64);
        state.loop_member = Some(member);
    }

    /// After `child` was copied off `state` under `cond`: both go in the iteration's tree;
    /// past `--merge-iteration-max-paths` the iteration is dissolved.
    fn iteration_fork(&mut self, state: &mut State, child: &mut State, cond: &Expr) {
        let Some(m) = state.loop_member else {
            return;
        };
        let its = &mut self.run.iterations;
        match its.contexts.fork(m, cond.clone(), child.id, state.id) {
            Some((c, p)) => {
                child.loop_member = Some(c);
                state.loop_member = Some(p);
            }
            None => {
                child.loop_member = None;
                state.loop_member = None;
                return;
            }
        }
        let held = its
            .contexts
            .get(m.ctx)
            .map_or(0, |ctx| ctx.open + ctx.waiting.len());
        if held > self.config.iteration_merge.max_paths {
            child.loop_member = None;
            state.loop_member = None;
            self.run.iterations.stats.over_cap += 1;
            self.dissolve_iteration(m.ctx);
        }
    }

    /// Ends the iteration `id` without merging: its waiting paths go on; its running
    /// paths find it gone at their next step.
    fn dissolve_iteration(&mut self, id: u32) {
        let its = &mut self.run.iterations;
        its.opened.remove(&id);
        let Some(mut ctx) = its.contexts.close(id) else {
            return;
        };
        let waiting = std::mem::take(&mut ctx.waiting);
        its.stats.released_unmerged += waiting.len() as u64;
        for state in waiting {
            self.resume(state);
        }
    }

    /// Where `state`, a path of an iteration, is (see [`Position`]).
    fn iteration_position(&self, state: &State) -> Position {
        let Some(m) = state.loop_member else {
            return Position::Inside;
        };
        let its = &self.run.iterations;
        let (Some(ctx), Some(opened)) = (its.contexts.get(m.ctx), its.opened.get(&m.ctx)) else {
            return Position::Dissolved;
        };
        let depth = state.stack.len();
        if depth > ctx.depth {
            return Position::Inside;
        }
        if depth < ctx.depth {
            return Position::Arrived;
        }
        let frame = state.frame();
        if frame.func != ctx.func {
            return Position::Arrived;
        }
        let Some(the_loop) = self
            .program
            .loops
            .function(ctx.func)
            .map(|f| f.get(ctx.loop_id))
        else {
            return Position::Arrived;
        };
        if !the_loop.contains(frame.block) {
            return Position::Arrived;
        }
        let at_header = the_loop.entry == Some(frame.block) && frame.inst == 0;
        if at_header && state.instructions > opened.instructions {
            Position::Arrived
        } else {
            Position::Inside
        }
    }

    /// A path of an iteration arrived (header or exit): it waits until the iteration's
    /// other paths have.
    fn iteration_arrive(&mut self, state: State) {
        self.run.searcher.remove(state.id);
        let id = state.loop_member.expect("a path of an iteration").ctx;
        let Some(ctx) = self.run.iterations.contexts.get_mut(id) else {
            return self.resume(state);
        };
        self.run.ptree.deactivate(state.ptree_node);
        ctx.open = ctx.open.saturating_sub(1);
        ctx.waiting.push(state);
        if ctx.open == 0 {
            self.release_iteration(id);
        }
    }

    /// A path of an iteration ended inside it: it leaves the counter.
    fn iteration_end(&mut self, state: &State) {
        let Some(m) = state.loop_member else {
            return;
        };
        let its = &mut self.run.iterations;
        let Some(ctx) = its.contexts.get_mut(m.ctx) else {
            return;
        };
        ctx.open = ctx.open.saturating_sub(1);
        ctx.ended += 1;
        its.stats.ended_in_iteration += 1;
        if ctx.open == 0 {
            self.release_iteration(m.ctx);
        }
    }

    /// Every path of iteration `id` has arrived or ended: the waiting paths, grouped by
    /// place and split into merge-compatible subgroups, are merged and resumed.
    fn release_iteration(&mut self, id: u32) {
        let its = &mut self.run.iterations;
        let opened = its.opened.remove(&id);
        let Some(mut ctx) = its.contexts.close(id) else {
            return;
        };
        let waiting = std::mem::take(&mut ctx.waiting);
        let Some(opened) = opened else {
            its.stats.released_unmerged += waiting.len() as u64;
            waiting.into_iter().for_each(|s| self.resume(s));
            return;
        };
        let mut groups: Vec<Vec<State>> = Vec::new();
        for state in waiting {
            match groups.iter_mut().find(|g| place(&g[0]) == place(&state)) {
                Some(g) => g.push(state),
                None => groups.push(vec![state]),
            }
        }
        let objects = self.iteration_objects();
        let mut merged_any = false;
        for mut group in groups {
            while !group.is_empty() {
                let first = group.remove(0);
                let mut with = vec![first];
                let mut without = Vec::new();
                for s in group {
                    match refusal(&with[0], &s, ctx.prefix_len, opened.inputs, objects) {
                        None => with.push(s),
                        Some(why) => {
                            self.run.iterations.stats.refused.count(why);
                            without.push(s);
                        }
                    }
                }
                group = without;
                if with.len() == 1 {
                    self.run.iterations.stats.released_unmerged += 1;
                    with.into_iter().for_each(|s| self.resume(s));
                    continue;
                }
                match self.merge_iteration(&ctx, &opened, &with) {
                    Some(merged) => {
                        merged_any = true;
                        self.adopt_iteration_merge(merged, &with);
                    }
                    None => {
                        self.run
                            .iterations
                            .stats
                            .refused
                            .count(crate::loop_merge::iteration::Refusal::Other);
                        self.run.iterations.stats.released_unmerged += with.len() as u64;
                        with.into_iter().for_each(|s| self.resume(s));
                    }
                }
            }
        }
        if merged_any {
            let its = &mut self.run.iterations;
            its.stats.iterations_merged += 1;
            let conds: Vec<Expr> = ctx.tree.conditions().cloned().collect();
            its.merged_conditions.insert((ctx.func, ctx.loop_id), conds);
        }
    }

    /// The merge of `members` (compatible, at one place) with the tree's encoding.
    fn merge_iteration(
        &mut self,
        ctx: &Context,
        opened: &Opened,
        members: &[State],
    ) -> Option<State> {
        let start = Instant::now();
        // The inputs each side read on its own join the merged path, guarded by its side;
        // the allocas of a function both sides called are freed alike.
        let mut aligned: Vec<State>;
        let members = if needs_alignment(members, opened.inputs) {
            aligned = members.to_vec();
            align(&mut aligned, ctx.prefix_len, opened.inputs);
            &aligned[..]
        } else {
            members
        };
        let refs: Vec<&State> = members.iter().collect();
        let leaves: Vec<NodeId> = refs
            .iter()
            .map(|s| s.loop_member.expect("a path of the iteration").node)
            .collect();
        let mut enc = TreeEncoding::new(&ctx.tree, &refs, &leaves, ctx.prefix_len);
        let merged = group::states_over(
            &refs,
            ctx.prefix_len,
            opened.prefix.clone(),
            &mut enc,
            group::Recording::Nothing,
            self.iteration_objects(),
        );
        self.run.iterations.stats.merge_time_s += start.elapsed().as_secs_f64();
        let (merged, record) = merged?;
        self.run.iterations.stats.one_sided_objects += record.one_sided_objects;
        tracing::debug!(
            target: "sear::iteration_merge",
            "merged {} paths at {:?}: condition {}",
            members.len(),
            place(&merged),
            record.condition
        );
        Some(merged)
    }

    /// The differences in objects a merge accepts: heap objects on one side only with
    /// `--merge-iteration-allocations`, unless leaks are checked (a leak scan of the merged
    /// path would see an object that one side never had).
    fn iteration_objects(&self) -> group::Objects {
        if self.config.iteration_merge.allocations && !self.config.check_leaks {
            group::Objects::OneSided
        } else {
            group::Objects::Same
        }
    }

    /// `merged` replaces `members` (the first keeps its identity): counted and resumed.
    fn adopt_iteration_merge(&mut self, merged: State, members: &[State]) {
        for other in &members[1..] {
            self.run.ptree.remove(other.ptree_node);
        }
        let n = members.len() as u64 - 1;
        self.run.iterations.stats.paths_merged += n;
        self.run.iterations.stats.merges += 1;
        self.run.stats.merged_states += n;
        self.resume(merged);
    }
}
