//! State merging of symbolic-size-dependent loops (seed 003 Ch. 5, spec §4.3–§4.4): SM
//! (Algorithms 3 and 4) and SMOpt (Algorithms 5 and 6), with `--sym-size-mode=sm|smopt`.
//!
//! The pieces, each usable on its own (the quantified merging of issue 18 builds on them):
//!
//! * [`tree::ExecTree`]: the execution tree of a context, with `merge-conditions-opt` and
//!   `merge-values-opt`;
//! * [`context::Contexts`]: the merging contexts (a loop, its paths' liveness counter, the
//!   paths waiting at the loop's exits, the tree);
//! * [`encoding`]: the encodings of merged conditions and values (SM's disjunctions and
//!   `ite` chains, SMOpt's tree walks), as `crate::merge::group::MergeEncoding`s, used by
//!   the group merge of `crate::merge::group`;
//! * the executor's hooks in `executor/loop_merging.rs`: a fork inside a loop on a
//!   condition tainted by a symbolic size (`crate::sym_size::taint`) opens a context; every
//!   fork of one of its paths extends the tree; a path that leaves the loop waits; a path
//!   that ends inside it leaves the counter; when the counter reaches 0 the waiting paths
//!   are grouped by exit and each group is merged.
//!
//! Guard rails (spec §4.3): loops with calls to functions with a body, with nested loops or
//! with several entries are not merged (`sear_ir::loops`); a group of more than
//! `--max-merge-states` paths is not merged; groups whose paths are not merge-compatible
//! (different objects, outputs, inputs) are split into compatible subgroups.

pub mod context;
pub mod encoding;
pub mod incremental;
pub mod iteration;
pub mod tree;
pub mod tree_merge;

pub use context::{Context, Contexts, Member};
pub use tree::{ExecTree, NodeId};

use serde::Serialize;

/// Counters of loop merging (`summary.json`'s `symbolic_size`).
#[derive(Clone, Debug, Default, Serialize)]
pub struct MergeStats {
    /// Merging contexts opened (size-dependent loops entered).
    pub contexts: u64,
    /// Groups merged into one path.
    pub merges: u64,
    /// Paths that disappeared into merged paths.
    pub merged_states: u64,
    /// The most paths merged into one at once.
    pub largest_merge: u64,
    /// Groups of one path (nothing to merge).
    pub single_groups: u64,
    /// Groups not merged because they had more than `--max-merge-states` paths.
    pub large_groups: u64,
    /// Sets of waiting paths split into subgroups because they were not merge-compatible.
    pub incompatible_groups: u64,
    /// Paths that ended inside a context (errors, exits, limits).
    pub ended_in_context: u64,
    /// Tainted forks in loops that are not merged (calls, nested loops, several entries).
    pub unsupported_loop_forks: u64,
    /// AST nodes (distinct, non-constant) of the merged path-condition suffixes, summed.
    pub merged_constraints_ast: u64,
    /// AST nodes (distinct, non-constant) of the merged values, summed.
    pub merged_values_ast: u64,
    /// Merged values built.
    pub merged_values: u64,
    /// Largest execution tree (nodes) of a context.
    pub largest_tree: u64,
    /// Merges checked against their paths (`--validate-merge`).
    pub validated_merges: u64,
    /// Merges whose check failed.
    pub validation_failures: u64,
    /// Seconds spent merging (validation excluded).
    pub merge_time_s: f64,
}

/// The number of distinct non-constant nodes of `e` (the AST size the thesis compares).
pub fn ast_size(e: &sear_expr::Expr) -> u64 {
    let mut n = 0u64;
    sear_expr::visit::for_each_node([e], |_| n += 1);
    n
}
