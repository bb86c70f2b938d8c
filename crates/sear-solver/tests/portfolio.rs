//! The portfolio core: Z3 first under a short budget, then the eager core.

use std::time::{Duration, Instant};

use sear_expr::{Array, ArrayKind, Expr, UpdateList};
use sear_solver::portfolio::Portfolio;
use sear_solver::LayerStats;
use sear_solver::{new_core, CoreKind, QueryMeta, SatQuery, SatResult, SatSolver, SolverError};

/// A core that always times out (a Z3 stall), counting its queries.
struct Stalls(u64);

impl SatSolver for Stalls {
    fn name(&self) -> &'static str {
        "stalls"
    }
    fn check(&mut self, _: &SatQuery) -> Result<SatResult, SolverError> {
        self.0 += 1;
        Err(SolverError::Timeout)
    }
    fn set_timeout(&mut self, _: Option<Duration>) {}
    fn collect_stats(&self, out: &mut Vec<LayerStats>) {
        let mut s = LayerStats::new_core("stalls");
        s.queries = self.0;
        out.push(s);
    }
}

fn byte_query_parts() -> (Vec<Expr>, Expr) {
    let a = Array::new("a", 4, ArrayKind::SymbolicInput, None);
    let b = Expr::read(&UpdateList::new(a), Expr::constant(0, 32));
    let c = Expr::ult(b.clone(), Expr::constant(10, 8));
    (vec![c], Expr::eq(b, Expr::constant(7, 8)))
}

#[test]
fn a_stalled_first_core_hands_the_query_to_the_second() {
    let (constraints, expr) = byte_query_parts();
    let meta = QueryMeta::default();
    let mut p = Portfolio::new(
        Box::new(Stalls(0)),
        new_core(CoreKind::Eager),
        Duration::from_millis(50),
    );
    let q = SatQuery::new(&constraints, expr, &meta, true, true);
    assert!(matches!(p.check(&q), Ok(SatResult::Sat(_))));
    let mut stats = Vec::new();
    p.collect_stats(&mut stats);
    assert_eq!(stats[0].name, "portfolio");
    assert!(stats[0].core);
    assert_eq!(stats[0].counter("switches"), 1);
    // The inner cores are reported, not counted as cores a second time.
    assert_eq!(stats.iter().filter(|s| s.core).count(), 1);
    assert_eq!(stats[1].queries, 1);
}

#[test]
fn the_run_timeout_bounds_both_cores() {
    let (constraints, expr) = byte_query_parts();
    let meta = QueryMeta::default();
    // A budget above the run's timeout: no time is left for the second core.
    let mut p = Portfolio::new(
        Box::new(Stalls(0)),
        new_core(CoreKind::Eager),
        Duration::from_secs(10),
    );
    p.set_timeout(Some(Duration::from_millis(20)));
    let start = Instant::now();
    let q = SatQuery::new(&constraints, expr, &meta, true, true);
    assert_eq!(p.check(&q).err(), Some(SolverError::Timeout));
    assert!(start.elapsed() < Duration::from_secs(5));
}

#[test]
fn the_parallel_portfolio_answers_like_z3_and_reports_its_racers() {
    use sear_solver::parallel::ParallelPortfolio;
    use sear_solver::ArrayConfig;
    let (constraints, expr) = byte_query_parts();
    let meta = QueryMeta::default();
    let mut p = ParallelPortfolio::new(&ArrayConfig::default());
    p.set_timeout(Some(Duration::from_secs(10)));
    for _ in 0..20 {
        let q = SatQuery::new(&constraints, expr.clone(), &meta, true, true);
        match p.check(&q) {
            Ok(SatResult::Sat(model)) => {
                assert!(model.satisfies(constraints.iter().chain([&expr])));
            }
            other => panic!("expected a model, got {other:?}"),
        }
        let unsat = Expr::eq(expr.clone(), Expr::false_());
        let never = Expr::and(expr.clone(), unsat);
        let q = SatQuery::new(&constraints, never, &meta, true, false);
        assert!(matches!(p.check(&q), Ok(SatResult::Unsat)));
    }
    let mut stats = Vec::new();
    p.collect_stats(&mut stats);
    assert_eq!(stats[0].name, "parallel");
    assert_eq!(stats[0].queries, 40);
    assert_eq!(
        stats[0].counter("won_z3") + stats[0].counter("won_eager"),
        40
    );
    assert_eq!(stats.iter().filter(|s| s.core).count(), 1);
}
