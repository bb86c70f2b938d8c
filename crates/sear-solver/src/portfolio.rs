//! A sequential portfolio of two cores: the first under a short time budget, then the
//! second for the queries the first did not answer in that time. `--core-solver=portfolio`
//! asks Z3 with native arrays, then the eager encoding (constant arrays by assertions);
//! `bitwuzla-portfolio` Bitwuzla with native arrays, then the eager encoding over Bitwuzla;
//! `eager-portfolio` (the default) the eager encoding over Bitwuzla, then over Z3.
//!
//! Measured on the bench suite (docs/benchmarks.md): Z3's array theory answers most queries
//! of table-driven code in milliseconds but stalls on some (long `store` chains of large
//! constant tables, where it runs for minutes), while the eager encoding never stalls there
//! but costs more per query on large tables. Switching after a short budget keeps Z3's speed
//! and the eager core's robustness. Between the two solvers under the eager encoding, Bitwuzla
//! answers most queries fastest (small queries in a tenth of Z3's time, crc32's nested table
//! reads in 0.03 s where Z3 takes 1.4 s), but stalls on some that Z3 answers in 0.05 s
//! (utf8-validate's transition table at 5 bytes: 3 s).

use std::time::{Duration, Instant};

use crate::query::SolverError;
use crate::sat::{SatQuery, SatResult, SatSolver};
use crate::stats::LayerStats;

/// The first core's time budget per query before the portfolio switches cores, by default.
pub const DEFAULT_SWITCH_TIME: Duration = Duration::from_millis(100);

/// Two cores asked in turn.
pub struct Portfolio {
    first: Box<dyn SatSolver>,
    second: Box<dyn SatSolver>,
    switch_after: Duration,
    timeout: Option<Duration>,
    stats: LayerStats,
}

impl Portfolio {
    /// Asks `first` for at most `switch_after` per query, then `second`.
    pub fn new(
        first: Box<dyn SatSolver>,
        second: Box<dyn SatSolver>,
        switch_after: Duration,
    ) -> Self {
        Portfolio {
            first,
            second,
            switch_after,
            timeout: None,
            stats: LayerStats::new_core("portfolio"),
        }
    }
}

impl SatSolver for Portfolio {
    fn name(&self) -> &'static str {
        "portfolio"
    }

    fn check(&mut self, query: &SatQuery) -> Result<SatResult, SolverError> {
        let start = Instant::now();
        let budget = self
            .timeout
            .map_or(self.switch_after, |t| t.min(self.switch_after));
        self.first.set_timeout(Some(budget));
        let result = match self.first.check(query) {
            Err(SolverError::Timeout) if self.timeout.is_none_or(|t| t > budget) => {
                self.stats.bump("switches", 1);
                let left = self.timeout.map(|t| t.saturating_sub(start.elapsed()));
                self.second.set_timeout(left);
                self.second.check(query)
            }
            other => other,
        };
        self.stats.record(start, false);
        result
    }

    fn set_timeout(&mut self, timeout: Option<Duration>) {
        self.timeout = timeout;
    }

    fn collect_stats(&self, out: &mut Vec<LayerStats>) {
        out.push(self.stats.clone());
        // The inner cores are reported as layers: the portfolio is the chain's core.
        for inner in [&self.first, &self.second] {
            let mut stats = Vec::new();
            inner.collect_stats(&mut stats);
            out.extend(stats.into_iter().map(|s| LayerStats { core: false, ..s }));
        }
    }
}
