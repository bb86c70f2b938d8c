//! The query's deadline, shared by every layer and core below the chain's top.
//!
//! Each layer is given the query's timeout, but a layer that spends time before it asks the
//! one below (the byte search's evaluation, the independence layer's slices, a portfolio's
//! turns) would otherwise pass the whole timeout on: on coreutils `stat`, a byte search
//! spent its 10 s and the core then another 10 s on the same query, and the halt's tests ran
//! past the hard limit. The chain's top ([`QueryDeadline`]) sets the deadline when a query
//! arrives; the cores and the byte search cut their own timeouts to what is left of it
//! ([`clamp`]).
//!
//! Thread-local: solvers on other threads (tests running in parallel, the parallel
//! portfolio's workers) keep their own timeouts.

use std::cell::Cell;
use std::time::{Duration, Instant};

use crate::query::SolverError;
use crate::sat::{SatQuery, SatResult, SatSolver};
use crate::stats::LayerStats;

thread_local! {
    static DEADLINE: Cell<Option<Instant>> = const { Cell::new(None) };
}

/// `timeout`, cut to the time left before the current query's deadline (if one is set).
/// A deadline already past gives a zero duration.
pub fn clamp(timeout: Option<Duration>) -> Option<Duration> {
    let left = DEADLINE
        .with(Cell::get)
        .map(|d| d.saturating_duration_since(Instant::now()));
    match (timeout, left) {
        (Some(t), Some(l)) => Some(t.min(l)),
        (t, l) => t.or(l),
    }
}

/// Runs `f` outside the current query's deadline (restored afterwards): a validation
/// oracle asked after the layers spent part of the query's time still gets its own timeout.
pub fn outside<T>(f: impl FnOnce() -> T) -> T {
    let outer = DEADLINE.with(|c| c.replace(None));
    let result = f();
    DEADLINE.with(|c| c.set(outer));
    result
}

/// The instant a core's work on the query must end: `timeout` from now, cut to the query's
/// deadline ([`clamp`]).
pub fn from_now(timeout: Option<Duration>) -> Option<Instant> {
    clamp(timeout).map(|t| Instant::now() + t)
}

/// The time left before `deadline` (None: no limit); a timeout once it has passed (what a
/// core's translation took counts against the query, and the check gets the rest).
pub fn left(deadline: Option<Instant>) -> Result<Option<Duration>, SolverError> {
    match deadline.map(|d| d.saturating_duration_since(Instant::now())) {
        Some(l) if l.is_zero() => Err(SolverError::Timeout),
        l => Ok(l),
    }
}

/// The chain's top layer: sets the query's deadline (its timeout from now) while the layers
/// below answer it. A deadline set by an enclosing query (the validating layer's oracle, a
/// nested chain) is kept when it is earlier.
pub struct QueryDeadline {
    inner: Box<dyn SatSolver>,
    timeout: Option<Duration>,
}

impl QueryDeadline {
    /// Wraps `inner`.
    pub fn new(inner: Box<dyn SatSolver>) -> Self {
        QueryDeadline {
            inner,
            timeout: None,
        }
    }
}

impl SatSolver for QueryDeadline {
    fn name(&self) -> &'static str {
        "deadline"
    }

    fn check(&mut self, query: &SatQuery) -> Result<SatResult, SolverError> {
        let outer = DEADLINE.with(Cell::get);
        let own = self.timeout.map(|t| Instant::now() + t);
        let deadline = match (outer, own) {
            (Some(o), Some(d)) => Some(o.min(d)),
            (o, d) => o.or(d),
        };
        DEADLINE.with(|c| c.set(deadline));
        let result = self.inner.check(query);
        DEADLINE.with(|c| c.set(outer));
        result
    }

    fn set_timeout(&mut self, timeout: Option<Duration>) {
        self.timeout = timeout;
        self.inner.set_timeout(timeout);
    }

    fn collect_stats(&self, out: &mut Vec<LayerStats>) {
        self.inner.collect_stats(out);
    }

    fn learn(&mut self, query: &SatQuery, result: &SatResult) {
        self.inner.learn(query, result);
    }
}

#[cfg(test)]
mod tests {
    use std::rc::Rc;

    use sear_expr::Expr;

    use super::*;
    use crate::query::QueryMeta;

    /// A layer that spends `spend` before it asks the one below.
    struct Spender {
        spend: Duration,
        inner: Box<dyn SatSolver>,
    }

    impl SatSolver for Spender {
        fn name(&self) -> &'static str {
            "spender"
        }
        fn check(&mut self, query: &SatQuery) -> Result<SatResult, SolverError> {
            std::thread::sleep(self.spend);
            self.inner.check(query)
        }
        fn set_timeout(&mut self, timeout: Option<Duration>) {
            self.inner.set_timeout(timeout);
        }
        fn collect_stats(&self, _: &mut Vec<LayerStats>) {}
    }

    /// A core that records the timeout it would run under.
    struct Probe {
        timeout: Option<Duration>,
        seen: Rc<Cell<Option<Duration>>>,
    }

    impl SatSolver for Probe {
        fn name(&self) -> &'static str {
            "probe"
        }
        fn check(&mut self, _: &SatQuery) -> Result<SatResult, SolverError> {
            self.seen.set(clamp(self.timeout));
            Ok(SatResult::Unsat)
        }
        fn set_timeout(&mut self, timeout: Option<Duration>) {
            self.timeout = timeout;
        }
        fn collect_stats(&self, _: &mut Vec<LayerStats>) {}
    }

    /// The time a layer spends before the core is taken from the core's timeout: the query
    /// as a whole keeps to its timeout.
    #[test]
    fn the_core_gets_what_the_layers_above_left() {
        let seen = Rc::new(Cell::new(None));
        let probe = Probe {
            timeout: None,
            seen: seen.clone(),
        };
        let spender = Spender {
            spend: Duration::from_millis(300),
            inner: Box::new(probe),
        };
        let mut chain = QueryDeadline::new(Box::new(spender));
        chain.set_timeout(Some(Duration::from_secs(1)));
        let meta = QueryMeta::default();
        let query = SatQuery::new(&[], Expr::bool(true), &meta, false, false);
        chain.check(&query).unwrap();
        let left = seen.get().expect("a timeout");
        assert!(left <= Duration::from_millis(700), "{left:?}");
        // Outside a query, no deadline is left behind.
        assert_eq!(clamp(None), None);
    }

    #[test]
    fn clamp_cuts_a_timeout_to_the_deadline() {
        assert_eq!(
            clamp(Some(Duration::from_secs(5))),
            Some(Duration::from_secs(5))
        );
        DEADLINE.with(|c| c.set(Some(Instant::now() + Duration::from_secs(1))));
        let cut = clamp(Some(Duration::from_secs(5))).unwrap();
        assert!(cut <= Duration::from_secs(1));
        assert!(clamp(None).unwrap() <= Duration::from_secs(1));
        DEADLINE.with(|c| c.set(Some(Instant::now() - Duration::from_millis(1))));
        assert_eq!(clamp(Some(Duration::from_secs(5))), Some(Duration::ZERO));
        DEADLINE.with(|c| c.set(None));
        assert_eq!(clamp(None), None);
    }
}
