//! The whole chain in one place: [`build_chain`] wraps the core in the configured layers.
//!
//! | position (top first) | layer | switch |
//! |---|---|---|
//! | 0 | the query's deadline ([`QueryDeadline`]: every layer below cuts its timeout to it) | always |
//! | 1 | query log, all queries | `log_queries` with [`LogScope::All`] |
//! | 2 | validating layer (oracle: a plain Z3 core) | `validate` |
//! | 3 | constraint independence | `independence` |
//! | 4 | query cache | `query_cache` |
//! | 4¼ | deep disjunctions ([`Disjuncts`]: answered by one satisfiable disjunct; SAT only) | `disjunct_split` |
//! | 4½ | quantified stage ([`QuantifiedStage`]: strip, duplicate, repair, a quantified core) | `quantified.stage` |
//! | 5 | counterexample cache | `cex_cache` |
//! | 5¼ | floating-point search ([`FpSearch`]: a model of a query with floating-point nodes found by a search over its float inputs; SAT only) | `fp_search` |
//! | 5½ | byte search ([`ByteSearch`]: a query over a few input bytes decided by evaluation) | `byte_search` |
//! | 5¾ | rewriting ([`Rewriting`]: the engine's array-read transformations when they run in the chain) | a rewriter given to [`build_chain_with`] |
//! | 6 | ILP UNSAT pre-check ([`Precheck`]) | `ilp_precheck` |
//! | 7 | query log, core queries | `log_queries` with [`LogScope::Core`] |
//! | 8 | core: Z3, eager, CEGAR, Bitwuzla or the Z3-then-eager portfolio (with [`ArrayTermCounter`] counting queries that need arrays) | `core` |
//!
//! The facade ([`crate::Solver`]) sits above position 1 and answers constant queries itself.

use std::rc::Rc;

use crate::audit::Audit;
use crate::bitwuzla::BitwuzlaCore;
use crate::cegar::CegarCore;
use crate::config::{ArrayConfig, CoreKind, LogScope, SolverConfig};
use crate::deadline::QueryDeadline;
use crate::eager::EagerCore;
use crate::layers::{
    ArrayTermCounter, ByteSearch, CexCache, Disjuncts, FpSearch, Independence, QueryCache,
    QueryLogger, Rewriting, SharedRewriter, Validating,
};
use crate::parallel::ParallelPortfolio;
use crate::portfolio::{LazyCore, Portfolio};
use crate::precheck::Precheck;
use crate::quantified::QuantifiedStage;
use crate::query::SolverError;
use crate::sat::SatSolver;
use crate::z3core::{Z3Core, Z3Mode};

/// A fresh core of the given kind (default array options).
pub fn new_core(kind: CoreKind) -> Box<dyn SatSolver> {
    new_core_with(kind, &ArrayConfig::default())
}

/// A fresh core of the given kind with the given CEGAR options.
pub fn new_core_with(kind: CoreKind, array: &ArrayConfig) -> Box<dyn SatSolver> {
    match kind {
        CoreKind::Z3 => Box::new(Z3Core::new(Z3Mode::default())),
        CoreKind::Eager => Box::new(EagerCore::new(array)),
        CoreKind::Cegar => Box::new(CegarCore::new(array)),
        CoreKind::Portfolio => Box::new(Portfolio::new(
            new_core_with(CoreKind::Z3, array),
            lazy_core(CoreKind::Eager, "eager", array),
            array.portfolio_switch,
        )),
        CoreKind::Parallel => Box::new(ParallelPortfolio::new(array)),
        CoreKind::Bitwuzla => Box::new(BitwuzlaCore::default()),
        CoreKind::BitwuzlaEager => Box::new(EagerCore::over(
            Box::new(BitwuzlaCore::default()),
            array,
            "bitwuzla-eager",
        )),
        CoreKind::BitwuzlaPortfolio => Box::new(Portfolio::new(
            new_core_with(CoreKind::Bitwuzla, array),
            lazy_core(CoreKind::BitwuzlaEager, "bitwuzla-eager", array),
            array.portfolio_switch,
        )),
        CoreKind::EagerPortfolio => Box::new(Portfolio::new(
            new_core_with(CoreKind::BitwuzlaEager, array),
            lazy_core(CoreKind::Eager, "eager", array),
            array.portfolio_switch,
        )),
    }
}

/// A portfolio's second core, built when first asked (`name` is that core's name).
fn lazy_core(kind: CoreKind, name: &'static str, array: &ArrayConfig) -> Box<dyn SatSolver> {
    let array = array.clone();
    Box::new(LazyCore::new(name, move || new_core_with(kind, &array)))
}

/// The checks the layers of a chain for `config` put on the answers they give without the
/// core: model checks, and under `validate` UNSAT answers cross-checked against plain Z3.
pub fn new_audit(config: &SolverConfig) -> Rc<Audit> {
    if config.validate {
        Audit::validating(new_core(CoreKind::Z3), config.timeout)
    } else {
        Audit::checks_only()
    }
}

/// Builds the solver chain described by `config`, from the core outwards.
pub fn build_chain(config: &SolverConfig) -> Result<Box<dyn SatSolver>, SolverError> {
    build_chain_with(config, new_audit(config), None)
}

/// [`build_chain`] with the layers' answers checked by `audit` (shared with the caller), and
/// the queries that get past the byte search rewritten by `rewriter` when one is given.
pub fn build_chain_with(
    config: &SolverConfig,
    audit: Rc<Audit>,
    rewriter: Option<SharedRewriter>,
) -> Result<Box<dyn SatSolver>, SolverError> {
    let log = |scope: LogScope| config.log_queries.dir_at(scope);
    let core = new_core_with(config.core, &config.array);
    let mut solver: Box<dyn SatSolver> = Box::new(ArrayTermCounter::new(core));
    if let Some(dir) = log(LogScope::Core) {
        solver = Box::new(QueryLogger::new(solver, dir)?);
    }
    if config.ilp_precheck {
        // Its UNSAT answers are confirmed under `--validate-precheck` and `--validate-solver`.
        let oracle =
            (config.array.precheck_validate || config.validate).then(|| new_core(CoreKind::Z3));
        solver = Box::new(Precheck::new(solver, oracle, &config.array));
    }
    if let Some(rewriter) = rewriter {
        solver = Box::new(Rewriting::new(solver, rewriter));
    }
    if config.byte_search {
        solver = Box::new(ByteSearch::new(solver).with_audit(audit.clone()));
    }
    if config.fp_search {
        solver = Box::new(FpSearch::new(solver).with_audit(audit.clone()));
    }
    if config.cex_cache {
        solver = Box::new(CexCache::new(solver).with_audit(audit.clone()));
    }
    if config.quantified.stage {
        solver = Box::new(QuantifiedStage::new(solver, &config.quantified));
    }
    if config.disjunct_split {
        solver = Box::new(Disjuncts::new(solver));
    }
    if config.query_cache {
        solver = Box::new(QueryCache::new(solver));
    }
    if config.independence {
        solver = Box::new(Independence::new(solver));
    }
    if config.validate {
        solver = Box::new(Validating::new(solver, new_core(CoreKind::Z3)));
    }
    if let Some(dir) = log(LogScope::All) {
        solver = Box::new(QueryLogger::new(solver, dir)?);
    }
    solver = Box::new(QueryDeadline::new(solver));
    solver.set_timeout(config.timeout);
    Ok(solver)
}
