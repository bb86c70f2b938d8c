//! Seeding (KLEE's `--seed-file`/`--seed-dir`, `crate::seed`): seeds bound to the
//! program's symbolic objects, forks decided by evaluation under the seeds, deferred sides,
//! the seeding phase, and tests whose inputs are a seed's bytes.
//!
//! Invariant: every seed a state carries satisfies the state's path condition (its free
//! arrays taking some value): a side the seeds take is feasible without asking the solver.
//! A fork whose condition reads an array some seed leaves free is not decided by the seeds
//! (the solver is asked as usual, and the seeds stay with the state's own side).

use std::sync::Arc;

use std::collections::BTreeSet;

use rustc_hash::FxHashMap;
use sear_expr::{ArrayRef, Assignment, Evaluator, Expr};

use super::{Exec, Executor, StopReason};
use crate::executor::Cx;
use crate::path::{Decision, ForkKind};
use crate::seed::{bind, Bind, StateSeed};
use crate::state::{Deferred, State, StateId};
use crate::termination::Termination;

impl Executor<'_> {
    /// Gives the initial state the run's seeds and starts the seeding phase.
    pub(super) fn seed_initial(&mut self, mut state: State) -> State {
        let seeds = &self.config.seeding.seeds;
        self.run.seed_stats.loaded = seeds.len() as u64;
        if seeds.is_empty() {
            return state;
        }
        state.seeds = Arc::new(
            seeds
                .iter()
                .enumerate()
                .map(|(i, s)| StateSeed::new(i, Arc::clone(s)))
                .collect(),
        );
        self.run.seeding = true;
        self.run.seeded.insert(state.id);
        state
    }

    /// During the seeding phase, the next state that carries a seed, in turn (one quantum
    /// each, as KLEE's seeding loop takes its seeded states in turn): a seed whose path
    /// runs for long (the input of a test written for a path cut off at the end of a run
    /// may never end) does not hold up the others. coreutils `nl` seeded by its previous
    /// run's 159 tests: one path ran 78 million instructions, and 15 s replayed 48 seeds.
    /// `None` ends the phase (no seeded state left, or `--seed-time` passed).
    pub(super) fn select_seeded(&mut self) -> Option<StateId> {
        let elapsed = self.run.start.elapsed();
        let timed_out = self
            .config
            .seeding
            .seed_time
            .is_some_and(|t| !t.is_zero() && elapsed >= t);
        let mut seeded = None;
        if !timed_out {
            use std::ops::Bound::{Excluded, Unbounded};
            loop {
                let next = match self.run.seed_cursor {
                    Some(last) => self
                        .run
                        .seeded
                        .range((Excluded(last), Unbounded))
                        .next()
                        .or_else(|| self.run.seeded.first()),
                    None => self.run.seeded.last(),
                };
                let Some(&id) = next else {
                    break;
                };
                let live = self.run.states.get(&id);
                if live.is_some_and(|s| !s.seeds.is_empty()) {
                    seeded = Some(id);
                    self.run.seed_cursor = Some(id);
                    break;
                }
                self.run.seeded.remove(&id);
            }
        }
        if seeded.is_none() {
            self.end_seeding();
        }
        seeded
    }

    /// Ends the seeding phase: `--only-seed` stops the run, `--only-replay-seeds` drops the
    /// states without a seed; otherwise the normal search takes every state.
    fn end_seeding(&mut self) {
        self.run.seeding = false;
        self.run.seeded.clear();
        self.run.seed_stats.seeding_time_s = self.run.start.elapsed().as_secs_f64();
        let message = format!(
            "seeding done after {:.2} s",
            self.run.seed_stats.seeding_time_s
        );
        self.report.output.message(&message);
        if self.config.seeding.only_replay_seeds {
            let unseeded: Vec<StateId> = self
                .run
                .states
                .values()
                .filter(|s| s.seeds.is_empty())
                .map(|s| s.id)
                .collect();
            for id in unseeded {
                if let Some(state) = self.run.states.remove(&id) {
                    self.run.seed_stats.dropped_sides += 1;
                    self.terminate(state, Termination::Elsewhere);
                }
            }
        }
        if self.config.seeding.only_seed {
            self.run.stop = Some(StopReason::OnlySeed);
        }
    }

    /// Binds the state's seeds to its newest symbolic object; seeds that do not fit leave
    /// the state, each reported once.
    pub(crate) fn bind_seeds(&mut self, state: &mut State) {
        if state.seeds.is_empty() {
            return;
        }
        let Some(symbolic) = state.symbolics.last() else {
            return;
        };
        let array = symbolic.array.clone();
        let name = symbolic.name.clone();
        let size = array.size() as usize;
        let config = &self.config.seeding;
        let mut reports = Vec::new();
        Arc::make_mut(&mut state.seeds).retain_mut(|seed| {
            let (outcome, note) = bind(seed, config, &name, size);
            if let Some(note) = note {
                reports.push((false, format!("seed {}: {note}", seed.input.source)));
            }
            match outcome {
                Bind::Bytes(bytes) => {
                    seed.assignment.insert(array.clone(), bytes);
                    true
                }
                Bind::Free => true,
                Bind::Skip(what) => {
                    let text = format!("seed {} skipped: {what}", seed.input.source);
                    reports.push((true, text));
                    false
                }
            }
        });
        for (skipped, text) in reports {
            if skipped {
                self.run.seed_stats.skipped += 1;
            }
            self.report.warn_once(&text);
        }
    }

    /// The seeded fork policy (`fork.rs`): the seeds split between the alternatives they
    /// take. `checked`: the site found the alternatives feasible, and the current state
    /// takes the first as usual; otherwise (the site asked no query) it takes the first
    /// alternative a seed takes, and the alternatives no seed takes become deferred states
    /// (or are dropped under `--only-replay-seeds`). Under `klee_set_forking(0)` or the
    /// memory limit, only the current state's side is followed.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn fork_by_seeds(
        &mut self,
        state: &mut State,
        kind: ForkKind,
        alternatives: Vec<Expr>,
        choices: Vec<usize>,
        checked: bool,
        each_new: &mut impl FnMut(&mut Self, usize, State),
    ) -> Exec<usize> {
        let n = alternatives.len();
        let of = n as u16;
        let site = super::fork::fork_site(state);
        let at = state.instructions;
        let seeds =
            Arc::try_unwrap(std::mem::take(&mut state.seeds)).unwrap_or_else(|a| (*a).clone());
        let mut groups: Vec<Vec<StateSeed>> = vec![Vec::new(); n];
        for (seed, &choice) in seeds.into_iter().zip(&choices) {
            groups[choice].push(seed);
        }
        let taken = if checked {
            0
        } else {
            groups
                .iter()
                .position(|g| !g.is_empty())
                .expect("a seeded state has seeds")
        };
        if !checked {
            self.run.seed_stats.forks_decided += 1;
        }
        if groups.iter().filter(|g| !g.is_empty()).count() > 1 {
            self.run.seed_stats.forks_split += 1;
        }
        if let Some(first) = groups.iter().flatten().next() {
            // The paths leaving this fork keep a seed's bytes for their tests; the copy is
            // renewed only when the seed has bound more arrays since (a hint needs not be
            // exact: tests check it by evaluation).
            let stale = state
                .seed_hint
                .as_ref()
                .is_none_or(|h| h.len() != first.assignment.len());
            if stale {
                state.seed_hint = Some(Arc::new(first.assignment.clone()));
            }
        }
        let inhibited = state.forking_disabled || self.run.at_memory_limit;
        for (i, cond) in alternatives.iter().enumerate() {
            if i == taken || inhibited {
                continue;
            }
            let seeded = !groups[i].is_empty();
            let deferred = !seeded && !checked;
            if deferred && self.config.seeding.only_replay_seeds {
                self.run.seed_stats.dropped_sides += 1;
                continue;
            }
            let before = state.constraints.clone();
            let mut child = self.split(state, cond.clone());
            child.seeds = Arc::new(std::mem::take(&mut groups[i]));
            if deferred {
                child.constraints = before;
                child.deferred = Some(Box::new(Deferred {
                    cond: cond.clone(),
                    end: None,
                }));
                self.run.seed_stats.deferred_sides += 1;
            }
            let decision = Decision {
                kind,
                taken: i as u16,
                of,
                forced: false,
                unchecked: !checked,
                at,
                site,
                target: None,
            };
            if !self.take_decision(&mut child, decision) {
                self.terminate(child, Termination::Elsewhere);
                continue;
            }
            self.run.deferring = deferred;
            each_new(self, i, child);
            self.run.deferring = false;
        }
        state.seeds = Arc::new(std::mem::take(&mut groups[taken]));
        state.add_constraint(alternatives[taken].clone());
        let decision = Decision {
            kind,
            taken: taken as u16,
            of,
            forced: inhibited,
            unchecked: !checked,
            at,
            site,
            target: None,
        };
        if !self.take_decision(state, decision) {
            return Err(Termination::Elsewhere);
        }
        Ok(taken)
    }

    /// Asks about a deferred side before it first runs: infeasible, it ends without a test
    /// (`Termination::Elsewhere`); feasible, its condition joins the path condition and it
    /// runs (or ends as its fork site said); a failed query ends it as any failed query
    /// does. The seeded path that deferred it has long gone on.
    pub(super) fn settle_deferred(&mut self, state: &mut State) -> Exec<()> {
        let Some(deferred) = state.deferred.take() else {
            return Ok(());
        };
        match self.sv.may_be_true(state, &deferred.cond, "deferred side") {
            Ok(true) => {
                self.run.seed_stats.deferred_feasible += 1;
                state.add_constraint(deferred.cond);
                match deferred.end {
                    Some(end) => Err(end),
                    None => Ok(()),
                }
            }
            Ok(false) => {
                self.run.seed_stats.deferred_infeasible += 1;
                Err(Termination::Elsewhere)
            }
            Err(t) => {
                self.run.seed_stats.deferred_failed += 1;
                state.add_constraint(deferred.cond);
                Err(t)
            }
        }
    }

    /// Reports, once per seed, the seeds of an ending path that have objects the path never
    /// made symbolic (the seed has more objects than the program makes).
    pub(super) fn report_unused_seed_objects(&mut self, state: &State) {
        let mut reports = Vec::new();
        for seed in state.seeds.iter() {
            let objects = &seed.input.objects;
            let by_name = self.config.seeding.named_seed_matching || seed.input.partial;
            let unused: Vec<&str> = if by_name {
                let used = seed.used.iter();
                objects
                    .iter()
                    .zip(used)
                    .filter(|(_, u)| !**u)
                    .map(|(o, _)| o.name.as_str())
                    .collect()
            } else {
                objects[seed.next.min(objects.len())..]
                    .iter()
                    .map(|o| o.name.as_str())
                    .collect()
            };
            if !unused.is_empty() {
                reports.push(format!(
                    "seed {}: its path ended with {} of its {} objects unused ('{}'{})",
                    seed.input.source,
                    unused.len(),
                    objects.len(),
                    unused[0],
                    if unused.len() > 1 { ", ..." } else { "" }
                ));
            }
        }
        for text in reports {
            self.report.warn_once(&text);
        }
    }

    /// The inputs of a seed that satisfies the state's path condition (free arrays zero),
    /// for its test without a solver query.
    pub(super) fn seed_model(&mut self, state: &State) -> Option<Assignment> {
        if state.seeds.is_empty() || !state.addresses.is_empty() {
            return None;
        }
        let constraints = state.constraints.to_vec();
        let seed = state
            .seeds
            .iter()
            .find(|s| s.assignment.satisfies(&constraints))?;
        self.run.seed_stats.tests_from_seeds += 1;
        Some(seed.assignment.clone())
    }

    /// The bytes of the seed a test of `state` may take its inputs from where they fit:
    /// its own first seed, or the one its ancestors followed.
    pub(super) fn seed_hint(&self, state: &State) -> Option<Arc<Assignment>> {
        if !state.addresses.is_empty() {
            return None;
        }
        match state.seeds.first() {
            Some(seed) => Some(Arc::new(seed.assignment.clone())),
            None => state.seed_hint.clone(),
        }
    }
}

impl Cx<'_, '_> {
    /// The alternative each of the state's seeds takes, in the order of its seeds, when
    /// the seeds decide the fork: the seeding phase, every array the alternatives read
    /// bound by every seed, and one alternative true under each.
    pub(crate) fn seed_choices(&self, state: &State, alternatives: &[Expr]) -> Option<Vec<usize>> {
        if !self.seeding || state.seeds.is_empty() || !state.addresses.is_empty() {
            return None;
        }
        let arrays = sear_expr::visit::collect_symbolic_arrays(alternatives.iter());
        let mut choices = Vec::with_capacity(state.seeds.len());
        for seed in state.seeds.iter() {
            if !arrays.iter().all(|a| seed.binds(a)) {
                return None;
            }
            let mut eval = Evaluator::new(&seed.assignment);
            choices.push(alternatives.iter().position(|a| eval.eval(a) == 1)?);
        }
        Some(choices)
    }

    /// The value of `e` under the state's seeds, when they decide it (all bind what it
    /// reads); seeds that give another value than the first seed's leave the state.
    pub(crate) fn seed_value(&mut self, state: &mut State, e: &Expr) -> Option<u128> {
        if !self.seeding || state.seeds.is_empty() || !state.addresses.is_empty() {
            return None;
        }
        let arrays = sear_expr::visit::collect_symbolic_arrays([e]);
        if !state
            .seeds
            .iter()
            .all(|s| arrays.iter().all(|a| s.binds(a)))
        {
            return None;
        }
        let values: Vec<u128> = state
            .seeds
            .iter()
            .map(|s| s.assignment.evaluate(e))
            .collect();
        let value = values[0];
        if values.iter().any(|v| *v != value) {
            let mut i = 0;
            Arc::make_mut(&mut state.seeds).retain(|_| {
                i += 1;
                values[i - 1] == value
            });
        }
        self.seed_stats.concretised += 1;
        Some(value)
    }

    /// `klee_assume(c)` under the seeds, when they decide it: seeds under which it is false
    /// leave the state (reported once each); if any seed is left, `c` joins the path
    /// condition without a query (true). False: the seeds do not decide it, or none is left.
    pub(crate) fn assume_by_seeds(&mut self, state: &mut State, c: &Expr) -> bool {
        let Some(choices) = self.seed_choices(state, &[c.clone(), Expr::not(c.clone())]) else {
            return false;
        };
        if choices.iter().any(|&choice| choice != 0) {
            let place = self.program.place(state);
            let mut dropped = Vec::new();
            let mut i = 0;
            Arc::make_mut(&mut state.seeds).retain(|seed| {
                i += 1;
                let keep = choices[i - 1] == 0;
                if !keep {
                    dropped.push(seed.input.source.clone());
                }
                keep
            });
            for source in dropped {
                self.seed_stats.violated_assumptions += 1;
                self.report.warn_once(&format!(
                    "seed {source} leaves its path: klee_assume is false under it at {}:{}",
                    place.file, place.line
                ));
            }
            if state.seeds.is_empty() {
                return false;
            }
        }
        state.add_constraint(c.clone());
        true
    }
}

/// Splits a path condition into the independent factors (constraints linked by the arrays
/// they read) `hint` satisfies and the rest: returns the rest and the arrays of the
/// satisfied factors, whose bytes the hint gives.
pub(super) fn split_by_hint(
    constraints: Vec<Expr>,
    hint: &Assignment,
) -> (Vec<Expr>, BTreeSet<ArrayRef>) {
    let n = constraints.len();
    let arrays: Vec<BTreeSet<ArrayRef>> = constraints
        .iter()
        .map(|c| sear_expr::visit::collect_symbolic_arrays([c]))
        .collect();
    let mut parent: Vec<usize> = (0..n).collect();
    fn find(parent: &mut [usize], mut i: usize) -> usize {
        while parent[i] != i {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        i
    }
    let mut owner: FxHashMap<ArrayRef, usize> = FxHashMap::default();
    for (i, set) in arrays.iter().enumerate() {
        for a in set {
            match owner.get(a) {
                Some(&j) => {
                    let (ri, rj) = (find(&mut parent, i), find(&mut parent, j));
                    parent[ri] = rj;
                }
                None => {
                    owner.insert(a.clone(), i);
                }
            }
        }
    }
    let mut satisfied: FxHashMap<usize, bool> = FxHashMap::default();
    let mut eval = Evaluator::new(hint);
    for (i, c) in constraints.iter().enumerate() {
        let root = find(&mut parent, i);
        let ok = !arrays[i].is_empty() && eval.eval(c) == 1;
        let entry = satisfied.entry(root).or_insert(true);
        *entry &= ok;
    }
    let mut rest = Vec::new();
    let mut hinted = BTreeSet::new();
    for (i, c) in constraints.into_iter().enumerate() {
        let root = find(&mut parent, i);
        if satisfied[&root] {
            hinted.extend(arrays[i].iter().cloned());
        } else {
            rest.push(c);
        }
    }
    (rest, hinted)
}

/// Constraints fixing the bytes `hint` gives to the arrays `constraints` read (arrays of up
/// to 4096 bytes), so that a test's query has the seed's values where the seed has them.
pub(super) fn pins(constraints: &[Expr], hint: &Assignment) -> Vec<Expr> {
    let mut out = Vec::new();
    for array in sear_expr::visit::collect_symbolic_arrays(constraints.iter()) {
        let Some(bytes) = hint.get(&array) else {
            continue;
        };
        if bytes.len() > 4096 {
            continue;
        }
        let updates = sear_expr::UpdateList::new(array.clone());
        for (i, b) in bytes.iter().enumerate() {
            let index = Expr::constant(i as u128, array.index_width());
            let read = Expr::read(&updates, index);
            out.push(Expr::eq(read, Expr::constant(u128::from(*b), 8)));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use sear_expr::{Array, ArrayKind, UpdateList};

    fn byte(array: &ArrayRef) -> Expr {
        Expr::read(&UpdateList::new(array.clone()), Expr::constant(0, 32))
    }

    #[test]
    fn factors_the_hint_satisfies_take_its_bytes() {
        let a = Array::new("a", 1, ArrayKind::SymbolicInput, None);
        let b = Array::new("b", 1, ArrayKind::SymbolicInput, None);
        let c = Array::new("c", 1, ArrayKind::SymbolicInput, None);
        let on_a = Expr::eq(byte(&a), Expr::constant(7, 8));
        let on_b = Expr::ult(byte(&b), Expr::constant(3, 8));
        // b and c are one factor: the hint fails it (b = 9), so both go to the solver.
        let on_bc = Expr::ult(byte(&c), byte(&b));
        let mut hint = Assignment::new();
        hint.insert(a.clone(), vec![7]);
        hint.insert(b.clone(), vec![9]);
        let (rest, hinted) = split_by_hint(vec![on_a, on_b.clone(), on_bc.clone()], &hint);
        assert_eq!(rest, vec![on_b, on_bc]);
        assert_eq!(hinted.into_iter().collect::<Vec<_>>(), vec![a]);
        // The rest reads b (bound by the hint: pinned) and c (free: not pinned).
        let pinned = pins(&rest, &hint);
        assert_eq!(pinned, vec![Expr::eq(byte(&b), Expr::constant(9, 8))]);
    }
}
