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
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, clap::ValueEnum, Serialize)]
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
pub struct SymSizeConfig {
    /// What a symbolic allocation size becomes. [default: concretize]
    pub mode: SymSizeMode,
    /// The capacity `c` of symbolic-size objects (`σ ≤ c`). [default: 100]
    pub capacity: u64,
    /// Merge groups larger than this are not merged. [default: 10,000]
    pub max_merge_states: usize,
    /// Check every loop merge against its unmerged states with the solver. [default: false]
    pub validate_merge: bool,
    /// Options of PAT (`pat`).
    pub pat: crate::pat::PatConfig,
}

impl Default for SymSizeConfig {
    fn default() -> Self {
        SymSizeConfig {
            mode: SymSizeMode::default(),
            capacity: defaults::CAPACITY,
            max_merge_states: defaults::MAX_MERGE_STATES,
            validate_merge: false,
            pat: Default::default(),
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
