//! Solver options shared by `sear run` and `sear solve`.

use std::path::PathBuf;
use std::time::Duration;

use anyhow::{bail, Context, Result};
use sear_expr::ReadPolicy;
use sear_solver::{
    ArrayConfig, AxiomElim, CegarSelect, CoreKind, LogScope, QuantifiedConfig, QuantifiedCore,
    QueryLog, SolverConfig,
};

/// Options of the solver chain.
#[derive(Debug, Clone, clap::Args)]
pub struct SolverArgs {
    /// Timeout per solver query, in seconds (0 = none: under `--max-time`, a quarter of it; at
    /// most 10^9).
    #[arg(long, value_name = "SECS", default_value_t = 0.0, value_parser = crate::values::seconds)]
    pub max_solver_time: f64,
    /// Disable constraint-independence slicing.
    #[arg(long)]
    pub no_independence: bool,
    /// Disable the exact query cache.
    #[arg(long)]
    pub no_query_cache: bool,
    /// Disable the counterexample cache.
    #[arg(long)]
    pub no_cex_cache: bool,
    /// Disable the answers decided by the intervals of a query's terms (bounds checks on
    /// table reads, comparisons outside a table's values) without a solver.
    #[arg(long)]
    pub no_interval_answers: bool,
    /// Disable the byte search (a query over a few input bytes decided by evaluation while
    /// the core is slow).
    #[arg(long)]
    pub no_byte_search: bool,
    /// Write queries as SMT-LIB2 files into DIR.
    #[arg(long, value_name = "DIR")]
    pub log_queries: Option<PathBuf>,
    /// Which queries to log.
    #[arg(long, value_name = "SCOPE", value_enum, default_value_t = LogScope::default())]
    pub log_scope: LogScope,
    /// Cross-check every answer against plain Z3 and validate every model.
    #[arg(long)]
    pub validate_solver: bool,
    /// The core solver. The default, eager-portfolio, measured fastest on the bench suite
    /// (docs/benchmarks.md, "Defaults").
    #[arg(long, value_name = "CORE", value_enum, default_value_t = CoreKind::default())]
    pub core_solver: CoreKind,
    /// The ILP UNSAT pre-check before the core (on/off; the bare flag means on).
    #[arg(long, value_name = "on|off", num_args = 0..=1, require_equals = true, default_missing_value = "on", default_value = "off")]
    pub ilp_precheck: String,
    /// Confirm every pre-check UNSAT with plain Z3 (a disagreement is a solver failure).
    #[arg(long)]
    pub validate_precheck: bool,
    /// The portfolio cores' time budget per query for their first core (Z3, Bitwuzla with
    /// native arrays, or the eager encoding over Bitwuzla) before they ask the second
    /// (seconds, above 0 and at most 10^9).
    #[arg(long, value_name = "SECS", default_value_t = ArrayConfig::default().portfolio_switch.as_secs_f64(), value_parser = crate::values::positive_seconds)]
    pub core_switch_time: f64,
    /// The pre-check's limit on linear rows per query.
    #[arg(long, value_name = "N", default_value_t = ArrayConfig::default().precheck_max_rows)]
    pub precheck_max_rows: usize,
    /// CEGAR axiom elimination.
    #[arg(long, value_name = "MODE", value_enum, default_value_t = AxiomElim::default())]
    pub axiom_elim: AxiomElim,
    /// CEGAR refinement policy.
    #[arg(long, value_name = "POLICY", value_enum, default_value_t = CegarSelect::default())]
    pub cegar_select: CegarSelect,
    /// The equisatisfiable extra axiom eliminations (on/off).
    #[arg(long, value_name = "on|off", default_value = "on")]
    pub axiom_extras: String,
    /// Assert the pre-check's index intervals in the CEGAR abstraction (on/off).
    #[arg(long, value_name = "on|off", default_value = "on")]
    pub cegar_interval_constraints: String,
    /// The procedure for quantified queries (strip, duplicate, repair) before the
    /// quantified core (on/off; off sends every quantified query to the core).
    #[arg(long, value_name = "on|off", default_value = "on")]
    pub quantified_procedure: String,
    /// The core for the quantified queries the procedure leaves open.
    #[arg(long, value_name = "CORE", value_enum, default_value_t = QuantifiedCore::default())]
    pub quantified_core: QuantifiedCore,
    /// Cross-check every answer of the quantified procedure against Z3.
    #[arg(long)]
    pub validate_quantified: bool,
}

fn on_off(flag: &str, value: &str) -> Result<bool> {
    match value {
        "on" | "true" | "1" => Ok(true),
        "off" | "false" | "0" => Ok(false),
        other => bail!("unknown --{flag} value '{other}' (expected on or off)"),
    }
}

impl SolverArgs {
    /// The solver configuration these options describe.
    pub fn to_config(&self) -> Result<SolverConfig> {
        let scope = self.log_scope;
        if self.max_solver_time < 0.0 || !self.max_solver_time.is_finite() {
            bail!("--max-solver-time must be a non-negative number of seconds");
        }
        let (core, axiom_elim, select) = (self.core_solver, self.axiom_elim, self.cegar_select);
        let array = ArrayConfig {
            axiom_elim,
            select,
            axiom_extras: on_off("axiom-extras", &self.axiom_extras)?,
            interval_constraints: on_off(
                "cegar-interval-constraints",
                &self.cegar_interval_constraints,
            )?,
            precheck_validate: self.validate_precheck,
            precheck_max_rows: self.precheck_max_rows,
            portfolio_switch: Duration::try_from_secs_f64(self.core_switch_time)
                .ok()
                .filter(|d| !d.is_zero())
                .context("--core-switch-time must be a positive number of seconds")?,
            // The engine runs its solvers under its own read policy (`--no-array-folding`).
            reads: ReadPolicy::Fold,
        };
        Ok(SolverConfig {
            core,
            ilp_precheck: on_off("ilp-precheck", &self.ilp_precheck)?,
            array,
            independence: !self.no_independence,
            query_cache: !self.no_query_cache,
            cex_cache: !self.no_cex_cache,
            interval_answers: !self.no_interval_answers,
            byte_search: !self.no_byte_search,
            timeout: (self.max_solver_time > 0.0)
                .then(|| Duration::from_secs_f64(self.max_solver_time)),
            log_queries: self.log_queries.clone().map(|dir| QueryLog { dir, scope }),
            validate: self.validate_solver,
            // Set by the relocatable model's options (`--use-aa-cache`).
            aa_cache: false,
            validate_caching: false,
            quantified: QuantifiedConfig {
                // Set by the engine for --sym-size-mode=pat and by `sear solve` for
                // scripts with a quantifier.
                stage: false,
                core_only: !on_off("quantified-procedure", &self.quantified_procedure)?,
                core: self.quantified_core,
                validate: self.validate_quantified,
            },
        })
    }
}
