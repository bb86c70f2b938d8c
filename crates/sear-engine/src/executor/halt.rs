//! Ending a run: `summary.json` first, then tests for the states left, within a bounded
//! time, then the final `summary.json`.

use std::time::{Duration, Instant};

use super::{EngineError, Executor, StopReason};
use crate::output::Summary;
use crate::state::{State, StateId};
use crate::termination::Termination;

impl Executor<'_> {
    /// Ends the run: remaining states get early-termination tests (as long as the halt's
    /// time budget and `--dump-states-on-halt` allow; the others are counted in
    /// `tests_not_written`); writes the summary before and after.
    pub(crate) fn finish(mut self) -> Result<Summary, EngineError> {
        let stop = self.final_stop_reason();
        // Test generation must be able to solve again after an interruption.
        sear_solver::interrupt::clear();
        let mut remaining: Vec<StateId> = self.states.keys().copied().collect();
        remaining.sort();
        self.fill_summary(stop);
        self.output.write_json("summary.json", &self.summary)?;
        let deadline = Instant::now() + self.halt_budget();
        self.halt_deadline = Some(deadline);
        for id in remaining {
            let Some(state) = self.states.remove(&id) else {
                continue;
            };
            if self.config.dump_states_on_halt && Instant::now() < deadline {
                let reason = format!("execution halted ({})", stop.name());
                self.terminate(state, Termination::Early(reason));
            } else {
                self.end_without_test(state);
            }
        }
        if self.summary.tests_not_written > 0 {
            let text = format!(
                "{} states left at the halt got no test (--dump-states-on-halt, or the halt's \
                 time budget of {:.1} s ran out)",
                self.summary.tests_not_written,
                self.halt_budget().as_secs_f64()
            );
            self.output.warning(&text);
            self.observer.warning(&text);
        }
        self.fill_summary(stop);
        self.output.write_json("summary.json", &self.summary)?;
        Ok(self.summary)
    }

    /// Why the run stopped: a run that dropped states for memory did not explore everything.
    fn final_stop_reason(&self) -> StopReason {
        match self.stop {
            Some(reason) => reason,
            None if self.stats.dropped_states > 0 => StopReason::MaxMemory,
            None => StopReason::Exhausted,
        }
    }

    /// The time the halt may spend writing tests for the states left: a tenth of
    /// `--max-time` (between 1 s and 60 s), or 60 s without a time limit.
    fn halt_budget(&self) -> Duration {
        self.config.max_time.map_or(Duration::from_secs(60), |t| {
            (t / 10).clamp(Duration::from_secs(1), Duration::from_secs(60))
        })
    }

    /// Ends a state left at the halt without solving for its test.
    fn end_without_test(&mut self, state: State) {
        self.searcher.remove(state.id);
        self.ptree.remove(state.ptree_node);
        self.trace_hashes.push(state.trace_hash);
        self.summary.early_paths += 1;
        self.summary.tests_not_written += 1;
    }

    fn fill_summary(&mut self, stop: StopReason) {
        let solver_stats = self.solver.stats();
        self.summary.instructions = self.stats.instructions;
        self.summary.queries = self.stats.queries;
        self.summary.solver_time_s = self.stats.solver_time.as_secs_f64();
        self.summary.time_s = self.start.elapsed().as_secs_f64();
        self.summary.stop_reason = stop.name().into();
        self.summary.forks = self.stats.forks;
        self.summary.max_states = self.stats.max_states;
        self.summary.dropped_states = self.stats.dropped_states;
        self.summary.covered_instructions = self.coverage.covered();
        self.summary.total_instructions = self.coverage.total();
        self.summary.tests = self.output.tests_written() as u64;
        self.summary.array_opt = self
            .array_opt
            .summary(&self.config, solver_stats.core_queries_with_arrays);
        self.summary.trace_digest = trace_digest(&self.trace_hashes);
        self.summary.solver = serde_json::to_value(&solver_stats).unwrap_or_default();
    }
}

/// An order-independent digest of the paths' trace hashes (equal for two runs that ended the
/// same set of paths, whatever the order).
fn trace_digest(hashes: &[u64]) -> String {
    let mut sorted = hashes.to_vec();
    sorted.sort_unstable();
    let digest = sorted.iter().fold(0xCBF2_9CE4_8422_2325u64, |h, x| {
        (h ^ x).wrapping_mul(0x0000_0100_0000_01B3).rotate_left(17)
    });
    format!("{digest:016x}")
}
