//! The floating-point search (`layers::fp_search`) on hand-built queries: a model found for
//! satisfiable float queries (checked by evaluation, the core not asked), an unsatisfiable
//! one and a float-free one passed down unchanged, answers that do not depend on the run.

use sear_expr::fp::{FpArith, FpPred};
use sear_expr::{Array, ArrayKind, Expr, UpdateList};
use sear_solver::layers::fp_search::Budget;
use sear_solver::layers::FpSearch;
use sear_solver::testing::Recorder;
use sear_solver::z3core::{Z3Core, Z3Mode};
use sear_solver::{LayerStats, QueryMeta, SatQuery, SatResult, SatSolver};

/// A float input of `width` bits: the bytes of a fresh symbolic array, as the engine reads
/// them.
fn input(name: &str, width: u32) -> Expr {
    let a = Array::new(name, (width / 8) as u64, ArrayKind::SymbolicInput, None);
    Expr::read_lsb(&UpdateList::new(a), Expr::constant(0, 32), width / 8)
}

fn f32c(v: f32) -> Expr {
    Expr::constant(v.to_bits() as u128, 32)
}

fn f64c(v: f64) -> Expr {
    Expr::constant(v.to_bits() as u128, 64)
}

fn arith(op: FpArith, a: &Expr, b: &Expr) -> Expr {
    Expr::fp_arith(op, a.clone(), b.clone()).unwrap()
}

fn cmp(pred: FpPred, a: &Expr, b: &Expr) -> Expr {
    Expr::fcmp(pred, a.clone(), b.clone()).unwrap()
}

/// `x^n` by repeated multiplication, as the C source writes it.
fn pow(x: &Expr, n: u32) -> Expr {
    (1..n).fold(x.clone(), |p, _| arith(FpArith::Mul, &p, x))
}

/// sv-benchmarks' `floats-cdfpl/newton_1_N`: `x = IN - f(IN)/fp(IN)` with f, fp Taylor
/// polynomials of degree 7 and 6, `IN` in `(-0.8, 0.8)`, and the error's `!(x < 0.1)`
/// (the comparison in double).
fn newton_error(input: &Expr) -> Vec<Expr> {
    use FpArith::*;
    let x = input;
    let f = {
        let t3 = arith(Div, &pow(x, 3), &f32c(6.0));
        let t5 = arith(Div, &pow(x, 5), &f32c(120.0));
        let t7 = arith(Div, &pow(x, 7), &f32c(5040.0));
        arith(Add, &arith(Add, &arith(Sub, x, &t3), &t5), &t7)
    };
    let fp = {
        let t2 = arith(Div, &pow(x, 2), &f32c(2.0));
        let t4 = arith(Div, &pow(x, 4), &f32c(24.0));
        let t6 = arith(Div, &pow(x, 6), &f32c(720.0));
        arith(Add, &arith(Add, &arith(Sub, &f32c(1.0), &t2), &t4), &t6)
    };
    let next = arith(Sub, x, &arith(Div, &f, &fp));
    let wide = Expr::fp_convert(next, 64).unwrap();
    vec![
        cmp(FpPred::Ogt, x, &f32c(-0.8)),
        cmp(FpPred::Olt, x, &f32c(0.8)),
        Expr::not(cmp(FpPred::Olt, &wide, &f64c(0.1))),
    ]
}

/// The layer over a recording Z3 core; the log of the queries that reached the core.
fn layer(
    budget: Budget,
) -> (
    FpSearch,
    std::rc::Rc<std::cell::RefCell<Vec<sear_solver::testing::Seen>>>,
) {
    let (recorder, seen) = Recorder::new(Box::new(Z3Core::new(Z3Mode::default())));
    (FpSearch::new(Box::new(recorder)).with_budget(budget), seen)
}

fn stats(layer: &FpSearch) -> LayerStats {
    let mut out = Vec::new();
    layer.collect_stats(&mut out);
    out.remove(0)
}

fn ask(layer: &mut FpSearch, cs: &[Expr], need_model: bool) -> SatResult {
    let meta = QueryMeta::default();
    layer
        .check(&SatQuery::new(cs, Expr::true_(), &meta, false, need_model))
        .expect("an answer")
}

#[test]
fn a_float_polynomial_gets_a_checked_model_without_the_core() {
    let x = input("IN", 32);
    let cs = newton_error(&x);
    let (mut layer, seen) = layer(Budget::default());
    let SatResult::Sat(model) = ask(&mut layer, &cs, false) else {
        panic!("the error side of newton_1_4 is satisfiable");
    };
    assert!(model.satisfies(&cs), "{model:?}");
    assert_eq!(model.len(), 1, "every array of the query assigned");
    assert!(seen.borrow().is_empty(), "the core was asked");
    let st = stats(&layer);
    assert_eq!((st.counter("sat"), st.counter("tried")), (1, 1));
    assert!(st.counter("evaluations") >= 1);
    let value = f32::from_le_bytes(model.arrays().next().unwrap().1.try_into().unwrap());
    assert!(value > -0.8 && value < 0.8, "{value}");
}

#[test]
fn a_narrow_window_is_reached_by_the_local_search() {
    // sqrt(x) in (3, 3 + 1e-7): a window of about 6e-7 above 9 in [0, 100], which no
    // candidate of the first phase hits.
    let x = input("x", 64);
    let r = Expr::fp_sqrt(x.clone()).unwrap();
    let cs = vec![
        cmp(FpPred::Oge, &x, &f64c(0.0)),
        cmp(FpPred::Ole, &x, &f64c(100.0)),
        cmp(FpPred::Ogt, &r, &f64c(3.0)),
        cmp(FpPred::Olt, &r, &f64c(3.0000001)),
    ];
    let (mut layer, seen) = layer(Budget::default());
    let SatResult::Sat(model) = ask(&mut layer, &cs, true) else {
        panic!("the window is not empty");
    };
    assert!(model.satisfies(&cs));
    assert!(seen.borrow().is_empty());
}

#[test]
fn two_inputs_and_an_absorption() {
    // a + b == a with |b| > 1e-3: a must be large.
    let (a, b) = (input("a", 64), input("b", 64));
    let cs = vec![
        cmp(FpPred::Ogt, &b, &f64c(1e-3)),
        cmp(FpPred::Oeq, &arith(FpArith::Add, &a, &b), &a),
    ];
    let (mut layer, seen) = layer(Budget::default());
    let SatResult::Sat(model) = ask(&mut layer, &cs, true) else {
        panic!("a = 2^60 absorbs b");
    };
    assert!(model.satisfies(&cs));
    assert_eq!(model.len(), 2);
    assert!(seen.borrow().is_empty());
}

#[test]
fn an_unsatisfiable_query_goes_down_unchanged() {
    // x * x < 0 has no solution (and x > 1 with it).
    let x = input("x", 32);
    let cs = vec![
        cmp(FpPred::Ogt, &x, &f32c(1.0)),
        cmp(FpPred::Olt, &arith(FpArith::Mul, &x, &x), &f32c(0.0)),
    ];
    let budget = Budget {
        evaluations: 500,
        ..Budget::default()
    };
    let (mut layer, seen) = layer(budget);
    assert_eq!(ask(&mut layer, &cs, true), SatResult::Unsat);
    assert_eq!(seen.borrow().len(), 1);
    assert_eq!(
        seen.borrow()[0].constraints,
        cs,
        "the query went down as it came"
    );
    let st = stats(&layer);
    assert_eq!((st.counter("sat"), st.counter("not_found")), (0, 1));
    assert_eq!(
        st.counter("evaluations"),
        500,
        "the whole budget, and no more"
    );
}

#[test]
fn float_free_queries_pass_through() {
    let a = Array::new("n", 4, ArrayKind::SymbolicInput, None);
    let n = Expr::read_lsb(&UpdateList::new(a), Expr::constant(0, 32), 4);
    let cs = vec![Expr::ult(n, Expr::constant(7, 32))];
    let (mut layer, seen) = layer(Budget::default());
    assert!(ask(&mut layer, &cs, true).is_sat());
    assert_eq!(seen.borrow().len(), 1);
    let st = stats(&layer);
    assert_eq!(
        (st.counter("fp_queries"), st.counter("evaluations")),
        (0, 0)
    );
}

#[test]
fn the_answer_does_not_depend_on_the_run() {
    let models: Vec<SatResult> = (0..2)
        .map(|_| {
            let x = input("IN", 32);
            let (mut layer, _) = layer(Budget::default());
            ask(&mut layer, &newton_error(&x), true)
        })
        .collect();
    let bytes = |r: &SatResult| match r {
        SatResult::Sat(m) => m.arrays().map(|(_, b)| b.to_vec()).collect::<Vec<_>>(),
        SatResult::Unsat => panic!("sat expected"),
    };
    assert_eq!(bytes(&models[0]), bytes(&models[1]));
}

/// A 32-bit integer constant.
fn i32c(v: i32) -> Expr {
    Expr::constant(v as u32 as u128, 32)
}

#[test]
fn an_integer_converted_to_float_is_moved() {
    // newton_1_4 over `(float)mv / 1000` for an int `mv` in (-800, 800): the search moves
    // the 4 bytes `sitofp` converts, as an integer.
    let mv = input("mv", 32);
    let volts = arith(
        FpArith::Div,
        &Expr::int_to_fp(true, mv.clone(), 32).unwrap(),
        &f32c(1000.0),
    );
    let mut cs = newton_error(&volts);
    cs.splice(
        0..2,
        [
            Expr::slt(i32c(-800), mv.clone()),
            Expr::slt(mv.clone(), i32c(800)),
        ],
    );
    let (mut layer, seen) = layer(Budget::default());
    let SatResult::Sat(model) = ask(&mut layer, &cs, true) else {
        panic!("mv near -800 reaches the error");
    };
    assert!(model.satisfies(&cs), "{model:?}");
    assert!(seen.borrow().is_empty(), "the core was asked");
    let value = i32::from_le_bytes(model.arrays().next().unwrap().1.try_into().unwrap());
    assert!((-800..-600).contains(&value), "{value}");
}

#[test]
fn digits_parsed_into_an_integer_are_moved() {
    // Two decimal digits parsed into n = 10·d0 + d1, then (float)n / 10 > 8.45: the bytes
    // of the computation `sitofp` converts are moved one by one (n ≥ 85).
    let a = Array::new("buf", 2, ArrayKind::SymbolicInput, None);
    let byte = |i: u32| Expr::read(&UpdateList::new(a.clone()), Expr::constant(i as u128, 32));
    let digit = |i: u32| Expr::sub(Expr::sext(byte(i), 32), i32c(48));
    let mut cs = Vec::new();
    for i in 0..2 {
        cs.push(Expr::sle(i32c(48), Expr::sext(byte(i), 32)));
        cs.push(Expr::sle(Expr::sext(byte(i), 32), i32c(57)));
    }
    let n = Expr::add(Expr::mul(digit(0), i32c(10)), digit(1));
    let value = arith(
        FpArith::Div,
        &Expr::int_to_fp(true, n, 32).unwrap(),
        &f32c(10.0),
    );
    cs.push(cmp(FpPred::Ogt, &value, &f32c(8.45)));
    let (mut layer, seen) = layer(Budget::default());
    let SatResult::Sat(model) = ask(&mut layer, &cs, true) else {
        panic!("85..=99 satisfy it");
    };
    assert!(model.satisfies(&cs), "{model:?}");
    assert!(seen.borrow().is_empty(), "the core was asked");
    let st = stats(&layer);
    assert_eq!(st.counter("sat"), 1);
}
