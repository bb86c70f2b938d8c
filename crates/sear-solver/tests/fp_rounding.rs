//! Floating-point nodes in a rounding mode other than to nearest even, in the Z3 and
//! Bitwuzla cores: on fixed inputs each core finds the evaluator's result (which
//! `sear-expr/tests/fp_rounding_hw.rs` checks against the hardware) satisfiable and every
//! other result unsatisfiable; free queries that only a directed mode satisfies get models
//! the evaluator confirms, and are unsatisfiable to nearest.

use sear_expr::fp::{FpArith, FpPred, RoundMode};
use sear_expr::Expr;
use sear_solver::SatResult;

mod fp_common;
use fp_common::{assert_only_result, check, cores, var};

const DIRECTED: [RoundMode; 4] = [
    RoundMode::Zero,
    RoundMode::Up,
    RoundMode::Down,
    RoundMode::NearestAway,
];

type Build = fn(RoundMode, &Expr, &Expr, &Expr) -> Expr;

/// The nodes that round, over operands of `w` bits (the conversions over their own
/// widths).
fn builds() -> Vec<(&'static str, Build)> {
    fn arith(op: FpArith, m: RoundMode, x: &Expr, y: &Expr) -> Expr {
        Expr::fp_arith_rm(op, m, x.clone(), y.clone()).unwrap()
    }
    vec![
        ("add", |m, x, y, _| arith(FpArith::Add, m, x, y)),
        ("sub", |m, x, y, _| arith(FpArith::Sub, m, x, y)),
        ("mul", |m, x, y, _| arith(FpArith::Mul, m, x, y)),
        ("div", |m, x, y, _| arith(FpArith::Div, m, x, y)),
        ("fma", |m, x, y, z| {
            Expr::fp_fma_rm(m, x.clone(), y.clone(), z.clone()).unwrap()
        }),
        ("sqrt", |m, x, _, _| Expr::fp_sqrt_rm(m, x.clone()).unwrap()),
        ("rint", |m, x, _, _| Expr::fp_round(m, x.clone()).unwrap()),
        ("sitofp", |m, x, _, _| {
            Expr::int_to_fp_rm(true, m, x.clone(), x.width()).unwrap()
        }),
        ("uitofp", |m, x, _, _| {
            Expr::int_to_fp_rm(false, m, x.clone(), 32).unwrap()
        }),
        ("fptrunc", |m, x, _, _| {
            let wide = Expr::fp_convert(x.clone(), 64).unwrap();
            let third = Expr::fp_arith_rm(
                FpArith::Div,
                RoundMode::NearestEven,
                wide,
                Expr::constant(3f64.to_bits() as u128, 64),
            )
            .unwrap();
            Expr::fp_convert_rm(m, third, 32).unwrap()
        }),
    ]
}

/// binary32 operands where the modes give different results (inexact operations).
const POINTS: [[u32; 3]; 5] = [
    [0x3F80_0000, 0x4040_0000, 0x3380_0000], // 1, 3, 2^-24
    [0xBF80_0001, 0x3F7F_FFFF, 0x4B80_0001], // -(1 + ulp), 1 - ulp/2, 2^24 + 2
    [0x7F7F_FFFF, 0x7F7F_FFFF, 0xFF7F_FFFF], // MAX, MAX, -MAX: overflow
    [0x4CBE_BC20, 0xC0A0_0001, 0x0000_0003], // 1e8, -5.0000005, a subnormal
    [0x4020_0000, 0xBFC0_0000, 0x8000_0000], // 2.5, -1.5, -0
];

#[test]
fn cores_agree_with_the_evaluator_in_directed_modes() {
    let (x, y, z) = (var("x", 32), var("y", 32), var("z", 32));
    let mut checked = 0;
    for m in DIRECTED {
        for (name, build) in builds() {
            let node = build(m, &x, &y, &z);
            for p in &POINTS {
                let [cx, cy, cz] = p.map(|v| Expr::constant(v as u128, 32));
                let expected = build(m, &cx, &cy, &cz);
                assert!(expected.as_constant().is_some(), "{name}: folds");
                let fixed = [
                    Expr::eq(cx.clone(), x.clone()),
                    Expr::eq(cy.clone(), y.clone()),
                    Expr::eq(cz.clone(), z.clone()),
                ];
                for core in cores().iter_mut() {
                    let what = format!("{name} {m:?} {p:x?}");
                    assert_only_result(core.as_mut(), &fixed, &node, &expected, &what);
                    checked += 1;
                }
            }
        }
    }
    assert_eq!(checked, 4 * 10 * POINTS.len() * 2);
}

/// Queries over a float `x` that only some modes satisfy.
#[test]
fn directed_modes_reach_what_nearest_cannot() {
    let x = var("rx", 32);
    let f = |v: f32| Expr::constant(v.to_bits() as u128, 32);
    let third = |m| {
        // x == 3 ∧ 1/x < 0.33333334f: 1/3 rounded down.
        vec![
            Expr::fcmp(FpPred::Oeq, x.clone(), f(3.0)).unwrap(),
            Expr::fcmp(
                FpPred::Olt,
                Expr::fp_arith_rm(FpArith::Div, m, f(1.0), x.clone()).unwrap(),
                f(0.333_333_34),
            )
            .unwrap(),
        ]
    };
    let above = |m| {
        // 1e10 < x < 1e30 ∧ x + 1e-8 > x: the sum rounded up.
        vec![
            Expr::fcmp(FpPred::Ogt, x.clone(), f(1e10)).unwrap(),
            Expr::fcmp(FpPred::Olt, x.clone(), f(1e30)).unwrap(),
            Expr::fcmp(
                FpPred::Ogt,
                Expr::fp_arith_rm(FpArith::Add, m, x.clone(), f(1e-8)).unwrap(),
                x.clone(),
            )
            .unwrap(),
        ]
    };
    let cases: Vec<(&str, Vec<Expr>, bool)> = vec![
        ("1/3 toward zero", third(RoundMode::Zero), true),
        ("1/3 downward", third(RoundMode::Down), true),
        ("1/3 to nearest", third(RoundMode::NearestEven), false),
        ("1/3 upward", third(RoundMode::Up), false),
        ("x + 1e-8 upward", above(RoundMode::Up), true),
        ("x + 1e-8 toward zero", above(RoundMode::Zero), false),
        ("x + 1e-8 to nearest", above(RoundMode::NearestEven), false),
    ];
    for (name, cs, sat) in cases {
        for core in cores().iter_mut() {
            match check(core.as_mut(), &cs) {
                SatResult::Sat(model) => {
                    assert!(sat, "{name}: {} says sat", core.name());
                    assert!(model.satisfies(&cs), "{name}: the evaluator confirms");
                }
                SatResult::Unsat => assert!(!sat, "{name}: {} says unsat", core.name()),
            }
        }
    }
}
