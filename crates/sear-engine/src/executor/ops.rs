//! Pure operations on values: integer and floating-point arithmetic, comparisons, casts.
//!
//! Concrete operands take a fast path on `u128` words; symbolic operands build expressions
//! through sear-expr's simplifying constructors. Vectors apply operations element-wise.
//! Floating-point operations are concrete only: the caller concretises symbolic operands
//! first.

use std::rc::Rc;

use super::softfloat;
use sear_expr::bits::{mask, sext, to_signed, trunc};
use sear_expr::fold::{fold_binary, fold_cmp};
use sear_expr::fp::{FpArith, FpOp, RoundMode};
use sear_expr::{BinOp, CmpOp, Expr};
use sear_ir::{BinaryOp, CastOp, FloatKind, FloatPredicate, IntPredicate};

use crate::value::Value;

/// An operation sear cannot perform (reported as an `exec` error).
#[derive(Debug, Clone)]
pub struct Unsupported(pub String);

/// Maps an integer IR operator to an expression operator.
pub fn int_binop(op: BinaryOp) -> Option<BinOp> {
    Some(match op {
        BinaryOp::Add => BinOp::Add,
        BinaryOp::Sub => BinOp::Sub,
        BinaryOp::Mul => BinOp::Mul,
        BinaryOp::UDiv => BinOp::UDiv,
        BinaryOp::SDiv => BinOp::SDiv,
        BinaryOp::URem => BinOp::URem,
        BinaryOp::SRem => BinOp::SRem,
        BinaryOp::Shl => BinOp::Shl,
        BinaryOp::LShr => BinOp::LShr,
        BinaryOp::AShr => BinOp::AShr,
        BinaryOp::And => BinOp::And,
        BinaryOp::Or => BinOp::Or,
        BinaryOp::Xor => BinOp::Xor,
        _ => return None,
    })
}

/// A pointer `delta` bytes past `p` (64-bit arithmetic; a symbolic pointer stays symbolic).
pub fn ptr_add(p: &Value, delta: u64) -> Value {
    int_binary(BinOp::Add, p, &Value::Concrete(delta as u128, 64))
}

/// An integer binary operation on scalars.
#[inline]
pub fn int_binary(op: BinOp, a: &Value, b: &Value) -> Value {
    match (a, b) {
        (Value::Concrete(x, w), Value::Concrete(y, _)) => {
            Value::Concrete(fold_binary(op, *w, *x, *y), *w)
        }
        _ => Value::from_expr(Expr::binary(op, a.to_expr(), b.to_expr())),
    }
}

/// Applies `f` element-wise to two values (scalars or vectors).
pub fn lift2(
    a: &Value,
    b: &Value,
    f: &mut dyn FnMut(&Value, &Value) -> Result<Value, Unsupported>,
) -> Result<Value, Unsupported> {
    match (a, b) {
        (Value::Aggregate(xs), Value::Aggregate(ys)) => {
            let items: Result<Vec<Value>, Unsupported> =
                xs.iter().zip(ys.iter()).map(|(x, y)| f(x, y)).collect();
            Ok(Value::Aggregate(Rc::from(items?)))
        }
        _ => f(a, b),
    }
}

/// Applies `f` element-wise to one value (scalar or vector).
pub fn lift1(
    a: &Value,
    f: &mut dyn FnMut(&Value) -> Result<Value, Unsupported>,
) -> Result<Value, Unsupported> {
    match a {
        Value::Aggregate(xs) => {
            let items: Result<Vec<Value>, Unsupported> = xs.iter().map(&mut *f).collect();
            Ok(Value::Aggregate(Rc::from(items?)))
        }
        _ => f(a),
    }
}

/// The expression comparison for an IR predicate.
pub fn icmp_expr(pred: IntPredicate, a: Expr, b: Expr) -> Expr {
    match pred {
        IntPredicate::Eq => Expr::eq(a, b),
        IntPredicate::Ne => Expr::ne(a, b),
        IntPredicate::Ugt => Expr::ugt(a, b),
        IntPredicate::Uge => Expr::uge(a, b),
        IntPredicate::Ult => Expr::ult(a, b),
        IntPredicate::Ule => Expr::ule(a, b),
        IntPredicate::Sgt => Expr::sgt(a, b),
        IntPredicate::Sge => Expr::sge(a, b),
        IntPredicate::Slt => Expr::slt(a, b),
        IntPredicate::Sle => Expr::sle(a, b),
    }
}

/// An integer comparison on scalars.
#[inline]
pub fn icmp(pred: IntPredicate, a: &Value, b: &Value) -> Value {
    if let (Value::Concrete(x, w), Value::Concrete(y, _)) = (a, b) {
        let (x, y, w) = (*x, *y, *w);
        let r = match pred {
            IntPredicate::Eq => x == y,
            IntPredicate::Ne => x != y,
            IntPredicate::Ugt => x > y,
            IntPredicate::Uge => x >= y,
            IntPredicate::Ult => x < y,
            IntPredicate::Ule => x <= y,
            IntPredicate::Sgt => !fold_cmp(CmpOp::Sle, w, x, y),
            IntPredicate::Sge => !fold_cmp(CmpOp::Slt, w, x, y),
            IntPredicate::Slt => fold_cmp(CmpOp::Slt, w, x, y),
            IntPredicate::Sle => fold_cmp(CmpOp::Sle, w, x, y),
        };
        return Value::bool(r);
    }
    Value::from_expr(icmp_expr(pred, a.to_expr(), b.to_expr()))
}

/// A concrete IEEE value in host form.
#[derive(Clone, Copy, Debug)]
pub enum HostFloat {
    /// `float`.
    F32(f32),
    /// `double` (also used for `long double`, with a precision warning).
    F64(f64),
}

/// Decodes the bits of a float of `kind`.
pub fn decode_float(kind: FloatKind, bits: u128) -> Result<HostFloat, Unsupported> {
    match kind {
        FloatKind::Single => Ok(HostFloat::F32(f32::from_bits(bits as u32))),
        FloatKind::Double => Ok(HostFloat::F64(f64::from_bits(bits as u64))),
        FloatKind::X86Fp80 => Ok(HostFloat::F64(fp80_to_f64(bits))),
        other => Err(Unsupported(format!("floating-point type {other:?}"))),
    }
}

/// Encodes a host float as the bits of `kind`.
pub fn encode_float(kind: FloatKind, value: f64) -> Result<u128, Unsupported> {
    match kind {
        FloatKind::Single => Ok((value as f32).to_bits() as u128),
        FloatKind::Double => Ok(value.to_bits() as u128),
        FloatKind::X86Fp80 => Ok(f64_to_fp80(value)),
        other => Err(Unsupported(format!("floating-point type {other:?}"))),
    }
}

/// The bit width of a float kind.
pub fn float_width(kind: FloatKind) -> u32 {
    match kind {
        FloatKind::Half => 16,
        FloatKind::Single => 32,
        FloatKind::Double => 64,
        FloatKind::X86Fp80 => 80,
        FloatKind::Fp128 => 128,
    }
}

fn as_f64(f: HostFloat) -> f64 {
    match f {
        HostFloat::F32(x) => x as f64,
        HostFloat::F64(x) => x,
    }
}

/// Converts x87 80-bit extended bits to the nearest `f64`.
pub fn fp80_to_f64(bits: u128) -> f64 {
    let mantissa = bits as u64;
    let exponent = ((bits >> 64) & 0x7fff) as i32;
    let negative = (bits >> 79) & 1 == 1;
    let magnitude = if exponent == 0 && mantissa == 0 {
        0.0
    } else if exponent == 0x7fff {
        if mantissa << 1 == 0 {
            f64::INFINITY
        } else {
            f64::NAN
        }
    } else {
        // Scale in steps: 2^(exponent - 16383 - 63) alone underflows for subnormal doubles.
        let mut magnitude = mantissa as f64;
        let mut e = exponent - 16383 - 63;
        while e < -1000 {
            magnitude *= 2f64.powi(-1000);
            e += 1000;
        }
        while e > 1000 {
            magnitude *= 2f64.powi(1000);
            e -= 1000;
        }
        magnitude * 2f64.powi(e)
    };
    if negative {
        -magnitude
    } else {
        magnitude
    }
}

/// Converts an `f64` to x87 80-bit extended bits (exact: f64 values are representable).
pub fn f64_to_fp80(value: f64) -> u128 {
    let sign = (value.is_sign_negative() as u128) << 79;
    if value == 0.0 {
        return sign;
    }
    if value.is_nan() {
        return sign | (0x7fffu128 << 64) | (0xc000_0000_0000_0000u128);
    }
    if value.is_infinite() {
        return sign | (0x7fffu128 << 64) | (0x8000_0000_0000_0000u128);
    }
    let bits = value.abs().to_bits();
    let exp = ((bits >> 52) & 0x7ff) as i32;
    let frac = bits & ((1u64 << 52) - 1);
    let (mant, e) = if exp == 0 {
        // Subnormal: normalise.
        let shift = frac.leading_zeros() - 11;
        (frac << (shift + 11), -1022 - shift as i32)
    } else {
        (((1u64 << 52) | frac) << 11, exp - 1023)
    };
    sign | (((e + 16383) as u128) << 64) | mant as u128
}

/// A floating-point binary operation on concrete scalars of `kind`, rounded in mode `rm`
/// (`float` and `double`; the other formats to nearest).
pub fn float_binary(
    op: BinaryOp,
    kind: FloatKind,
    a: u128,
    b: u128,
    rm: RoundMode,
) -> Result<u128, Unsupported> {
    if softfloat::is_soft(kind) {
        return softfloat::binary(op, kind, a, b, rm);
    }
    if let (Some(w), Some(arith)) = (directed_width(kind, rm), fp_arith_of(op)) {
        let folded = sear_expr::fp::fold(FpOp::Arith(arith, rm), w, &[(a, w), (b, w)]);
        return Ok(folded);
    }
    let (x, y) = (decode_float(kind, a)?, decode_float(kind, b)?);
    if let (HostFloat::F32(x), HostFloat::F32(y)) = (x, y) {
        let r = match op {
            BinaryOp::FAdd => x + y,
            BinaryOp::FSub => x - y,
            BinaryOp::FMul => x * y,
            BinaryOp::FDiv => x / y,
            BinaryOp::FRem => x % y,
            _ => return Err(Unsupported(format!("{op:?} on floats"))),
        };
        return Ok(r.to_bits() as u128);
    }
    let (x, y) = (as_f64(x), as_f64(y));
    let r = match op {
        BinaryOp::FAdd => x + y,
        BinaryOp::FSub => x - y,
        BinaryOp::FMul => x * y,
        BinaryOp::FDiv => x / y,
        BinaryOp::FRem => x % y,
        _ => return Err(Unsupported(format!("{op:?} on floats"))),
    };
    encode_float(kind, r)
}

/// The width of `kind` when an operation on it rounds in a mode other than to nearest
/// even and sear's evaluator computes it (`float`, `double`); `None` otherwise (the host's
/// arithmetic, which rounds to nearest even).
fn directed_width(kind: FloatKind, rm: RoundMode) -> Option<u32> {
    match kind {
        FloatKind::Single | FloatKind::Double if rm != RoundMode::NearestEven => {
            Some(float_width(kind))
        }
        _ => None,
    }
}

/// The rounding arithmetic of a floating-point binary operator (`frem` is exact).
fn fp_arith_of(op: BinaryOp) -> Option<FpArith> {
    Some(match op {
        BinaryOp::FAdd => FpArith::Add,
        BinaryOp::FSub => FpArith::Sub,
        BinaryOp::FMul => FpArith::Mul,
        BinaryOp::FDiv => FpArith::Div,
        _ => return None,
    })
}

/// A floating-point comparison on concrete scalars.
pub fn float_cmp(
    pred: FloatPredicate,
    kind: FloatKind,
    a: u128,
    b: u128,
) -> Result<bool, Unsupported> {
    let order = if softfloat::is_soft(kind) {
        softfloat::compare(kind, a, b)
    } else {
        let (x, y) = (
            as_f64(decode_float(kind, a)?),
            as_f64(decode_float(kind, b)?),
        );
        x.partial_cmp(&y)
    };
    Ok(predicate_holds(pred, order))
}

/// Whether `pred` holds for two floats in the order `order` (`None`: unordered).
fn predicate_holds(pred: FloatPredicate, order: Option<std::cmp::Ordering>) -> bool {
    use std::cmp::Ordering::{Equal, Greater, Less};
    use FloatPredicate::*;
    let unordered = order.is_none();
    let is = |o: std::cmp::Ordering| order == Some(o);
    match pred {
        False => false,
        True => true,
        Ord => !unordered,
        Uno => unordered,
        Oeq => is(Equal),
        Ogt => is(Greater),
        Oge => is(Greater) || is(Equal),
        Olt => is(Less),
        Ole => is(Less) || is(Equal),
        One => is(Less) || is(Greater),
        Ueq => unordered || is(Equal),
        Ugt => unordered || is(Greater),
        Uge => unordered || is(Greater) || is(Equal),
        Ult => unordered || is(Less),
        Ule => unordered || is(Less) || is(Equal),
        Une => unordered || !is(Equal),
    }
}

/// Negates a concrete float.
pub fn float_neg(kind: FloatKind, a: u128) -> Result<u128, Unsupported> {
    let sign_bit = float_width(kind) - 1;
    if matches!(kind, FloatKind::Half | FloatKind::Fp128) {
        return Err(Unsupported(format!("floating-point type {kind:?}")));
    }
    Ok(a ^ (1u128 << sign_bit))
}

/// What a cast needs to know about its source and destination.
#[derive(Clone, Copy, Debug)]
pub enum Scalar {
    /// An integer or pointer of a bit width.
    Int(u32),
    /// A float.
    Float(FloatKind),
}

/// A cast of a scalar, rounded in mode `rm` where it rounds. Float casts require concrete
/// operands.
pub fn cast(
    op: CastOp,
    v: &Value,
    from: Scalar,
    to: Scalar,
    rm: RoundMode,
) -> Result<Value, Unsupported> {
    let to_width = match to {
        Scalar::Int(w) => w,
        Scalar::Float(k) => float_width(k),
    };
    match op {
        CastOp::Trunc | CastOp::ZExt | CastOp::SExt | CastOp::PtrToInt | CastOp::IntToPtr => {
            let signed = op == CastOp::SExt;
            Ok(match v {
                Value::Concrete(x, w) => {
                    let bits = if signed { sext(*x, *w, to_width) } else { *x };
                    Value::concrete(bits, to_width)
                }
                _ => {
                    let e = v.to_expr();
                    Value::from_expr(if signed {
                        Expr::sext_or_trunc(e, to_width)
                    } else {
                        Expr::zext_or_trunc(e, to_width)
                    })
                }
            })
        }
        CastOp::BitCast | CastOp::AddrSpaceCast => Ok(v.clone()),
        _ => {
            let bits = v
                .as_concrete()
                .ok_or_else(|| Unsupported("symbolic floating-point cast".into()))?;
            float_cast(op, bits, from, to, rm).map(|b| Value::concrete(b, to_width))
        }
    }
}

/// A `bitcast` that changes the shape of a value (vector <-> scalar, or vectors with different
/// element counts): the bits are packed with element 0 lowest (little-endian), then split into
/// `to = Some((length, element bits))` elements, or kept whole for a scalar target.
pub fn repack_bits(v: &Value, to: Option<(u64, u32)>) -> Value {
    let parts: Vec<Expr> = match v {
        Value::Aggregate(items) => items.iter().rev().map(Value::to_expr).collect(),
        scalar => vec![scalar.to_expr()],
    };
    let whole = Expr::concat_all(&parts);
    match to {
        None => Value::from_expr(whole),
        Some((len, width)) => Value::Aggregate(
            (0..len as u32)
                .map(|i| Value::from_expr(Expr::extract(whole.clone(), i * width, width)))
                .collect(),
        ),
    }
}

fn float_cast(
    op: CastOp,
    bits: u128,
    from: Scalar,
    to: Scalar,
    rm: RoundMode,
) -> Result<u128, Unsupported> {
    let soft = |s: Scalar| matches!(s, Scalar::Float(k) if softfloat::is_soft(k));
    if soft(from) || soft(to) {
        return soft_cast(op, bits, from, to);
    }
    let fold = |op: FpOp, w: u32, from_w: u32| sear_expr::fp::fold(op, w, &[(bits, from_w)]);
    match (op, from, to) {
        (CastOp::FpTrunc, Scalar::Float(FloatKind::Double), Scalar::Float(FloatKind::Single))
            if rm != RoundMode::NearestEven =>
        {
            return Ok(fold(FpOp::Trunc(rm), 32, 64));
        }
        (CastOp::UiToFp | CastOp::SiToFp, Scalar::Int(w @ 1..=64), Scalar::Float(tk)) => {
            if let Some(tw) = directed_width(tk, rm) {
                let node = if op == CastOp::SiToFp {
                    FpOp::SIToFP(rm)
                } else {
                    FpOp::UIToFP(rm)
                };
                return Ok(fold(node, tw, w));
            }
        }
        _ => {}
    }
    match (op, from, to) {
        (CastOp::FpTrunc | CastOp::FpExt, Scalar::Float(fk), Scalar::Float(tk)) => {
            encode_float(tk, as_f64(decode_float(fk, bits)?))
        }
        (CastOp::FpToUi, Scalar::Float(fk), Scalar::Int(w)) => {
            let x = as_f64(decode_float(fk, bits)?);
            Ok(trunc(saturating_f64_to_u128(x), w))
        }
        (CastOp::FpToSi, Scalar::Float(fk), Scalar::Int(w)) => {
            let x = as_f64(decode_float(fk, bits)?);
            Ok(trunc(x as i128 as u128, w))
        }
        (CastOp::UiToFp, Scalar::Int(_), Scalar::Float(tk)) => match tk {
            FloatKind::Single => Ok((bits as f32).to_bits() as u128),
            _ => encode_float(tk, bits as f64),
        },
        (CastOp::SiToFp, Scalar::Int(w), Scalar::Float(tk)) => {
            let s = to_signed(bits, w);
            match tk {
                FloatKind::Single => Ok((s as f32).to_bits() as u128),
                _ => encode_float(tk, s as f64),
            }
        }
        _ => Err(Unsupported(format!("cast {op:?} from {from:?} to {to:?}"))),
    }
}

/// A cast from or to a format computed by `softfloat`.
fn soft_cast(op: CastOp, bits: u128, from: Scalar, to: Scalar) -> Result<u128, Unsupported> {
    Ok(match (op, from, to) {
        (CastOp::FpTrunc | CastOp::FpExt, Scalar::Float(fk), Scalar::Float(tk)) => {
            softfloat::convert(fk, tk, bits)
        }
        (CastOp::FpToUi | CastOp::FpToSi, Scalar::Float(fk), Scalar::Int(w)) => {
            trunc(softfloat::to_int(fk, bits, w, op == CastOp::FpToSi), w)
        }
        (CastOp::UiToFp, Scalar::Int(_), Scalar::Float(tk)) => softfloat::from_int(tk, bits, false),
        (CastOp::SiToFp, Scalar::Int(w), Scalar::Float(tk)) => {
            softfloat::from_int(tk, to_signed(bits, w) as u128, true)
        }
        _ => return Err(Unsupported(format!("cast {op:?} from {from:?} to {to:?}"))),
    })
}

fn saturating_f64_to_u128(x: f64) -> u128 {
    if x <= 0.0 || x.is_nan() {
        (x as i128) as u128
    } else {
        x as u128
    }
}

/// The all-ones mask of a width (re-exported for the executor).
pub fn width_mask(width: u32) -> u128 {
    mask(width)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fp80_round_trips_doubles() {
        for x in [0.0, 1.0, -2.5, 1e300, std::f64::consts::PI, 5e-324, -0.0] {
            let back = fp80_to_f64(f64_to_fp80(x));
            assert_eq!(back.to_bits(), x.to_bits(), "{x}");
        }
        // 1.0 in x87 format: exponent 16383, explicit integer bit.
        assert_eq!(f64_to_fp80(1.0), (16383u128 << 64) | (1u128 << 63));
    }

    #[test]
    fn concrete_icmp_signed() {
        let a = Value::concrete(0xff, 8);
        let b = Value::concrete(1, 8);
        assert_eq!(icmp(IntPredicate::Slt, &a, &b).as_concrete(), Some(1));
        assert_eq!(icmp(IntPredicate::Ult, &a, &b).as_concrete(), Some(0));
    }
}
