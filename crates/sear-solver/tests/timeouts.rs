//! Every core returns within its per-query timeout (plus a margin) on a query built to be
//! hard: factoring a 62-bit semiprime over 64-bit bit-vectors.

use std::time::{Duration, Instant};

use sear_expr::{Array, ArrayKind, Expr, UpdateList};
use sear_solver::{CoreKind, Query, QueryMeta, Solver, SolverConfig, SolverError};

fn u64_of(name: &str) -> Expr {
    let a = Array::new(name, 8, ArrayKind::SymbolicInput, None);
    Expr::read_lsb(&UpdateList::new(a), Expr::constant(0, 32), 8)
}

#[test]
fn every_core_honours_its_timeout_on_a_hard_query() {
    let (x, y) = (u64_of("x"), u64_of("y"));
    let c = |v: u128| Expr::constant(v, 64);
    // N = (2^31 - 1)^2 with 1 < x < y < 2^32: no factorisation fits (the only one within
    // bounds has x = y), which a solver can only show by a long search.
    let n = (1u128 << 31) - 1;
    let constraints = vec![
        Expr::ult(c(1), x.clone()),
        Expr::ult(x.clone(), y.clone()),
        Expr::ult(y.clone(), c(1 << 32)),
    ];
    let expr = Expr::eq(Expr::mul(x, y), c(n * n));
    let meta = QueryMeta::default();
    let timeout = Duration::from_secs(1);
    for core in <CoreKind as clap::ValueEnum>::value_variants()
        .iter()
        .copied()
    {
        let mut solver = Solver::new(&SolverConfig {
            core,
            timeout: Some(timeout),
            ..SolverConfig::plain()
        })
        .unwrap();
        let start = Instant::now();
        let q = Query::new(&constraints, expr.clone(), &meta);
        let result = solver.may_be_true(&q);
        let took = start.elapsed();
        // An answer is fine too (a fast machine); a hang is not. Generous for a loaded
        // machine: the timeout is 1 s.
        assert!(took < Duration::from_secs(20), "{core:?} took {took:?}");
        match result {
            Ok(_) | Err(SolverError::Timeout) => {}
            Err(e) => panic!("{core:?}: {e}"),
        }
    }
}

/// An update list longer than the Z3 core takes (a store chain on which one Z3 call ran past
/// its timeout and interruption for minutes) is refused at once, and the default portfolio
/// answers the query with its other core.
#[test]
fn store_chains_too_long_for_z3_are_refused_and_answered_by_the_portfolio() {
    use sear_solver::z3core::{Z3Core, Z3Mode, MAX_UPDATE_LIST};
    use sear_solver::{new_core, CoreKind, QueryMeta, SatQuery, SatResult, SatSolver, SolverError};
    let input = UpdateList::new(Array::new("in", 4, ArrayKind::SymbolicInput, None));
    let byte = |i: u128| Expr::read(&input, Expr::constant(i, 32));
    let mut list = UpdateList::new(Array::new("a", 1 << 20, ArrayKind::MemoryObject, None));
    for i in 0..=MAX_UPDATE_LIST as u128 {
        list = list.write(Expr::constant(i, 32), byte(i % 4));
    }
    // a[i] for the 32-bit input i (all writes can match it): with i = 5 it is in[1], which
    // i = 5 makes 0, so a[i] != 0 is unsat. (A read at a constant index, or at a byte's
    // range, would fold through or skip most writes.)
    let i = Expr::read_lsb(&input, Expr::constant(0, 32), 4);
    let cs = [
        Expr::eq(i.clone(), Expr::constant(5, 32)),
        Expr::ne(Expr::read(&list, i), Expr::constant(0, 8)),
    ];
    let meta = QueryMeta::default();
    let q = SatQuery::new(&cs, Expr::true_(), &meta, false, false);
    let mut z3 = Z3Core::new(Z3Mode::default());
    z3.set_timeout(Some(Duration::from_secs(30)));
    let start = Instant::now();
    let r = z3.check(&q);
    assert!(matches!(r, Err(SolverError::Failure(_))), "{r:?}");
    assert!(start.elapsed() < Duration::from_secs(10), "refused at once");
    let mut portfolio = new_core(CoreKind::EagerPortfolio);
    portfolio.set_timeout(Some(Duration::from_secs(60)));
    assert_eq!(portfolio.check(&q).unwrap(), SatResult::Unsat);
}

/// Issue 37: the Z3 core meters a CPU budget (a portfolio's turn) by its thread's CPU clock:
/// the hard query ends with a timeout near the budget although its wall-clock timeout is
/// long, and the same core then answers an easy query (the interruption that ended the
/// turn does not stick to the context). A thread that waits instead of computing spends no
/// budget: that side is `portfolio.rs`'s `a_turn_is_cpu_time_for_a_core_that_measures_it`.
#[test]
fn z3_meters_a_cpu_budget_and_answers_after_it() {
    use sear_solver::z3core::{Z3Core, Z3Mode};
    use sear_solver::{SatQuery, SatResult, SatSolver};
    let (x, y) = (u64_of("x"), u64_of("y"));
    let c = |v: u128| Expr::constant(v, 64);
    let n = (1u128 << 31) - 1;
    let hard = vec![
        Expr::ult(c(1), x.clone()),
        Expr::ult(x.clone(), y.clone()),
        Expr::ult(y.clone(), c(1 << 32)),
        Expr::eq(Expr::mul(x.clone(), y.clone()), c(n * n)),
    ];
    let meta = QueryMeta::default();
    let mut z3 = Z3Core::new(Z3Mode::default());
    assert!(z3.honours_cpu_budget());
    z3.set_timeout(Some(Duration::from_secs(60)));
    z3.set_cpu_budget(Some(Duration::from_millis(300)));
    let start = Instant::now();
    let r = z3.check(&SatQuery::new(&hard, Expr::true_(), &meta, false, false));
    let took = start.elapsed();
    assert!(matches!(r, Err(SolverError::Timeout)), "{r:?}");
    // Wall time is at least the CPU time spent; generous above for a loaded machine.
    assert!(
        took >= Duration::from_millis(300) && took < Duration::from_secs(20),
        "{took:?}"
    );
    z3.set_cpu_budget(Some(Duration::from_secs(30)));
    let easy = vec![Expr::eq(Expr::add(x, y), c(7))];
    let r = z3.check(&SatQuery::new(&easy, Expr::true_(), &meta, false, false));
    assert!(matches!(r, Ok(SatResult::Sat(_))), "{r:?}");
}
