//! The executor's side of PAT (`--sym-size-mode=pat`; seed 003 Ch. 6, `crate::pat`): the
//! paths of one exit group of a context are partitioned by regular patterns, each partition
//! is merged into one state with a quantified path condition, and the rest is left to
//! SMOpt (`executor/loop_merging.rs`).

use std::time::Instant;

use sear_expr::quant::{conjuncts, instantiate};
use sear_expr::{Expr, ExprKind};

use super::hooks::Technique;
use super::Executor;
use crate::loop_merge::context::Context;
use crate::loop_merge::encoding::extras;
use crate::loop_merge::{ast_size, NodeId};
use crate::merge::group::{self, MergeRecord};
use crate::pat::encoding::{at_bound, fresh_bound, PatternEncoding};
use crate::pat::hash::ConditionHash;
use crate::pat::pattern::partition;
use crate::state::State;

/// The technique's registration (`--sym-size-mode=pat`): its merges run inside loop
/// merging's release of a context ([`Executor::pat_merge`]); here it reports its counters.
pub(crate) struct PatMerging;

impl Technique for PatMerging {
    fn name(&self) -> &'static str {
        "pat"
    }

    fn summarize(
        &self,
        ex: &Executor<'_>,
        symbolic_size: &mut serde_json::Map<String, serde_json::Value>,
    ) {
        if let Ok(pat) = serde_json::to_value(&ex.run.pat_stats) {
            symbolic_size.insert("pat".into(), pat);
        }
    }
}

impl Executor<'_> {
    /// Merges the regular partitions of `group` (compatible paths at one exit of `ctx`);
    /// returns the paths left for SMOpt.
    pub(super) fn pat_merge(&mut self, ctx: &Context, group: Vec<State>) -> Vec<State> {
        if group.len() < 2 {
            return group;
        }
        let start = Instant::now();
        self.run.pat_stats.groups += 1;
        let leaves: Vec<NodeId> = group
            .iter()
            .map(|s| s.loop_member.expect("a path of the context").node)
            .collect();
        let mut hash = ConditionHash::default();
        if !hash.valid_for(&ctx.tree, &leaves) {
            self.run.pat_stats.invalid_hash_fallbacks += 1;
            self.run.pat_stats.leaves_without_pattern += group.len() as u64;
            return group;
        }
        // Leaves with constraints beyond their fork conditions take part in no pattern.
        let candidates: Vec<usize> = (0..group.len())
            .filter(|&i| extras(&ctx.tree, &group[i], leaves[i], ctx.prefix_len).is_true())
            .collect();
        let words: Vec<Vec<u64>> = candidates
            .iter()
            .map(|&i| hash.path(&ctx.tree, leaves[i]))
            .collect();
        tracing::debug!(target: "sear::pat", "group of {} leaves, words {:?}", leaves.len(), words);
        for &i in &candidates {
            tracing::trace!(target: "sear::pat", "leaf {:?}: {:?}", leaves[i], ctx.tree.path_conditions(leaves[i]));
        }
        // Partitions whose conditions fit a formula pattern, with their encodings.
        let mut encodings: Vec<PatternEncoding> = Vec::new();
        let mut ordinal = self.run.pat_stats.bounds;
        let mut failures = 0u64;
        let accepted = partition(&words, self.config.sym_size.pat.max_patterns, |part| {
            let ids: Vec<NodeId> = part
                .members
                .iter()
                .map(|m| leaves[candidates[m.0]])
                .collect();
            match PatternEncoding::new(&ctx.tree, part, &ids, fresh_bound(ordinal)) {
                Some(enc) => {
                    ordinal += 1;
                    encodings.push(enc);
                    true
                }
                None => {
                    failures += 1;
                    false
                }
            }
        });
        self.run.pat_stats.bounds = ordinal;
        self.run.pat_stats.synthesis_failures += failures;
        let parts = match accepted {
            Ok(parts) => parts,
            Err(_) => {
                self.run.pat_stats.cap_fallbacks += 1;
                self.run.pat_stats.leaves_without_pattern += group.len() as u64;
                return group;
            }
        };
        let mut slots: Vec<Option<State>> = group.into_iter().map(Some).collect();
        for (part, enc) in parts.into_iter().zip(encodings) {
            let members: Vec<usize> = part.members.iter().map(|m| candidates[m.0]).collect();
            let taken: Vec<State> = members
                .iter()
                .map(|&i| slots[i].take().expect("each leaf in one partition"))
                .collect();
            match self.pattern_merge(ctx, enc, &taken) {
                Some(merged) => {
                    self.run.pat_stats.pattern_merges += 1;
                    self.run.pat_stats.pattern_leaves += taken.len() as u64;
                    self.adopt_merge(merged, &taken);
                }
                None => {
                    for (i, s) in members.into_iter().zip(taken) {
                        slots[i] = Some(s);
                    }
                }
            }
        }
        let rest: Vec<State> = slots.into_iter().flatten().collect();
        self.run.pat_stats.leaves_without_pattern += rest.len() as u64;
        self.run.pat_stats.time_s += start.elapsed().as_secs_f64();
        rest
    }

    /// One partition merged with its encoding (Definition 6.2.6), validated with
    /// `--validate-merge`.
    fn pattern_merge(
        &mut self,
        ctx: &Context,
        mut enc: PatternEncoding,
        members: &[State],
    ) -> Option<State> {
        let refs: Vec<&State> = members.iter().collect();
        let validate = self.config.sym_size.validate_merge;
        let (mut merged, record) = group::states(&refs, ctx.prefix_len, &mut enc, validate)?;
        // The condition's conjuncts as separate constraints (the quantified stage sees the
        // quantifier-free ones for E-matching).
        let mut constraints = merged.constraints.prefix(ctx.prefix_len);
        constraints.extend(conjuncts(&record.condition));
        merged.constraints = constraints;
        let stats = &mut self.run.pat_stats;
        stats.term_values += enc.terms;
        stats.ite_values += enc.ites;
        stats.merged_constraints_ast += ast_size(&record.condition);
        let loop_stats = &mut self.run.loop_stats;
        loop_stats.merged_constraints_ast += ast_size(&record.condition);
        loop_stats.merged_values_ast += record.values_ast;
        loop_stats.merged_values += record.values;
        tracing::debug!(
            target: "sear::pat",
            "pattern merge of {} paths: {}",
            members.len(),
            record.condition
        );
        if validate {
            self.validate_pattern_merge(members, &merged, &record, &enc, ctx.prefix_len);
        }
        Some(merged)
    }

    /// Theorem 6.2.7 for one pattern merge: under the common prefix, for every member j,
    /// the merged condition with `k = k_j` (its clause expanded) is equivalent to what the
    /// member added, and every merged location with `k = k_j` equals the member's value.
    fn validate_pattern_merge(
        &mut self,
        members: &[State],
        merged: &State,
        record: &MergeRecord,
        enc: &PatternEncoding,
        prefix_len: usize,
    ) {
        let mut ok = true;
        let mut probe = merged.clone();
        probe.constraints = members[0].constraints.prefix(prefix_len);
        for (j, member) in members.iter().enumerate() {
            let at = |e: &Expr| expand(&at_bound(e, &enc.k, enc.points[j]));
            let suffix = Expr::and_all(member.constraints.suffix(prefix_len));
            let iff = Expr::eq(at(&record.condition), suffix);
            ok &= matches!(
                self.sv
                    .must_be_true(&probe, &iff, "pattern merge validation"),
                Ok(true)
            );
            let equal = Expr::and_all(
                record
                    .locations
                    .iter()
                    .map(|l| Expr::eq(at(&l.merged), l.members[j].clone())),
            );
            ok &= matches!(
                self.sv
                    .must_be_true(member, &equal, "pattern merge validation"),
                Ok(true)
            );
        }
        self.run.pat_stats.validated_merges += 1;
        if !ok {
            self.run.pat_stats.validation_failures += 1;
            self.report
                .warn_once("a pattern merge failed validation (--validate-merge)");
        }
    }
}

/// `e` with every clause of constant bound `c` written as the conjunction of its `c`
/// instances.
fn expand(e: &Expr) -> Expr {
    let mut rewrite = sear_expr::visit::Rewriter::new(|_: &Expr, rebuilt: &Expr| {
        let ExprKind::Forall { var, bound, body } = rebuilt.kind() else {
            return None;
        };
        let c = bound.as_constant()?;
        let w = var.width();
        Some(Expr::and_all(
            (1..=c).map(|n| instantiate(body, var, &Expr::constant(n, w))),
        ))
    });
    rewrite.apply(e)
}
