//! Constant folding of every operator, shared by the builder and the evaluator.

use crate::bits::{self, mask, to_signed, trunc};
use crate::expr::{BinOp, CmpOp};

/// Applies a binary operator to two `width`-bit constants.
#[inline]
pub fn fold_binary(op: BinOp, width: u32, a: u128, b: u128) -> u128 {
    match op {
        BinOp::Add => trunc(a.wrapping_add(b), width),
        BinOp::Sub => trunc(a.wrapping_sub(b), width),
        BinOp::Mul => trunc(a.wrapping_mul(b), width),
        BinOp::UDiv => bits::udiv(a, b, width),
        BinOp::SDiv => bits::sdiv(a, b, width),
        BinOp::URem => bits::urem(a, b),
        BinOp::SRem => bits::srem(a, b, width),
        BinOp::And => a & b,
        BinOp::Or => a | b,
        BinOp::Xor => a ^ b,
        BinOp::Shl => bits::shl(a, b, width),
        BinOp::LShr => bits::lshr(a, b, width),
        BinOp::AShr => bits::ashr(a, b, width),
    }
}

/// Applies a comparison to two `width`-bit constants.
#[inline]
pub fn fold_cmp(op: CmpOp, width: u32, a: u128, b: u128) -> bool {
    match op {
        CmpOp::Eq => a == b,
        CmpOp::Ult => a < b,
        CmpOp::Ule => a <= b,
        CmpOp::Slt => to_signed(a, width) < to_signed(b, width),
        CmpOp::Sle => to_signed(a, width) <= to_signed(b, width),
    }
}

/// Bits `offset .. offset + width` of a constant.
#[inline]
pub fn fold_extract(value: u128, offset: u32, width: u32) -> u128 {
    trunc(value >> offset, width)
}

/// The concatenation of two constants (`hi` above `lo`).
#[inline]
pub fn fold_concat(hi: u128, lo: u128, lo_width: u32) -> u128 {
    if lo_width >= 128 {
        lo
    } else {
        (hi << lo_width) | lo
    }
}

/// Bitwise negation at `width` bits.
#[inline]
pub fn fold_not(value: u128, width: u32) -> u128 {
    !value & mask(width)
}
