//! The Bitwuzla core's incremental instance is replaced once many new terms were translated
//! (issue 20: a run whose queries keep naming new inputs), and its answers stay right.

use sear_expr::{Array, ArrayKind, Expr, UpdateList};
use sear_solver::bitwuzla::{BitwuzlaCore, INSTANCE_TERM_LIMIT};
use sear_solver::{QueryMeta, SatQuery, SatSolver};

#[test]
fn fresh_inputs_get_fresh_instances_and_right_answers() {
    let meta = QueryMeta::default();
    let mut core = BitwuzlaCore::default();
    let queries = 3 * INSTANCE_TERM_LIMIT / 4;
    for i in 0..queries {
        let input = UpdateList::new(Array::new(
            format!("v{i}"),
            4,
            ArrayKind::SymbolicInput,
            None,
        ));
        let v = Expr::read_lsb(&input, Expr::constant(0, 32), 4);
        let big = Expr::sgt(v.clone(), Expr::constant(1000, 32));
        let sat = core
            .check(&SatQuery::new(&[], big.clone(), &meta, true, false))
            .unwrap();
        let model = match sat {
            sear_solver::SatResult::Sat(m) => m,
            other => panic!("query {i}: {other:?}"),
        };
        assert_eq!(
            model.evaluate(&big),
            1,
            "query {i}: the model satisfies v > 1000"
        );
        // v > 1000 and v < 0 together: unsatisfiable.
        let both = [big];
        let neg = Expr::slt(v, Expr::constant(0, 32));
        let unsat = core
            .check(&SatQuery::new(&both, neg, &meta, true, false))
            .unwrap();
        assert!(!unsat.is_sat(), "query {i}");
    }
    let mut stats = Vec::new();
    core.collect_stats(&mut stats);
    let instances = stats[0].counter("instances");
    assert!(
        instances >= 2,
        "{queries} queries on fresh inputs should replace the instance: {instances} made"
    );
}
