//! The count of core queries that still need the array theory.

use std::sync::Arc;

use sear_expr::{Array, ArrayKind, Expr, UpdateList};
use sear_solver::{Query, QueryMeta, Solver, SolverConfig};

#[test]
fn core_queries_with_array_terms_are_counted() {
    let mut solver = Solver::new(&SolverConfig::plain()).expect("solver");
    let meta = QueryMeta::default();
    let k = Array::new("k", 1, ArrayKind::SymbolicInput, None);
    let kv = Expr::read(&UpdateList::new(k), Expr::constant(0, 32));
    // No array term: a constant-index read of an input is a plain variable.
    let q = Query::new(&[], Expr::ult(kv.clone(), Expr::constant(7, 8)), &meta);
    assert!(solver.may_be_true(&q).expect("answer"));
    assert_eq!(solver.stats().core_queries_with_arrays, 0);
    // A symbolic-index read of a constant table.
    let table = Array::new(
        "t",
        4,
        ArrayKind::MemoryObject,
        Some(Arc::from(&[1u8, 2, 3, 4][..])),
    );
    let read = Expr::read(&UpdateList::new(table), Expr::zext(kv.clone(), 32));
    let pc = [Expr::ult(kv, Expr::constant(4, 8))];
    let q = Query::new(&pc, Expr::eq(Expr::constant(3, 8), read), &meta);
    assert!(solver.may_be_true(&q).expect("answer"));
    let stats = solver.stats();
    assert_eq!(stats.core_queries_with_arrays, 1);
    assert_eq!(stats.core_queries, 2);
}
