//! The run's limits: time, instructions, memory and interruption, checked between quanta
//! and, for operations that are long on their own (a 1 MiB `memset`, a large symbolic
//! object), inside them.

use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use super::{Exec, Executor, StopReason};
use crate::state::StateId;
use crate::termination::Termination;

/// Bytes an operation handles between two checks of the limits.
pub(crate) const LIMIT_CHECK_BYTES: usize = 1 << 16;

impl Executor<'_> {
    /// Sets `stop` when a limit is reached; drops states above the memory limit.
    pub(crate) fn check_limits(&mut self) {
        if self.run.interrupt.load(Ordering::Relaxed) {
            self.run.stop = Some(StopReason::Interrupted);
        }
        if let Some(limit) = self.config.max_time {
            if self.run.start.elapsed() >= limit {
                self.run.stop = Some(StopReason::TimeLimit);
            }
        }
        if let Some(limit) = self.config.max_instructions {
            if self.run.stats.instructions >= limit {
                self.run.stop = Some(StopReason::InstructionLimit);
            }
        }
        if let Some(limit_mib) = self.config.max_memory_mib {
            if self.run.last_memory_check.elapsed() >= self.run.memory_check_interval {
                self.enforce_memory_limit(limit_mib);
                self.run.last_memory_check = Instant::now();
            }
        }
    }

    /// Inside a long operation: ends the current path early when the run must stop now
    /// (interrupted, or out of time), so one instruction cannot hold the run past its limit.
    pub(crate) fn check_limits_in_operation(&mut self) -> Exec<()> {
        if self.run.interrupt.load(Ordering::Relaxed) {
            self.run.stop = Some(StopReason::Interrupted);
            return Err(Termination::Early(
                "interrupted during a long operation".into(),
            ));
        }
        if let Some(limit) = self.config.max_time {
            if self.run.start.elapsed() >= limit {
                self.run.stop = Some(StopReason::TimeLimit);
                return Err(Termination::Early(
                    "max-time reached during a long operation".into(),
                ));
            }
        }
        Ok(())
    }

    /// The time one drop of states may spend writing their tests: a twentieth of
    /// `--max-time` (between 0.1 s and 5 s), or 5 s without a time limit.
    fn drop_budget(&self) -> Duration {
        self.config.max_time.map_or(Duration::from_secs(5), |t| {
            (t / 20).clamp(Duration::from_millis(100), Duration::from_secs(5))
        })
    }

    /// Whether the run is past `--max-time`.
    fn out_of_time(&self) -> bool {
        self.config
            .max_time
            .is_some_and(|limit| self.run.start.elapsed() >= limit)
    }

    /// Above `--max-memory` (the allocator's bytes in use), branches stop forking (KLEE's
    /// fork inhibition: one side, at random); a tenth above it, random states are dropped
    /// in proportion to the excess, the last one too, which ends the run (`stop_reason`
    /// "max-memory").
    fn enforce_memory_limit(&mut self, limit_mib: u64) {
        let asked = Instant::now();
        let Some(used) = crate::stats::memory_in_use_mib() else {
            return;
        };
        // Asking the allocator walks its free lists, which takes tens of milliseconds in a
        // fragmented heap: the next check waits at least 20 times as long as this one took
        // (at most 5% of the run), and 100 ms.
        self.run.memory_check_interval = (asked.elapsed() * 20).max(Duration::from_millis(100));
        self.run.at_memory_limit = used > limit_mib;
        let drop_above = limit_mib + limit_mib / 10;
        if used <= drop_above || self.run.states.is_empty() {
            return;
        }
        // Drop a fraction of the states proportional to the excess, at least one.
        let excess = (used - limit_mib) as f64 / used as f64;
        let to_drop = ((self.run.states.len() as f64 * excess).ceil() as usize)
            .clamp(1, self.run.states.len());
        // A state a searcher follows down a path (the depth-first dive) is dropped last:
        // it may be most of the way to the end of a long path.
        let mut followed = Vec::new();
        self.run.searcher.followed(&mut followed);
        let (mut kept, mut others): (Vec<StateId>, Vec<StateId>) = self
            .run
            .states
            .keys()
            .copied()
            .partition(|id| followed.contains(id));
        others.sort();
        kept.sort();
        // Dropped states get tests (as KLEE's do) within a budget: each test solves the
        // state's whole path, and a drop of thousands of deep states would otherwise hold
        // the run far past --max-time (an SV-COMP task at 10^5 states: killed at 91 s of a
        // 60 s budget). The tests' queries are bounded like the halt's.
        let deadline = Instant::now() + self.drop_budget();
        let outer_deadline = self.run.halt_deadline.replace(deadline);
        for _ in 0..to_drop {
            let id = if others.is_empty() {
                kept.pop().expect("to_drop is at most the number of states")
            } else {
                let i = self.run.rng.usize(..others.len());
                others.swap_remove(i)
            };
            if let Some(state) = self.run.states.remove(&id) {
                self.unlist_givable(id);
                self.run.stats.dropped_states += 1;
                if self.config.test_dropped_states
                    && Instant::now() < deadline
                    && !self.out_of_time()
                {
                    self.terminate(state, Termination::Early("memory limit exceeded".into()));
                } else {
                    // As `terminate` does, but without solving for a test.
                    self.hook_ended(&state);
                    self.end_without_test(state);
                }
            }
        }
        self.run.halt_deadline = outer_deadline;
        if self.run.states.is_empty() && self.run.pending.is_empty() {
            self.run.stop = Some(StopReason::MaxMemory);
        }
        let text = format!(
            "memory limit of {limit_mib} MiB exceeded (in use {used} MiB): dropped {to_drop} states"
        );
        self.report.output.warning(&text);
        self.report.observer.warning(&text);
    }
}
