//! The CEGAR core and the pre-check on spec 001's worked examples (§2.2, §3, §11 T1–T3,
//! T10): answers, test inputs rebuilt from the abstraction's models, refinement counts and the
//! paper's 156 → 20 axiom counts.

mod spec001;

use sear_expr::{Array, ArrayKind, Expr, UpdateList};
use sear_solver::{ArrayConfig, AxiomElim, CegarSelect, CoreKind, QueryMeta, Solver, SolverConfig};
use spec001::*;

fn solver(core: CoreKind, precheck: bool, array: ArrayConfig) -> Solver {
    Solver::new(&SolverConfig {
        core,
        ilp_precheck: precheck,
        array,
        ..SolverConfig::plain()
    })
    .unwrap()
}

fn paper(elim: AxiomElim) -> ArrayConfig {
    ArrayConfig {
        axiom_elim: elim,
        axiom_extras: false,
        select: CegarSelect::Violated,
        ..ArrayConfig::default()
    }
}

/// T1: `R_I(a, i) > 10 ∧ 0 ≤ i ≤ 3` with `a = {0, 0, 0, 11}`: SAT, only at i = 3.
#[test]
fn t1_refinement_example() {
    let (_, i) = int_var("i");
    let a = int_array("a", &[0, 0, 0, 11]);
    let cs = vec![
        assume_range(&i, 4),
        in_bounds(&i, 4),
        Expr::slt(c32(10), elem(&a, &i)),
    ];
    let meta = QueryMeta {
        access_granularity: ints(&a),
        ..Default::default()
    };
    for (elim, precheck, cells, pairs) in [
        (AxiomElim::None, false, 64, 6), // 4 × 16 + C(4, 2) = 70
        (AxiomElim::Type, false, 16, 0),
        (AxiomElim::Both, true, 16, 0), // interval [0, 12] for i0: 4 cells per term
    ] {
        for interval_constraints in [false, true] {
            let mut s = solver(
                CoreKind::Cegar,
                precheck,
                ArrayConfig {
                    interval_constraints,
                    ..paper(elim)
                },
            );
            let model = s.check_sat(&cs, &meta).unwrap().expect("T1 is satisfiable");
            assert_eq!(model.evaluate(&i), 3, "the only solution");
            assert!(model.satisfies(&cs));
            let st = s.stats();
            let c = st.layer("cegar").unwrap();
            assert_eq!(
                (c.counter("generated_cells"), c.counter("generated_pairs")),
                (cells, pairs),
                "{elim:?}"
            );
            // The violated policy adds at least one axiom per refinement; each of the 4
            // terms needs at most its 4 same-residue cells to pin the value.
            assert!(c.counter("iterations") <= 1 + 16, "{:?}", c.counters);
        }
    }
}

/// T2: `foo` with a = {0,0,0,5}: the bug branch is UNSAT by the pre-check, the core is
/// never called.
#[test]
fn t2_precheck_answers_without_the_core() {
    let (cs, a, _, _) = foo_query(5);
    let meta = QueryMeta {
        access_granularity: ints(&a),
        ..Default::default()
    };
    for core in <CoreKind as clap::ValueEnum>::value_variants()
        .iter()
        .copied()
    {
        let mut s = solver(core, true, ArrayConfig::default());
        assert!(s.check_sat(&cs, &meta).unwrap().is_none());
        let st = s.stats();
        assert_eq!(st.layer("precheck").unwrap().counter("unsat"), 1);
        assert_eq!(st.core_queries, 0, "{core:?}: the core must not be called");
        // Without the pre-check the core proves it too.
        let mut s = solver(core, false, ArrayConfig::default());
        assert!(s.check_sat(&cs, &meta).unwrap().is_none());
        assert_eq!(s.stats().core_queries, 1);
    }
}

/// T3: `foo` with a = {0,0,0,9}: SAT only at i = j = 3; the axiom counts of §3.3.
#[test]
fn t3_axiom_counts_and_model() {
    let (cs, a, i, j) = foo_query(9);
    let meta = QueryMeta {
        access_granularity: ints(&a),
        ..Default::default()
    };
    for (elim, total) in [
        (AxiomElim::None, 156),
        (AxiomElim::Type, 36),
        (AxiomElim::Interval, 68),
        (AxiomElim::Both, 20),
    ] {
        for select in [
            CegarSelect::Violated,
            CegarSelect::Siblings,
            CegarSelect::Eager,
        ] {
            let mut s = solver(
                CoreKind::Cegar,
                true,
                ArrayConfig {
                    select,
                    ..paper(elim)
                },
            );
            let model = s.check_sat(&cs, &meta).unwrap().expect("T3 is satisfiable");
            assert_eq!((model.evaluate(&i), model.evaluate(&j)), (3, 3));
            let st = s.stats();
            let c = st.layer("cegar").unwrap();
            assert_eq!(
                c.counter("generated_cells") + c.counter("generated_pairs"),
                total,
                "{elim:?} {select:?}: {:?}",
                c.counters
            );
            assert!(c.counter("axioms_added") <= c.counter("axioms_generated"));
        }
    }
    // With the extras: pairs over a constant array follow from the cell axioms.
    let mut s = solver(CoreKind::Cegar, true, ArrayConfig::default());
    assert!(s.check_sat(&cs, &meta).unwrap().is_some());
    let st = s.stats();
    let c = st.layer("cegar").unwrap();
    assert_eq!(
        (c.counter("generated_cells"), c.counter("generated_pairs")),
        (16, 0)
    );
}

/// The unsigned variant of T2/T3 works the same way.
#[test]
fn t2_t3_unsigned_variant() {
    for (last, sat) in [(5, false), (9, true)] {
        let (_, i) = int_var("i");
        let (_, j) = int_var("j");
        let a = int_array("a", &[0, 0, 0, last]);
        let cs = vec![
            Expr::ult(i.clone(), c32(4)),
            Expr::ult(j.clone(), c32(4)),
            Expr::ult(c32(4), Expr::add(j.clone(), i.clone())),
            Expr::ule(
                Expr::mul(Expr::constant(4, 64), Expr::zext(i.clone(), 64)),
                Expr::constant(12, 64),
            ),
            Expr::ule(
                Expr::mul(Expr::constant(4, 64), Expr::zext(j.clone(), 64)),
                Expr::constant(12, 64),
            ),
            Expr::slt(c32(10), Expr::add(elem(&a, &j), elem(&a, &i))),
        ];
        let meta = QueryMeta {
            access_granularity: ints(&a),
            ..Default::default()
        };
        let mut s = solver(CoreKind::Cegar, true, ArrayConfig::default());
        assert_eq!(s.check_sat(&cs, &meta).unwrap().is_some(), sat);
        let st = s.stats();
        assert_eq!(st.layer("precheck").unwrap().counter("unsat"), !sat as u64);
    }
}

/// T10: the pre-check never engages on reads through symbolic-index writes; answers equal
/// the baseline.
#[test]
fn t10_symbolic_writes_skip_the_precheck() {
    let (_, i) = int_var("i");
    let (_, j) = int_var("j");
    let (_, v) = int_var("v");
    let mem = Array::new(
        "mem",
        16,
        ArrayKind::MemoryObject,
        Some(vec![0u8; 16].into()),
    );
    let mut ul = UpdateList::new(mem);
    let base = Expr::mul(c32(4), j.clone());
    for k in 0..4u32 {
        ul = ul.write(
            Expr::add(c32(k as u128), base.clone()),
            Expr::extract(v.clone(), 8 * k, 8),
        );
    }
    let read = Expr::read_lsb(&ul, Expr::mul(c32(4), i.clone()), 4);
    let cs = vec![
        Expr::ult(i.clone(), c32(4)),
        Expr::ult(j.clone(), c32(4)),
        Expr::slt(c32(10), read),
    ];
    let meta = QueryMeta::default();
    let mut s = solver(CoreKind::Cegar, true, ArrayConfig::default());
    let model = s
        .check_sat(&cs, &meta)
        .unwrap()
        .expect("satisfiable with i = j");
    assert!(model.satisfies(&cs));
    let st = s.stats();
    let p = st.layer("precheck").unwrap();
    assert_eq!(p.counter("skipped_symbolic_write"), 1);
    assert_eq!(p.counter("unsat"), 0);
}
