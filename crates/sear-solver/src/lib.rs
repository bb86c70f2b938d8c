//! sear's solver: the [`Solver`] facade, KLEE's solver layers and the Z3 core.
//!
//! The engine asks [`Solver`] KLEE's questions (`evaluate`, `must_be_true`, `may_be_false`,
//! `get_value`, `get_initial_values`, ...) about a [`Query`]: a path condition assumed
//! satisfiable, a boolean expression and engine metadata ([`QueryMeta`]). The facade answers
//! constant expressions itself and turns everything else into satisfiability queries
//! ([`SatQuery`]: "is `constraints ∧ expr` satisfiable?") for a chain of [`SatSolver`]s, each
//! owning the one below as a `Box<dyn SatSolver>`. [`build_chain`] builds the chain from a
//! [`SolverConfig`], in KLEE's order:
//!
//! | layer (top first) | module | what it does |
//! |---|---|---|
//! | query log (scope all) | [`layers::logger`] | writes every query as `queryNNNNNN.smt2` |
//! | validation | [`layers::validating`] | cross-checks against plain Z3; checks models |
//! | independence | [`layers::independence`] | keeps the constraints connected to the query |
//! | query cache | [`layers::query_cache`] | exact (constraint set, expr) cache |
//! | quantified stage (when configured) | [`quantified`] | strip, duplicate, repair; a quantified core |
//! | counterexample cache | [`layers::cex_cache`] | unsat subsets, sat supersets, stored models |
//! | query log (scope core) | [`layers::logger`] | writes the queries that reach the core |
//! | core | [`z3core`], [`eager`], [`cegar`], [`bitwuzla`], ... | decides what is left, models as bytes |
//!
//! Each layer counts its queries, hits and time ([`Solver::stats`], serializable).
//!
//! **Array semantics.** A read outside `0..size` of a symbolic array is zero, in the core as
//! in [`sear_expr::Evaluator`], so cached models, evaluation and Z3 always agree (engine
//! queries read in bounds anyway). Arrays parsed from SMT-LIB without a size comment get the
//! size the parser infers.
//!
//! **Z3 use.** `z3 = 0.22` over the system libz3 4.8.12; the context is thread-local, so a
//! `Solver` stays on its thread. Three ways of driving Z3 were measured on the benchmark
//! below ([`z3core::Z3Mode`]); a fresh solver per query built from Z3's `smt` tactic is the
//! default. Z3 errors never abort the process (no error handler; the `z3` crate's panics are
//! caught and become [`SolverError::Failure`]); `unknown` becomes [`SolverError::Timeout`]
//! when Z3 reports a timeout or cancellation.
//!
//! **Testing.** Unit tests per layer run against a recording core ([`testing::Recorder`]).
//! `tests/differential.rs` compares the full chain with plain Z3 on random path-condition
//! query sequences ([`testing::PathGen`]) and validates every model by evaluation; longer
//! runs: `SEAR_DIFF_QUERIES=20000 cargo test --release -p sear-solver --test differential`.
//!
//! **Benchmark.** `bench/solver-chain.sh [PATHS] [DEPTH] [SEED]` (the `chain_bench` example)
//! replays generated query sequences on the full chain and on raw Z3 and prints a table.
//! Measured (40 paths of depth 12, 688 solver calls, release build, busy 2-core machine):
//!
//! | configuration | core queries | time (s) | calls/s |
//! |---|---|---|---|
//! | raw Z3, fresh `smt`-tactic solver per query (default core) | 1085 | 49.5 | 14 |
//! | full chain | 511 | 27.8 | 25 (1.78x) |
//! | raw Z3, fresh `Solver::new()` per query | 1083 | 167.0 | 4 (0.30x) |

pub mod aa;
pub mod address;
pub mod audit;
pub mod bitwuzla;
pub mod cegar;
pub mod chain;
#[cfg(feature = "cli")]
pub mod cli;
pub mod config;
pub mod deadline;
pub mod direct;
pub mod eager;
pub mod equalities;
mod fpenc;
pub mod ilp;
pub mod interrupt;
pub mod intervals;
pub mod layers;
mod model_cells;
pub mod parallel;
pub mod path_condition;
pub mod portfolio;
pub mod precheck;
pub mod quantified;
pub mod query;
pub mod residue;
pub mod sat;
pub mod solver;
pub mod stats;
pub mod testing;
pub mod z3core;

pub use chain::{build_chain, new_core};
pub use config::{
    ArrayConfig, AxiomElim, CegarSelect, CoreKind, LogScope, QuantifiedConfig, QuantifiedCore,
    QueryLog, SolverConfig,
};
pub use path_condition::PathCondition;
pub use query::{AgnosticForm, Query, QueryMeta, SolverError, Validity};
pub use sat::{SatQuery, SatResult, SatSolver};
pub use solver::Solver;
pub use stats::{ChainStats, LayerStats};
