//! Exact arithmetic for the float formats the host has no type for: x87 80-bit extended
//! (`long double` on x86-64), half and quad precision, through `rustc_apfloat` (the Rust port
//! of LLVM's APFloat, as Miri uses). `float` and `double` stay on host arithmetic, which is
//! IEEE-exact already.

use std::cmp::Ordering;

use rustc_apfloat::ieee::{Double, Half, Quad, Single, X87DoubleExtended};
use rustc_apfloat::{Float, FloatConvert, Round};
use sear_expr::fp::RoundMode;
use sear_ir::{BinaryOp, FloatKind};

use super::ops::Unsupported;

/// Whether `kind` is computed here rather than on host floats.
pub fn is_soft(kind: FloatKind) -> bool {
    matches!(
        kind,
        FloatKind::X86Fp80 | FloatKind::Half | FloatKind::Fp128
    )
}

fn binary_in<F: Float>(op: BinaryOp, a: u128, b: u128, r: Round) -> Result<u128, Unsupported> {
    let (x, y) = (F::from_bits(a), F::from_bits(b));
    let r = match op {
        BinaryOp::FAdd => x.add_r(y, r).value,
        BinaryOp::FSub => x.sub_r(y, r).value,
        BinaryOp::FMul => x.mul_r(y, r).value,
        BinaryOp::FDiv => x.div_r(y, r).value,
        // LLVM's frem is C's fmod.
        BinaryOp::FRem => x.c_fmod(y).value,
        _ => return Err(Unsupported(format!("{op:?} on floats"))),
    };
    Ok(r.to_bits())
}

/// `a op b` on floats of `kind`, rounded to nearest even, except `x86_fp80` (x87
/// arithmetic, whose control word `fesetround` sets too) in mode `rm`.
pub fn binary(
    op: BinaryOp,
    kind: FloatKind,
    a: u128,
    b: u128,
    rm: RoundMode,
) -> Result<u128, Unsupported> {
    let ne = Round::NearestTiesToEven;
    match kind {
        FloatKind::Half => binary_in::<Half>(op, a, b, ne),
        FloatKind::Single => binary_in::<Single>(op, a, b, ne),
        FloatKind::Double => binary_in::<Double>(op, a, b, ne),
        FloatKind::X86Fp80 => binary_in::<X87DoubleExtended>(op, a, b, round(rm)),
        FloatKind::Fp128 => binary_in::<Quad>(op, a, b, ne),
    }
}

/// `rustc_apfloat`'s name of a rounding mode.
fn round(rm: RoundMode) -> Round {
    match rm {
        RoundMode::NearestEven => Round::NearestTiesToEven,
        RoundMode::NearestAway => Round::NearestTiesToAway,
        RoundMode::Up => Round::TowardPositive,
        RoundMode::Down => Round::TowardNegative,
        RoundMode::Zero => Round::TowardZero,
    }
}

fn ieee_rem_in<F: Float>(a: u128, b: u128) -> u128 {
    F::from_bits(a).ieee_rem(F::from_bits(b)).value.to_bits()
}

/// The IEEE remainder of two floats of `kind` (`remainderl` of `long double`), exact.
pub fn ieee_rem(kind: FloatKind, a: u128, b: u128) -> u128 {
    match kind {
        FloatKind::Half => ieee_rem_in::<Half>(a, b),
        FloatKind::Single => ieee_rem_in::<Single>(a, b),
        FloatKind::Double => ieee_rem_in::<Double>(a, b),
        FloatKind::X86Fp80 => ieee_rem_in::<X87DoubleExtended>(a, b),
        FloatKind::Fp128 => ieee_rem_in::<Quad>(a, b),
    }
}

/// The order of two floats of `kind` (`None`: unordered, a NaN).
pub fn compare(kind: FloatKind, a: u128, b: u128) -> Option<Ordering> {
    let (x, y) = (to_quad(kind, a), to_quad(kind, b));
    x.partial_cmp(&y)
}

fn widen<F: Float + FloatConvert<Quad>>(bits: u128) -> Quad {
    F::from_bits(bits).convert(&mut false).value
}

/// The value of a float of `kind` in quad precision, which holds every value of the other
/// formats exactly.
fn to_quad(kind: FloatKind, bits: u128) -> Quad {
    match kind {
        FloatKind::Half => widen::<Half>(bits),
        FloatKind::Single => widen::<Single>(bits),
        FloatKind::Double => widen::<Double>(bits),
        FloatKind::X86Fp80 => widen::<X87DoubleExtended>(bits),
        FloatKind::Fp128 => Quad::from_bits(bits),
    }
}

fn narrow<F: Float>(q: Quad) -> u128
where
    Quad: FloatConvert<F>,
{
    let converted: F = q.convert_r(Round::NearestTiesToEven, &mut false).value;
    converted.to_bits()
}

/// A quad-precision value rounded to `kind`.
fn from_quad(kind: FloatKind, q: Quad) -> u128 {
    match kind {
        FloatKind::Half => narrow::<Half>(q),
        FloatKind::Single => narrow::<Single>(q),
        FloatKind::Double => narrow::<Double>(q),
        FloatKind::X86Fp80 => narrow::<X87DoubleExtended>(q),
        FloatKind::Fp128 => q.to_bits(),
    }
}

/// `fpext`/`fptrunc` between any two formats (rounded once, to nearest even).
pub fn convert(from: FloatKind, to: FloatKind, bits: u128) -> u128 {
    from_quad(to, to_quad(from, bits))
}

/// `fptosi`/`fptoui` to `width` bits (rounded toward zero; out-of-range values saturate).
pub fn to_int(kind: FloatKind, bits: u128, width: u32, signed: bool) -> u128 {
    let q = to_quad(kind, bits);
    let width = width as usize;
    if signed {
        q.to_i128_r(width, Round::TowardZero, &mut false).value as u128
    } else {
        q.to_u128_r(width, Round::TowardZero, &mut false).value
    }
}

/// `sitofp`/`uitofp` of an integer (given as 128 bits, sign-extended when `signed`) to
/// `kind`, rounded once to nearest even.
pub fn from_int(kind: FloatKind, value: u128, signed: bool) -> u128 {
    match kind {
        FloatKind::Half => int_to::<Half>(value, signed),
        FloatKind::Single => int_to::<Single>(value, signed),
        FloatKind::Double => int_to::<Double>(value, signed),
        FloatKind::X86Fp80 => int_to::<X87DoubleExtended>(value, signed),
        FloatKind::Fp128 => int_to::<Quad>(value, signed),
    }
}

fn int_to<F: Float>(value: u128, signed: bool) -> u128 {
    let f = if signed {
        F::from_i128(value as i128).value
    } else {
        F::from_u128(value).value
    };
    f.to_bits()
}

#[cfg(test)]
mod tests {
    use super::*;

    const ONE: u128 = (16383u128 << 64) | (1u128 << 63);

    #[test]
    fn long_double_keeps_64_bits_of_precision() {
        // 1 + 2^-63 is exact in x87 extended but not in double.
        let tiny = ((16383u128 - 63) << 64) | (1u128 << 63);
        let sum = binary(
            BinaryOp::FAdd,
            FloatKind::X86Fp80,
            ONE,
            tiny,
            RoundMode::NearestEven,
        )
        .unwrap();
        assert_ne!(sum, ONE);
        assert_eq!(
            compare(FloatKind::X86Fp80, sum, ONE),
            Some(Ordering::Greater)
        );
        // Through double it rounds back to 1.
        let d = convert(FloatKind::X86Fp80, FloatKind::Double, sum);
        assert_eq!(d, 1.0f64.to_bits() as u128);
    }

    #[test]
    fn long_double_rounds_in_the_mode() {
        // 1 + 2^-64 is halfway between 1 and 1 + 2^-63: nearest (even) gives 1, upward the
        // next value, downward and toward zero 1.
        let half = ((16383u128 - 64) << 64) | (1u128 << 63);
        let add = |m| binary(BinaryOp::FAdd, FloatKind::X86Fp80, ONE, half, m).unwrap();
        assert_eq!(add(RoundMode::NearestEven), ONE);
        assert_eq!(add(RoundMode::Up), ONE + 1);
        assert_eq!(add(RoundMode::Down), ONE);
        assert_eq!(add(RoundMode::Zero), ONE);
    }

    #[test]
    fn conversions_between_formats_and_integers() {
        let x = convert(
            FloatKind::Double,
            FloatKind::X86Fp80,
            2.5f64.to_bits() as u128,
        );
        assert_eq!(to_int(FloatKind::X86Fp80, x, 32, true), 2);
        let m = from_int(FloatKind::X86Fp80, (-7i128) as u128, true);
        assert_eq!(to_int(FloatKind::X86Fp80, m, 64, true) as i128, -7);
        assert_eq!(compare(FloatKind::X86Fp80, m, x), Some(Ordering::Less));
        let nan = (0x7fffu128 << 64) | (0xc000_0000_0000_0000u128);
        assert_eq!(compare(FloatKind::X86Fp80, nan, x), None);
    }
}
