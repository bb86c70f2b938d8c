//! The engine's side of the array-read transformations (`sear_arrayopt`, spec
//! `000-klee-array.md`): conditions of branches, switches, assumptions and error checks go
//! through [`Executor::opt_condition`] (index-based first, then value-based), values about
//! to be concretised and symbolic addresses through [`Executor::opt_value`] (value-based
//! only). The transformed form is what enters the path condition and the queries.
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

use sear_arrayopt::{ArrayOptimizer, OptMode};
use sear_expr::{reads, Expr};
use sear_solver::{CoreKind, Query, Solver, SolverConfig};

use super::Exec;
use crate::solver_view::SolverView;
use crate::state::State;
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

/// The optimiser, its optional validator and the folds counted before the run.
pub(crate) struct ArrayOpt {
    pub optimizer: ArrayOptimizer,
    pub validator: Option<Solver>,
    pub validation: Validation,
    pub folds_at_start: u64,
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
            optimizer: ArrayOptimizer::new(config.array_opt).with_read_policy(config.read_policy),
            validator,
            validation: Validation::default(),
            folds_at_start: reads::folds(),
        })
    }

    /// The `array_opt` section of `summary.json`.
    pub fn summary(
        &self,
        config: &crate::config::EngineConfig,
        core_queries_with_arrays: u64,
    ) -> serde_json::Value {
        let s = self.optimizer.stats();
        serde_json::json!({
            "mode": config.array_opt.mode.name(),
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
            "time_s": s.time.as_secs_f64(),
            "core_queries_with_arrays": core_queries_with_arrays,
            "validation": {
                "enabled": self.validator.is_some(),
                "checks": self.validation.checks,
                "failures": self.validation.failures,
                "unknown": self.validation.unknown,
            },
        })
    }
}

impl SolverView {
    /// `cond` with reads of constant and mixed arrays transformed away where possible. With
    /// address constraints, conditions stay as they are here (they enter the path condition,
    /// which must not name hidden addresses); queries transform their substituted forms.
    pub(crate) fn opt_condition(&mut self, state: &State, cond: Expr) -> Exec<Expr> {
        if !self.array_opt.optimizer.enabled() || cond.is_constant() || !state.addresses.is_empty()
        {
            return Ok(cond);
        }
        let t = self.array_opt.optimizer.optimize_condition(&cond);
        self.validate_transformation(state, &cond, &t)?;
        Ok(t)
    }

    /// `e` with reads of constant and mixed arrays replaced by if-then-else chains (value
    /// mode only).
    pub(crate) fn opt_value(&mut self, state: &State, e: Expr) -> Exec<Expr> {
        if !self.array_opt.optimizer.enabled() || e.is_constant() || !state.addresses.is_empty() {
            return Ok(e);
        }
        let t = self.array_opt.optimizer.optimize_value(&e);
        self.validate_transformation(state, &e, &t)?;
        Ok(t)
    }

    /// [`SolverView::opt_condition`] of an expression without symbolic bases, unvalidated.
    pub(crate) fn opt_condition_unchecked(&mut self, cond: &Expr) -> Expr {
        if !self.array_opt.optimizer.enabled() || cond.is_constant() || !cond.is_bool() {
            return cond.clone();
        }
        self.array_opt.optimizer.optimize_condition(cond)
    }

    /// [`SolverView::opt_value`] of an expression without symbolic bases, unvalidated.
    pub(crate) fn opt_value_unchecked(&mut self, e: &Expr) -> Expr {
        if !self.array_opt.optimizer.enabled() || e.is_constant() {
            return e.clone();
        }
        self.array_opt.optimizer.optimize_value(e)
    }

    fn validate_transformation(
        &mut self,
        state: &State,
        original: &Expr,
        transformed: &Expr,
    ) -> Exec<()> {
        if original == transformed {
            return Ok(());
        }
        let Some(validator) = self.array_opt.validator.as_mut() else {
            return Ok(());
        };
        self.array_opt.validation.checks += 1;
        let same = Expr::eq(original.clone(), transformed.clone());
        let constraints = state.constraints.to_vec();
        let q = Query::new(&constraints, same, &self.meta).with_addresses(&state.addresses);
        match validator.must_be_true(&q) {
            Ok(true) => Ok(()),
            Ok(false) => {
                self.array_opt.validation.failures += 1;
                let message = format!(
                    "ARRAY OPTIMISATION VALIDATION FAILED: {original} is not equivalent to {transformed} \
                     under the path condition"
                );
                self.warnings.push(message.clone());
                Err(Termination::error(ErrorKind::Exec, message))
            }
            Err(_) => {
                self.array_opt.validation.unknown += 1;
                Ok(())
            }
        }
    }
}
