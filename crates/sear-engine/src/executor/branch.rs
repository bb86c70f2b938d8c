//! Forking on symbolic conditions, requirements that fork error paths, and
//! concretisation.

use sear_expr::Expr;
use sear_ir::{BlockId, Module};
use sear_solver::Validity;

use super::{Exec, Executor};
use crate::executor::Cx;
use crate::path::ForkKind;
use crate::state::State;
use crate::termination::{ErrorKind, Termination};
use crate::value::Value;

impl Executor<'_> {
    /// Continues only where `ok` holds: if `ok` may be false, a copy of the state where it
    /// is false ends with `error()`; if it must be false, this path ends with it.
    pub(crate) fn require(
        &mut self,
        state: &mut State,
        ok: Expr,
        error: impl FnOnce() -> Termination,
    ) -> Exec<()> {
        let ok = self.sv.opt_condition(state, ok)?;
        if state.unchecked_here(ForkKind::Check) {
            // Rebuilding a path whose seeds decided this check without a query.
            return self.fork_check(state, ok, error);
        }
        if let Some(choices) = self
            .cx()
            .seed_choices(state, &[ok.clone(), Expr::not(ok.clone())])
        {
            return self.check_by_seeds(state, ok, error, choices);
        }
        match self.sv.evaluate(state, &ok, "check")? {
            Validity::True => Ok(()),
            Validity::False => Err(error()),
            Validity::Unknown => self.fork_check(state, ok, error),
        }
    }

    /// Forks at a check whose `ok` condition may be true and may be false: the failing
    /// side ends with `error()`, the current state continues where `ok` holds (or, when
    /// policy chose the failing side, ends with the error).
    pub(crate) fn fork_check(
        &mut self,
        state: &mut State,
        ok: Expr,
        error: impl FnOnce() -> Termination,
    ) -> Exec<()> {
        let mut error = Some(error);
        let not_ok = Expr::not(ok.clone());
        let taken = self.fork(state, ForkKind::Check, vec![ok, not_ok], |ex, _, bad| {
            let t = error.take().expect("one failing side")();
            ex.terminate(bad, t);
        })?;
        match taken {
            0 => Ok(()),
            _ => Err(error.take().expect("one failing side")()),
        }
    }

    /// A check the state's seeds decide (`choices`: the side each seed takes, 0 = ok). If
    /// a seed passes it, the state goes on with the passing seeds and no query, the failing
    /// side ends with the error under the failing seeds, or is deferred when none fails
    /// (`seeding.rs`). If every seed fails it, the error is certain: the passing side is
    /// asked about as usual (the seeds go with the error), and when that query fails the
    /// state ends with the error.
    fn check_by_seeds(
        &mut self,
        state: &mut State,
        ok: Expr,
        error: impl FnOnce() -> Termination,
        choices: Vec<usize>,
    ) -> Exec<()> {
        let not_ok = Expr::not(ok.clone());
        if choices.contains(&0) {
            let mut error = Some(error);
            let taken = self.fork_seeded(
                state,
                ForkKind::Check,
                vec![ok, not_ok],
                choices,
                |ex, _, bad| {
                    let t = error.take().expect("one failing side")();
                    ex.terminate(bad, t);
                },
            )?;
            return match taken {
                0 => Ok(()),
                _ => Err(error.take().expect("one failing side")()),
            };
        }
        match self.sv.may_be_true(state, &ok, "check") {
            Ok(true) => self.fork_check(state, ok, error),
            Ok(false) | Err(_) => Err(error()),
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
        let c = self.sv.opt_condition(state, c)?;
        if !state.decided_here() {
            let alternatives = vec![c.clone(), Expr::not(c.clone())];
            let blocks = [then_block, else_block];
            if self.jump_seeded(module, state, ForkKind::Branch, alternatives, &blocks)? {
                return Ok(());
            }
        }
        // A branch is its instruction's only fork: a recorded decision at this instruction
        // is this branch's, and its feasibility query can be skipped.
        let validity = if state.decided_here() {
            Validity::Unknown
        } else {
            self.sv.evaluate(state, &c, "fork")?
        };
        match validity {
            Validity::True => self.jump(module, state, then_block),
            Validity::False => self.jump(module, state, else_block),
            Validity::Unknown => {
                let blocks = [then_block, else_block];
                let alternatives = vec![c.clone(), Expr::not(c)];
                self.fork_to_blocks(module, state, ForkKind::Branch, alternatives, &blocks, None)?;
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
        let case_of = |v: u128| {
            cases
                .iter()
                .find(|(c, _)| *c == v)
                .map_or(default, |(_, b)| *b)
        };
        if let Some(v) = value.as_concrete() {
            self.jump(module, state, case_of(v));
            return Ok(());
        }
        // The value as the path fixes it: a constant takes its case without a query (and
        // without building a condition per case).
        let e = self.sv.simplified(state, &value.to_expr())?;
        if let Some(v) = e.as_constant() {
            self.jump(module, state, case_of(v));
            return Ok(());
        }
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
        let unchecked = state.unchecked_here(ForkKind::Switch);
        if unchecked || (self.run.seeding && !state.seeds.is_empty()) {
            let mut conds = Vec::with_capacity(targets.len());
            for (_, cond) in &targets {
                conds.push(self.sv.opt_condition(state, cond.clone())?);
            }
            let blocks: Vec<BlockId> = targets.iter().map(|(b, _)| *b).collect();
            if unchecked {
                // Rebuilding a path whose seeds chose among every target without a query.
                return self.fork_to_blocks(module, state, ForkKind::Switch, conds, &blocks, None);
            }
            if self.jump_seeded(module, state, ForkKind::Switch, conds, &blocks)? {
                return Ok(());
            }
        }
        if let Some((conds, blocks)) = self.recorded_targets(state, &targets)? {
            // Rebuilding recorded paths that name their targets: no feasibility query.
            return self.fork_to_blocks(module, state, ForkKind::Switch, conds, &blocks, None);
        }
        // Rebuilding a recorded path: the decision says how many targets were feasible, so
        // once that many infeasible ones are found the rest are feasible without a query
        // (with every target feasible, as where a fresh input byte is switched on, none).
        let mut infeasible_left = match state.recorded_here() {
            Some(d) if d.kind == ForkKind::Switch => targets.len().checked_sub(d.of as usize),
            _ => None,
        };
        let mut feasible: Vec<(BlockId, Expr)> = Vec::new();
        let mut listed: Vec<u16> = Vec::new();
        for (i, (block, cond)) in targets.into_iter().enumerate() {
            let cond = self.sv.opt_condition(state, cond)?;
            if infeasible_left == Some(0) || self.sv.may_be_true(state, &cond, "switch")? {
                feasible.push((block, cond));
                listed.push(u16::try_from(i).unwrap_or(u16::MAX));
            } else if let Some(left) = infeasible_left.as_mut() {
                *left = left.saturating_sub(1);
            }
        }
        if feasible.is_empty() {
            return Err(Termination::error(
                ErrorKind::Exec,
                "switch with no feasible target",
            ));
        }
        let (blocks, conds): (Vec<BlockId>, Vec<Expr>) = feasible.into_iter().unzip();
        let listed = Some(listed.as_slice());
        self.fork_to_blocks(module, state, ForkKind::Switch, conds, &blocks, listed)
    }

    /// Forks `state` at a branch or switch whose alternative `i` (condition `alternatives[i]`)
    /// goes to `blocks[i]` (`listed`: as for [`Executor::fork_listed`]): each new path jumps
    /// to its block and is spawned, the current state jumps to the block of the alternative
    /// it follows.
    fn fork_to_blocks(
        &mut self,
        module: &Module,
        state: &mut State,
        kind: ForkKind,
        alternatives: Vec<Expr>,
        blocks: &[BlockId],
        listed: Option<&[u16]>,
    ) -> Exec<()> {
        let taken = self.fork_listed(state, kind, alternatives, listed, |ex, i, mut other| {
            ex.jump(module, &mut other, blocks[i]);
            ex.spawn(other);
        })?;
        self.jump(module, state, blocks[taken]);
        Ok(())
    }

    /// When `state` rebuilds recorded paths that each name their target at this switch
    /// ([`Decision::target`](crate::path::Decision)): the fork's alternatives as the records
    /// number them, the taken ones from `targets` (in the site's order) and the others
    /// never used (no new path is made at a recorded fork). `None`: the site asks its
    /// queries (no record here, one that ends here, or a target the site does not list).
    fn recorded_targets(
        &mut self,
        state: &State,
        targets: &[(BlockId, Expr)],
    ) -> Exec<Option<(Vec<Expr>, Vec<BlockId>)>> {
        let Some(d) = state.recorded_here().copied() else {
            return Ok(None);
        };
        let Some(follow) = &state.follow else {
            return Ok(None);
        };
        if d.kind != ForkKind::Switch || d.unchecked {
            return Ok(None);
        }
        let index = state.path.len();
        let of = usize::from(d.of);
        let mut conds = vec![Expr::false_(); of];
        let mut blocks = vec![targets[0].0; of];
        let mut set = vec![false; of];
        for record in follow.records.iter() {
            let Some(r) = record.get(index) else {
                return Ok(None);
            };
            let (Some(t), taken) = (r.target, usize::from(r.taken)) else {
                return Ok(None);
            };
            let Some((block, cond)) = targets.get(usize::from(t)) else {
                return Ok(None);
            };
            if r.of != d.of || taken >= of {
                return Ok(None);
            }
            if !set[taken] {
                set[taken] = true;
                conds[taken] = self.sv.opt_condition(state, cond.clone())?;
                blocks[taken] = *block;
            }
        }
        Ok(Some((conds, blocks)))
    }

    /// When the state's seeds decide between `alternatives` (no query, `seeding.rs`): forks
    /// as they say, jumps every new path and this one to its alternative's block in
    /// `blocks`, and answers true; false when the seeds do not decide.
    fn jump_seeded(
        &mut self,
        module: &Module,
        state: &mut State,
        kind: ForkKind,
        alternatives: Vec<Expr>,
        blocks: &[BlockId],
    ) -> Exec<bool> {
        let Some(choices) = self.cx().seed_choices(state, &alternatives) else {
            return Ok(false);
        };
        let taken = self.fork_seeded(state, kind, alternatives, choices, |ex, i, mut other| {
            ex.jump(module, &mut other, blocks[i]);
            ex.spawn(other);
        })?;
        self.jump(module, state, blocks[taken]);
        Ok(true)
    }
}

impl Cx<'_, '_> {
    /// A concrete value for `v`, constraining the path to it (with a warning) if symbolic.
    pub(crate) fn concretize(&mut self, state: &mut State, v: &Value, reason: &str) -> Exec<u128> {
        // A value fixed by the address constraints (a pointer with a symbolic base) is that
        // value, with no constraint: the path condition must not depend on where objects
        // are placed, so that they can move.
        match &state.settle(v) {
            Value::Concrete(x, _) => Ok(*x),
            Value::Symbolic(e) => {
                let e = &self.sv.opt_value(state, e.clone())?;
                let value = match self.seed_value(state, e) {
                    Some(v) => {
                        state.seed_fixed = true;
                        v
                    }
                    None => self.sv.get_value(state, e, "concretization")?,
                };
                state.add_constraint(Expr::eq(Expr::constant(value, e.width()), e.clone()));
                self.stats.concretisations += 1;
                self.report
                    .warn_once(&format!("concretizing symbolic value for {reason}"));
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
