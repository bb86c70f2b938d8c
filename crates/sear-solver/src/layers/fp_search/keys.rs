//! Floats as ordered integers: the key of a non-NaN float is its magnitude bits, negated
//! for a negative sign, so that `a < b` (IEEE) is `key(a) < key(b)`, `-0` and `+0` share
//! the key 0, and neighbouring keys are neighbouring floats (one ulp apart). The search
//! moves inputs and measures distances in keys.

use sear_expr::fp::FpPred;
use sear_expr::fpsem::FpFormat;

/// The sign bit of the format.
fn sign(format: FpFormat) -> u64 {
    1u64 << (format.width() - 1)
}

/// The key of infinity (the largest non-NaN key).
pub(super) fn inf_key(format: FpFormat) -> i64 {
    match format {
        FpFormat::Single => 0x7F80_0000,
        FpFormat::Double => 0x7FF0_0000_0000_0000,
    }
}

/// The key of `bits` (of a NaN too: beyond infinity's).
pub(super) fn key(format: FpFormat, bits: u64) -> i64 {
    let magnitude = (bits & !sign(format)) as i64;
    if bits & sign(format) != 0 {
        -magnitude
    } else {
        magnitude
    }
}

/// The float of key `k`, clamped to `±inf` (0 is `+0`).
pub(super) fn from_key(format: FpFormat, k: i64) -> u64 {
    let k = k.clamp(-inf_key(format), inf_key(format));
    if k < 0 {
        k.unsigned_abs() | sign(format)
    } else {
        k as u64
    }
}

/// The value of `bits` as an `f64`.
pub(super) fn value(format: FpFormat, bits: u64) -> f64 {
    match format {
        FpFormat::Single => f32::from_bits(bits as u32) as f64,
        FpFormat::Double => f64::from_bits(bits),
    }
}

/// `v` rounded to the format, as bits.
pub(super) fn bits_of(format: FpFormat, v: f64) -> u64 {
    match format {
        FpFormat::Single => (v as f32).to_bits() as u64,
        FpFormat::Double => v.to_bits(),
    }
}

/// The predicate true exactly where `pred` is false (`!(a < b)` is `a ≥ b` or unordered).
pub(super) fn negate(pred: FpPred) -> FpPred {
    use FpPred::*;
    match pred {
        False => True,
        True => False,
        Oeq => Une,
        Une => Oeq,
        Ogt => Ule,
        Ule => Ogt,
        Oge => Ult,
        Ult => Oge,
        Olt => Uge,
        Uge => Olt,
        Ole => Ugt,
        Ugt => Ole,
        One => Ueq,
        Ueq => One,
        Ord => Uno,
        Uno => Ord,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_order_floats_as_ieee_does() {
        let values = [
            f64::NEG_INFINITY,
            -1e300,
            -1.5,
            -f64::MIN_POSITIVE,
            -0.0,
            5e-324,
            0.1,
            1.0,
            f64::INFINITY,
        ];
        for w in values.windows(2) {
            let (a, b) = (w[0].to_bits(), w[1].to_bits());
            assert!(
                key(FpFormat::Double, a) <= key(FpFormat::Double, b),
                "{w:?}"
            );
        }
        assert_eq!(key(FpFormat::Double, (-0.0f64).to_bits()), 0);
        for v in [-3.25f32, 0.0, 1e-40, 7.0, f32::INFINITY] {
            let bits = v.to_bits() as u64;
            assert_eq!(
                from_key(FpFormat::Single, key(FpFormat::Single, bits)),
                bits
            );
        }
        let one = key(FpFormat::Single, 1.0f32.to_bits() as u64);
        let next = f32::from_bits(from_key(FpFormat::Single, one + 1) as u32);
        assert_eq!(next, 1.0 + f32::EPSILON);
    }
}
