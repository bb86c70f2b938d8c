//! Solver options shared by `sear run` and `sear solve`.

use std::path::PathBuf;
use std::time::Duration;

use anyhow::{bail, Result};
use sear_solver::{LogScope, QueryLog, SolverConfig};

/// Options of the solver chain.
#[derive(Debug, Clone, clap::Args)]
pub struct SolverArgs {
    /// Timeout per solver query, in seconds (0 = none).
    #[arg(long, value_name = "SECS", default_value_t = 0.0)]
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
        Ok(SolverConfig {
            independence: !self.no_independence,
            query_cache: !self.no_query_cache,
            cex_cache: !self.no_cex_cache,
            timeout: (self.max_solver_time > 0.0).then(|| Duration::from_secs_f64(self.max_solver_time)),
            log_queries: self.log_queries.clone().map(|dir| QueryLog { dir, scope }),
            validate: self.validate_solver,
            ..SolverConfig::default()
        })
    }
}
