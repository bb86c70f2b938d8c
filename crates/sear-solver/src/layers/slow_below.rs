//! Whether the layers below are slow: a moving average of their query time, shared by the
//! steps that search for an answer by evaluation (the counterexample cache's neighbour
//! models, the byte search). Such a search costs up to milliseconds, which only a slow
//! core repays: on the bench suite's selection-sort, whose core queries take 0.8 ms, an
//! ungated neighbour search made the run 6× slower.

use std::time::Duration;

/// The average (seconds) from which the layers below count as slow.
pub const SLOW_SECS: f64 = 0.01;
/// The queries below the average needs first (the first one's time includes the core's
/// start-up).
pub const MIN_QUERIES: u64 = 2;
/// The weight of the newest query in the average.
const WEIGHT: f64 = 0.5;

/// A moving average (from 0) of the time a query below takes.
#[derive(Debug, Default)]
pub struct SlowBelow {
    secs: f64,
    queries: u64,
}

impl SlowBelow {
    /// Adds the time of one query below.
    pub fn record(&mut self, spent: Duration) {
        self.secs += (spent.as_secs_f64() - self.secs) * WEIGHT;
        self.queries += 1;
    }

    /// The average in seconds, once the layers below count as slow ([`SLOW_SECS`] after at
    /// least [`MIN_QUERIES`] queries).
    pub fn slow_secs(&self) -> Option<f64> {
        (self.queries >= MIN_QUERIES && self.secs >= SLOW_SECS).then_some(self.secs)
    }
}
