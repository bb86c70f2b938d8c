//! Integer intrinsics on values: the overflow checks and saturating arithmetic, the bit
//! operations (`ctlz`, `cttz`, `ctpop`, `bswap`, `bitreverse`, `abs`), funnel shifts and
//! vector reductions.

use sear_expr::bits::{mask, to_signed};
use sear_expr::Expr;

use super::{Intrinsic, OverflowOp, ReduceOp};
use crate::executor::ops;
use crate::executor::step::{exec, select_value};
use crate::executor::Exec;
use crate::value::Value;

pub(super) fn overflow(op: OverflowOp, a: &Value, b: &Value) -> Exec<Value> {
    let w = a.width();
    let (x, y) = (a.to_expr(), b.to_expr());
    let sign = |e: &Expr| Expr::extract(e.clone(), w - 1, 1);
    let (result, flag) = match op {
        OverflowOp::UAdd => {
            let r = Expr::add(x.clone(), y);
            (r.clone(), Expr::ult(r, x))
        }
        OverflowOp::SAdd => {
            let r = Expr::add(x.clone(), y.clone());
            let same = Expr::eq(sign(&x), sign(&y));
            (r.clone(), Expr::and(same, Expr::ne(sign(&r), sign(&x))))
        }
        OverflowOp::USub => (Expr::sub(x.clone(), y.clone()), Expr::ult(x, y)),
        OverflowOp::SSub => {
            let r = Expr::sub(x.clone(), y.clone());
            let differ = Expr::ne(sign(&x), sign(&y));
            (r.clone(), Expr::and(differ, Expr::ne(sign(&r), sign(&x))))
        }
        OverflowOp::UMul | OverflowOp::SMul => {
            if 2 * w > sear_expr::bits::MAX_WIDTH {
                return Err(exec(format!(
                    "{op:?} overflow check on i{w} is not supported"
                )));
            }
            let signed = op == OverflowOp::SMul;
            let ext = |e: Expr| {
                if signed {
                    Expr::sext(e, 2 * w)
                } else {
                    Expr::zext(e, 2 * w)
                }
            };
            let full = Expr::mul(ext(x), ext(y));
            let r = Expr::trunc(full.clone(), w);
            (r.clone(), Expr::ne(ext(r), full))
        }
    };
    Ok(Value::Aggregate(
        vec![Value::from_expr(result), Value::from_expr(flag)].into(),
    ))
}

/// Saturating addition or subtraction of two scalars (the overflow check, then a select
/// of the clamped value).
pub(super) fn saturating(op: OverflowOp, a: &Value, b: &Value) -> Result<Value, ops::Unsupported> {
    let w = a.width();
    let Ok(Value::Aggregate(parts)) = overflow(op, a, b) else {
        return Err(ops::Unsupported(format!("saturating {op:?} on i{w}")));
    };
    let (result, flag) = (parts[0].to_expr(), parts[1].to_expr());
    let clamp = match op {
        OverflowOp::UAdd => Expr::constant(mask(w), w),
        OverflowOp::USub => Expr::constant(0, w),
        _ => {
            // Signed: towards the sign of the first operand.
            let negative = Expr::extract(a.to_expr(), w - 1, 1);
            let min = Expr::constant(1u128 << (w - 1), w);
            let max = Expr::constant(mask(w - 1), w);
            Expr::select(Expr::eq(negative, Expr::constant(1, 1)), min, max)
        }
    };
    Ok(Value::from_expr(Expr::select(flag, clamp, result)))
}

/// `llvm.ctlz`, `cttz`, `ctpop`, `bswap`, `bitreverse` and `abs` of `v` (also used by the
/// inline assembly of `bsf`/`bsr`).
pub(crate) fn unary_bits(intrinsic: Intrinsic, v: &Value) -> Value {
    let w = v.width();
    if let Value::Concrete(x, _) = v {
        let x = *x;
        let r = match intrinsic {
            Intrinsic::Ctlz => (x.leading_zeros() - (128 - w)) as u128,
            Intrinsic::Cttz => (x.trailing_zeros().min(w)) as u128,
            Intrinsic::Ctpop => x.count_ones() as u128,
            Intrinsic::Bswap => x.swap_bytes() >> (128 - w),
            Intrinsic::BitReverse => x.reverse_bits() >> (128 - w),
            _ => {
                let s = to_signed(x, w);
                s.unsigned_abs() & mask(w)
            }
        };
        return Value::concrete(r, w);
    }
    let e = v.to_expr();
    let bit = |i: u32| Expr::extract(e.clone(), i, 1);
    let c = |n: u32| Expr::constant(n as u128, w);
    Value::from_expr(match intrinsic {
        Intrinsic::Ctlz => {
            let mut acc = c(w);
            for i in 0..w {
                acc = Expr::select(bit(i), c(w - 1 - i), acc);
            }
            acc
        }
        Intrinsic::Cttz => {
            let mut acc = c(w);
            for i in (0..w).rev() {
                acc = Expr::select(bit(i), c(i), acc);
            }
            acc
        }
        Intrinsic::Ctpop => (0..w).fold(c(0), |acc, i| Expr::add(acc, Expr::zext(bit(i), w))),
        Intrinsic::Bswap => {
            let bytes: Vec<Expr> = (0..w / 8)
                .map(|i| Expr::extract(e.clone(), 8 * i, 8))
                .collect();
            Expr::concat_all(&bytes)
        }
        Intrinsic::BitReverse => {
            let bits: Vec<Expr> = (0..w).map(bit).collect();
            Expr::concat_all(&bits)
        }
        _ => {
            let negative = Expr::slt(e.clone(), c(0));
            Expr::select(negative, Expr::sub(c(0), e.clone()), e.clone())
        }
    })
}

pub(super) fn funnel(left: bool, a: &Value, b: &Value, c: &Value) -> Value {
    let w = a.width();
    let (x, y) = (a.to_expr(), b.to_expr());
    let r = Expr::urem(c.to_expr(), Expr::constant(w as u128, w));
    let inv = Expr::sub(Expr::constant(w as u128, w), r.clone());
    let is_zero = Expr::eq(Expr::constant(0, w), r.clone());
    Value::from_expr(if left {
        Expr::select(
            is_zero,
            x.clone(),
            Expr::or(Expr::shl(x, r), Expr::lshr(y, inv)),
        )
    } else {
        Expr::select(
            is_zero,
            y.clone(),
            Expr::or(Expr::shl(x, inv), Expr::lshr(y, r)),
        )
    })
}

pub(super) fn reduce(op: ReduceOp, v: &Value) -> Value {
    let items = v.elements();
    let mut acc = items[0].clone();
    for item in &items[1..] {
        acc = match op {
            ReduceOp::Add => ops::int_binary(sear_expr::BinOp::Add, &acc, item),
            ReduceOp::Mul => ops::int_binary(sear_expr::BinOp::Mul, &acc, item),
            ReduceOp::And => ops::int_binary(sear_expr::BinOp::And, &acc, item),
            ReduceOp::Or => ops::int_binary(sear_expr::BinOp::Or, &acc, item),
            ReduceOp::Xor => ops::int_binary(sear_expr::BinOp::Xor, &acc, item),
            ReduceOp::SMax | ReduceOp::SMin | ReduceOp::UMax | ReduceOp::UMin => {
                let pred = match op {
                    ReduceOp::SMax => sear_ir::IntPredicate::Sgt,
                    ReduceOp::SMin => sear_ir::IntPredicate::Slt,
                    ReduceOp::UMax => sear_ir::IntPredicate::Ugt,
                    _ => sear_ir::IntPredicate::Ult,
                };
                select_value(&ops::icmp(pred, &acc, item), &acc, item)
            }
        };
    }
    acc
}

/// True when `v` is the concrete minimum signed value of its width.
pub(super) fn is_signed_min(v: &Value) -> bool {
    match v {
        Value::Concrete(bits, w) if *w > 0 => *bits == 1u128 << (w - 1),
        _ => false,
    }
}
