//! Queries from SMT-LIB files without sear's size metadata: arrays are the theory's
//! unbounded arrays, and models cover every byte the query reads.

use sear_expr::smtlib::parse_script;
use sear_solver::{CoreKind, QueryMeta, Solver, SolverConfig};

fn check(text: &str, config: &SolverConfig) -> Option<sear_expr::Assignment> {
    check_script(&parse_script(text).expect("valid script"), config)
}

fn check_script(
    script: &sear_expr::smtlib::Script,
    config: &SolverConfig,
) -> Option<sear_expr::Assignment> {
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
    for config in every_core() {
        assert!(check(text, &config).is_some(), "{:?}", config.core);
    }
}

/// The default chain under each core, with and without the ILP pre-check.
fn every_core() -> Vec<SolverConfig> {
    let mut out = vec![SolverConfig::plain()];
    for core in <CoreKind as clap::ValueEnum>::value_variants()
        .iter()
        .copied()
    {
        for ilp_precheck in [false, true] {
            out.push(SolverConfig {
                core,
                ilp_precheck,
                ..SolverConfig::default()
            });
        }
    }
    out
}

#[test]
fn constant_index_reads_beyond_the_dense_part_agree_with_symbolic_ones() {
    // a[0x200] is 5 and a[x] is 6, so x cannot be 0x200; with a[0x300] = 6 as well, x = 0x300
    // is one model.
    let text = "(declare-fun a () (Array (_ BitVec 32) (_ BitVec 8)))
                (declare-fun x () (_ BitVec 32))
                (assert (= (select a #x00000200) #x05))
                (assert (= (select a x) #x06))
                (assert (bvuge x #x00000200))
                (assert (bvule x #x00000300))";
    for config in every_core() {
        let script = parse_script(text).unwrap();
        let model = check_script(&script, &config).expect("satisfiable");
        let a = &script.arrays[0];
        assert_eq!(model.byte(a, 0x200), 5, "{:?}", config.core);
    }
    let pinned = format!("{text} (assert (= x #x00000200))");
    for config in every_core() {
        assert!(check(&pinned, &config).is_none(), "{:?}", config.core);
    }
}

#[test]
fn unsatisfiable_files_stay_unsatisfiable() {
    let text = "(declare-fun a () (Array (_ BitVec 32) (_ BitVec 8)))
                (declare-fun x () (_ BitVec 32))
                (declare-fun y () (_ BitVec 32))
                (assert (= x y))
                (assert (not (= (select a x) (select a y))))";
    for config in every_core() {
        assert!(check(text, &config).is_none(), "{:?}", config.core);
    }
}
