//! The technique hooks: the one interface through which techniques that must see forks,
//! steps, terminations and the halt (the merging techniques) are told about them.
//!
//! A technique is a module that implements [`Technique`] on a unit struct and keeps its
//! data in its own part of the run (`Run::merges`, `Run::loop_contexts`, ...). It is
//! registered by its switch in [`registered`]; the executor calls each hook in one place
//! (the fork point's `split`, `step`, `terminate`, the memory limit's drop, the halt, the
//! summary) through the `Executor::hook_*` functions below, in registration order, and its
//! core files name no technique.
//!
//! Adding a technique: its module under `executor/` (the hooks it needs, the rest of its
//! code in `impl Executor` blocks of that module), its data in `Run`, and one line in
//! [`registered`] under its switch.

use sear_expr::Expr;

use super::{Exec, Executor};
use crate::config::EngineConfig;
use crate::state::State;
use crate::termination::Termination;

/// What a technique sees of the executor's life. Every hook has a default that does
/// nothing, so a technique implements only the points it needs.
pub(crate) trait Technique: Sync {
    /// The technique's name (for logs).
    fn name(&self) -> &'static str;

    /// Before `state` forks under `cond` (the fork point, before the copy is made).
    fn before_fork(&self, _ex: &mut Executor<'_>, _state: &mut State, _cond: &Expr) {}

    /// After `child` was copied off `state` under `cond` (before `cond` is added to the
    /// child's path condition).
    fn after_fork(
        &self,
        _ex: &mut Executor<'_>,
        _state: &mut State,
        _child: &mut State,
        _cond: &Expr,
    ) {
    }

    /// Before `state` executes its next instruction; an error ends the step with that
    /// termination (a path leaving a merged loop).
    fn before_step(&self, _ex: &mut Executor<'_>, _state: &mut State) -> Exec<()> {
        Ok(())
    }

    /// `state` is ending with `termination`: `None` when the technique took the state (a
    /// path suspended at a merge point), otherwise the state back, to end as usual.
    fn take_ending(
        &self,
        _ex: &mut Executor<'_>,
        state: State,
        _termination: &Termination,
    ) -> Option<State> {
        Some(state)
    }

    /// `state` ends (with a test or without one, or dropped at the memory limit).
    fn ended(&self, _ex: &mut Executor<'_>, _state: &State) {}

    /// At the halt: the paths the technique keeps waiting, to end like the others.
    fn take_waiting(&self, _ex: &mut Executor<'_>) -> Vec<State> {
        Vec::new()
    }

    /// Adds the technique's counters to `summary.json`'s `symbolic_size` section.
    fn summarize(
        &self,
        _ex: &Executor<'_>,
        _symbolic_size: &mut serde_json::Map<String, serde_json::Value>,
    ) {
    }
}

/// The techniques a run with `config` registers, in the order their hooks are called.
pub(crate) fn registered(config: &EngineConfig) -> Vec<&'static dyn Technique> {
    let mut techniques: Vec<&'static dyn Technique> = Vec::new();
    if config.sym_size.mode.merges() {
        techniques.push(&super::loop_merging::LoopMerging);
    }
    if config.sym_size.mode == crate::sym_size::SymSizeMode::Pat {
        techniques.push(&super::pat_merging::PatMerging);
    }
    if config.sym_size.incremental.enabled {
        techniques.push(&super::incremental_merging::IncrementalMerging);
    }
    if config.use_merge {
        techniques.push(&super::merging::KleeMerge);
    }
    // Loop-iteration merging keeps its paths in `State::loop_member` as loop merging does,
    // and waits at points the others do not know: it runs alone.
    if config.iteration_merge.enabled == Some(true) && techniques.is_empty() {
        techniques.push(&super::iteration_merging::IterationMerging);
    }
    techniques
}

impl Executor<'_> {
    /// Calls `hook` of every registered technique, in order.
    fn each_technique(&mut self, mut hook: impl FnMut(&'static dyn Technique, &mut Self)) {
        for i in 0..self.techniques.len() {
            let technique = self.techniques[i];
            hook(technique, self);
        }
    }

    /// [`Technique::before_fork`] of every technique.
    pub(crate) fn hook_before_fork(&mut self, state: &mut State, cond: &Expr) {
        self.each_technique(|t, ex| t.before_fork(ex, state, cond));
    }

    /// [`Technique::after_fork`] of every technique.
    pub(crate) fn hook_after_fork(&mut self, state: &mut State, child: &mut State, cond: &Expr) {
        self.each_technique(|t, ex| t.after_fork(ex, state, child, cond));
    }

    /// [`Technique::before_step`] of every technique; the first error ends the step.
    pub(crate) fn hook_before_step(&mut self, state: &mut State) -> Exec<()> {
        for i in 0..self.techniques.len() {
            let technique = self.techniques[i];
            technique.before_step(self, state)?;
        }
        Ok(())
    }

    /// [`Technique::take_ending`] of every technique: `None` when one took the state.
    pub(crate) fn hook_take_ending(
        &mut self,
        mut state: State,
        termination: &Termination,
    ) -> Option<State> {
        for i in 0..self.techniques.len() {
            let technique = self.techniques[i];
            state = technique.take_ending(self, state, termination)?;
        }
        Some(state)
    }

    /// [`Technique::ended`] of every technique.
    pub(crate) fn hook_ended(&mut self, state: &State) {
        self.each_technique(|t, ex| t.ended(ex, state));
    }

    /// [`Technique::take_waiting`] of every technique.
    pub(crate) fn hook_take_waiting(&mut self) -> Vec<State> {
        let mut waiting = Vec::new();
        self.each_technique(|t, ex| waiting.extend(t.take_waiting(ex)));
        waiting
    }

    /// [`Technique::summarize`] of every technique.
    pub(crate) fn hook_summarize(
        &self,
        symbolic_size: &mut serde_json::Map<String, serde_json::Value>,
    ) {
        for technique in &self.techniques {
            technique.summarize(self, symbolic_size);
        }
    }
}
