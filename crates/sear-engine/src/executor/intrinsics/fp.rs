//! Floating-point intrinsics on concrete values: `llvm.is.fpclass` and the math functions
//! (`fabs`, rounding, `sqrt`, `copysign`, min/max, `pow`) computed on host floats.

use super::FloatFn;
use crate::executor::ops::{self, decode_float, encode_float, HostFloat};
use crate::value::Value;
use sear_expr::fp::{FpOp, RoundMode};
use sear_ir::FloatKind;

/// `llvm.is.fpclass`: whether the class of the float `v` (`float`, `double` or `x86_fp80`,
/// by width) is in `mask`: bit 0 signaling NaN, 1 quiet NaN, 2 -inf, 3 -normal,
/// 4 -subnormal, 5 -0, 6 +0, 7 +subnormal, 8 +normal, 9 +inf.
pub(super) fn fp_class_test(v: &Value, mask: u32) -> Result<Value, ops::Unsupported> {
    let bits = v.as_concrete().unwrap_or(0);
    // (sign, exponent all ones, exponent zero, fraction is zero, quiet bit)
    let (negative, max_exp, zero_exp, zero_frac, quiet) = match v.width() {
        32 => {
            let (e, f) = ((bits >> 23) & 0xFF, bits & 0x7F_FFFF);
            (
                bits >> 31 & 1 == 1,
                e == 0xFF,
                e == 0,
                f == 0,
                f >> 22 & 1 == 1,
            )
        }
        64 => {
            let (e, f) = ((bits >> 52) & 0x7FF, bits & 0xF_FFFF_FFFF_FFFF);
            (
                bits >> 63 & 1 == 1,
                e == 0x7FF,
                e == 0,
                f == 0,
                f >> 51 & 1 == 1,
            )
        }
        80 => {
            // The integer bit (63) is explicit; the fraction is bits 0..63.
            let (e, f) = ((bits >> 64) & 0x7FFF, bits & 0x7FFF_FFFF_FFFF_FFFF);
            let zero_exp = e == 0 && bits & (1 << 63) == 0;
            (
                bits >> 79 & 1 == 1,
                e == 0x7FFF,
                zero_exp,
                f == 0,
                f >> 62 & 1 == 1,
            )
        }
        w => {
            return Err(ops::Unsupported(format!(
                "llvm.is.fpclass on a {w}-bit value"
            )))
        }
    };
    let class = match (max_exp, zero_exp, zero_frac) {
        (true, _, false) if quiet => 1,
        (true, _, false) => 0,
        (true, _, true) => 2,
        (false, true, true) => 5,
        (false, true, false) => 4,
        (false, false, _) => 3,
    };
    // Negative classes are 2..=5; the positive ones mirror them: 9..=6.
    let bit = if class < 2 || negative {
        class
    } else {
        11 - class
    };
    Ok(Value::bool(mask >> bit & 1 == 1))
}

/// The math intrinsic `f` on concrete bits of `kind`; `sqrt`, `rint` and `nearbyint` of
/// `float`/`double` in rounding mode `rm` (sear's evaluator), the rest on host floats.
pub(super) fn float_fn(
    f: FloatFn,
    kind: sear_ir::FloatKind,
    a: u128,
    b: u128,
    rm: RoundMode,
) -> Result<u128, ops::Unsupported> {
    if let Some(bits) = super::super::fpsym::minimum_maximum(f, kind, a, b) {
        return bits;
    }
    let w = ops::float_width(kind);
    if rm != RoundMode::NearestEven && matches!(kind, FloatKind::Single | FloatKind::Double) {
        let op = match f {
            FloatFn::Rint => Some(FpOp::Round(rm)),
            FloatFn::Sqrt => Some(FpOp::Sqrt(rm)),
            _ => None,
        };
        if let Some(op) = op {
            return Ok(sear_expr::fp::fold(op, w, &[(a, w)]));
        }
    }
    let as64 = |h: HostFloat| match h {
        HostFloat::F32(x) => x as f64,
        HostFloat::F64(x) => x,
    };
    let x = as64(decode_float(kind, a)?);
    let y = as64(decode_float(kind, b)?);
    let r = match f {
        FloatFn::Fabs => x.abs(),
        FloatFn::Floor => x.floor(),
        FloatFn::Ceil => x.ceil(),
        FloatFn::Trunc => x.trunc(),
        FloatFn::Round => x.round(),
        FloatFn::Rint | FloatFn::RoundEven => x.round_ties_even(),
        FloatFn::Sqrt => x.sqrt(),
        FloatFn::CopySign => x.copysign(y),
        FloatFn::MinNum => x.min(y),
        FloatFn::MaxNum => x.max(y),
        FloatFn::Pow => x.powf(y),
        FloatFn::Minimum | FloatFn::Maximum => unreachable!("minimum_maximum answered"),
    };
    encode_float(kind, r)
}
