//! The solver configuration: which layers run, which core, limits, logging and checking.

#[cfg(feature = "cli")]
use clap::builder::TypedValueParser as _;
use std::path::PathBuf;
use std::time::Duration;

use sear_expr::ReadPolicy;

/// Which core decides the queries that pass every layer.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
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
    /// fastest, Z3 the ones where Bitwuzla stalls (docs/benchmarks.md, "Today's defaults").
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
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
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
#[cfg_attr(feature = "cli", derive(clap::Args))]
pub struct QuantifiedConfig {
    /// Put the stage in the chain (between the query cache and the counterexample cache):
    /// the engine sets it for `--sym-size-mode=pat`, `sear solve` for scripts with a
    /// `forall`.
    #[cfg_attr(feature = "cli", arg(skip))]
    pub stage: bool,
    /// The procedure for quantified queries (strip, duplicate, repair) before the
    /// quantified core (on/off; off sends every quantified query to the core).
    // The field is the procedure's absence: every quantified query goes to the quantified
    // core (the thesis's "PAT with plain Z3" ablation).
    #[cfg_attr(feature = "cli", arg(
        id = "quantified-procedure",
        long = "quantified-procedure",
        value_name = "on|off",
        num_args = 0..=1,
        require_equals = true,
        default_missing_value = "on",
        default_value = crate::cli::shown_switch(!QuantifiedConfig::default().core_only),
        value_parser = crate::cli::switch().map(|on| !on),
    ))]
    pub core_only: bool,
    /// The core for the quantified queries the procedure leaves open.
    #[cfg_attr(feature = "cli", arg(
        id = "quantified-core",
        long = "quantified-core",
        value_name = "CORE",
        value_enum,
        default_value_t = QuantifiedCore::default(),
    ))]
    pub core: QuantifiedCore,
    /// Cross-check every answer of the quantified procedure against Z3.
    #[cfg_attr(
        feature = "cli",
        arg(id = "validate-quantified", long = "validate-quantified")
    )]
    pub validate: bool,
}

/// Which axiom eliminations the CEGAR core applies (`--axiom-elim`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
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
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
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
#[cfg_attr(feature = "cli", derive(clap::Args))]
pub struct ArrayConfig {
    /// Confirm every pre-check UNSAT with plain Z3 (a disagreement is a solver failure).
    #[cfg_attr(
        feature = "cli",
        arg(id = "validate-precheck", long = "validate-precheck")
    )]
    pub precheck_validate: bool,
    /// The portfolio cores' time budget per query for their first core (Z3, Bitwuzla with
    /// native arrays, or the eager encoding over Bitwuzla) before they ask the second
    /// (seconds, above 0 and at most 10^9).
    #[cfg_attr(feature = "cli", arg(
        id = "core-switch-time",
        long = "core-switch-time",
        value_name = "SECS",
        default_value = crate::cli::shown_seconds(crate::portfolio::DEFAULT_SWITCH_TIME),
        value_parser = crate::cli::positive_duration,
    ))]
    #[serde(serialize_with = "crate::config::secs::serialize")]
    pub portfolio_switch: Duration,
    /// The pre-check's limit on linear rows per query.
    #[cfg_attr(feature = "cli", arg(
        id = "precheck-max-rows",
        long = "precheck-max-rows",
        value_name = "N",
        default_value_t = ArrayConfig::default().precheck_max_rows,
    ))]
    pub precheck_max_rows: usize,
    /// CEGAR axiom elimination.
    #[cfg_attr(feature = "cli", arg(
        id = "axiom-elim",
        long = "axiom-elim",
        value_name = "MODE",
        value_enum,
        default_value_t = AxiomElim::default(),
    ))]
    pub axiom_elim: AxiomElim,
    /// CEGAR refinement policy.
    #[cfg_attr(feature = "cli", arg(
        id = "cegar-select",
        long = "cegar-select",
        value_name = "POLICY",
        value_enum,
        default_value_t = CegarSelect::default(),
    ))]
    pub select: CegarSelect,
    /// The equisatisfiable extra axiom eliminations (on/off).
    // The extras of the spec's §7.2: vacuous symbolic cells, disjoint intervals, constant
    // index differences, pairwise axioms of constant arrays; off gives the paper's axiom
    // counts.
    #[cfg_attr(feature = "cli", arg(
        id = "axiom-extras",
        long = "axiom-extras",
        value_name = "on|off",
        num_args = 0..=1,
        require_equals = true,
        default_missing_value = "on",
        default_value = crate::cli::shown_switch(ArrayConfig::default().axiom_extras),
        value_parser = crate::cli::switch(),
    ))]
    pub axiom_extras: bool,
    /// Assert the pre-check's index intervals in the CEGAR abstraction (on/off).
    #[cfg_attr(feature = "cli", arg(
        id = "cegar-interval-constraints",
        long = "cegar-interval-constraints",
        value_name = "on|off",
        num_args = 0..=1,
        require_equals = true,
        default_missing_value = "on",
        default_value = crate::cli::shown_switch(ArrayConfig::default().interval_constraints),
        value_parser = crate::cli::switch(),
    ))]
    pub interval_constraints: bool,
    /// How the eager core rebuilds reads when it moves constant arrays onto their twins:
    /// the run's read policy (`--no-array-folding`: stock reads, so that the ablation's
    /// queries keep their unfolded reads); the engine sets it.
    #[serde(skip)]
    #[cfg_attr(feature = "cli", arg(skip = ReadPolicy::Fold))]
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
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "kebab-case")]
pub enum LogScope {
    /// Every query the facade issues (top of the chain).
    #[default]
    All,
    /// Only queries that reach the core.
    Core,
}

/// Writing queries as SMT-LIB2 files.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "cli", derive(clap::Args))]
pub struct QueryLog {
    /// Write queries as SMT-LIB2 files into DIR.
    // The directory receives `queryNNNNNN.smt2` files (it is created if missing); none:
    // no log.
    #[cfg_attr(
        feature = "cli",
        arg(id = "log-queries", long = "log-queries", value_name = "DIR")
    )]
    pub dir: Option<PathBuf>,
    /// Which queries to log.
    #[cfg_attr(feature = "cli", arg(
        id = "log-scope",
        long = "log-scope",
        value_name = "SCOPE",
        value_enum,
        default_value_t = LogScope::default(),
    ))]
    pub scope: LogScope,
}

impl QueryLog {
    /// The directory of the log at `scope`, if queries are logged there.
    pub fn dir_at(&self, scope: LogScope) -> Option<&std::path::Path> {
        self.dir.as_deref().filter(|_| self.scope == scope)
    }
}

/// Written as `null` without a directory, else as `{dir, scope}`.
impl serde::Serialize for QueryLog {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let Some(dir) = &self.dir else {
            return s.serialize_none();
        };
        let mut log = s.serialize_struct("QueryLog", 2)?;
        log.serialize_field("dir", dir)?;
        log.serialize_field("scope", &self.scope)?;
        log.end()
    }
}

/// The configuration of a [`crate::Solver`]; with the `cli` feature, also the command-line
/// options that set it (`sear run` and `sear solve`).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "cli", derive(clap::Args))]
pub struct SolverConfig {
    /// Timeout per solver query, in seconds (0 = none: under `--max-time`, a quarter of it; at
    /// most 10^9).
    #[cfg_attr(feature = "cli", arg(
        id = "max-solver-time",
        long = "max-solver-time",
        value_name = "SECS",
        default_value = "0",
        value_parser = crate::cli::limit,
    ))]
    #[serde(serialize_with = "crate::config::secs::serialize_opt")]
    // Written out so that clap takes the parser's `Option` as the value, not as optional.
    pub timeout: ::std::option::Option<Duration>,
    /// Disable constraint-independence slicing.
    #[cfg_attr(feature = "cli", arg(id = "no-independence", long = "no-independence", action = clap::ArgAction::SetFalse))]
    pub independence: bool,
    /// Disable the exact query cache.
    #[cfg_attr(feature = "cli", arg(id = "no-query-cache", long = "no-query-cache", action = clap::ArgAction::SetFalse))]
    pub query_cache: bool,
    /// Disable the counterexample cache.
    #[cfg_attr(feature = "cli", arg(id = "no-cex-cache", long = "no-cex-cache", action = clap::ArgAction::SetFalse))]
    pub cex_cache: bool,
    /// Disable the answers decided by the intervals of a query's terms (bounds checks on
    /// table reads, comparisons outside a table's values) without a solver.
    // The answers come from the unsigned intervals of the terms ([`sear_expr::interval`]),
    // without asking the chain.
    #[cfg_attr(feature = "cli", arg(id = "no-interval-answers", long = "no-interval-answers", action = clap::ArgAction::SetFalse))]
    pub interval_answers: bool,
    /// Disable the answers decided by the path condition's equalities (KLEE's
    /// simplification of a query against its constraints: a term the path fixed to a
    /// constant replaced by it, a constraint by true) without a solver.
    // [`crate::equalities`]; counted as `equality_implied`/`equality_contradicted` of the
    // `constant` layer.
    #[cfg_attr(feature = "cli", arg(id = "no-equality-answers", long = "no-equality-answers", action = clap::ArgAction::SetFalse))]
    pub equality_answers: bool,
    /// Disable the path simplification (KLEE's constraint manager: each new constraint, and
    /// each condition, pointer or value the engine asks about, rewritten by the terms the
    /// path condition already fixes before it is stored or asked).
    // [`crate::PathCondition::simplify`]; counted as `simplification` in `summary.json`.
    #[cfg_attr(feature = "cli", arg(id = "no-path-simplification", long = "no-path-simplification", action = clap::ArgAction::SetFalse))]
    pub path_simplification: bool,
    /// Disable the byte search (a query over a few input bytes decided by evaluation while
    /// the core is slow).
    // The search ([`crate::layers::ByteSearch`]) sits below the counterexample cache.
    #[cfg_attr(feature = "cli", arg(id = "no-byte-search", long = "no-byte-search", action = clap::ArgAction::SetFalse))]
    pub byte_search: bool,
    /// Disable the split of deep disjunctions (a query with a disjunction as deep as a
    /// loop, answered by one satisfiable disjunct before the whole formula goes to the core).
    // The layer ([`crate::layers::Disjuncts`]) sits below the query cache.
    #[cfg_attr(feature = "cli", arg(id = "no-disjunct-split", long = "no-disjunct-split", action = clap::ArgAction::SetFalse))]
    pub disjunct_split: bool,
    /// The floating-point search (on/off): a model of a query with floating-point nodes
    /// looked for by evaluating candidate values of its float inputs and a local search
    /// from them, before the core (SAT answers only; the bare flag means on).
    // The search ([`crate::layers::FpSearch`]) sits between the counterexample cache and
    // the byte search; its budget is a number of evaluations, not time.
    #[cfg_attr(feature = "cli", arg(
        id = "fp-search",
        long = "fp-search",
        value_name = "on|off",
        num_args = 0..=1,
        require_equals = true,
        default_missing_value = "on",
        default_value = crate::cli::shown_switch(SolverConfig::default().fp_search),
        value_parser = crate::cli::switch(),
    ))]
    pub fp_search: bool,
    /// The query log.
    #[cfg_attr(feature = "cli", command(flatten))]
    pub log_queries: QueryLog,
    /// Cross-check every answer against plain Z3 and validate every model.
    // A disagreement is a [`crate::SolverError::Failure`].
    #[cfg_attr(feature = "cli", arg(id = "validate-solver", long = "validate-solver"))]
    pub validate: bool,
    /// The core solver. The default, eager-portfolio, measured fastest on the bench suite
    /// (docs/benchmarks.md, "Today's defaults").
    #[cfg_attr(feature = "cli", arg(
        id = "core-solver",
        long = "core-solver",
        value_name = "CORE",
        value_enum,
        default_value_t = CoreKind::default(),
    ))]
    pub core: CoreKind,
    /// The ILP UNSAT pre-check before the core (on/off; the bare flag means on).
    // It sits between the counterexample cache and the core.
    #[cfg_attr(feature = "cli", arg(
        id = "ilp-precheck",
        long = "ilp-precheck",
        value_name = "on|off",
        num_args = 0..=1,
        require_equals = true,
        default_missing_value = "on",
        default_value = crate::cli::shown_switch(SolverConfig::default().ilp_precheck),
        value_parser = crate::cli::switch(),
    ))]
    pub ilp_precheck: bool,
    /// Options of the CEGAR core and the pre-check.
    #[cfg_attr(feature = "cli", command(flatten))]
    pub array: ArrayConfig,
    /// The quantified-query stage.
    #[cfg_attr(feature = "cli", command(flatten))]
    pub quantified: QuantifiedConfig,
    /// The address-aware query cache above the chain, for queries that come with an
    /// address-agnostic form (spec 003 Ch. 4: [`crate::aa`]); set by the relocatable
    /// model's options (`--use-aa-cache`).
    #[cfg_attr(feature = "cli", arg(skip))]
    pub aa_cache: bool,
    /// Cross-check every hit of the address-aware cache against the chain; a disagreement
    /// is a [`crate::SolverError::Failure`] (`--validate-caching`).
    #[cfg_attr(feature = "cli", arg(skip))]
    pub validate_caching: bool,
}

impl Default for SolverConfig {
    fn default() -> Self {
        SolverConfig {
            independence: true,
            query_cache: true,
            cex_cache: true,
            core: CoreKind::default(),
            timeout: None,
            log_queries: QueryLog::default(),
            validate: false,
            ilp_precheck: false,
            array: ArrayConfig::default(),
            aa_cache: false,
            validate_caching: false,
            quantified: QuantifiedConfig::default(),
            interval_answers: true,
            equality_answers: true,
            path_simplification: true,
            byte_search: true,
            disjunct_split: true,
            fp_search: true,
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
            equality_answers: false,
            path_simplification: false,
            byte_search: false,
            disjunct_split: false,
            fp_search: false,
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
