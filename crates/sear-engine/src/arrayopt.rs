//! The engine's side of the array-read transformations (`sear_arrayopt`, spec
//! `000-klee-array.md`). Where they run is `--optimize-array-at`:
//!
//! * `core` (the default): in the solver chain, just above the core
//!   (`sear_solver::layers::Rewriting`, with [`Transformations`] as its rewriter). The path
//!   condition keeps the reads as the program made them, so the caches and the byte search,
//!   which decide table reads at symbolic offsets by evaluation, see them; only the queries
//!   that get past those layers are transformed (conditions: index-based first, then
//!   value-based).
//! * `branch` (KLEE-Array's place): conditions of branches, switches, assumptions and error
//!   checks go through [`SolverView::opt_condition`], values about to be concretised and
//!   symbolic addresses through [`SolverView::opt_value`] (value-based only); the transformed
//!   form is what enters the path condition and the queries.
//!
//! With `--validate-array-opt`, every transformed expression is proved equivalent to its
//! original under the path condition by a separate solver (Z3's eager core, no caching
//! layers), so the check neither pollutes the caches nor shows up in the statistics of the
//! main chain. A disagreement ends the path with an `exec` error and is counted; an
//! unknown answer is only counted.
//!
//! The run's read policy ([`EngineConfig::read_policy`](crate::config::EngineConfig),
//! `--no-array-folding`) reaches the optimiser and the solvers from here: the optimiser
//! rebuilds reads under it, and [`solver_config`] puts it into every solver configuration
//! the engine uses.

use std::cell::RefCell;
use std::rc::Rc;

use sear_arrayopt::{ArrayOptimizer, OptMode, OptStage};
use sear_expr::{reads, Expr};
use sear_solver::layers::{ConditionRewriter, SharedRewriter};
use sear_solver::{CoreKind, Query, QueryMeta, Solver, SolverConfig, SolverError};

use crate::solver_view::SolverView;
use crate::state::State;
use crate::termination::Exec;
use crate::termination::{ErrorKind, Termination};

/// Outcomes of `--validate-array-opt`.
#[derive(Clone, Debug, Default)]
pub(crate) struct Validation {
    pub checks: u64,
    pub failures: u64,
    pub unknown: u64,
}

/// `solver` with the run's read policy, for the eager core's rebuilt reads, and with the
/// quantified stage when PAT writes quantified path conditions.
pub(crate) fn solver_config(
    config: &crate::config::EngineConfig,
    solver: &SolverConfig,
) -> SolverConfig {
    let mut s = solver.clone();
    s.array.reads = config.read_policy;
    s.quantified.stage |= config.sym_size.mode == crate::sym_size::SymSizeMode::Pat;
    s
}

/// The optimiser and its optional validator, shared by the engine (the `branch` stage) and
/// the solver chain's rewriting layer (the `core` stage).
pub(crate) struct Transformations {
    optimizer: ArrayOptimizer,
    validator: Option<Solver>,
    validation: Validation,
    meta: QueryMeta,
}

impl Transformations {
    /// `cond` transformed and, under `--validate-array-opt`, proved equivalent to the
    /// original under `context` (the path condition, or a query's other conjuncts).
    fn condition(&mut self, cond: &Expr, context: &[Expr]) -> Result<Expr, String> {
        if !self.optimizer.enabled() || cond.is_constant() || !cond.is_bool() {
            return Ok(cond.clone());
        }
        let t = self.optimizer.optimize_condition(cond);
        self.validate(cond, &t, context)?;
        Ok(t)
    }

    /// `e` with reads replaced by if-then-else chains (value mode only), validated.
    fn value(&mut self, e: &Expr, context: &[Expr]) -> Result<Expr, String> {
        if !self.optimizer.enabled() || e.is_constant() {
            return Ok(e.clone());
        }
        let t = self.optimizer.optimize_value(e);
        self.validate(e, &t, context)?;
        Ok(t)
    }

    /// Under `--validate-array-opt`: an error message when `transformed` is not equivalent
    /// to `original` under `context`.
    fn validate(
        &mut self,
        original: &Expr,
        transformed: &Expr,
        context: &[Expr],
    ) -> Result<(), String> {
        if original == transformed {
            return Ok(());
        }
        let Some(validator) = self.validator.as_mut() else {
            return Ok(());
        };
        self.validation.checks += 1;
        let same = Expr::eq(original.clone(), transformed.clone());
        let q = Query::new(context, same, &self.meta);
        match validator.must_be_true(&q) {
            Ok(true) => Ok(()),
            Ok(false) => {
                self.validation.failures += 1;
                Err(format!(
                    "ARRAY OPTIMISATION VALIDATION FAILED: {original} is not equivalent to {transformed} \
                     under the path condition"
                ))
            }
            Err(_) => {
                self.validation.unknown += 1;
                Ok(())
            }
        }
    }
}

impl ConditionRewriter for Transformations {
    fn rewrite(&mut self, condition: &Expr, context: &[Expr]) -> Result<Expr, SolverError> {
        self.condition(condition, context)
            .map_err(SolverError::Failure)
    }
}

/// The transformations of a run, where they run, and the folds counted before the run.
pub(crate) struct ArrayOpt {
    shared: Rc<RefCell<Transformations>>,
    stage: OptStage,
    folds_at_start: u64,
}

impl ArrayOpt {
    /// Sets up the optimiser for a run; `solver` is the run's solver configuration.
    /// The validator is Z3 without the caching layers, with the main chain's per-query
    /// timeout (a timeout counts as `unknown`), and with constant arrays encoded by
    /// assertions (the eager core): the original side of an equivalence holds the nested
    /// reads of large constant tables, and Z3's `store` chains of such tables send its
    /// preprocessing into deep recursion that ignores timeouts and interrupts.
    pub fn new(
        config: &crate::config::EngineConfig,
        solver: &SolverConfig,
    ) -> Result<Self, sear_solver::SolverError> {
        let validator = if config.validate_array_opt && config.array_opt.mode != OptMode::None {
            Some(Solver::new(&solver_config(
                config,
                &SolverConfig {
                    timeout: solver.timeout,
                    core: CoreKind::Eager,
                    ..SolverConfig::plain()
                },
            ))?)
        } else {
            None
        };
        Ok(ArrayOpt {
            shared: Rc::new(RefCell::new(Transformations {
                optimizer: ArrayOptimizer::new(config.array_opt)
                    .with_read_policy(config.read_policy),
                validator,
                validation: Validation::default(),
                meta: QueryMeta::default(),
            })),
            stage: config.array_opt.stage,
            folds_at_start: reads::folds(),
        })
    }

    /// The rewriter for the solver chain when the transformations run there (`core` stage,
    /// and a mode other than `none`).
    pub fn chain_rewriter(&self) -> Option<SharedRewriter> {
        let enabled = self.shared.borrow().optimizer.enabled();
        (enabled && self.stage == OptStage::Core).then(|| self.shared.clone() as SharedRewriter)
    }

    /// True when the engine transforms conditions at the branch (`branch` stage).
    fn at_branch(&self) -> bool {
        self.stage == OptStage::Branch && self.shared.borrow().optimizer.enabled()
    }

    /// The `array_opt` section of `summary.json`.
    pub fn summary(
        &self,
        config: &crate::config::EngineConfig,
        core_queries_with_arrays: u64,
    ) -> serde_json::Value {
        let t = self.shared.borrow();
        let s = t.optimizer.stats();
        serde_json::json!({
            "mode": config.array_opt.mode.name(),
            "stage": config.array_opt.stage.name(),
            "read_folding": config.read_policy.folds(),
            "folds": reads::folds() - self.folds_at_start,
            "conditions": s.conditions,
            "index_successes": s.index_successes,
            "index_infeasible": s.index_infeasible,
            "value_successes": s.value_successes,
            "mixed_successes": s.mixed_successes,
            "value_composed": s.value_composed,
            "index_tabulated": s.index_tabulated,
            "value_distributed": s.value_distributed,
            "value_too_large": s.value_too_large,
            "cache_hits": s.cache_hits,
            "element_cache_hits": s.element_cache_hits,
            "time_s": s.time.as_secs_f64(),
            "core_queries_with_arrays": core_queries_with_arrays,
            "validation": {
                "enabled": t.validator.is_some(),
                "checks": t.validation.checks,
                "failures": t.validation.failures,
                "unknown": t.validation.unknown,
            },
        })
    }
}

impl SolverView {
    /// `cond` with reads of constant and mixed arrays transformed away where possible, when
    /// the transformations run at the branch. With address constraints, conditions stay as
    /// they are here (they enter the path condition, which must not name hidden addresses);
    /// queries transform their substituted forms.
    pub(crate) fn opt_condition(&mut self, state: &State, cond: Expr) -> Exec<Expr> {
        if !self.array_opt.at_branch() || cond.is_constant() || !state.addresses.is_empty() {
            return Ok(cond);
        }
        let context = state.constraints.to_vec();
        let r = self
            .array_opt
            .shared
            .borrow_mut()
            .condition(&cond, &context);
        self.transformed(r)
    }

    /// `e` with reads of constant and mixed arrays replaced by if-then-else chains (value
    /// mode only), when the transformations run at the branch.
    pub(crate) fn opt_value(&mut self, state: &State, e: Expr) -> Exec<Expr> {
        if !self.array_opt.at_branch() || e.is_constant() || !state.addresses.is_empty() {
            return Ok(e);
        }
        let context = state.constraints.to_vec();
        let r = self.array_opt.shared.borrow_mut().value(&e, &context);
        self.transformed(r)
    }

    /// [`SolverView::opt_condition`] of an expression without symbolic bases, unvalidated.
    pub(crate) fn opt_condition_unchecked(&mut self, cond: &Expr) -> Expr {
        if !self.array_opt.at_branch() || cond.is_constant() || !cond.is_bool() {
            return cond.clone();
        }
        self.array_opt
            .shared
            .borrow_mut()
            .optimizer
            .optimize_condition(cond)
    }

    /// [`SolverView::opt_value`] of an expression without symbolic bases, unvalidated.
    pub(crate) fn opt_value_unchecked(&mut self, e: &Expr) -> Expr {
        if !self.array_opt.at_branch() || e.is_constant() {
            return e.clone();
        }
        self.array_opt
            .shared
            .borrow_mut()
            .optimizer
            .optimize_value(e)
    }

    /// A transformation's result; a failed validation ends the path with an `exec` error.
    fn transformed(&mut self, r: Result<Expr, String>) -> Exec<Expr> {
        r.map_err(|message| {
            self.warnings.push(message.clone());
            Termination::error(ErrorKind::Exec, message)
        })
    }
}
