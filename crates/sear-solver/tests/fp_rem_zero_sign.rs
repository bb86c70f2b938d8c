//! The sign of a zero `remainder` in both cores: glibc 2.36's `remainder` (double) gives
//! some zero results the sign opposite to `x`'s, where IEEE's `fp.rem` gives `x`'s (the
//! rule: `sear-expr/tests/fp_rem_zero_sign.rs`); the encoding follows glibc, as the evaluator
//! does. On fixed inputs each core finds glibc's result, called natively, and only it.

use sear_expr::fp::{FpArith, FpPred};
use sear_expr::Expr;
use sear_solver::SatResult;

mod fp_common;
use fp_common::{assert_only_result, check, cores, var};

extern "C" {
    fn remainder(x: f64, y: f64) -> f64;
    fn remainderf(x: f32, y: f32) -> f32;
}

/// glibc's result, natively.
fn glibc(width: u32, x: u64, y: u64) -> u64 {
    // SAFETY: pure libm functions.
    unsafe {
        if width == 32 {
            remainderf(f32::from_bits(x as u32), f32::from_bits(y as u32)).to_bits() as u64
        } else {
            remainder(f64::from_bits(x), f64::from_bits(y)).to_bits()
        }
    }
}

/// Zero results of both signs (the differential test's case, with `-x`, with `y` above
/// `2^-970`; ties of glibc's intermediate quotient; a subnormal `y`; huge `x`), a nonzero
/// result with a tiny divisor, and a zero of `remainderf`. (Bitwuzla takes seconds per
/// binary64 point: it bit-blasts `fp.rem`.)
const POINTS: &[(u32, u64, u64)] = &[
    (64, 0x0a8a_0fdc_4eed_dbbc, 0x8010_0000_0000_0000),
    (64, 0x8a8a_0fdc_4eed_dbbc, 0x8010_0000_0000_0000),
    (64, 0x0a8a_0fdc_4eed_dbbc, 0x83f0_0000_0000_0000),
    (64, 0x04f2_0000_0000_0000, 0x3),
    (64, 0x04fe_0000_0000_0000, 0x3),
    (64, 0x8821_346b_622d_c31e, 0x000c_cdb5_1f63_8b40),
    (64, 0xffe0_0000_0000_0000, 0x1),
    (64, 0x0a8a_0fdc_4eed_dbbd, 0x8010_0000_0000_0000),
    (32, 0x0080_0006, 0x8000_0003),
];

#[test]
fn cores_give_glibcs_zero_signs() {
    let mut flipped = 0;
    for &(width, px, py) in POINTS {
        let (x, y) = (var("x", width), var("y", width));
        let node = Expr::fp_arith(FpArith::IeeeRem, x.clone(), y.clone()).unwrap();
        let expected = glibc(width, px, py);
        let sign = 1u64 << (width - 1);
        if expected & !sign == 0 && expected & sign != px & sign {
            flipped += 1;
        }
        let fixed = [
            Expr::eq(Expr::constant(px as u128, width), x.clone()),
            Expr::eq(Expr::constant(py as u128, width), y.clone()),
        ];
        let r = Expr::constant(expected as u128, width);
        for core in cores().iter_mut() {
            let start = std::time::Instant::now();
            let what = format!("remainder({px:#x}, {py:#x}) = {expected:#x}");
            assert_only_result(core.as_mut(), &fixed, &node, &r, &what);
            eprintln!("{px:#x} {py:#x} {}: {:?}", core.name(), start.elapsed());
        }
    }
    assert!(
        flipped >= 3,
        "{flipped} points where glibc's zero differs from IEEE's"
    );
}

/// With `y = -2^-1022`, a positive `x` whose remainder is `-0` exists (IEEE would say
/// none does); each core finds one and the evaluator (glibc) confirms it.
#[test]
fn a_negative_zero_remainder_of_a_positive_x() {
    let x = var("x", 64);
    let y = Expr::constant(0x8010_0000_0000_0000, 64);
    let node = Expr::fp_arith(FpArith::IeeeRem, x.clone(), y).unwrap();
    let cs = [
        Expr::fcmp(FpPred::Ogt, x.clone(), Expr::constant(0, 64)).unwrap(),
        Expr::eq(Expr::constant(0x8000_0000_0000_0000, 64), node),
    ];
    for core in cores().iter_mut() {
        let start = std::time::Instant::now();
        let SatResult::Sat(m) = check(core.as_mut(), &cs) else {
            panic!("{} says unsat", core.name());
        };
        assert!(m.satisfies(&cs), "{}'s model", core.name());
        eprintln!("{}: {:?}", core.name(), start.elapsed());
    }
}
