//! Solver options shared by `sear run` and `sear solve`.

use std::path::PathBuf;
use std::time::Duration;

use anyhow::{bail, Context, Result};
use sear_expr::ReadPolicy;
use sear_solver::{
    ArrayConfig, AxiomElim, CegarSelect, CoreKind, LogScope, QueryLog, SolverConfig,
};

/// Options of the solver chain.
#[derive(Debug, Clone, clap::Args)]
pub struct SolverArgs {
    /// Timeout per solver query, in seconds (0 = none; at most 10^9).
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
    /// Write queries as SMT-LIB2 files into DIR.
    #[arg(long, value_name = "DIR")]
    pub log_queries: Option<PathBuf>,
    /// Which queries to log: all (every query) or core (only those reaching the core).
    #[arg(long, value_name = "SCOPE", default_value = "all")]
    pub log_scope: String,
    /// Cross-check every answer against plain Z3 and validate every model.
    #[arg(long)]
    pub validate_solver: bool,
    /// The core solver: z3 (native arrays), eager (native arrays, constant arrays by
    /// assertions), cegar (CEGAR over bit-vectors with type/interval-reduced axioms),
    /// portfolio (z3 for --core-switch-time, then eager), parallel (z3 and eager racing in
    /// two threads), bitwuzla (Bitwuzla, native arrays) or bitwuzla-eager (the eager
    /// encoding over Bitwuzla). The default, eager, measured fastest on the bench suite
    /// (docs/benchmarks.md, "Defaults").
    #[arg(long, value_name = "CORE", default_value = "eager")]
    pub core_solver: String,
    /// The ILP UNSAT pre-check before the core (on/off; the bare flag means on).
    #[arg(long, value_name = "on|off", num_args = 0..=1, require_equals = true, default_missing_value = "on", default_value = "off")]
    pub ilp_precheck: String,
    /// Confirm every pre-check UNSAT with plain Z3 (a disagreement is a solver failure).
    #[arg(long)]
    pub validate_precheck: bool,
    /// The portfolio core's time budget for Z3 per query before it asks the eager core
    /// (seconds, above 0 and at most 10^9).
    #[arg(long, value_name = "SECS", default_value_t = ArrayConfig::default().portfolio_switch.as_secs_f64(), value_parser = crate::values::positive_seconds)]
    pub core_switch_time: f64,
    /// The pre-check's limit on linear rows per query.
    #[arg(long, value_name = "N", default_value_t = ArrayConfig::default().precheck_max_rows)]
    pub precheck_max_rows: usize,
    /// CEGAR axiom elimination: none, type, interval or both.
    #[arg(long, value_name = "MODE", default_value = "both")]
    pub axiom_elim: String,
    /// CEGAR refinement: violated (only violated axioms), siblings (all axioms of the
    /// violating read terms) or eager (the whole reduced pool up front).
    #[arg(long, value_name = "POLICY", default_value = "siblings")]
    pub cegar_select: String,
    /// The equisatisfiable extra axiom eliminations (on/off).
    #[arg(long, value_name = "on|off", default_value = "on")]
    pub axiom_extras: String,
    /// Assert the pre-check's index intervals in the CEGAR abstraction (on/off).
    #[arg(long, value_name = "on|off", default_value = "on")]
    pub cegar_interval_constraints: String,
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
        let scope = match self.log_scope.as_str() {
            "all" => LogScope::All,
            "core" => LogScope::Core,
            other => bail!("unknown --log-scope '{other}' (expected all or core)"),
        };
        if self.max_solver_time < 0.0 || !self.max_solver_time.is_finite() {
            bail!("--max-solver-time must be a non-negative number of seconds");
        }
        let core = match self.core_solver.as_str() {
            "z3" => CoreKind::Z3,
            "eager" => CoreKind::Eager,
            "cegar" => CoreKind::Cegar,
            "portfolio" => CoreKind::Portfolio,
            "parallel" => CoreKind::Parallel,
            "bitwuzla" => CoreKind::Bitwuzla,
            "bitwuzla-eager" => CoreKind::BitwuzlaEager,
            other => {
                bail!("unknown --core-solver '{other}' (expected z3, eager, cegar, portfolio, parallel, bitwuzla or bitwuzla-eager)")
            }
        };
        let axiom_elim = match self.axiom_elim.as_str() {
            "none" => AxiomElim::None,
            "type" => AxiomElim::Type,
            "interval" => AxiomElim::Interval,
            "both" => AxiomElim::Both,
            other => {
                bail!("unknown --axiom-elim '{other}' (expected none, type, interval or both)")
            }
        };
        let select = match self.cegar_select.as_str() {
            "violated" => CegarSelect::Violated,
            "siblings" => CegarSelect::Siblings,
            "eager" => CegarSelect::Eager,
            other => {
                bail!("unknown --cegar-select '{other}' (expected violated, siblings or eager)")
            }
        };
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
            timeout: (self.max_solver_time > 0.0)
                .then(|| Duration::from_secs_f64(self.max_solver_time)),
            log_queries: self.log_queries.clone().map(|dir| QueryLog { dir, scope }),
            validate: self.validate_solver,
        })
    }
}
