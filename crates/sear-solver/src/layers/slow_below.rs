//! Whether the layers below are slow: a moving average of their query time, shared by the
//! steps that search for an answer by evaluation (the counterexample cache's neighbour
//! models, the byte search). Such a search costs up to milliseconds, which only a slow
//! core repays: on the bench suite's selection-sort, whose core queries take 0.8 ms, an
//! ungated neighbour search made the run 6× slower.
//!
//! The time is the calling thread's CPU time ([`thread_cpu_time`]), not the wall clock: the
//! cores run on the calling thread, so a query costs the same CPU time on a loaded machine
//! as on an idle one, and a run under load answers with the same layers (issue 37). The
//! parallel portfolio's workers run on threads of their own, whose time is not counted
//! (the gate then sees a fast core).

use std::time::Duration;

/// The average (seconds) from which the layers below count as slow.
pub const SLOW_SECS: f64 = 0.01;
/// The queries below the average needs first (the first one's time includes the core's
/// start-up).
pub const MIN_QUERIES: u64 = 2;
/// The weight of the newest query in the average.
const WEIGHT: f64 = 0.5;

/// The CPU time the calling thread has used so far.
pub fn thread_cpu_time() -> Duration {
    clock_time(libc::CLOCK_THREAD_CPUTIME_ID).unwrap_or(Duration::ZERO)
}

/// The time on `clock` (a CPU clock: this thread's, or another's from
/// `pthread_getcpuclockid`), or None if it cannot be read.
pub(crate) fn clock_time(clock: libc::clockid_t) -> Option<Duration> {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `t` is a valid timespec for the call to write.
    let rc = unsafe { libc::clock_gettime(clock, &mut t) };
    (rc == 0).then(|| Duration::new(t.tv_sec as u64, t.tv_nsec as u32))
}

/// A moving average (from 0) of the CPU time a query below takes.
#[derive(Debug, Default)]
pub struct SlowBelow {
    secs: f64,
    queries: u64,
}

impl SlowBelow {
    /// Adds the CPU time of one query below.
    pub fn record(&mut self, spent: Duration) {
        self.secs += (spent.as_secs_f64() - self.secs) * WEIGHT;
        self.queries += 1;
    }

    /// Runs `f` (a query below) and adds the CPU time it took.
    pub fn measure<T>(&mut self, f: impl FnOnce() -> T) -> T {
        let start = thread_cpu_time();
        let result = f();
        self.record(thread_cpu_time().saturating_sub(start));
        result
    }

    /// True once [`MIN_QUERIES`] queries were measured and their average is below
    /// [`SLOW_SECS`] (before that, not known).
    pub fn known_fast(&self) -> bool {
        self.queries >= MIN_QUERIES && self.secs < SLOW_SECS
    }

    /// The average in seconds, once the layers below count as slow ([`SLOW_SECS`] after at
    /// least [`MIN_QUERIES`] queries).
    pub fn slow_secs(&self) -> Option<f64> {
        (self.queries >= MIN_QUERIES && self.secs >= SLOW_SECS).then_some(self.secs)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Waiting is not work: a core that sleeps (as a core does on a machine whose other
    /// processes take the CPU) does not make the layers below slow; one that computes does.
    #[test]
    fn the_gate_counts_cpu_time_not_waiting() {
        let mut idle = SlowBelow::default();
        for _ in 0..3 {
            idle.measure(|| std::thread::sleep(Duration::from_millis(30)));
        }
        assert_eq!(idle.slow_secs(), None);
        let mut busy = SlowBelow::default();
        for _ in 0..3 {
            busy.measure(|| {
                let start = thread_cpu_time();
                let mut x = 0u64;
                while thread_cpu_time() - start < Duration::from_millis(30) {
                    x = std::hint::black_box(x.wrapping_mul(31).wrapping_add(7));
                }
            });
        }
        assert!(busy.slow_secs().is_some_and(|s| s >= 0.02), "{busy:?}");
    }
}
