//! A sequential portfolio of two cores: the first under a short time budget, then the
//! second for the queries the first did not answer in that time. They take turns: the
//! second under ten times the budget, then the first again under a hundred times, and so on
//! (see [`GROWTH`]), until one answers or the query's time is up.
//! `--core-solver=portfolio`
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

/// The factor by which a core's budget grows from one turn to the next: the cores take turns
/// (first core for the switch time, second for 10×, first again for 100×, ...) until one
/// answers or the query's time is up. A query that only one core answers quickly costs at
/// most about 11× that core's time even when the other leads (Bitwuzla answers some of
/// coreutils `expr`'s queries in 1.5 s that Z3 did not answer in 20 s: a portfolio that
/// left the query to Z3 after the switch spent the whole timeout).
const GROWTH: f64 = 10.0;

/// Consecutive queries answered by the second core after which the portfolio stops asking
/// its first core for a while.
const SWITCH_STREAK: u32 = 8;

/// Queries asked of the second core alone after such a streak, before the first core is
/// tried again.
const SKIP_QUERIES: u32 = 32;

/// Two cores asked in turn.
///
/// When the second core answers [`SWITCH_STREAK`] queries in a row, the next
/// [`SKIP_QUERIES`] go to the second core directly: on a program whose queries the first core
/// cannot answer (a DFA's nested table reads under Bitwuzla), the budget spent on each would
/// otherwise be lost every time.
pub struct Portfolio {
    first: Box<dyn SatSolver>,
    second: Box<dyn SatSolver>,
    switch_after: Duration,
    timeout: Option<Duration>,
    /// Queries answered by the second core in a row (reset by an answer of the first).
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

impl Portfolio {
    /// Asks the first core, then the second, in turns (round r's budget is the switch time
    /// × [`GROWTH`]^r, within the query's time left) until one answers or the query's time
    /// is up. Returns the answer and which core gave it (`Some(true)`: the first, in any
    /// round; `None`: neither).
    fn rounds(
        &mut self,
        query: &SatQuery,
        start: Instant,
    ) -> (Result<SatResult, SolverError>, Option<bool>) {
        let mut round = 0;
        let mut first_turn = true;
        // The query's time, as the layers above left it (the turns end when it is up).
        let timeout = crate::deadline::clamp(self.timeout);
        loop {
            let left = timeout.map(|t| t.saturating_sub(start.elapsed()));
            let mut turn =
                Duration::try_from_secs_f64(self.switch_after.as_secs_f64() * GROWTH.powi(round))
                    .ok();
            // A turn that the query's deadline would cut short takes half of what is left
            // when the other core's last turn was shorter than that half: the other core
            // then gets the rest, instead of losing the query for having missed its last
            // turn by a little (a query Z3 answers in 0.9-1.1 s of CPU against its 1 s turn,
            // then Bitwuzla's 10 s turn taking the whole deadline without an answer).
            if let (Some(l), Some(t)) = (left, turn) {
                if round > 0 && t > l && t.div_f64(GROWTH) < l / 2 {
                    turn = Some(l / 2);
                    self.stats.bump("split_turns", 1);
                }
            }
            let budget = match (left, turn) {
                (Some(l), Some(b)) => Some(l.min(b)),
                (l, b) => l.or(b),
            };
            let core = if first_turn {
                &mut self.first
            } else {
                &mut self.second
            };
            // A core that measures its thread's CPU time gets its turn in CPU time (the
            // query's time left stays wall time): a loaded machine, which slows the wall
            // clock's share of work, then switches at the same queries as an idle one.
            let cpu_turn = core.honours_cpu_budget() && turn.is_some();
            if cpu_turn {
                core.set_timeout(left);
                core.set_cpu_budget(turn);
            } else {
                core.set_timeout(budget);
            }
            let asked = Instant::now();
            let result = core.check(query);
            if cpu_turn {
                core.set_cpu_budget(None);
            }
            // The turn ended before the query's time: the other core's turn.
            let turn_ended = if cpu_turn {
                timeout.is_none_or(|t| start.elapsed() < t)
            } else {
                budget.is_some() && left != budget
            };
            tracing::debug!(
                round,
                core = core.name(),
                ?budget,
                took = ?asked.elapsed(),
                answered = result.is_ok(),
                "portfolio turn"
            );
            match result {
                Err(SolverError::Timeout) if turn_ended => {
                    self.stats.bump("switches", 1);
                    if round > 0 {
                        self.stats.bump("returns", 1);
                    }
                }
                // A core that fails (a query it refuses, an internal error) leaves the
                // query to the other with all the time left, once.
                Err(SolverError::Failure(_)) => {
                    self.stats.bump("failures", 1);
                    let other = if first_turn {
                        &mut self.second
                    } else {
                        &mut self.first
                    };
                    other.set_timeout(timeout.map(|t| t.saturating_sub(start.elapsed())));
                    let result = other.check(query);
                    let by = result.is_ok().then_some(!first_turn);
                    return (result, by);
                }
                other => {
                    let by = other.is_ok().then_some(first_turn);
                    return (other, by);
                }
            }
            round += 1;
            first_turn = !first_turn;
        }
    }
}

impl SatSolver for Portfolio {
    fn name(&self) -> &'static str {
        "portfolio"
    }

    fn check(&mut self, query: &SatQuery) -> Result<SatResult, SolverError> {
        let start = Instant::now();
        let result = if self.skip > 0 {
            self.skip -= 1;
            self.stats.bump("second_only", 1);
            self.second.set_timeout(self.timeout);
            self.second.check(query)
        } else {
            // The turns go on whichever core answered the last query: a portfolio that left
            // the query after a win of the second core to that core alone (until the query's
            // timeout) spent 43 of its 60 s on coreutils `expr` in Z3, on queries that
            // Bitwuzla answers in 0.5 s and Z3 in 19 s. A query neither core answered leaves
            // the streak as it was.
            match self.rounds(query, start) {
                (result, Some(true)) => {
                    self.streak = 0;
                    result
                }
                (result, Some(false)) => {
                    self.streak += 1;
                    if self.streak >= SWITCH_STREAK {
                        self.streak = 0;
                        self.skip = SKIP_QUERIES;
                    }
                    result
                }
                (result, None) => result,
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

/// A core built at its first query. The portfolios' second core answers nothing in most
/// short runs, and building one over Z3 (its context) costs about 8 ms: a query that
/// Bitwuzla answers in 0.5 ms took 8.5 ms in `sear solve` while the Z3 core was built
/// eagerly.
pub struct LazyCore {
    name: &'static str,
    build: Option<Box<dyn FnOnce() -> Box<dyn SatSolver>>>,
    core: Option<Box<dyn SatSolver>>,
    timeout: Option<Duration>,
}

impl LazyCore {
    /// A core that `build` makes when it is first asked; `name` is the built core's name
    /// (its statistics are reported under it, empty until it is built).
    pub fn new(name: &'static str, build: impl FnOnce() -> Box<dyn SatSolver> + 'static) -> Self {
        LazyCore {
            name,
            build: Some(Box::new(build)),
            core: None,
            timeout: None,
        }
    }

    fn core(&mut self) -> &mut Box<dyn SatSolver> {
        if let Some(build) = self.build.take() {
            let mut core = build();
            core.set_timeout(self.timeout);
            self.core = Some(core);
        }
        self.core.as_mut().expect("built above")
    }
}

impl SatSolver for LazyCore {
    fn name(&self) -> &'static str {
        self.name
    }

    fn check(&mut self, query: &SatQuery) -> Result<SatResult, SolverError> {
        self.core().check(query)
    }

    fn set_timeout(&mut self, timeout: Option<Duration>) {
        self.timeout = timeout;
        if let Some(core) = &mut self.core {
            core.set_timeout(timeout);
        }
    }

    fn set_cpu_budget(&mut self, budget: Option<Duration>) {
        self.core().set_cpu_budget(budget);
    }

    fn honours_cpu_budget(&mut self) -> bool {
        // The portfolio asks right before the core's turn, so building it here costs
        // nothing the turn would not.
        self.core().honours_cpu_budget()
    }

    fn collect_stats(&self, out: &mut Vec<LayerStats>) {
        match &self.core {
            Some(core) => core.collect_stats(out),
            None => out.push(LayerStats::new_core(self.name)),
        }
    }

    fn learn(&mut self, query: &SatQuery, result: &SatResult) {
        if let Some(core) = &mut self.core {
            core.learn(query, result);
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

    /// A core that answers `answer` when given at least `needs`, and times out otherwise.
    struct Slow {
        needs: Duration,
        budget: Option<Duration>,
        answer: SatResult,
        asked: Rc<Cell<u32>>,
    }

    impl SatSolver for Slow {
        fn name(&self) -> &'static str {
            "slow"
        }
        fn check(&mut self, _: &SatQuery) -> Result<SatResult, SolverError> {
            self.asked.set(self.asked.get() + 1);
            match self.budget {
                Some(b) if b < self.needs => Err(SolverError::Timeout),
                _ => Ok(self.answer.clone()),
            }
        }
        fn set_timeout(&mut self, timeout: Option<Duration>) {
            self.budget = timeout;
        }
        fn collect_stats(&self, _: &mut Vec<LayerStats>) {}
    }

    fn slow(needs: Duration) -> (Box<dyn SatSolver>, Rc<Cell<u32>>) {
        let asked = Rc::new(Cell::new(0));
        let core = Slow {
            needs,
            budget: None,
            answer: SatResult::Unsat,
            asked: asked.clone(),
        };
        (Box::new(core), asked)
    }

    /// A query the first core answers only with more than the switch time, and the second
    /// not at all, goes back to the first core with a larger budget (turns of growing
    /// budgets), instead of waiting for the second until the query's timeout.
    #[test]
    fn the_cores_take_turns_with_growing_budgets() {
        let (first, first_asked) = slow(Duration::from_millis(50));
        let (second, second_asked) = slow(Duration::from_secs(3600));
        let mut portfolio = Portfolio::new(first, second, Duration::from_millis(1));
        portfolio.set_timeout(Some(Duration::from_secs(10)));
        let meta = QueryMeta::default();
        let query = SatQuery::new(&[], Expr::bool(true), &meta, false, false);
        assert_eq!(portfolio.check(&query).unwrap(), SatResult::Unsat);
        // first 1 ms (out), second 10 ms (out), first 100 ms (answers).
        assert_eq!(first_asked.get(), 2);
        assert_eq!(second_asked.get(), 1);
        let mut stats = Vec::new();
        portfolio.collect_stats(&mut stats);
        assert_eq!(stats[0].counters.get("switches"), Some(&2));
        assert_eq!(stats[0].counters.get("returns"), Some(&1));
    }

    /// A core that answers in `needs`, or times out after its whole turn when that is shorter.
    struct Answering {
        needs: Duration,
        budget: Option<Duration>,
    }

    impl SatSolver for Answering {
        fn name(&self) -> &'static str {
            "answering"
        }
        fn check(&mut self, _: &SatQuery) -> Result<SatResult, SolverError> {
            match self.budget {
                Some(b) if b < self.needs => {
                    std::thread::sleep(b);
                    Err(SolverError::Timeout)
                }
                _ => {
                    std::thread::sleep(self.needs);
                    Ok(SatResult::Unsat)
                }
            }
        }
        fn set_timeout(&mut self, timeout: Option<Duration>) {
            self.budget = timeout;
        }
        fn collect_stats(&self, _: &mut Vec<LayerStats>) {}
    }

    /// The first core misses its first turn by a little; the second core's next turn would
    /// take the whole deadline and does not answer: it gets half of what is left, and the
    /// first core answers in the other half instead of the query timing out.
    #[test]
    fn a_turn_the_deadline_cuts_leaves_the_other_core_half() {
        let first = Box::new(Answering {
            needs: Duration::from_millis(80),
            budget: None,
        });
        let second = Box::new(Answering {
            needs: Duration::from_secs(3600),
            budget: None,
        });
        let mut portfolio = Portfolio::new(first, second, Duration::from_millis(50));
        portfolio.set_timeout(Some(Duration::from_millis(400)));
        let meta = QueryMeta::default();
        let query = SatQuery::new(&[], Expr::bool(true), &meta, false, false);
        // first 50 ms (out); second 500 ms, more than the 350 ms left: half of them, 175 ms
        // (out); first the rest (answers after 80 ms). Without the split the second core's
        // turn is the whole deadline, and the query times out.
        assert_eq!(portfolio.check(&query).unwrap(), SatResult::Unsat);
        let mut stats = Vec::new();
        portfolio.collect_stats(&mut stats);
        assert_eq!(stats[0].counters.get("split_turns"), Some(&1));
    }

    /// A core that measures its turn in CPU time (as Bitwuzla does): it waits `waits` (as a
    /// core does on a machine whose other processes take the CPU; waiting is no work) or
    /// computes for `computes`, and times out when its CPU budget is spent.
    struct CpuMetered {
        waits: Duration,
        computes: Duration,
        budget: Option<Duration>,
    }

    impl SatSolver for CpuMetered {
        fn name(&self) -> &'static str {
            "cpu-metered"
        }
        fn check(&mut self, _: &SatQuery) -> Result<SatResult, SolverError> {
            use crate::layers::slow_below::thread_cpu_time;
            let cpu = thread_cpu_time();
            std::thread::sleep(self.waits);
            let wall = Instant::now();
            while wall.elapsed() < self.computes {
                if self.budget.is_some_and(|b| thread_cpu_time() - cpu >= b) {
                    return Err(SolverError::Timeout);
                }
                std::hint::black_box(0u64.wrapping_add(1));
            }
            Ok(SatResult::Unsat)
        }
        fn set_timeout(&mut self, _: Option<Duration>) {}
        fn set_cpu_budget(&mut self, budget: Option<Duration>) {
            self.budget = budget;
        }
        fn honours_cpu_budget(&mut self) -> bool {
            true
        }
        fn collect_stats(&self, _: &mut Vec<LayerStats>) {}
    }

    /// Issue 37: a turn is CPU time for a core that measures it, so a loaded machine (the
    /// core waits for the CPU) does not switch cores where an idle one would not; a core that
    /// works past its turn is switched as before.
    #[test]
    fn a_turn_is_cpu_time_for_a_core_that_measures_it() {
        let meta = QueryMeta::default();
        let query = SatQuery::new(&[], Expr::bool(true), &meta, false, false);
        let waiting = CpuMetered {
            waits: Duration::from_millis(60),
            computes: Duration::ZERO,
            budget: None,
        };
        let (second, second_asked) = slow(Duration::ZERO);
        let mut portfolio = Portfolio::new(Box::new(waiting), second, Duration::from_millis(20));
        portfolio.set_timeout(Some(Duration::from_secs(10)));
        assert_eq!(portfolio.check(&query).unwrap(), SatResult::Unsat);
        assert_eq!(second_asked.get(), 0, "waiting is not the turn's work");
        let working = CpuMetered {
            waits: Duration::ZERO,
            computes: Duration::from_secs(5),
            budget: None,
        };
        let (second, second_asked) = slow(Duration::ZERO);
        let mut portfolio = Portfolio::new(Box::new(working), second, Duration::from_millis(20));
        portfolio.set_timeout(Some(Duration::from_secs(10)));
        assert_eq!(portfolio.check(&query).unwrap(), SatResult::Unsat);
        assert_eq!(second_asked.get(), 1, "work past the turn switches");
    }

    /// A core that answers its first query and times out on every later one.
    struct AnswersOnce {
        asked: u32,
    }

    impl SatSolver for AnswersOnce {
        fn name(&self) -> &'static str {
            "answers-once"
        }
        fn check(&mut self, _: &SatQuery) -> Result<SatResult, SolverError> {
            self.asked += 1;
            if self.asked == 1 {
                Ok(SatResult::Unsat)
            } else {
                Err(SolverError::Timeout)
            }
        }
        fn set_timeout(&mut self, _: Option<Duration>) {}
        fn collect_stats(&self, _: &mut Vec<LayerStats>) {}
    }

    /// A query the second core answered does not leave it the whole time of the next one:
    /// the turns go on, and the first core answers in its second turn. (On coreutils `expr`
    /// the portfolio gave Z3 all the time after one of its wins, 19 s a query that Bitwuzla
    /// answers in 0.5 s.)
    #[test]
    fn a_win_of_the_second_core_keeps_the_turns() {
        let (first, first_asked) = slow(Duration::from_millis(50));
        let second = Box::new(AnswersOnce { asked: 0 });
        let mut portfolio = Portfolio::new(first, second, Duration::from_millis(1));
        portfolio.set_timeout(Some(Duration::from_secs(10)));
        let meta = QueryMeta::default();
        let query = SatQuery::new(&[], Expr::bool(true), &meta, false, false);
        // first 1 ms (out), second answers.
        assert_eq!(portfolio.check(&query).unwrap(), SatResult::Unsat);
        // first 1 ms (out), second 10 ms (out), first 100 ms (answers).
        assert_eq!(portfolio.check(&query).unwrap(), SatResult::Unsat);
        assert_eq!(first_asked.get(), 3);
    }

    /// The second core is built at its first query only: a portfolio whose first core
    /// answers never builds it (nor pays for a Z3 context), and reports it by name.
    #[test]
    fn the_lazy_second_core_is_built_when_first_asked() {
        let built = Rc::new(Cell::new(0));
        let (first, _) = scripted(Ok(SatResult::Unsat));
        let counted = built.clone();
        let second = LazyCore::new("eager", move || {
            counted.set(counted.get() + 1);
            scripted(Ok(SatResult::Unsat)).0
        });
        let mut portfolio = Portfolio::new(first, Box::new(second), Duration::from_secs(1));
        let meta = QueryMeta::default();
        let query = SatQuery::new(&[], Expr::bool(true), &meta, false, false);
        assert_eq!(portfolio.check(&query).unwrap(), SatResult::Unsat);
        assert_eq!(built.get(), 0);
        let mut stats = Vec::new();
        portfolio.collect_stats(&mut stats);
        assert_eq!(stats.last().map(|s| s.name.as_str()), Some("eager"));
        let mut lazy = LazyCore::new("eager", {
            let counted = built.clone();
            move || {
                counted.set(counted.get() + 1);
                scripted(Ok(SatResult::Unsat)).0
            }
        });
        assert_eq!(lazy.check(&query).unwrap(), SatResult::Unsat);
        assert_eq!(lazy.check(&query).unwrap(), SatResult::Unsat);
        assert_eq!(built.get(), 1);
    }

    /// A core that fails leaves the query to the other core.
    #[test]
    fn a_failing_core_leaves_the_query_to_the_other() {
        let (first, first_asked) = scripted(Err(SolverError::Failure("refused".into())));
        let (second, second_asked) = scripted(Ok(SatResult::Unsat));
        let mut portfolio = Portfolio::new(first, second, Duration::from_secs(1));
        let meta = QueryMeta::default();
        let query = SatQuery::new(&[], Expr::bool(true), &meta, false, false);
        assert_eq!(portfolio.check(&query).unwrap(), SatResult::Unsat);
        assert_eq!((first_asked.get(), second_asked.get()), (1, 1));
        let mut stats = Vec::new();
        portfolio.collect_stats(&mut stats);
        assert_eq!(stats[0].counters.get("failures"), Some(&1));
    }

    /// When neither core answers within the query's time, the portfolio reports a timeout.
    #[test]
    fn a_query_no_core_answers_in_time_times_out() {
        let (first, _) = slow(Duration::from_secs(3600));
        let (second, _) = slow(Duration::from_secs(3600));
        let mut portfolio = Portfolio::new(first, second, Duration::from_millis(1));
        portfolio.set_timeout(Some(Duration::from_millis(500)));
        let meta = QueryMeta::default();
        let query = SatQuery::new(&[], Expr::bool(true), &meta, false, false);
        assert!(matches!(portfolio.check(&query), Err(SolverError::Timeout)));
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
