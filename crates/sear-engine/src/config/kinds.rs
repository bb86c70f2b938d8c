//! The enumerated options of [`super::EngineConfig`]: the searchers and the memory model.

use std::fmt;

use crate::search::weighted::Weight;

/// A search strategy (`--search`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SearchKind {
    /// Depth-first.
    Dfs,
    /// Breadth-first.
    Bfs,
    /// Uniformly random state.
    RandomState,
    /// Random walk of the process tree (KLEE's random-path).
    RandomPath,
    /// KLEE's non-uniform random searchers (`nurs:covnew`, `nurs:md2u`, ...).
    Nurs(Weight),
}

impl SearchKind {
    /// Every searcher, in the order `--help` lists them.
    pub const ALL: [SearchKind; 11] = [
        SearchKind::Dfs,
        SearchKind::Bfs,
        SearchKind::RandomState,
        SearchKind::RandomPath,
        SearchKind::Nurs(Weight::CovNew),
        SearchKind::Nurs(Weight::MinDistToUncovered),
        SearchKind::Nurs(Weight::Depth),
        SearchKind::Nurs(Weight::RandomPath),
        SearchKind::Nurs(Weight::InstCount),
        SearchKind::Nurs(Weight::CallPathInstCount),
        SearchKind::Nurs(Weight::QueryCost),
    ];

    /// The KLEE name.
    pub fn name(self) -> &'static str {
        match self {
            SearchKind::Dfs => "dfs",
            SearchKind::Bfs => "bfs",
            SearchKind::RandomState => "random-state",
            SearchKind::RandomPath => "random-path",
            SearchKind::Nurs(weight) => weight.name(),
        }
    }
}

/// The KLEE name.
impl fmt::Display for SearchKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

// Written by hand rather than derived: the `nurs:*` searchers share one variant.
#[cfg(feature = "cli")]
impl clap::ValueEnum for SearchKind {
    fn value_variants<'a>() -> &'a [Self] {
        &Self::ALL
    }

    fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
        let value = clap::builder::PossibleValue::new(self.name());
        Some(match self {
            SearchKind::Nurs(Weight::CovNew) => value.alias("covnew"),
            _ => value,
        })
    }
}

impl serde::Serialize for SearchKind {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

/// The memory model (`--memory-model`); the engine builds it
/// ([`crate::memory::build_model`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, serde::Serialize)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "kebab-case")]
pub enum MemoryModelKind {
    /// KLEE's: concrete addresses from deterministic bump allocators, one path per object a
    /// symbolic pointer may point into.
    #[default]
    Standard,
    /// Seed 003's relocatable addresses (`--use-sym-addr`): symbolic bases bound to hidden
    /// addresses, with DSMM and splitting as configured.
    Relocatable,
}

/// How floating-point operations meet symbolic operands (`--fp`; issue 34).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, serde::Serialize)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "kebab-case")]
pub enum FpMode {
    /// `float`/`double` operations build floating-point expressions (solved with the FP
    /// theory of Bitwuzla or Z3); `long double` and transcendental functions are still
    /// concretised, with a warning naming them.
    #[default]
    Symbolic,
    /// Every floating-point operand that is symbolic is concretised, with a warning (KLEE's
    /// behaviour).
    Concretize,
}
