//! Queries from SMT-LIB files without sear's size metadata: arrays are the theory's
//! unbounded arrays, and models cover every byte the query reads.

use sear_expr::smtlib::parse_script;
use sear_solver::{QueryMeta, Solver, SolverConfig};

fn check(text: &str, config: &SolverConfig) -> Option<sear_expr::Assignment> {
    let script = parse_script(text).expect("valid script");
    let constraints = script.assertions();
    let mut solver = Solver::new(config).expect("solver");
    let model = solver
        .check_sat(&constraints, &QueryMeta::default())
        .expect("answer");
    if let Some(m) = &model {
        assert!(m.satisfies(&constraints), "model does not satisfy the file");
    }
    model
}

#[test]
fn symbolic_index_reads_of_undeclared_size_arrays_are_free() {
    let text = "(declare-fun a () (Array (_ BitVec 32) (_ BitVec 8)))
                (declare-fun x () (_ BitVec 32))
                (assert (= (select a x) #x2a))
                (assert (bvugt x #x00000100))
                (assert (= (select a #x00000003) #x07))";
    for config in [SolverConfig::default(), SolverConfig::plain()] {
        assert!(check(text, &config).is_some());
    }
}

#[test]
fn unsatisfiable_files_stay_unsatisfiable() {
    let text = "(declare-fun a () (Array (_ BitVec 32) (_ BitVec 8)))
                (declare-fun x () (_ BitVec 32))
                (declare-fun y () (_ BitVec 32))
                (assert (= x y))
                (assert (not (= (select a x) (select a y))))";
    assert!(check(text, &SolverConfig::default()).is_none());
}
