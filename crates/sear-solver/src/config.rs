//! The solver configuration: which layers run, which core, limits, logging and checking.

use std::path::PathBuf;
use std::time::Duration;

/// Which core decides the queries that pass every layer.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum CoreKind {
    /// Z3 with native arrays.
    #[default]
    Z3,
}

/// Where the query log sits in the chain.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum LogScope {
    /// Every query the facade issues (top of the chain).
    #[default]
    All,
    /// Only queries that reach the core.
    Core,
}

/// Writing queries as SMT-LIB2 files.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QueryLog {
    /// The directory receiving `queryNNNNNN.smt2` files (created if missing).
    pub dir: PathBuf,
    /// Which queries are written.
    pub scope: LogScope,
}

/// The configuration of a [`crate::Solver`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SolverConfig {
    /// Constraint independence slicing. Default: on.
    pub independence: bool,
    /// The exact query cache. Default: on.
    pub query_cache: bool,
    /// The counterexample cache. Default: on.
    pub cex_cache: bool,
    /// The core solver. Default: [`CoreKind::Z3`].
    pub core: CoreKind,
    /// Per-query time limit of the core. Default: none.
    pub timeout: Option<Duration>,
    /// Write queries as SMT-LIB2. Default: off.
    pub log_queries: Option<QueryLog>,
    /// Cross-check every answer of the chain against a plain Z3 core and check every model by
    /// evaluation; a disagreement is a [`crate::SolverError::Failure`]. Default: off.
    pub validate: bool,
}

impl Default for SolverConfig {
    fn default() -> Self {
        SolverConfig {
            independence: true,
            query_cache: true,
            cex_cache: true,
            core: CoreKind::Z3,
            timeout: None,
            log_queries: None,
            validate: false,
        }
    }
}

impl SolverConfig {
    /// The plain core: no layers, no logging, no validation (a differential-testing oracle).
    pub fn plain() -> Self {
        SolverConfig {
            independence: false,
            query_cache: false,
            cex_cache: false,
            ..Default::default()
        }
    }
}
