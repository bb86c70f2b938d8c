//! Bounded symbolic-size objects (seed 003, Chapter 5; spec `003-thesis.md` §4).
//!
//! An allocation whose size is a symbolic expression σ gets, depending on
//! `--sym-size-mode` ([`SymSizeMode`]):
//!
//! * `concretize` — KLEE's behaviour (`executor/alloc_size.rs`): one size is chosen, the
//!   others are not explored (the default);
//! * `max` — the thesis's *Base*: σ is fixed to its largest feasible value under the capacity;
//! * `fork-eager` — one path per feasible value of σ ≤ capacity, each with a concrete size;
//! * `fork-lazy` — an object `(b, σ, c, a)`: `c` cells and a `c`-byte address interval, the
//!   capacity constraint `σ ≤ c` in the path condition, and every access checked against σ
//!   (`memory::in_bounds` with the object's `size_expr()`), forking on demand;
//! * `sm` — `fork-lazy` plus merging of the paths of size-dependent loops
//!   (`crate::loop_merge`, Algorithms 3 and 4);
//! * `smopt` — `sm` with the execution-tree encodings (Algorithms 5 and 6);
//! * `pat` — `smopt` with pattern-based merging into quantified states (`crate::pat`,
//!   seed 003 Ch. 6).
//!
//! The capacity (`--capacity`) is raised gradually (+20, +40, +80, ... bytes) while
//! `σ ≤ c` is infeasible, and lowered to σ's largest feasible value when the path already
//! implies `σ ≤ c` (the cells above would never be accessed; the thesis's §4.6 notes them
//! as clutter in merged arrays). The atomic variables of σ (the input bytes it reads) are *tainted*
//! ([`taint::Taint`]): a fork inside a loop on a tainted condition marks the loop as
//! size-dependent. The allocation itself is in `executor/sym_alloc.rs`.

pub mod taint;

use serde::Serialize;

/// How an allocation with a symbolic size is handled (`--sym-size-mode`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "kebab-case")]
pub enum SymSizeMode {
    /// Fix one feasible size, as KLEE does; the other sizes are not explored.
    #[default]
    Concretize,
    /// Fix the largest feasible size under the capacity (the thesis's Base).
    Max,
    /// Fork one path per feasible size under the capacity, at the allocation.
    ForkEager,
    /// A symbolic-size object; accesses fork on demand; no merging.
    ForkLazy,
    /// A symbolic-size object, and merging of size-dependent loops (SM).
    Sm,
    /// SM with the execution-tree encodings of merged conditions and values (SMOpt).
    Smopt,
    /// SMOpt with pattern-based merging into quantified states (PAT, seed 003 Ch. 6).
    Pat,
}

impl SymSizeMode {
    /// True for the modes that make symbolic-size objects.
    pub fn symbolic(self) -> bool {
        matches!(
            self,
            SymSizeMode::ForkLazy | SymSizeMode::Sm | SymSizeMode::Smopt | SymSizeMode::Pat
        )
    }

    /// True for the modes that merge size-dependent loops.
    pub fn merges(self) -> bool {
        matches!(
            self,
            SymSizeMode::Sm | SymSizeMode::Smopt | SymSizeMode::Pat
        )
    }

    /// The option's spelling.
    pub fn name(self) -> &'static str {
        match self {
            SymSizeMode::Concretize => "concretize",
            SymSizeMode::Max => "max",
            SymSizeMode::ForkEager => "fork-eager",
            SymSizeMode::ForkLazy => "fork-lazy",
            SymSizeMode::Sm => "sm",
            SymSizeMode::Smopt => "smopt",
            SymSizeMode::Pat => "pat",
        }
    }
}

/// The defaults of [`SymSizeConfig`], written once.
pub mod defaults {
    /// Capacity of a symbolic-size object (bytes), as the thesis's artifact.
    pub const CAPACITY: u64 = 100;
    /// A merge group larger than this is not merged (the thesis's 10,000).
    pub const MAX_MERGE_STATES: usize = 10_000;
    /// The first raise of an infeasible capacity (then doubled each time).
    pub const CAPACITY_STEP: u64 = 20;
}

/// The options of the symbolic-size model.
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(feature = "cli", derive(clap::Args))]
pub struct SymSizeConfig {
    /// What an allocation of a symbolic size gets: `concretize` (one size, as KLEE), `max`
    /// (the largest feasible size under --capacity), `fork-eager` (one path per feasible
    /// size), `fork-lazy` (an object of symbolic size σ ≤ capacity; accesses are checked
    /// against σ), `sm` (fork-lazy plus merging of size-dependent loops), `smopt` (sm with
    /// the execution-tree encodings) or `pat` (smopt with pattern-based merging into
    /// quantified states).
    #[cfg_attr(feature = "cli", arg(
        id = "sym-size-mode",
        long = "sym-size-mode",
        value_enum,
        value_name = "MODE",
        default_value_t = SymSizeMode::default(),
    ))]
    pub mode: SymSizeMode,
    /// The capacity of symbolic-size objects (1 to 2^30 bytes): σ ≤ capacity is added to the
    /// path condition (raised while infeasible).
    #[cfg_attr(feature = "cli", arg(
        id = "capacity",
        long = "capacity",
        value_name = "BYTES",
        default_value_t = defaults::CAPACITY,
        value_parser = clap::value_parser!(u64).range(1..=1 << 30),
    ))]
    pub capacity: u64,
    /// Loop-merge groups with more paths than this are not merged (1 to 10^7; sm, smopt).
    #[cfg_attr(feature = "cli", arg(
        id = "max-merge-states",
        long = "max-merge-states",
        value_name = "N",
        default_value_t = defaults::MAX_MERGE_STATES,
        value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=10_000_000),
    ))]
    pub max_merge_states: usize,
    /// Check every loop merge against the paths it merges with the solver (sm, smopt):
    /// equivalent path conditions, and equal values under each path.
    #[cfg_attr(feature = "cli", arg(id = "validate-merge", long = "validate-merge"))]
    pub validate_merge: bool,
    /// Options of PAT (`pat`).
    #[cfg_attr(feature = "cli", command(flatten))]
    pub pat: crate::pat::PatConfig,
    /// Incremental merging (sm, smopt, pat).
    #[cfg_attr(feature = "cli", command(flatten))]
    pub incremental: crate::loop_merge::incremental::IncrementalConfig,
}

impl SymSizeConfig {
    /// Refuses options that need a mode other than the one chosen.
    pub fn check(&self) -> Result<(), String> {
        if self.incremental.enabled && !self.mode.merges() {
            return Err(format!(
                "--incremental-merge=on merges inside size-dependent loops: it needs \
                 --sym-size-mode=sm, smopt or pat (got {})",
                self.mode.name()
            ));
        }
        Ok(())
    }
}

impl Default for SymSizeConfig {
    fn default() -> Self {
        SymSizeConfig {
            mode: SymSizeMode::default(),
            capacity: defaults::CAPACITY,
            max_merge_states: defaults::MAX_MERGE_STATES,
            validate_merge: false,
            pat: Default::default(),
            incremental: Default::default(),
        }
    }
}

/// Allocation counters of the symbolic-size model (`summary.json`'s `symbolic_size`).
#[derive(Clone, Debug, Default, Serialize)]
pub struct AllocStats {
    /// Allocations whose size was symbolic (in any mode).
    pub symbolic_size_allocations: u64,
    /// Objects created with a symbolic size (fork-lazy, sm, smopt).
    pub symbolic_size_objects: u64,
    /// Times a capacity was raised because `σ ≤ c` was infeasible.
    pub capacity_raises: u64,
    /// Allocations where the capacity constraint cut larger sizes off the path condition.
    pub capacity_bounded: u64,
    /// Allocations whose capacity was lowered to σ's largest feasible value (the path
    /// already bounded σ below `--capacity`).
    pub tightened_capacities: u64,
    /// Paths forked at allocations by fork-eager.
    pub eager_forks: u64,
    /// Sizes fixed by max.
    pub max_concretisations: u64,
}
