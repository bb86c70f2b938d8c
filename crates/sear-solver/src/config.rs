//! The solver configuration: which layers run, which core, limits, logging and checking.

use std::path::PathBuf;
use std::time::Duration;

use sear_expr::ReadPolicy;

/// Which core decides the queries that pass every layer.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum CoreKind {
    /// Z3 with native arrays.
    Z3,
    /// Z3 with native arrays and the assertion encoding of constant arrays (KLEE PR #837;
    /// the paper's "Assertion" baseline): see [`crate::eager`].
    Eager,
    /// The CEGAR array core over Z3's bit-vectors: see [`crate::cegar`].
    Cegar,
    /// Z3 under a short budget, then the eager core: see [`crate::portfolio`].
    Portfolio,
    /// Z3 and the eager core racing in two threads: see [`crate::parallel`].
    Parallel,
    /// Bitwuzla with native arrays and constant arrays: see [`crate::bitwuzla`].
    Bitwuzla,
    /// The eager core's assertion encoding of constant arrays over Bitwuzla instead of Z3:
    /// see [`crate::eager`].
    BitwuzlaEager,
    /// Bitwuzla with native arrays under a short budget (`--core-switch-time`), then the
    /// eager encoding over Bitwuzla: see [`crate::portfolio`].
    BitwuzlaPortfolio,
    /// The eager encoding over Bitwuzla under a short budget (`--core-switch-time`), then
    /// over Z3: see [`crate::portfolio`]. The default: Bitwuzla answers most queries
    /// fastest, Z3 the ones where Bitwuzla stalls (docs/benchmarks.md, "Defaults").
    #[default]
    EagerPortfolio,
}

impl CoreKind {
    /// The core's name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            CoreKind::Z3 => "z3",
            CoreKind::Eager => "eager",
            CoreKind::Cegar => "cegar",
            CoreKind::Portfolio => "portfolio",
            CoreKind::Parallel => "parallel",
            CoreKind::Bitwuzla => "bitwuzla",
            CoreKind::BitwuzlaEager => "bitwuzla-eager",
            CoreKind::BitwuzlaPortfolio => "bitwuzla-portfolio",
            CoreKind::EagerPortfolio => "eager-portfolio",
        }
    }
}

/// The core that decides quantified queries the procedure of [`crate::quantified`] leaves
/// open (`--quantified-core`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum QuantifiedCore {
    /// Z3 (model-based quantifier instantiation over bit-vectors and arrays).
    Z3,
    /// Bitwuzla 0.8 (quantified bit-vectors and arrays): the default, 2–6× faster than Z3
    /// on PAT's queries (docs/techniques/quantified-merging.md).
    #[default]
    Bitwuzla,
}

/// The quantified-query stage ([`crate::quantified`]), present when `stage` is set.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct QuantifiedConfig {
    /// Put the stage in the chain (between the query cache and the counterexample cache).
    /// Default: off; the engine sets it for `--sym-size-mode=pat`, `sear solve` for scripts
    /// with a `forall`.
    pub stage: bool,
    /// Skip the procedure (strip, duplicate, repair): every quantified query goes to the
    /// quantified core (the thesis's "PAT with plain Z3" ablation). Default: off.
    pub core_only: bool,
    /// The core for what the procedure leaves open. Default: Bitwuzla.
    pub core: QuantifiedCore,
    /// Cross-check every answer of the procedure against Z3 (the oracle, whichever the
    /// quantified core is). Default: off.
    pub validate: bool,
}

/// Which axiom eliminations the CEGAR core applies (`--axiom-elim`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum AxiomElim {
    /// Every axiom of the family.
    None,
    /// Only offsets congruent to the index term's residue modulo the access size.
    Type,
    /// Only offsets inside the index term's interval (from the pre-check).
    Interval,
    /// Both.
    #[default]
    Both,
}

impl AxiomElim {
    /// True if type (residue) elimination is on.
    pub fn by_type(self) -> bool {
        matches!(self, AxiomElim::Type | AxiomElim::Both)
    }
    /// True if interval elimination is on.
    pub fn by_interval(self) -> bool {
        matches!(self, AxiomElim::Interval | AxiomElim::Both)
    }
}

/// Which axioms of the pool a CEGAR refinement adds (`--cegar-select`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum CegarSelect {
    /// Only the axioms the model violates (the paper's literal policy).
    Violated,
    /// For every read term with a violated axiom, all of its remaining axioms.
    #[default]
    Siblings,
    /// The whole (reduced) pool at once, before the first check (Ackermannisation).
    Eager,
}

/// Options of the CEGAR core and of the pre-check.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct ArrayConfig {
    /// Axiom elimination. Default: both.
    pub axiom_elim: AxiomElim,
    /// Refinement policy. Default: siblings.
    pub select: CegarSelect,
    /// The equisatisfiable extras of the spec's §7.2 (vacuous symbolic cells, disjoint
    /// intervals, constant index differences, pairwise axioms of constant arrays). Default:
    /// on; off gives the paper's axiom counts.
    pub axiom_extras: bool,
    /// Assert each index term's interval in the abstraction. Default: on.
    pub interval_constraints: bool,
    /// Confirm every pre-check UNSAT with a plain Z3 core; a disagreement is a solver
    /// failure. Default: off.
    pub precheck_validate: bool,
    /// Largest number of linear rows the pre-check builds for one query before giving up.
    pub precheck_max_rows: usize,
    /// The portfolio cores' budget per query for their first core before they ask the
    /// second.
    #[serde(serialize_with = "crate::config::secs::serialize")]
    pub portfolio_switch: Duration,
    /// How the eager core rebuilds reads when it moves constant arrays onto their twins:
    /// the run's read policy (`--no-array-folding`: stock reads, so that the ablation's
    /// queries keep their unfolded reads). Default: folding.
    #[serde(skip)]
    pub reads: ReadPolicy,
}

impl Default for ArrayConfig {
    fn default() -> Self {
        ArrayConfig {
            axiom_elim: AxiomElim::Both,
            select: CegarSelect::Siblings,
            axiom_extras: true,
            interval_constraints: true,
            precheck_validate: false,
            portfolio_switch: crate::portfolio::DEFAULT_SWITCH_TIME,
            precheck_max_rows: 2_000,
            reads: ReadPolicy::Fold,
        }
    }
}

/// Where the query log sits in the chain.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum LogScope {
    /// Every query the facade issues (top of the chain).
    #[default]
    All,
    /// Only queries that reach the core.
    Core,
}

/// Writing queries as SMT-LIB2 files.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct QueryLog {
    /// The directory receiving `queryNNNNNN.smt2` files (created if missing).
    pub dir: PathBuf,
    /// Which queries are written.
    pub scope: LogScope,
}

/// The configuration of a [`crate::Solver`].
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct SolverConfig {
    /// Constraint independence slicing. Default: on.
    pub independence: bool,
    /// The exact query cache. Default: on.
    pub query_cache: bool,
    /// The counterexample cache. Default: on.
    pub cex_cache: bool,
    /// The core solver. Default: [`CoreKind::Eager`].
    pub core: CoreKind,
    /// Per-query time limit of the core. Default: none.
    #[serde(serialize_with = "crate::config::secs::serialize_opt")]
    pub timeout: Option<Duration>,
    /// Write queries as SMT-LIB2. Default: off.
    pub log_queries: Option<QueryLog>,
    /// Cross-check every answer of the chain against a plain Z3 core and check every model by
    /// evaluation; a disagreement is a [`crate::SolverError::Failure`]. Default: off.
    pub validate: bool,
    /// The ILP UNSAT pre-check between the counterexample cache and the core. Default: off.
    pub ilp_precheck: bool,
    /// Options of the CEGAR core and the pre-check.
    pub array: ArrayConfig,
    /// The address-aware query cache above the chain, for queries that come with an
    /// address-agnostic form (spec 003 Ch. 4: [`crate::aa`]). Default: off.
    pub aa_cache: bool,
    /// Cross-check every hit of the address-aware cache against the chain; a disagreement
    /// is a [`crate::SolverError::Failure`]. Default: off.
    pub validate_caching: bool,
    /// The quantified-query stage.
    pub quantified: QuantifiedConfig,
    /// The byte search below the counterexample cache ([`crate::layers::ByteSearch`]): a
    /// query over a few input bytes decided by a search over their values, while the core
    /// is slow. Default: on.
    pub byte_search: bool,
    /// Answer a query whose condition the unsigned intervals of its terms decide
    /// ([`sear_expr::interval`]) without asking the chain. Default: on.
    pub interval_answers: bool,
}

impl Default for SolverConfig {
    fn default() -> Self {
        SolverConfig {
            independence: true,
            query_cache: true,
            cex_cache: true,
            core: CoreKind::default(),
            timeout: None,
            log_queries: None,
            validate: false,
            ilp_precheck: false,
            array: ArrayConfig::default(),
            aa_cache: false,
            validate_caching: false,
            quantified: QuantifiedConfig::default(),
            interval_answers: true,
            byte_search: true,
        }
    }
}

impl SolverConfig {
    /// The plain core: Z3 with native arrays, no layers, no logging, no validation (a
    /// differential-testing oracle).
    pub fn plain() -> Self {
        SolverConfig {
            core: CoreKind::Z3,
            independence: false,
            query_cache: false,
            cex_cache: false,
            interval_answers: false,
            byte_search: false,
            ..Default::default()
        }
    }
}

/// Durations in JSON as seconds (`f64`), as the statistics write them.
pub mod secs {
    use std::time::Duration;

    /// Writes a duration as seconds.
    pub fn serialize<S: serde::Serializer>(d: &Duration, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_f64(d.as_secs_f64())
    }

    /// Writes an optional duration as seconds or `null`.
    pub fn serialize_opt<S: serde::Serializer>(
        d: &Option<Duration>,
        s: S,
    ) -> Result<S::Ok, S::Error> {
        match d {
            Some(d) => s.serialize_f64(d.as_secs_f64()),
            None => s.serialize_none(),
        }
    }
}
