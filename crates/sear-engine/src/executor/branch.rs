//! Forking on symbolic conditions, requirements that fork error paths, and
//! concretisation; the engine's only entry points into the solver.

use std::time::{Duration, Instant};

use sear_expr::Expr;
use sear_ir::{BlockId, Module};
use sear_solver::{Query, SolverError, Validity};

use super::{Exec, Executor};
use crate::state::State;
use crate::termination::{ErrorKind, Termination};
use crate::value::Value;

/// The termination for a solver failure on a path.
pub(crate) fn solver_failure(error: SolverError, during: &str) -> Termination {
    let message = match error {
        SolverError::Timeout => format!("query timed out ({during})"),
        SolverError::Interrupted => format!("query interrupted ({during})"),
        SolverError::Failure(reason) => format!("solver failure ({during}): {reason}"),
    };
    Termination::error(ErrorKind::Solver, message)
}

impl Executor<'_> {
    /// Runs a query of `state`, counting it and its time (also in the state's query cost,
    /// which `nurs:qc` weighs).
    fn timed<T>(
        &mut self,
        state: &State,
        f: impl FnOnce(&mut Self) -> Result<T, SolverError>,
    ) -> Result<T, SolverError> {
        self.apply_deadline();
        let start = Instant::now();
        let r = f(self);
        let spent = start.elapsed();
        self.stats.queries += 1;
        self.stats.solver_time += spent;
        state
            .query_cost
            .set(state.query_cost.get() + spent.as_secs_f64());
        r
    }

    /// Caps the solver's timeout at the time left under `--max-time`, so that one hard query
    /// cannot hold the run past its limit.
    fn apply_deadline(&mut self) {
        let Some(limit) = self.config.max_time else {
            return;
        };
        let left = limit
            .saturating_sub(self.start.elapsed())
            .max(Duration::from_millis(10));
        let timeout = self.base_solver_timeout.map_or(left, |base| base.min(left));
        self.solver.set_timeout(Some(timeout));
    }

    /// The termination for a failed query: a solver error, or an early termination when the
    /// run's time is up (the query was cut short by `--max-time`).
    fn failure(&self, error: SolverError, during: &str) -> Termination {
        let out_of_time = self
            .config
            .max_time
            .is_some_and(|limit| self.start.elapsed() >= limit);
        if out_of_time && error == SolverError::Timeout {
            return Termination::Early("max-time reached during a solver query".into());
        }
        if error == SolverError::Interrupted {
            // The run was interrupted (a signal): no failure of the solver or the program.
            return Termination::Early("interrupted during a solver query".into());
        }
        solver_failure(error, during)
    }

    /// Whether `cond` must be true, must be false, or may be either on this path.
    pub(crate) fn evaluate(&mut self, state: &State, cond: &Expr, during: &str) -> Exec<Validity> {
        if let Some(c) = cond.as_constant() {
            return Ok(if c == 1 {
                Validity::True
            } else {
                Validity::False
            });
        }
        let cond = &self.opt_condition(state, cond.clone())?;
        self.timed(state, |ex| {
            let q = Query::new(&state.constraints, cond.clone(), &ex.meta);
            ex.solver.evaluate(&q)
        })
        .map_err(|e| self.failure(e, during))
    }

    /// Whether `cond` may be true on this path.
    pub(crate) fn may_be_true(&mut self, state: &State, cond: &Expr, during: &str) -> Exec<bool> {
        if let Some(c) = cond.as_constant() {
            return Ok(c == 1);
        }
        let cond = &self.opt_condition(state, cond.clone())?;
        self.timed(state, |ex| {
            let q = Query::new(&state.constraints, cond.clone(), &ex.meta);
            ex.solver.may_be_true(&q)
        })
        .map_err(|e| self.failure(e, during))
    }

    /// Whether `cond` must be true on this path.
    pub(crate) fn must_be_true(&mut self, state: &State, cond: &Expr, during: &str) -> Exec<bool> {
        if let Some(c) = cond.as_constant() {
            return Ok(c == 1);
        }
        let cond = &self.opt_condition(state, cond.clone())?;
        self.timed(state, |ex| {
            let q = Query::new(&state.constraints, cond.clone(), &ex.meta);
            ex.solver.must_be_true(&q)
        })
        .map_err(|e| self.failure(e, during))
    }

    /// A feasible value of `e` on this path.
    pub(crate) fn get_value(&mut self, state: &State, e: &Expr, during: &str) -> Exec<u128> {
        if let Some(c) = e.as_constant() {
            return Ok(c);
        }
        let e = self.opt_value(state, e.clone())?;
        self.timed(state, |ex| {
            let q = Query::new(&state.constraints, e.clone(), &ex.meta);
            ex.solver.get_value(&q)
        })
        .map_err(|e| self.failure(e, during))
    }

    /// Continues only where `ok` holds: if `ok` may be false, a copy of the state where it
    /// is false ends with `error()`; if it must be false, this path ends with it.
    pub(crate) fn require(
        &mut self,
        state: &mut State,
        ok: Expr,
        error: impl FnOnce() -> Termination,
    ) -> Exec<()> {
        let ok = self.opt_condition(state, ok)?;
        match self.evaluate(state, &ok, "check")? {
            Validity::True => Ok(()),
            Validity::False => Err(error()),
            Validity::Unknown => {
                let mut bad = self.fork_state(state);
                bad.add_constraint(Expr::not(ok.clone()));
                self.terminate(bad, error());
                state.add_constraint(ok);
                Ok(())
            }
        }
    }

    /// Ends the path early if forking would exceed `--max-depth`.
    fn check_depth(&self, state: &State) -> Exec<()> {
        match self.config.max_depth {
            Some(max) if state.depth >= max => Err(Termination::Early("max-depth exceeded".into())),
            _ => Ok(()),
        }
    }

    /// A two-way branch.
    pub(crate) fn cond_branch(
        &mut self,
        module: &Module,
        state: &mut State,
        cond: &Value,
        then_block: BlockId,
        else_block: BlockId,
    ) -> Exec<()> {
        let c = match cond {
            Value::Concrete(c, _) => {
                let target = if *c == 1 { then_block } else { else_block };
                self.jump(module, state, target);
                return Ok(());
            }
            other => other.to_expr(),
        };
        let c = self.opt_condition(state, c)?;
        match self.evaluate(state, &c, "fork")? {
            Validity::True => self.jump(module, state, then_block),
            Validity::False => self.jump(module, state, else_block),
            Validity::Unknown if state.forking_disabled => {
                // klee_set_forking(0): one side, chosen at random (seeded), as KLEE.
                if self.rng.bool() {
                    state.add_constraint(c);
                    self.jump(module, state, then_block);
                } else {
                    state.add_constraint(Expr::not(c));
                    self.jump(module, state, else_block);
                }
            }
            Validity::Unknown => {
                self.check_depth(state)?;
                let mut other = self.fork_state(state);
                other.add_constraint(Expr::not(c.clone()));
                self.jump(module, &mut other, else_block);
                state.add_constraint(c);
                self.jump(module, state, then_block);
                self.pending.push(other);
            }
        }
        Ok(())
    }

    /// `indirectbr` (computed goto): the address must be one of the targets' block
    /// addresses (anything else is an `exec` error), then one path per feasible target.
    pub(crate) fn indirect_branch(
        &mut self,
        module: &Module,
        state: &mut State,
        address: &Value,
        targets: &[BlockId],
    ) -> Exec<()> {
        let f = state.frame().func;
        let mut cases: Vec<(u128, BlockId)> = Vec::new();
        for b in targets {
            if !cases.iter().any(|(_, c)| c == b) {
                cases.push((super::calls::block_address(module, f, *b) as u128, *b));
            }
        }
        let Some(&(_, last)) = cases.last() else {
            return Err(Termination::error(
                ErrorKind::Exec,
                "indirectbr without targets",
            ));
        };
        let e = address.to_expr();
        let is_target = cases.iter().fold(Expr::false_(), |acc, (a, _)| {
            Expr::or(acc, Expr::eq(e.clone(), Expr::constant(*a, e.width())))
        });
        self.require(state, is_target, || {
            Termination::error(
                ErrorKind::Exec,
                "indirectbr to an address that is not one of its target blocks",
            )
        })?;
        cases.pop();
        self.switch(module, state, address, last, &cases)
    }

    /// A multi-way branch: one path per feasible target.
    pub(crate) fn switch(
        &mut self,
        module: &Module,
        state: &mut State,
        value: &Value,
        default: BlockId,
        cases: &[(u128, BlockId)],
    ) -> Exec<()> {
        if let Some(v) = value.as_concrete() {
            let target = cases
                .iter()
                .find(|(c, _)| *c == v)
                .map_or(default, |(_, b)| *b);
            self.jump(module, state, target);
            return Ok(());
        }
        let e = value.to_expr();
        let width = e.width();
        // Group the cases by target, in order of first appearance; the default last. Cases
        // that go to the default block belong to it: one path per target block, as KLEE.
        let mut targets: Vec<(BlockId, Expr)> = Vec::new();
        let mut none_matches = Expr::true_();
        for (c, block) in cases {
            if *block == default {
                continue;
            }
            let is_case = Expr::eq(Expr::constant(*c, width), e.clone());
            none_matches = Expr::and(none_matches, Expr::not(is_case.clone()));
            match targets.iter_mut().find(|(b, _)| b == block) {
                Some((_, cond)) => *cond = Expr::or(cond.clone(), is_case),
                None => targets.push((*block, is_case)),
            }
        }
        targets.push((default, none_matches));
        let mut feasible: Vec<(BlockId, Expr)> = Vec::new();
        for (block, cond) in targets {
            let cond = self.opt_condition(state, cond)?;
            if self.may_be_true(state, &cond, "switch")? {
                feasible.push((block, cond));
            }
        }
        let Some((first_block, first_cond)) = feasible.first().cloned() else {
            return Err(Termination::error(
                ErrorKind::Exec,
                "switch with no feasible target",
            ));
        };
        if feasible.len() > 1 {
            self.check_depth(state)?;
        }
        for (block, cond) in feasible.iter().skip(1) {
            let mut other = self.fork_state(state);
            other.add_constraint(cond.clone());
            self.jump(module, &mut other, *block);
            self.pending.push(other);
        }
        if feasible.len() > 1 {
            state.add_constraint(first_cond);
        }
        self.jump(module, state, first_block);
        Ok(())
    }

    /// A concrete value for `v`, constraining the path to it (with a warning) if symbolic.
    pub(crate) fn concretize(&mut self, state: &mut State, v: &Value, reason: &str) -> Exec<u128> {
        match v {
            Value::Concrete(x, _) => Ok(*x),
            Value::Symbolic(e) => {
                let e = &self.opt_value(state, e.clone())?;
                let value = self.get_value(state, e, "concretization")?;
                state.add_constraint(Expr::eq(Expr::constant(value, e.width()), e.clone()));
                self.stats.concretisations += 1;
                self.warn_once(&format!("concretizing symbolic value for {reason}"));
                Ok(value)
            }
            Value::Aggregate(_) => Err(Termination::error(
                ErrorKind::Exec,
                format!("aggregate where a scalar was expected ({reason})"),
            )),
        }
    }

    /// Concretises every scalar inside `v`.
    pub(crate) fn concretize_value(
        &mut self,
        state: &mut State,
        v: &Value,
        reason: &str,
    ) -> Exec<Value> {
        match v {
            Value::Concrete(..) => Ok(v.clone()),
            Value::Symbolic(e) => {
                let x = self.concretize(state, v, reason)?;
                Ok(Value::Concrete(x, e.width()))
            }
            Value::Aggregate(items) => {
                let mut out = Vec::with_capacity(items.len());
                for item in items.iter() {
                    out.push(self.concretize_value(state, item, reason)?);
                }
                Ok(Value::Aggregate(out.into()))
            }
        }
    }
}
