//! Z3's terms for the floating-point encoding of [`crate::fpenc`]: `fp.to_ieee_bv` gives the
//! bits of a result; conversions from bit-vectors go through `z3-sys` (the `z3` crate has no
//! wrapper for them).

use sear_expr::fp::{FpArith, RoundMode};
use sear_expr::fpsem::FpFormat;
use z3::ast::{Ast, Bool, Float, RoundingMode, BV};
use z3::{Context, Sort};
use z3_sys as zs;

use crate::fpenc::{FpRel, FpTerms};

/// The Z3 side of the encoding (Z3's thread-local context).
pub(crate) struct Z3Fp;

fn sort(fmt: FpFormat) -> Sort {
    match fmt {
        FpFormat::Single => Sort::float32(),
        FpFormat::Double => Sort::double(),
    }
}

fn rm(mode: RoundMode) -> RoundingMode {
    match mode {
        RoundMode::NearestEven => RoundingMode::round_nearest_ties_to_even(),
        RoundMode::NearestAway => RoundingMode::round_nearest_ties_to_away(),
        RoundMode::Up => RoundingMode::round_towards_positive(),
        RoundMode::Down => RoundingMode::round_towards_negative(),
        RoundMode::Zero => RoundingMode::round_towards_zero(),
    }
}

/// A float made by a `Z3_mk_fpa_*` function of the thread-local context.
fn wrap_float(make: impl FnOnce(zs::Z3_context) -> Option<zs::Z3_ast>) -> Float {
    let ctx = Context::thread_local();
    let ast = make(ctx.get_z3_context()).expect("Z3 made the float term");
    // SAFETY: `ast` is a term Z3 just made in this context.
    unsafe { Float::wrap(&ctx, ast) }
}

impl FpTerms for Z3Fp {
    type B = Bool;
    type V = BV;
    type F = Float;

    fn bv_const(&mut self, width: u32, value: u128) -> BV {
        super::translate::constant_bv(value, width)
    }
    fn bv_and(&mut self, a: &BV, b: &BV) -> BV {
        a.bvand(b)
    }
    fn bv_or(&mut self, a: &BV, b: &BV) -> BV {
        a.bvor(b)
    }
    fn bv_eq(&mut self, a: &BV, b: &BV) -> Bool {
        a.eq(b)
    }
    fn bv_ult(&mut self, a: &BV, b: &BV) -> Bool {
        a.bvult(b)
    }
    fn bv_ite(&mut self, c: &Bool, t: &BV, e: &BV) -> BV {
        c.ite(t, e)
    }
    fn extract(&mut self, a: &BV, hi: u32, lo: u32) -> BV {
        a.extract(hi, lo)
    }
    fn concat(&mut self, hi: &BV, lo: &BV) -> BV {
        hi.concat(lo)
    }
    fn not(&mut self, a: &Bool) -> Bool {
        a.not()
    }
    fn and(&mut self, a: &Bool, b: &Bool) -> Bool {
        Bool::and(&[a, b])
    }
    fn or(&mut self, a: &Bool, b: &Bool) -> Bool {
        Bool::or(&[a, b])
    }
    fn fp_from_bits(&mut self, fmt: FpFormat, bits: &BV) -> Float {
        let s = sort(fmt);
        wrap_float(|ctx| unsafe {
            // SAFETY: a bit-vector of the sort's width and a float sort of this context.
            zs::Z3_mk_fpa_to_fp_bv(ctx, bits.get_z3_ast(), s.get_z3_sort())
        })
    }
    fn fp_bits(&mut self, _fmt: FpFormat, f: &Float) -> BV {
        f.to_ieee_bv()
    }
    fn fp_arith(&mut self, op: FpArith, m: RoundMode, a: &Float, b: &Float) -> Float {
        match op {
            FpArith::Add => a.add_with_rounding_mode(b, &rm(m)),
            FpArith::Sub => a.sub_with_rounding_mode(b, &rm(m)),
            FpArith::Mul => a.mul_with_rounding_mode(b, &rm(m)),
            FpArith::Div => a.div_with_rounding_mode(b, &rm(m)),
            FpArith::Rem | FpArith::IeeeRem => a.rem(b),
        }
    }
    fn fp_sqrt(&mut self, m: RoundMode, a: &Float) -> Float {
        a.sqrt_with_rounding_mode(&rm(m))
    }
    fn fp_fma(&mut self, m: RoundMode, a: &Float, b: &Float, c: &Float) -> Float {
        a.fma_with_rounding_mode(b, c, &rm(m))
    }
    fn fp_round(&mut self, mode: RoundMode, a: &Float) -> Float {
        a.round_to_integral_with_rounding_mode(&rm(mode))
    }
    fn fp_is_nan(&mut self, a: &Float) -> Bool {
        a.is_nan()
    }
    fn fp_rel(&mut self, rel: FpRel, a: &Float, b: &Float) -> Bool {
        match rel {
            FpRel::Lt => a.lt(b),
            FpRel::Leq => a.le(b),
            FpRel::Eq => a.eq_fpa(b),
        }
    }
    fn fp_to_sbv(&mut self, a: &Float, width: u32) -> BV {
        a.to_sbv_with_rounding_mode(&rm(RoundMode::Zero), width)
    }
    fn fp_from_int(&mut self, fmt: FpFormat, signed: bool, m: RoundMode, v: &BV) -> Float {
        let (s, r) = (sort(fmt), rm(m));
        wrap_float(|ctx| unsafe {
            // SAFETY: a rounding mode, a bit-vector and a float sort of this context.
            if signed {
                zs::Z3_mk_fpa_to_fp_signed(ctx, r.get_z3_ast(), v.get_z3_ast(), s.get_z3_sort())
            } else {
                zs::Z3_mk_fpa_to_fp_unsigned(ctx, r.get_z3_ast(), v.get_z3_ast(), s.get_z3_sort())
            }
        })
    }
    fn fp_convert(&mut self, to: FpFormat, m: RoundMode, a: &Float) -> Float {
        a.to_fp_with_rounding_mode(&rm(m), &sort(to))
    }
}
