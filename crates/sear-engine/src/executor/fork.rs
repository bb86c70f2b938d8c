//! The fork point: the only place that copies a state into a new path and registers it.
//!
//! A state forks inside an instruction (a branch, a switch, a symbolic pointer that may
//! point into several objects, a symbolic size). Each new path gets its own id and
//! process-tree leaf here ([`Executor::branch`]), continues as the caller sets it up, and
//! is registered with the searcher after the current quantum ([`Executor::spawn`]), or ends
//! at once ([`Executor::fork_error`]).
//!
//! **Whole operations.** An instruction that may fork part-way through (a call with a
//! symbolic argument: `memcpy`, `memmove`, `va_copy`, `realloc`, `free`, a `byval` copy)
//! is run through [`Executor::whole`]: the state before the instruction is kept, and a path
//! forked inside it ([`Executor::fork_with`]) restarts the instruction from that snapshot,
//! under its own path condition. So every part of the operation (the write after the read,
//! the result) happens in every resolved path; on the restarted path the resolution finds
//! one object and does not fork again.
//!
//! Invariants: a forked state's path condition is its parent's plus the fork's condition;
//! sibling conditions are disjoint; ids grow in fork order; a state is in `states` or
//! `pending` (or running) until it ends, and the searcher knows exactly those.

use sear_expr::Expr;

use super::{Exec, Executor};
use crate::state::{State, StateId};
use crate::termination::Termination;

impl Executor<'_> {
    /// A copy of `state` under `cond` (added to the copy's path condition), with its own id
    /// and process-tree leaf; the caller continues it and then [`Executor::spawn`]s or
    /// terminates it.
    pub(crate) fn branch(&mut self, state: &mut State, cond: Expr) -> State {
        self.loop_fork_open(state, &cond);
        let mut child = state.clone();
        child.id = StateId(self.run.next_state);
        // As in KLEE (`ExecutionState::branch`), the copy has covered nothing new yet (what
        // `--only-output-states-covering-new` asks of a path).
        child.covered_new = false;
        self.run.next_state += 1;
        let (left, right) = self.run.ptree.split(state.ptree_node, state.id, child.id);
        state.ptree_node = left;
        child.ptree_node = right;
        state.depth += 1;
        child.depth += 1;
        self.run.stats.forks += 1;
        self.join_merge_groups(&child);
        self.loop_fork_record(state, &mut child, &cond);
        child.add_constraint(cond);
        child
    }

    /// Registers a forked state; the searcher sees it after the current quantum.
    pub(crate) fn spawn(&mut self, child: State) {
        self.run.pending.push(child);
    }

    /// Forks a path under `cond` that ends at once with `termination` (an error path).
    pub(crate) fn fork_error(&mut self, state: &mut State, cond: Expr, termination: Termination) {
        let bad = self.branch(state, cond);
        self.terminate(bad, termination);
    }

    /// Forks a path under `cond` that continues with `resume`, or, inside a whole
    /// operation, restarts the operation instead.
    pub(crate) fn fork_with(
        &mut self,
        state: &mut State,
        cond: Expr,
        resume: impl FnOnce(&mut Self, &mut State) -> Exec<()>,
    ) {
        let mut child = self.branch(state, cond);
        if let Some(restarted) = self.restarted(&child) {
            self.spawn(restarted);
            return;
        }
        match resume(self, &mut child) {
            Ok(()) => self.spawn(child),
            Err(t) => self.terminate(child, t),
        }
    }

    /// Forks a path under `cond` that restarts the current whole operation; outside one,
    /// the path ends with an `exec` error naming `what`.
    pub(crate) fn fork_restart(&mut self, state: &mut State, cond: Expr, what: &str) {
        let child = self.branch(state, cond);
        match self.restarted(&child) {
            Some(restarted) => self.spawn(restarted),
            None => {
                let t = Termination::error(
                    crate::termination::ErrorKind::Exec,
                    format!("{what} outside a call"),
                );
                self.terminate(child, t);
            }
        }
    }

    /// Runs `operation` on `state` as a whole operation: paths forked inside it restart it
    /// from the state as it is now.
    pub(crate) fn whole<T>(
        &mut self,
        state: &mut State,
        operation: impl FnOnce(&mut Self, &mut State) -> Exec<T>,
    ) -> Exec<T> {
        let outer = self.run.restart_snapshot.replace(Box::new(state.clone()));
        let result = operation(self, state);
        self.run.restart_snapshot = outer;
        result
    }

    /// `child`, forked inside the current whole operation, as a state that runs it again
    /// from its beginning: the snapshot with the child's identity and path condition
    /// (which holds the fork's condition). `None` outside a whole operation.
    fn restarted(&self, child: &State) -> Option<State> {
        let snapshot = self.run.restart_snapshot.as_ref()?;
        let mut restarted = State::clone(snapshot);
        restarted.id = child.id;
        restarted.ptree_node = child.ptree_node;
        restarted.depth = child.depth;
        restarted.constraints = child.constraints.clone();
        restarted.loop_member = child.loop_member;
        restarted.taint = child.taint.clone();
        let call = restarted.current_inst;
        restarted.frame_mut().inst = call;
        Some(restarted)
    }
}
