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
