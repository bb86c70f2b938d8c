//! State merging with quantifiers, PAT (seed 003 Ch. 6; spec §5; `--sym-size-mode=pat`).
//!
//! PAT merges the paths of a size-dependent loop like SMOpt (the contexts, execution trees
//! and exit groups of `crate::loop_merge`), but first looks for *regular patterns* among the
//! leaves of a group: leaves whose path hashes ([`hash::ConditionHash`]) read
//! `ω1 ω2^k ω3` ([`pattern::partition`]) and whose conditions follow one *formula pattern*
//! `(φ1, φ2(x), φ3(x))` ([`synth::synthesize`]). Such a partition becomes one state
//! (Definition 6.2.6, [`encoding::PatternEncoding`]):
//!
//! ```text
//! pc = φ ∧ lo ≤ k ≤ hi ∧ φ1 ∧ (∀i. 1 ≤ i ≤ k → φ2[i]) ∧ φ3[k]
//! ```
//!
//! over a fresh bound constant `k`, whose size does not grow with the number of leaves;
//! merged values are terms `t(k)` where one fits (`count ↦ k`), `ite(k = k_j, …)` otherwise.
//! Leaves without a pattern are merged by SMOpt; more patterns than `--max-patterns` make
//! the whole group fall back to SMOpt. The quantified path conditions are solved by the
//! solver's quantified stage (`sear_solver::quantified`).

pub mod encoding;
pub mod hash;
pub mod pattern;
pub mod synth;

use serde::Serialize;

/// The defaults of [`PatConfig`], written once.
pub mod defaults {
    /// More regular partitions than this in one group: the group is merged by SMOpt.
    pub const MAX_PATTERNS: usize = 16;
}

/// Options of PAT.
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(feature = "cli", derive(clap::Args))]
pub struct PatConfig {
    /// PAT: more regular partitions than this in one loop-exit group make the group fall
    /// back to SMOpt merging (1 to 10^6).
    #[cfg_attr(feature = "cli", arg(
        id = "max-patterns",
        long = "max-patterns",
        value_name = "N",
        default_value_t = defaults::MAX_PATTERNS,
        value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=1_000_000),
    ))]
    pub max_patterns: usize,
}

impl Default for PatConfig {
    fn default() -> Self {
        PatConfig {
            max_patterns: defaults::MAX_PATTERNS,
        }
    }
}

/// Counters of PAT (`summary.json`'s `symbolic_size.pat`).
#[derive(Clone, Debug, Default, Serialize)]
pub struct PatStats {
    /// Exit groups PAT looked at.
    pub groups: u64,
    /// Regular partitions merged into one quantified state.
    pub pattern_merges: u64,
    /// Leaves merged by pattern.
    pub pattern_leaves: u64,
    /// Leaves left without a pattern (merged by SMOpt, or alone).
    pub leaves_without_pattern: u64,
    /// Groups merged by SMOpt because they had more partitions than the cap.
    pub cap_fallbacks: u64,
    /// Groups merged by SMOpt because sibling conditions hashed alike.
    pub invalid_hash_fallbacks: u64,
    /// Candidate partitions whose conditions did not fit a formula pattern.
    pub synthesis_failures: u64,
    /// Merged values written as a term `t(k)`.
    pub term_values: u64,
    /// Merged values written as `ite(k = k_j, …)`.
    pub ite_values: u64,
    /// AST nodes of the quantified merged path conditions, summed.
    pub merged_constraints_ast: u64,
    /// Pattern merges checked against Theorem 6.2.7 (`--validate-merge`).
    pub validated_merges: u64,
    /// Pattern merges whose check failed.
    pub validation_failures: u64,
    /// Bound constants `k` made (names `pat_kN`).
    pub bounds: u64,
    /// Seconds spent in pattern discovery, synthesis and merging.
    pub time_s: f64,
}
