//! Fixed-width modular arithmetic on `u128` words.
//!
//! Every constant in sear is a `u128` holding the value's bits, masked to its width
//! (1..=128). These helpers implement the SMT-LIB `QF_BV` semantics of each operator,
//! including division by zero (`bvudiv x 0 = all ones`, `bvurem x 0 = x`) and oversized
//! shifts (the result is zero, or the sign fill for `bvashr`).

/// Widest bit-vector the expression library represents.
pub const MAX_WIDTH: u32 = 128;

/// The mask with the low `width` bits set.
#[inline]
pub fn mask(width: u32) -> u128 {
    debug_assert!((1..=MAX_WIDTH).contains(&width));
    if width >= 128 {
        u128::MAX
    } else {
        (1u128 << width) - 1
    }
}

/// Truncates `value` to `width` bits.
#[inline]
pub fn trunc(value: u128, width: u32) -> u128 {
    value & mask(width)
}

/// The sign bit of a `width`-bit value.
#[inline]
pub fn sign_bit(value: u128, width: u32) -> bool {
    (value >> (width - 1)) & 1 == 1
}

/// Interprets a `width`-bit value as a two's-complement signed number.
#[inline]
pub fn to_signed(value: u128, width: u32) -> i128 {
    if width >= 128 {
        return value as i128;
    }
    if sign_bit(value, width) {
        (value | !mask(width)) as i128
    } else {
        value as i128
    }
}

/// Sign-extends a `from`-bit value to `to` bits.
#[inline]
pub fn sext(value: u128, from: u32, to: u32) -> u128 {
    trunc(to_signed(value, from) as u128, to)
}

/// The smallest signed `width`-bit value, as bits.
#[inline]
pub fn signed_min(width: u32) -> u128 {
    1u128 << (width - 1)
}

/// Two's-complement negation at `width` bits.
#[inline]
pub fn neg(value: u128, width: u32) -> u128 {
    trunc(value.wrapping_neg(), width)
}

/// Unsigned division with SMT-LIB semantics (`x / 0 = all ones`).
#[inline]
pub fn udiv(a: u128, b: u128, width: u32) -> u128 {
    a.checked_div(b).unwrap_or(mask(width))
}

/// Unsigned remainder with SMT-LIB semantics (`x % 0 = x`).
#[inline]
pub fn urem(a: u128, b: u128) -> u128 {
    if b == 0 {
        a
    } else {
        a % b
    }
}

/// Signed division (`bvsdiv`), truncating toward zero, defined through `udiv` as SMT-LIB does.
#[inline]
pub fn sdiv(a: u128, b: u128, width: u32) -> u128 {
    let (na, nb) = (sign_bit(a, width), sign_bit(b, width));
    let ua = if na { neg(a, width) } else { a };
    let ub = if nb { neg(b, width) } else { b };
    let q = udiv(ua, ub, width);
    if na != nb {
        neg(q, width)
    } else {
        q
    }
}

/// Signed remainder (`bvsrem`): the sign follows the dividend.
#[inline]
pub fn srem(a: u128, b: u128, width: u32) -> u128 {
    let (na, nb) = (sign_bit(a, width), sign_bit(b, width));
    let ua = if na { neg(a, width) } else { a };
    let ub = if nb { neg(b, width) } else { b };
    let r = urem(ua, ub);
    if na {
        neg(r, width)
    } else {
        r
    }
}

/// Left shift; shifting by `width` or more gives zero.
#[inline]
pub fn shl(a: u128, b: u128, width: u32) -> u128 {
    if b >= width as u128 {
        0
    } else {
        trunc(a << b, width)
    }
}

/// Logical right shift; shifting by `width` or more gives zero.
#[inline]
pub fn lshr(a: u128, b: u128, width: u32) -> u128 {
    if b >= width as u128 {
        0
    } else {
        a >> b
    }
}

/// Arithmetic right shift; shifting by `width` or more gives the sign fill.
#[inline]
pub fn ashr(a: u128, b: u128, width: u32) -> u128 {
    let s = to_signed(a, width);
    let amount = if b >= width as u128 { 127 } else { b as u32 };
    trunc((s >> amount.min(127)) as u128, width)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signed_division_matches_smtlib() {
        // -7 / 2 = -3, -7 % 2 = -1 at 8 bits.
        assert_eq!(sdiv(0xf9, 2, 8), 0xfd);
        assert_eq!(srem(0xf9, 2, 8), 0xff);
        // 7 % -2 = 1.
        assert_eq!(srem(7, 0xfe, 8), 1);
        // Division by zero.
        assert_eq!(udiv(5, 0, 8), 0xff);
        assert_eq!(urem(5, 0), 5);
        assert_eq!(sdiv(5, 0, 8), 0xff);
        assert_eq!(sdiv(0xfb, 0, 8), 1);
        assert_eq!(srem(0xfb, 0, 8), 0xfb);
    }

    #[test]
    fn shifts_saturate() {
        assert_eq!(shl(1, 8, 8), 0);
        assert_eq!(lshr(0x80, 9, 8), 0);
        assert_eq!(ashr(0x80, 100, 8), 0xff);
        assert_eq!(ashr(0x40, 100, 8), 0);
        assert_eq!(ashr(u128::MAX, 127, 128), u128::MAX);
        assert_eq!(sext(0x80, 8, 16), 0xff80);
    }
}
