//! The fork point: the only place that makes a new path.
//!
//! A state forks inside an instruction (a branch, a switch, a call through a symbolic
//! function pointer, a check that may fail, a symbolic pointer that may point into several
//! objects, a symbolic size, an Indexify row). The fork site finds the feasible
//! alternatives (disjoint conditions) and hands them to [`Executor::fork`], which applies
//! every fork policy, in this order:
//!
//! 1. **depth**: a state at `--max-depth` forks no more; it ends early ("max-depth
//!    exceeded"), as at every fork site;
//! 2. **seeds** (`seeding.rs`): during the seeding phase, alternatives every seed of the
//!    state decides are split among the seeds without a query; at sites that skipped their
//!    feasibility queries ([`Executor::fork_seeded`]), the sides no seed takes become
//!    deferred states;
//! 3. **`klee_set_forking(0)`** on the path, then 4. **the memory limit** (`--max-memory`
//!    reached at the last check): the state follows one alternative, chosen at random
//!    (seeded) as KLEE does (a coin for two, uniform for more), under its condition, and no
//!    other path is made (`forks_inhibited` counts the memory limit's);
//!
//! otherwise it makes one new state per alternative after the first, in order (each set up
//! by the site right after it is made), and the current state takes the first. Every
//! state leaving a fork, old and new, gets the fork's [`Decision`] appended to its
//! [`PathRecord`](crate::path::PathRecord) (refused forks too, marked forced), and the
//! techniques that watch forks (merge groups, loop merging) see each new state here.
//!
//! **Whole operations.** An instruction that may fork part-way through (a call with a
//! symbolic argument: `memcpy`, `memmove`, `va_copy`, `realloc`, `free`, a `byval` copy)
//! is run through [`Executor::whole`]: the state before the instruction is kept, and a path
//! forked inside it ([`Executor::continue_or_restart`]) restarts the instruction from that
//! snapshot, under its own path condition. So every part of the operation (the write after
//! the read, the result) happens in every resolved path; on the restarted path the
//! resolution finds one object and does not fork again.
//!
//! Invariants: a forked state's path condition is its parent's plus the fork's condition;
//! sibling conditions are disjoint; ids grow in fork order; a state is in `states` or
//! `pending` (or running) until it ends, and the searcher knows exactly those.

use std::sync::Arc;

use sear_expr::Expr;

use super::{Exec, Executor};
use crate::path::{Decision, Follow, ForkKind, ForkSite, PathRecord};
use crate::state::{State, StateId};
use crate::termination::Termination;

impl Executor<'_> {
    /// The fork point: splits `state` into one path per alternative (feasible, disjoint
    /// conditions, in the site's order) under the run's fork policies (module doc). Each new
    /// path, for alternative `i`, is handed to `each_new(executor, i, state)` as soon as it
    /// is made, to be set up and [`spawn`](Executor::spawn)ed or terminated. Returns the
    /// alternative the current state follows; its condition is added to the state's path
    /// condition when there was more than one. `Err` ends the current state (the depth
    /// limit).
    pub(crate) fn fork(
        &mut self,
        state: &mut State,
        kind: ForkKind,
        alternatives: Vec<Expr>,
        each_new: impl FnMut(&mut Self, usize, State),
    ) -> Exec<usize> {
        self.fork_listed(state, kind, alternatives, None, each_new)
    }

    /// [`fork`](Self::fork) at a site that filtered its listed alternatives by feasibility:
    /// `listed[i]` is alternative `i`'s position in the site's list, recorded as each
    /// decision's [`target`](Decision::target).
    pub(crate) fn fork_listed(
        &mut self,
        state: &mut State,
        kind: ForkKind,
        alternatives: Vec<Expr>,
        listed: Option<&[u16]>,
        mut each_new: impl FnMut(&mut Self, usize, State),
    ) -> Exec<usize> {
        let n = alternatives.len();
        assert!(n > 0, "a fork needs an alternative");
        if n == 1 {
            return Ok(0);
        }
        let of = u16::try_from(n).expect("fewer than 65536 alternatives");
        let site = fork_site(state);
        match self.recorded_decision(state, kind, of)? {
            Recorded::Free => {}
            Recorded::One(decision) => {
                let taken = decision.taken as usize;
                let mut alternatives = alternatives;
                state.add_constraint(alternatives.swap_remove(taken));
                state.path.push(decision);
                return Ok(taken);
            }
            Recorded::Split(decision, parts) => {
                return Ok(self.split_rebuilt(state, decision, alternatives, parts, each_new));
            }
        }
        if let Some(max) = self.config.max_depth {
            if state.depth >= max {
                return Err(Termination::Early("max-depth exceeded".into()));
            }
        }
        let at = state.instructions;
        let decision = |taken: usize, forced| Decision {
            kind,
            taken: taken as u16,
            of,
            forced,
            unchecked: false,
            at,
            site,
            target: listed.map(|l| l[taken]),
        };
        if self.run.seeding
            && !state.seeds.is_empty()
            && !state.forking_disabled
            && !self.run.at_memory_limit
        {
            if let Some(choices) = self.cx().seed_choices(state, &alternatives) {
                return self.fork_by_seeds(state, kind, alternatives, choices, true, &mut each_new);
            }
        }
        if state.forking_disabled || self.run.at_memory_limit {
            // KLEE's `branchingPermitted`: one side, at random (seeded).
            if !state.forking_disabled {
                self.run.stats.forks_inhibited += 1;
            }
            let taken = if n == 2 {
                usize::from(!self.run.rng.bool())
            } else {
                self.run.rng.usize(..n)
            };
            let mut alternatives = alternatives;
            state.add_constraint(alternatives.swap_remove(taken));
            if !self.take_decision(state, decision(taken, true)) {
                return Err(Termination::Elsewhere);
            }
            return Ok(taken);
        }
        let mut alternatives = alternatives.into_iter();
        let first = alternatives.next().expect("n > 1");
        for (i, cond) in alternatives.enumerate() {
            let mut child = self.split(state, cond);
            if !self.take_decision(&mut child, decision(i + 1, false)) {
                self.terminate(child, Termination::Elsewhere);
                continue;
            }
            each_new(self, i + 1, child);
        }
        state.add_constraint(first);
        if !self.take_decision(state, decision(0, false)) {
            return Err(Termination::Elsewhere);
        }
        Ok(0)
    }

    /// Appends `decision` to `state`'s path record. False when the path is now one the
    /// current prefix leaves out (`work::Prefix::exclude`: explored elsewhere), which the
    /// caller ends with `Termination::Elsewhere`.
    pub(super) fn take_decision(&self, state: &mut State, decision: Decision) -> bool {
        state.path.push(decision);
        !self.run.excluded.contains(&state.path)
    }

    /// The fork point for a site that asked no feasibility query because the state's seeds
    /// decide it (`choices`: the alternative each seed takes, from
    /// [`seed_choices`](Executor::seed_choices)): after the depth limit, the seeded policy
    /// (`seeding.rs`) makes the sides no seed takes deferred states.
    pub(crate) fn fork_seeded(
        &mut self,
        state: &mut State,
        kind: ForkKind,
        alternatives: Vec<Expr>,
        choices: Vec<usize>,
        mut each_new: impl FnMut(&mut Self, usize, State),
    ) -> Exec<usize> {
        if let Some(max) = self.config.max_depth {
            if state.depth >= max {
                return Err(Termination::Early("max-depth exceeded".into()));
            }
        }
        if alternatives.len() == 1 {
            // One alternative is no fork (as in `fork`): nothing to record.
            return Ok(0);
        }
        self.fork_by_seeds(state, kind, alternatives, choices, false, &mut each_new)
    }

    /// What a state that follows recorded paths does at this fork: nothing recorded here
    /// (below a prefix's end), the records' one decision, or the sides its group of records
    /// parts into. A fork the records do not have here, or one of another kind or size,
    /// means the program does not take the recorded path (another program, or a run that is
    /// not deterministic): the path ends with an `exec` error naming the decision.
    fn recorded_decision(&mut self, state: &mut State, kind: ForkKind, of: u16) -> Exec<Recorded> {
        let Some(follow) = &state.follow else {
            return Ok(Recorded::Free);
        };
        let index = state.path.len();
        let Some(&decision) = follow.next(index) else {
            if follow.exact {
                return Err(diverged(format!(
                    "the program forks ({} of {of}) past the path's {index} decisions",
                    kind.name()
                )));
            }
            state.follow = None;
            return Ok(Recorded::Free);
        };
        if decision.at != state.instructions {
            return Err(diverged(format!(
                "the program forks ({} of {of}) at instruction {} where the path has no \
                 decision (decision {} is at instruction {})",
                kind.name(),
                state.instructions,
                index + 1,
                decision.at
            )));
        }
        if decision.kind != kind || decision.of != of {
            return Err(diverged(format!(
                "decision {} is {} of {}, but the program forks {} of {of} there",
                index + 1,
                decision.kind.name(),
                decision.of,
                kind.name()
            )));
        }
        let rebuilt = state.instructions - follow.since;
        if follow.records.len() == 1 {
            if !follow.exact && index + 1 == follow.records[0].len() {
                // The last decision of a received prefix: what came before was its rebuilding.
                self.run.worker.replay_instructions += rebuilt;
            }
            return Ok(Recorded::One(decision));
        }
        // A group: the records, sorted, part into runs by the side they take here.
        let mut parts: Vec<(u16, Vec<PathRecord>)> = Vec::new();
        for record in follow.records.iter() {
            let Some(d) = record.get(index) else {
                // A record ending here holds the others' subtrees: explore below it.
                self.run.worker.replay_instructions += rebuilt;
                state.follow = None;
                return Ok(Recorded::Free);
            };
            match parts.last_mut() {
                Some((taken, part)) if *taken == d.taken => part.push(record.clone()),
                _ => parts.push((d.taken, vec![record.clone()])),
            }
        }
        if parts.len() == 1 {
            return Ok(Recorded::One(decision));
        }
        // The rebuilding so far was shared; each side counts its own from here.
        self.run.worker.replay_instructions += rebuilt;
        let parts = parts
            .into_iter()
            .map(|(taken, part)| (taken, Arc::from(part)))
            .collect();
        Ok(Recorded::Split(decision, parts))
    }

    /// Rebuilding a group of records that part at this fork: one state per side they take
    /// (the current state the first, new states the others, each following its part of the
    /// group), as the fork made them when the records were written. No fork is counted: the
    /// worker that recorded them counted it.
    fn split_rebuilt(
        &mut self,
        state: &mut State,
        decision: Decision,
        mut alternatives: Vec<Expr>,
        parts: Vec<(u16, Arc<[PathRecord]>)>,
        mut each_new: impl FnMut(&mut Self, usize, State),
    ) -> usize {
        let at = state.instructions;
        let follow = |records| Follow {
            records,
            exact: false,
            since: at,
        };
        // Each side's decision as its records have it (its own `target`).
        let index = state.path.len();
        let side = |taken: u16, records: &[PathRecord]| {
            records
                .first()
                .and_then(|r| r.get(index))
                .copied()
                .unwrap_or(Decision { taken, ..decision })
        };
        let mut parts = parts.into_iter();
        let (first, first_records) = parts.next().expect("a split has two parts or more");
        for (taken, records) in parts {
            let mut child = self.split(state, alternatives[taken as usize].clone());
            self.run.stats.forks -= 1;
            state.depth -= 1;
            child.depth -= 1;
            let decision = side(taken, &records);
            child.follow = Some(follow(records));
            if !self.take_decision(&mut child, decision) {
                self.terminate(child, Termination::Elsewhere);
                continue;
            }
            each_new(self, taken as usize, child);
        }
        state.add_constraint(alternatives.swap_remove(first as usize));
        let decision = side(first, &first_records);
        state.follow = Some(follow(first_records));
        state.path.push(decision);
        first as usize
    }

    /// True when `state`'s last fork put it on a side that a new path took when the
    /// decision was recorded (it follows a recorded path there): a site whose new paths
    /// continue differently from the current one (restarting a whole operation) continues
    /// this state as it continued them.
    pub(crate) fn follows_new_side(state: &State) -> bool {
        state.follow.is_some()
            && state
                .path
                .get(state.path.len().wrapping_sub(1))
                .is_some_and(|d| d.taken != 0 && !d.forced)
    }

    /// A copy of `state` under `cond` (added to the copy's path condition), with its own id
    /// and process-tree leaf, seen by the techniques that watch forks. Only the fork point
    /// calls it.
    pub(super) fn split(&mut self, state: &mut State, cond: Expr) -> State {
        self.hook_before_fork(state, &cond);
        let mut child = state.clone();
        child.id = StateId(self.run.next_state);
        // As in KLEE (`ExecutionState::branch`), the copy has covered nothing new yet (what
        // `--only-output-states-covering-new` asks of a path).
        child.covered_new = false;
        // Seeds go where the seeded policy sends them (`seeding.rs`), by default nowhere.
        child.seeds = Default::default();
        self.run.next_state += 1;
        let (left, right) = self.run.ptree.split(state.ptree_node, state.id, child.id);
        state.ptree_node = left;
        child.ptree_node = right;
        state.depth += 1;
        child.depth += 1;
        self.run.stats.forks += 1;
        self.hook_after_fork(state, &mut child, &cond);
        child.add_constraint(cond);
        child
    }

    /// Registers a forked state; the searcher sees it after the current quantum.
    pub(crate) fn spawn(&mut self, child: State) {
        self.run.pending.push(child);
    }

    /// Continues the new path `child` with `resume` and registers it (or ends it with
    /// resume's termination); inside a whole operation, the path restarts the operation
    /// instead.
    pub(crate) fn continue_or_restart(
        &mut self,
        mut child: State,
        resume: impl FnOnce(&mut Self, &mut State) -> Exec<()>,
    ) {
        if let Some(restarted) = self.restarted(&child) {
            self.spawn(restarted);
            return;
        }
        match resume(self, &mut child) {
            Ok(()) => self.spawn(child),
            Err(t) => self.terminate(child, t),
        }
    }

    /// Registers the new path `child` as one that restarts the current whole operation;
    /// outside one, the path ends with an `exec` error naming `what`.
    pub(crate) fn restart(&mut self, child: State, what: &str) {
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

    /// Has the current state follow a side that restarts the current whole operation: the
    /// state is reset to the operation's start (keeping its path) and the returned
    /// [`Termination::Restart`] unwinds the step; outside a whole operation, the path ends
    /// with an `exec` error naming `what`.
    pub(crate) fn restart_current(&mut self, state: &mut State, what: &str) -> Termination {
        match self.restarted(state) {
            Some(restarted) => {
                *state = restarted;
                Termination::Restart
            }
            None => Termination::error(
                crate::termination::ErrorKind::Exec,
                format!("{what} outside a call"),
            ),
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
        restarted.path = child.path.clone();
        // What the fork point decided for the child besides its condition: the recorded
        // paths it follows (a group rebuilt together parts here), its seeds and a deferred
        // side's condition. The snapshot's are its parent's from before the fork.
        restarted.follow = child.follow.clone();
        restarted.seeds = child.seeds.clone();
        restarted.deferred = child.deferred.clone();
        restarted.seed_hint = child.seed_hint.clone();
        restarted.seed_fixed = child.seed_fixed;
        let call = restarted.current_inst;
        restarted.frame_mut().inst = call;
        Some(restarted)
    }
}

/// The instruction `state` is executing.
pub(super) fn fork_site(state: &State) -> ForkSite {
    let frame = state.frame();
    ForkSite {
        func: frame.func.0,
        block: frame.block.0,
        inst: state.current_inst as u32,
    }
}

/// The error that ends a path that does not take the recorded path it follows.
fn diverged(what: String) -> Termination {
    Termination::error(
        crate::termination::ErrorKind::Exec,
        format!("path replay diverged: {what}"),
    )
}

/// The state's questions about the recorded path it follows, asked by the fork sites.
impl State {
    /// True when the state follows a recorded path whose next decision is at the instruction
    /// it is executing: a fork site that is its instruction's only one (a branch) may skip
    /// its feasibility queries (the decision says which side is taken, and both were
    /// feasible when it was recorded). Sites inside instructions that may fork more than
    /// once (memory operations, calls) ask as usual; the fork point checks the decision.
    pub(crate) fn decided_here(&self) -> bool {
        self.recorded_here().is_some()
    }

    /// The recorded decision the state takes at the instruction it is executing, if it
    /// follows a record with one there (the one [`State::decided_here`] speaks of).
    pub(crate) fn recorded_here(&self) -> Option<&Decision> {
        self.follow
            .as_ref()
            .and_then(|f| f.next(self.path.len()))
            .filter(|d| d.at == self.instructions)
    }

    /// True when the state follows a record whose decision at this instruction is an
    /// unchecked one of `kind` (seeds decided the fork without queries when it was recorded,
    /// `path.rs`): the site must list its alternatives as it did then, without feasibility
    /// queries, for the decision's numbering to hold.
    pub(crate) fn unchecked_here(&self, kind: ForkKind) -> bool {
        self.follow
            .as_ref()
            .and_then(|f| f.next(self.path.len()))
            .is_some_and(|d| d.unchecked && d.kind == kind && d.at == self.instructions)
    }
}

/// What a state that follows recorded paths does at a fork (`Executor::recorded_decision`).
enum Recorded {
    /// Nothing recorded here: the fork as usual.
    Free,
    /// Every record takes this decision.
    One(Decision),
    /// The records part here: the decision (its side aside) and, in order, each side taken
    /// with the records that take it.
    Split(Decision, Vec<(u16, Arc<[PathRecord]>)>),
}
