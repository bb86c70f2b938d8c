//! The options of the symbolic-size model (seed 003, Chapter 5;
//! docs/techniques/symbolic-size.md).

use sear_engine::sym_size::{defaults, SymSizeConfig, SymSizeMode};
use sear_engine::EngineConfig;

/// Symbolic-size options of `sear run`.
#[derive(Debug, clap::Args)]
pub struct SymSizeArgs {
    /// What an allocation of a symbolic size gets: `concretize` (one size, as KLEE), `max`
    /// (the largest feasible size under --capacity), `fork-eager` (one path per feasible
    /// size), `fork-lazy` (an object of symbolic size σ ≤ capacity; accesses are checked
    /// against σ), `sm` (fork-lazy plus merging of size-dependent loops), `smopt` (sm with
    /// the execution-tree encodings) or `pat` (smopt with pattern-based merging into
    /// quantified states).
    #[arg(long, value_enum, value_name = "MODE", default_value_t = SymSizeMode::default())]
    pub sym_size_mode: SymSizeMode,
    /// The capacity of symbolic-size objects (1 to 2^30 bytes): σ ≤ capacity is added to the
    /// path condition (raised while infeasible).
    #[arg(long, value_name = "BYTES", default_value_t = defaults::CAPACITY, value_parser = clap::value_parser!(u64).range(1..=1 << 30))]
    pub capacity: u64,
    /// Loop-merge groups with more paths than this are not merged (1 to 10^7; sm, smopt).
    #[arg(long, value_name = "N", default_value_t = defaults::MAX_MERGE_STATES as u64, value_parser = clap::value_parser!(u64).range(1..=10_000_000))]
    pub max_merge_states: u64,
    /// Check every loop merge against the paths it merges with the solver (sm, smopt):
    /// equivalent path conditions, and equal values under each path.
    #[arg(long)]
    pub validate_merge: bool,
    /// PAT: more regular partitions than this in one loop-exit group make the group fall
    /// back to SMOpt merging (1 to 10^6).
    #[arg(long, value_name = "N", default_value_t = sear_engine::pat::defaults::MAX_PATTERNS as u64, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    pub max_patterns: u64,
    /// Incremental merging inside size-dependent loops (seed 003 §6.3; sm, smopt, pat): a new
    /// path of a loop's execution tree merges with the highest earlier node at the same place
    /// with the same live variables; snapshots of the tree's nodes are kept (on/off).
    #[arg(long, value_name = "on|off", default_value = "off", value_parser = ["on", "off"])]
    pub incremental_merge: String,
}

impl SymSizeArgs {
    /// Sets the symbolic-size options in `config`; an error for an option sear does not
    /// implement.
    pub fn apply(&self, config: &mut EngineConfig) -> anyhow::Result<()> {
        let incremental = self.incremental_merge == "on";
        if incremental && !self.sym_size_mode.merges() {
            anyhow::bail!(
                "--incremental-merge=on merges inside size-dependent loops: it needs \
                 --sym-size-mode=sm, smopt or pat (got {})",
                self.sym_size_mode.name()
            );
        }
        config.sym_size = SymSizeConfig {
            mode: self.sym_size_mode,
            capacity: self.capacity,
            max_merge_states: self.max_merge_states as usize,
            validate_merge: self.validate_merge,
            pat: sear_engine::pat::PatConfig {
                max_patterns: self.max_patterns as usize,
                incremental,
            },
        };
        Ok(())
    }
}
