//! The executor's side of merging size-dependent loops (`--sym-size-mode=sm|smopt`;
//! Algorithm 3, spec §4.3): opening contexts at tainted forks, extending their execution
//! trees, suspending paths at loop exits, and merging when a context's last path is out.
//! The data structures are in `crate::loop_merge`, the merge itself in
//! `crate::merge::group`.

use std::time::Instant;

use sear_expr::Expr;

use super::hooks::Technique;
use super::{Exec, Executor};
use crate::loop_merge::context::{place, Context};
use crate::loop_merge::encoding::{Disjunction, TreeEncoding};
use crate::loop_merge::{ast_size, NodeId};
use crate::merge::group::{self, MergeRecord};
use crate::state::State;
use crate::sym_size::SymSizeMode;
use crate::termination::Termination;

/// The technique (`--sym-size-mode=sm|smopt|pat`): forks on size-tainted conditions in a
/// loop open a context; a context's paths are recorded at forks, suspended when they leave
/// the loop, and merged when the context's last path is out.
pub(crate) struct LoopMerging;

impl Technique for LoopMerging {
    fn name(&self) -> &'static str {
        "loop-merging"
    }

    fn before_fork(&self, ex: &mut Executor<'_>, state: &mut State, cond: &Expr) {
        ex.loop_fork_open(state, cond);
    }

    fn after_fork(&self, ex: &mut Executor<'_>, state: &mut State, child: &mut State, cond: &Expr) {
        ex.loop_fork_record(state, child, cond);
    }

    fn before_step(&self, ex: &mut Executor<'_>, state: &mut State) -> Exec<()> {
        if state.loop_member.is_some() && ex.left_loop(state) {
            return Err(Termination::LoopExit);
        }
        Ok(())
    }

    fn take_ending(
        &self,
        ex: &mut Executor<'_>,
        state: State,
        termination: &Termination,
    ) -> Option<State> {
        match termination {
            Termination::LoopExit => {
                ex.arrive_at_loop_exit(state);
                None
            }
            _ => Some(state),
        }
    }

    fn ended(&self, ex: &mut Executor<'_>, state: &State) {
        if state.loop_member.is_some() {
            ex.end_in_loop_context(state);
        }
    }

    fn take_waiting(&self, ex: &mut Executor<'_>) -> Vec<State> {
        ex.run.loop_contexts.take_waiting()
    }

    fn summarize(
        &self,
        ex: &Executor<'_>,
        symbolic_size: &mut serde_json::Map<String, serde_json::Value>,
    ) {
        if let Ok(serde_json::Value::Object(counters)) = serde_json::to_value(&ex.run.loop_stats) {
            symbolic_size.extend(counters);
        }
    }
}

impl Executor<'_> {
    /// Before `state` forks under `cond`: a path outside any context, in a loop, forking on
    /// a condition tainted by a symbolic size opens a context for the loop (when the loop
    /// may be merged).
    fn loop_fork_open(&mut self, state: &mut State, cond: &Expr) {
        if !self.config.sym_size.mode.merges()
            || state.loop_member.is_some()
            || state.taint.is_empty()
        {
            return;
        }
        let frame = state.frame();
        let (func, block) = (frame.func, frame.block);
        let Some((loop_id, the_loop)) = self.program.loops.loop_of(func, block) else {
            return;
        };
        if !state.taint.taints(cond) {
            return;
        }
        if let Some(reason) = the_loop.unsupported_reason() {
            let at = match the_loop.loc {
                Some(loc) => format!("{}:{}", self.program.module.file_name(loc.file), loc.line),
                None => self.program.module.function(func).name.clone(),
            };
            self.run.loop_stats.unsupported_loop_forks += 1;
            self.report.warn_once(&format!(
                "size-dependent loop at {at} not merged: it {reason}"
            ));
            return;
        }
        state.loop_member = Some(self.run.loop_contexts.open(state, func, loop_id));
        self.run.loop_stats.contexts += 1;
    }

    /// After `branch` copied `child` off `state` under `cond`: a path of a context puts
    /// both in its execution tree.
    fn loop_fork_record(&mut self, state: &mut State, child: &mut State, cond: &Expr) {
        let Some(m) = state.loop_member else {
            return;
        };
        match self
            .run
            .loop_contexts
            .fork(m, cond.clone(), child.id, state.id)
        {
            Some((c, p)) => {
                child.loop_member = Some(c);
                state.loop_member = Some(p);
            }
            None => {
                child.loop_member = None;
                state.loop_member = None;
            }
        }
    }

    /// True when `state`, a path of a context, is no longer in the context's loop (it
    /// entered an exit block, or returned from the loop's function).
    fn left_loop(&self, state: &State) -> bool {
        let Some(m) = state.loop_member else {
            return false;
        };
        let Some(ctx) = self.run.loop_contexts.get(m.ctx) else {
            return true;
        };
        if state.stack.len() != ctx.depth {
            return true;
        }
        let frame = state.frame();
        frame.func != ctx.func
            || !self
                .program
                .loops
                .function(ctx.func)
                .is_some_and(|f| f.get(ctx.loop_id).contains(frame.block))
    }

    /// A path of a context left the loop: it waits until the context's counter is 0.
    fn arrive_at_loop_exit(&mut self, state: State) {
        self.run.searcher.remove(state.id);
        let id = state.loop_member.expect("a path of a context").ctx;
        let Some(ctx) = self.run.loop_contexts.get_mut(id) else {
            return self.resume(state);
        };
        self.run.ptree.deactivate(state.ptree_node);
        ctx.open = ctx.open.saturating_sub(1);
        ctx.waiting.push(state);
        if ctx.open == 0 {
            self.release_context(id);
        }
    }

    /// A path of a context ended inside the loop: it leaves the counter.
    fn end_in_loop_context(&mut self, state: &State) {
        let Some(m) = state.loop_member else {
            return;
        };
        let Some(ctx) = self.run.loop_contexts.get_mut(m.ctx) else {
            return;
        };
        ctx.open = ctx.open.saturating_sub(1);
        ctx.ended += 1;
        self.run.loop_stats.ended_in_context += 1;
        if ctx.open == 0 {
            self.release_context(m.ctx);
        }
    }

    /// A path out of its context, back to the searcher.
    pub(super) fn resume(&mut self, mut state: State) {
        state.loop_member = None;
        self.run.ptree.activate(state.ptree_node);
        self.run.searcher.add(state.id);
        self.run.states.insert(state.id, state);
    }

    /// Every path of context `id` is out of the loop: the waiting paths, grouped by the
    /// exit they took (their place), are merged group by group and resumed.
    fn release_context(&mut self, id: u32) {
        let Some(mut ctx) = self.run.loop_contexts.close(id) else {
            return;
        };
        let stats = &mut self.run.loop_stats;
        stats.largest_tree = stats.largest_tree.max(ctx.tree.len() as u64);
        let waiting = std::mem::take(&mut ctx.waiting);
        let mut groups: Vec<Vec<State>> = Vec::new();
        for state in waiting {
            match groups.iter_mut().find(|g| place(&g[0]) == place(&state)) {
                Some(g) => g.push(state),
                None => groups.push(vec![state]),
            }
        }
        for group in groups {
            if group.len() == 1 {
                self.run.loop_stats.single_groups += 1;
            } else if group.len() > self.config.sym_size.max_merge_states {
                self.run.loop_stats.large_groups += 1;
            } else {
                self.merge_exit_group(&ctx, group);
                continue;
            }
            for state in group {
                self.resume(state);
            }
        }
    }

    /// Merges the paths that left the loop at one exit: into subgroups of merge-compatible
    /// paths, each merged with the mode's encoding.
    fn merge_exit_group(&mut self, ctx: &Context, mut group: Vec<State>) {
        let mut subgroups: Vec<Vec<State>> = Vec::new();
        while !group.is_empty() {
            let first = group.remove(0);
            let (with, without): (Vec<State>, Vec<State>) = group
                .into_iter()
                .partition(|s| group::group_compatible(&[&first, s], ctx.prefix_len));
            let mut sub = vec![first];
            sub.extend(with);
            subgroups.push(sub);
            group = without;
        }
        if subgroups.len() > 1 {
            self.run.loop_stats.incompatible_groups += 1;
        }
        for sub in subgroups {
            // PAT merges the regular partitions; the leaves left go on as in SMOpt.
            let sub = if self.config.sym_size.mode == SymSizeMode::Pat {
                self.pat_merge(ctx, sub)
            } else {
                sub
            };
            if sub.is_empty() {
                continue;
            }
            if sub.len() == 1 {
                self.run.loop_stats.single_groups += 1;
                sub.into_iter().for_each(|s| self.resume(s));
                continue;
            }
            match self.merge_members(ctx, &sub) {
                Some(merged) => self.adopt_merge(merged, &sub),
                None => sub.into_iter().for_each(|s| self.resume(s)),
            }
        }
    }

    /// `merged` replaces `members` (the first keeps its identity): counted and resumed.
    pub(super) fn adopt_merge(&mut self, merged: State, members: &[State]) {
        for other in &members[1..] {
            self.run.ptree.remove(other.ptree_node);
        }
        let n = members.len() as u64 - 1;
        self.run.loop_stats.merged_states += n;
        self.run.stats.merged_states += n;
        self.run.loop_stats.merges += 1;
        let largest = &mut self.run.loop_stats.largest_merge;
        *largest = (*largest).max(n + 1);
        self.resume(merged);
    }

    /// The merge of `members` (compatible, at one place), validated with
    /// `--validate-merge`.
    fn merge_members(&mut self, ctx: &Context, members: &[State]) -> Option<State> {
        let refs: Vec<&State> = members.iter().collect();
        let validate = self.config.sym_size.validate_merge;
        let start = Instant::now();
        let merged = match self.config.sym_size.mode {
            SymSizeMode::Smopt | SymSizeMode::Pat => {
                let leaves: Vec<NodeId> = refs
                    .iter()
                    .map(|s| s.loop_member.expect("a path of the context").node)
                    .collect();
                let mut enc = TreeEncoding::new(&ctx.tree, &refs, &leaves, ctx.prefix_len);
                group::states(&refs, ctx.prefix_len, &mut enc, validate)
            }
            _ => {
                let mut enc = Disjunction::new(&refs, ctx.prefix_len);
                group::states(&refs, ctx.prefix_len, &mut enc, validate)
            }
        };
        self.run.loop_stats.merge_time_s += start.elapsed().as_secs_f64();
        let (merged, record) = merged?;
        tracing::debug!(
            target: "sear::loop_merge",
            "merged {} paths at {:?}: condition {}",
            members.len(),
            place(&merged),
            record.condition
        );
        // The merged values are functions of the loop's fork conditions, which the size
        // decided: conditions over them later are size-dependent too. Tainting the bytes
        // those conditions read (whatever the encoding mentions) keeps SM and SMOpt
        // opening the same contexts.
        let mut merged = merged;
        let mut derived = crate::sym_size::taint::Taint::default();
        for cond in ctx.tree.conditions() {
            derived.add_size(cond);
        }
        merged.taint = merged.taint.union(&derived);
        let stats = &mut self.run.loop_stats;
        stats.merged_constraints_ast += ast_size(&record.condition);
        stats.merged_values_ast += record.values_ast;
        stats.merged_values += record.values;
        if validate {
            self.validate_merge(members, &merged, &record, ctx.prefix_len);
        }
        Some(merged)
    }

    /// Checks a merge against its paths (`--validate-merge`): under the common prefix, the
    /// merged condition is equivalent to the disjunction of what the paths added, and under
    /// each path's condition every merged location equals that path's value.
    fn validate_merge(
        &mut self,
        members: &[State],
        merged: &State,
        record: &MergeRecord,
        prefix_len: usize,
    ) {
        let mut ok = true;
        let suffixes = Expr::or_all(
            members
                .iter()
                .map(|m| Expr::and_all(m.constraints.suffix(prefix_len))),
        );
        let iff = Expr::eq(record.condition.clone(), suffixes);
        let mut probe = merged.clone();
        probe.constraints = members[0].constraints.prefix(prefix_len);
        ok &= matches!(
            self.sv.must_be_true(&probe, &iff, "merge validation"),
            Ok(true)
        );
        for (i, member) in members.iter().enumerate() {
            let equal = Expr::and_all(
                record
                    .locations
                    .iter()
                    .map(|l| Expr::eq(l.merged.clone(), l.members[i].clone())),
            );
            ok &= matches!(
                self.sv.must_be_true(member, &equal, "merge validation"),
                Ok(true)
            );
        }
        self.run.loop_stats.validated_merges += 1;
        if !ok {
            self.run.loop_stats.validation_failures += 1;
            self.report
                .warn_once("a loop merge failed validation (--validate-merge)");
        }
    }
}
