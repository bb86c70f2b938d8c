//! sear's solver: the [`Solver`] facade, KLEE's solver layers and the Z3 core.
//!
//! TODO: crate docs (chain order, measurements).

pub mod cegar;
pub mod chain;
pub mod config;
pub mod eager;
pub mod ilp;
pub mod intervals;
pub mod layers;
pub mod precheck;
pub mod query;
pub mod residue;
pub mod sat;
pub mod solver;
pub mod stats;
pub mod testing;
pub mod z3core;

pub use chain::{build_chain, new_core};
pub use config::{ArrayConfig, AxiomElim, CegarSelect, CoreKind, LogScope, QueryLog, SolverConfig};
pub use query::{Query, QueryMeta, SolverError, Validity};
pub use sat::{SatQuery, SatResult, SatSolver};
pub use solver::Solver;
pub use stats::{ChainStats, LayerStats};
