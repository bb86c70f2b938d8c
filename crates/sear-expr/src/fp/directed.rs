//! The operations that round, in each of the five rounding modes ([`RoundMode`]). To
//! nearest even they are [`crate::fpsem`]'s and [`super::sem`]'s (host arithmetic, which
//! is that mode); in the other modes the value of a non-NaN result is the correctly rounded
//! one, computed by `rustc_apfloat` (LLVM's `APFloat`), or for `sqrt` from the
//! nearest-even root and the exact sign of its error. NaN results are chosen as in every
//! mode, by the SSE rules of [`crate::fpsem`]: x86-64 (MXCSR's rounding control) rounds
//! each of these instructions in the current mode and picks NaNs the same way in all.

use rustc_apfloat::ieee::{Double, Quad, Single};
use rustc_apfloat::{Float, FloatConvert, Round};

use super::sem::{self, RoundMode};
use crate::fpsem::{self, sse_nan, FpBinOp, FpFormat};

fn ap(m: RoundMode) -> Round {
    match m {
        RoundMode::NearestEven => Round::NearestTiesToEven,
        RoundMode::NearestAway => Round::NearestTiesToAway,
        RoundMode::Up => Round::TowardPositive,
        RoundMode::Down => Round::TowardNegative,
        RoundMode::Zero => Round::TowardZero,
    }
}

fn ap_binary<F: Float>(op: FpBinOp, r: Round, a: u64, b: u64) -> u64 {
    let (x, y) = (F::from_bits(a as u128), F::from_bits(b as u128));
    let v = match op {
        FpBinOp::Add => x.add_r(y, r),
        FpBinOp::Sub => x.sub_r(y, r),
        FpBinOp::Mul => x.mul_r(y, r),
        FpBinOp::Div => x.div_r(y, r),
    };
    v.value.to_bits() as u64
}

/// `a op b` in `fmt` rounded in mode `m`, as SSE computes it under that rounding control.
pub fn binary(op: FpBinOp, fmt: FpFormat, m: RoundMode, a: u64, b: u64) -> u64 {
    if m == RoundMode::NearestEven {
        return fpsem::binary(op, fmt, a, b);
    }
    let r = match fmt {
        FpFormat::Single => ap_binary::<Single>(op, ap(m), a, b),
        FpFormat::Double => ap_binary::<Double>(op, ap(m), a, b),
    };
    if fmt.is_nan(r) {
        sse_nan(fmt, a, Some(b))
    } else {
        r
    }
}

fn to_quad(fmt: FpFormat, a: u64) -> Quad {
    let mut lost = false;
    match fmt {
        FpFormat::Single => {
            Single::from_bits(a as u128)
                .convert_r(Round::NearestTiesToEven, &mut lost)
                .value
        }
        FpFormat::Double => {
            Double::from_bits(a as u128)
                .convert_r(Round::NearestTiesToEven, &mut lost)
                .value
        }
    }
}

/// The square root of `a` in `fmt` rounded in mode `m` (`sqrtss`/`sqrtsd`). Away from
/// nearest: the nearest-even root `r` is exact or one ulp off; whether `r² < a`, `= a` or
/// `> a` decides (`r²` is exact in binary128: 2·53 < 113 bits). No square root of a float
/// is halfway between two floats, so `NearestAway` is `NearestEven`.
pub fn sqrt(fmt: FpFormat, m: RoundMode, a: u64) -> u64 {
    let r = fpsem::sqrt(fmt, a);
    let finite_positive = |x: u64| {
        let mag = x & ((1u64 << (fmt.width() - 1)) - 1);
        x >> (fmt.width() - 1) == 0 && mag != 0 && !fmt.is_nan(x) && mag != inf_bits(fmt)
    };
    if matches!(m, RoundMode::NearestEven | RoundMode::NearestAway) || !finite_positive(a) {
        return r;
    }
    let q = to_quad(fmt, r);
    let square = q.mul_r(q, Round::NearestTiesToEven).value;
    match (square.partial_cmp(&to_quad(fmt, a)), m) {
        (Some(std::cmp::Ordering::Less), RoundMode::Up) => r + 1,
        (Some(std::cmp::Ordering::Greater), RoundMode::Down | RoundMode::Zero) => r - 1,
        _ => r,
    }
}

fn inf_bits(fmt: FpFormat) -> u64 {
    match fmt {
        FpFormat::Single => 0x7F80_0000,
        FpFormat::Double => 0x7FF0_0000_0000_0000,
    }
}

fn ap_fma<F: Float>(r: Round, a: u64, b: u64, c: u64) -> u64 {
    let f = |x: u64| F::from_bits(x as u128);
    f(a).mul_add_r(f(b), f(c), r).value.to_bits() as u64
}

/// `a * b + c` with one rounding in mode `m` (glibc's `fma` honours the mode); NaNs as
/// [`sem::fma`].
pub fn fma(fmt: FpFormat, m: RoundMode, a: u64, b: u64, c: u64) -> u64 {
    if m == RoundMode::NearestEven {
        return sem::fma(fmt, a, b, c);
    }
    if let Some(n) = sem::fma_nan(fmt, a, b, c) {
        return n;
    }
    let r = match fmt {
        FpFormat::Single => ap_fma::<Single>(ap(m), a, b, c),
        FpFormat::Double => ap_fma::<Double>(ap(m), a, b, c),
    };
    if fmt.is_nan(r) {
        fmt.default_nan()
    } else {
        r
    }
}

/// `fptrunc` of a binary64 to binary32 rounded in mode `m` (`cvtsd2ss`); NaNs as
/// [`sem::trunc`].
pub fn trunc(m: RoundMode, a: u64) -> u32 {
    if m == RoundMode::NearestEven || FpFormat::Double.is_nan(a) {
        return sem::trunc(a);
    }
    let mut lost = false;
    let r: Single = Double::from_bits(a as u128)
        .convert_r(ap(m), &mut lost)
        .value;
    r.to_bits() as u32
}

/// `sitofp` (`signed`) or `uitofp` of the `width`-bit integer `v` (1..=64 bits, the low
/// bits of `v`) to `fmt`, rounded in mode `m` (`cvtsi2ss`/`cvtsi2sd` of the value, which
/// is exact in 64 bits). `None` for other widths.
pub fn from_int(fmt: FpFormat, m: RoundMode, v: u64, width: u32, signed: bool) -> Option<u64> {
    if m == RoundMode::NearestEven || width == 0 || width > 64 {
        return fpsem::from_int(fmt, v, width, signed);
    }
    let v = if width == 64 {
        v
    } else {
        v & ((1u64 << width) - 1)
    };
    let value = if signed && (v >> (width - 1)) & 1 == 1 {
        v as i128 - (1i128 << width)
    } else {
        v as i128
    };
    let r = ap(m);
    Some(match fmt {
        FpFormat::Single => Single::from_i128_r(value, r).value.to_bits() as u64,
        FpFormat::Double => Double::from_i128_r(value, r).value.to_bits() as u64,
    })
}
