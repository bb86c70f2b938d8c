//! Ending a run: `summary.json` first, then tests for the states left, within a bounded
//! time, then the final `summary.json`.

use std::time::{Duration, Instant};

use super::{EngineError, Executor, StopReason, INTERIM_STOP_REASON};
use crate::output::Summary;
use crate::state::{State, StateId};
use crate::termination::Termination;

/// The time the halt may spend writing tests for the states left: a quarter of
/// `--max-time` (between 1 s and 5 min), or 60 s without a time limit. A test of a state left
/// at the halt replays natively past the state's point, so these tests carry much of a
/// time-limited run's coverage (coreutils' nl at 60 s: KLEE, which writes a test for every
/// state left however long it takes, ran 128 s in all).
pub fn halt_budget(max_time: Option<Duration>) -> Duration {
    max_time.map_or(Duration::from_secs(60), |t| {
        (t / 4).clamp(Duration::from_secs(1), Duration::from_secs(300))
    })
}

impl Executor<'_> {
    /// Ends the run: remaining states get early-termination tests (as long as the halt's
    /// time budget and `--dump-states-on-halt` allow; the others are counted in
    /// `tests_not_written`); writes the summary before and after.
    pub(crate) fn finish(mut self) -> Result<Summary, EngineError> {
        let stop = self.final_stop_reason();
        // Test generation must be able to solve again after an interruption.
        sear_solver::interrupt::clear();
        // Paths still waiting at a merge point end like the others.
        let waiting = self.hook_take_waiting();
        for state in waiting {
            self.run.states.insert(state.id, state);
        }
        // Newest states first: their path conditions share the most with the last queries,
        // so their tests come from the counterexample cache more often and more of them fit
        // in the halt's budget (coreutils' tsort and wc at 60 s: 3-6x more tests written,
        // line coverage 80.3% -> 96.8% and 52.5% -> 60.0%; docs/real-programs.md).
        // Under --only-output-states-covering-new, the states that get a test come first:
        // ending the others writes nothing, and tens of thousands of them (a loop over 10^5
        // inputs, sv-benchmarks' `standard_running-1`: 74,140 states at 11 s) took the
        // whole budget before the few that covered something new were reached.
        let only_new = self.config.only_output_states_covering_new;
        let mut remaining: Vec<(bool, StateId)> = self
            .run
            .states
            .values()
            .map(|s| (only_new && !s.covered_new, s.id))
            .collect();
        remaining.sort_unstable_by(|a, b| a.0.cmp(&b.0).then(b.1.cmp(&a.1)));
        let remaining = remaining.into_iter().map(|(_, id)| id);
        self.fill_summary(stop.name());
        self.report
            .output
            .write_json("summary.json", &self.run.summary)?;
        let deadline = Instant::now() + self.halt_budget();
        self.run.halt_deadline = Some(deadline);
        for id in remaining {
            let Some(state) = self.run.states.remove(&id) else {
                continue;
            };
            if state.deferred.is_some()
                || (self.config.seeding.only_replay_seeds && state.seeds.is_empty())
            {
                // A side no seed took and no search picked: its feasibility was never
                // asked; or a path without seed under --only-replay-seeds.
                if state.deferred.is_some() {
                    self.run.seed_stats.deferred_unexplored += 1;
                } else {
                    self.run.seed_stats.dropped_sides += 1;
                }
                self.terminate(state, Termination::Elsewhere);
                continue;
            }
            if self.config.dump_states_on_halt && Instant::now() < deadline {
                let reason = format!("execution halted ({})", stop.name());
                self.terminate(state, Termination::Early(reason));
            } else {
                self.end_without_test(state);
            }
        }
        if self.run.summary.tests_not_written > 0 {
            let text = format!(
                "{} states left at the halt got no test (--dump-states-on-halt, or the halt's \
                 time budget of {:.1} s ran out)",
                self.run.summary.tests_not_written,
                self.halt_budget().as_secs_f64()
            );
            self.report.output.warning(&text);
            self.report.observer.warning(&text);
        }
        self.fill_summary(stop.name());
        self.report
            .output
            .write_json("summary.json", &self.run.summary)?;
        // A worker's test files, for its coordinator: once, at the end (not written).
        self.run.summary.test_files = self.report.output.take_test_files();
        Ok(self.run.summary)
    }

    /// Why the run stopped: a run that dropped states for memory did not explore everything.
    fn final_stop_reason(&self) -> StopReason {
        match self.run.stop {
            Some(reason) => reason,
            None if self.run.stats.dropped_states > 0 => StopReason::MaxMemory,
            None => StopReason::Exhausted,
        }
    }

    /// The time the halt may spend writing tests for the states left ([`halt_budget`]).
    fn halt_budget(&self) -> Duration {
        halt_budget(self.config.max_time)
    }

    /// Ends a state left at the halt without solving for its test (counted in
    /// `tests_not_written` if it would have had one).
    pub(super) fn end_without_test(&mut self, state: State) {
        self.run.searcher.remove(state.id);
        self.run.ptree.remove(state.ptree_node);
        self.run.trace_hashes.push(state.trace_hash);
        self.run.summary.early_paths += 1;
        if self.wants_test(&state) {
            self.run.summary.tests_not_written += 1;
        }
    }

    /// Writes `summary.json` as the run stands, with `stop_reason: "running"`: a process
    /// ended from outside (the CLI's hard limit past `--max-time`, which then says
    /// `"overrun"`, or a kill) leaves its statistics so far beside its tests.
    pub(super) fn write_interim_summary(&mut self) {
        self.fill_summary(INTERIM_STOP_REASON);
        if let Err(e) = self
            .report
            .output
            .write_json("summary.json", &self.run.summary)
        {
            tracing::warn!("cannot write the interim summary.json: {e}");
        }
    }

    /// Fills `summary.json`'s fields as the run stands, with `stop_reason` `stop`.
    fn fill_summary(&mut self, stop: &str) {
        self.sync_stats();
        let solver_stats = self.sv.solver.stats();
        self.run.summary.instructions = self.run.stats.instructions;
        self.run.summary.queries = self.run.stats.queries;
        self.run.summary.solver_time_s = self.run.stats.solver_time.as_secs_f64();
        self.run.summary.queries_by_purpose = self
            .sv
            .by_purpose
            .iter()
            .map(|(k, (n, t))| {
                let q = crate::output::PurposeQueries {
                    queries: *n,
                    time_s: t.as_secs_f64(),
                };
                (k.clone(), q)
            })
            .collect();
        self.run.summary.simplification = self.sv.simplification.clone();
        let (ac, at_start) = (sear_expr::ac::stats(), self.run.stats.ac_at_start);
        self.run.summary.ac_normalization = crate::output::AcNormalizationStats {
            enabled: self.config.ac_normalize,
            combined: ac.combined - at_start.combined,
            rebuilt: ac.rebuilt - at_start.rebuilt,
            cancelled: ac.cancelled - at_start.cancelled,
            over_budget: ac.over_budget - at_start.over_budget,
        };
        self.run.summary.ite_lifting = crate::output::IteLiftingStats {
            enabled: self.config.ite_lifting,
            lifted: sear_expr::ite_lift::lifted() - self.run.stats.lifted_at_start,
        };
        let (rewritten_at_start, nodes_at_start) = self.run.stats.ite_compare_at_start;
        self.run.summary.ite_compare = crate::output::IteCompareStats {
            enabled: self.config.ite_compare,
            rewritten: sear_expr::ite_compare::rewritten() - rewritten_at_start,
            nodes: sear_expr::ite_compare::nodes() - nodes_at_start,
        };
        self.run.summary.time_s = self.run.start.elapsed().as_secs_f64();
        let usage = crate::stats::process_usage().unwrap_or_default();
        self.run.summary.user_time_s = usage.user_s;
        self.run.summary.system_time_s = usage.system_s;
        self.run.summary.peak_memory_mib = usage.peak_resident_mib;
        self.run.summary.stop_reason = stop.into();
        self.run.summary.forks = self.run.stats.forks;
        self.run.summary.max_states = self.run.stats.max_states;
        self.run.summary.dropped_states = self.run.stats.dropped_states;
        self.run.summary.forks_inhibited = self.run.stats.forks_inhibited;
        self.run.summary.dive_turns_kept = self.run.searcher.turns_kept();
        self.run.summary.concretisations = self.run.stats.concretisations;
        self.run.summary.fp_symbolic_ops = self.run.stats.fp_symbolic_ops;
        self.run.summary.merged_states = self.run.stats.merged_states;
        self.run.summary.memory = self.memory.summary();
        self.run.summary.symbolic_size = self.sym_size_summary();
        if self
            .techniques
            .iter()
            .any(|t| t.name() == "loop-iteration-merging")
        {
            self.run.summary.loop_iteration_merging =
                serde_json::to_value(&self.run.iterations.stats).unwrap_or_default();
        }
        self.run.summary.covered_instructions = self.run.coverage.covered();
        self.run.summary.total_instructions = self.run.coverage.total();
        self.run.summary.tests = self.report.output.tests_written() as u64;
        self.run.summary.array_opt = self
            .sv
            .array_opt
            .summary(&self.config, solver_stats.core_queries_with_arrays);
        self.run.summary.trace_digest = trace_digest(&self.run.trace_hashes);
        self.run.summary.solver = serde_json::to_value(&solver_stats).unwrap_or_default();
        self.run.summary.indexify = self.indexify_summary(self.run.summary.time_s);
        if self.run.seed_stats.loaded > 0 {
            if self.run.seeding {
                self.run.seed_stats.seeding_time_s = self.run.summary.time_s;
            }
            self.run.summary.seeds = serde_json::to_value(&self.run.seed_stats).unwrap_or_default();
        }
        if self.work.is_some() {
            self.run.summary.worker = serde_json::to_value(&self.run.worker).unwrap_or_default();
            let reported = self.run.worker.hashes_reported;
            self.run.summary.trace_hashes = self.run.trace_hashes[reported..].to_vec();
            self.run.summary.covered = self.run.coverage.covered_list();
        }
    }
}

/// An order-independent digest of the paths' trace hashes (equal for two runs that ended the
/// same set of paths, whatever the order).
pub fn trace_digest(hashes: &[u64]) -> String {
    let mut sorted = hashes.to_vec();
    sorted.sort_unstable();
    let digest = sorted.iter().fold(0xCBF2_9CE4_8422_2325u64, |h, x| {
        (h ^ x).wrapping_mul(0x0000_0100_0000_01B3).rotate_left(17)
    });
    format!("{digest:016x}")
}

impl Executor<'_> {
    /// `summary.json`'s `symbolic_size` section.
    fn sym_size_summary(&self) -> serde_json::Value {
        let mut v = serde_json::json!({
            "mode": self.config.sym_size.mode.name(),
            "capacity": self.config.sym_size.capacity,
        });
        if let (Some(map), Ok(serde_json::Value::Object(counters))) =
            (v.as_object_mut(), serde_json::to_value(&self.run.sym_alloc))
        {
            map.extend(counters);
        }
        if let Some(map) = v.as_object_mut() {
            self.hook_summarize(map);
        }
        v
    }
}
