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

/// Consecutive switches after which the portfolio stops asking its first core for a while.
const SWITCH_STREAK: u32 = 8;

/// Queries asked of the second core alone after such a streak, before the first core is
/// tried again.
const SKIP_QUERIES: u32 = 32;

/// Two cores asked in turn.
///
/// When the first core uses up its budget on [`SWITCH_STREAK`] queries in a row, the next
/// [`SKIP_QUERIES`] go to the second core directly: on a program whose queries the first core
/// cannot answer (a DFA's nested table reads under Bitwuzla), the budget spent on each would
/// otherwise be lost every time.
pub struct Portfolio {
    first: Box<dyn SatSolver>,
    second: Box<dyn SatSolver>,
    switch_after: Duration,
    timeout: Option<Duration>,
    /// Switches in a row (reset by an answer of the first core).
    streak: u32,
    /// Queries still to ask of the second core alone.
    skip: u32,
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
            streak: 0,
            skip: 0,
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
        if self.skip > 0 {
            self.skip -= 1;
            self.stats.bump("second_only", 1);
            self.second.set_timeout(self.timeout);
            let result = self.second.check(query);
            self.stats.record(start, false);
            return result;
        }
        let budget = self
            .timeout
            .map_or(self.switch_after, |t| t.min(self.switch_after));
        self.first.set_timeout(Some(budget));
        let result = match self.first.check(query) {
            Err(SolverError::Timeout) if self.timeout.is_none_or(|t| t > budget) => {
                self.stats.bump("switches", 1);
                self.streak += 1;
                if self.streak >= SWITCH_STREAK {
                    self.streak = 0;
                    self.skip = SKIP_QUERIES;
                }
                let left = self.timeout.map(|t| t.saturating_sub(start.elapsed()));
                self.second.set_timeout(left);
                self.second.check(query)
            }
            other => {
                self.streak = 0;
                other
            }
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

#[cfg(test)]
mod tests {
    use std::cell::Cell;
    use std::rc::Rc;

    use sear_expr::Expr;

    use super::*;
    use crate::query::QueryMeta;

    /// A core that answers `answer` and counts the queries it was asked.
    struct Scripted {
        answer: Result<SatResult, SolverError>,
        asked: Rc<Cell<u32>>,
    }

    impl SatSolver for Scripted {
        fn name(&self) -> &'static str {
            "scripted"
        }
        fn check(&mut self, _: &SatQuery) -> Result<SatResult, SolverError> {
            self.asked.set(self.asked.get() + 1);
            self.answer.clone()
        }
        fn set_timeout(&mut self, _: Option<Duration>) {}
        fn collect_stats(&self, _: &mut Vec<LayerStats>) {}
    }

    fn scripted(answer: Result<SatResult, SolverError>) -> (Box<dyn SatSolver>, Rc<Cell<u32>>) {
        let asked = Rc::new(Cell::new(0));
        let core = Scripted {
            answer,
            asked: asked.clone(),
        };
        (Box::new(core), asked)
    }

    /// A first core that always uses up its budget is skipped after a streak of switches,
    /// then tried again; every query is answered by the second.
    #[test]
    fn a_first_core_that_always_stalls_is_skipped_for_a_while() {
        let (first, first_asked) = scripted(Err(SolverError::Timeout));
        let (second, second_asked) = scripted(Ok(SatResult::Unsat));
        let mut portfolio = Portfolio::new(first, second, Duration::from_millis(1));
        portfolio.set_timeout(Some(Duration::from_secs(10)));
        let meta = QueryMeta::default();
        let n = SWITCH_STREAK + SKIP_QUERIES + 1;
        for _ in 0..n {
            let query = SatQuery::new(&[], Expr::bool(true), &meta, false, false);
            assert_eq!(portfolio.check(&query).unwrap(), SatResult::Unsat);
        }
        assert_eq!(second_asked.get(), n);
        assert_eq!(first_asked.get(), SWITCH_STREAK + 1);
    }

    /// An answer of the first core within its budget ends the streak.
    #[test]
    fn answers_of_the_first_core_keep_it_first() {
        let (first, first_asked) = scripted(Ok(SatResult::Unsat));
        let (second, second_asked) = scripted(Ok(SatResult::Unsat));
        let mut portfolio = Portfolio::new(first, second, Duration::from_millis(1));
        let meta = QueryMeta::default();
        for _ in 0..SWITCH_STREAK * 4 {
            let query = SatQuery::new(&[], Expr::bool(true), &meta, false, false);
            portfolio.check(&query).unwrap();
        }
        assert_eq!(first_asked.get(), SWITCH_STREAK * 4);
        assert_eq!(second_asked.get(), 0);
    }
}
