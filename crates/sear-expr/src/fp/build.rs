//! The floating-point constructors: width checks (an [`FpError`], never a panic), constant
//! folding through [`super::fold`], and the operations that are bit-vector operations on the
//! IEEE 754 encoding (negation, absolute value, `copysign`, class tests) or `fcmp` + `select`
//! (`minnum`/`maxnum`).

use super::{fold, format_of, FpArith, FpError, FpOp, FpPred, RoundMode};
use crate::expr::{Expr, ExprKind};
use crate::fpsem::FpFormat;

fn sign_bit(w: u32) -> u128 {
    1u128 << (w - 1)
}

fn exp_mask(fmt: FpFormat) -> u128 {
    match fmt {
        FpFormat::Single => 0x7F80_0000,
        FpFormat::Double => 0x7FF0_0000_0000_0000,
    }
}

fn quiet_nan_min(fmt: FpFormat) -> u128 {
    match fmt {
        FpFormat::Single => 0x7FC0_0000,
        FpFormat::Double => 0x7FF8_0000_0000_0000,
    }
}

fn min_normal(fmt: FpFormat) -> u128 {
    match fmt {
        FpFormat::Single => 0x0080_0000,
        FpFormat::Double => 0x0010_0000_0000_0000,
    }
}

fn same_format(a: &Expr, b: &Expr) -> Result<FpFormat, FpError> {
    let fmt = format_of(a.width())?;
    if b.width() != a.width() {
        return Err(FpError::Mismatch(a.width(), b.width()));
    }
    Ok(fmt)
}

fn int_width(w: u32) -> Result<(), FpError> {
    if (1..=64).contains(&w) {
        Ok(())
    } else {
        Err(FpError::IntWidth(w))
    }
}

impl Expr {
    /// An [`ExprKind::Fp`] node, folded when every operand is a constant. The caller has
    /// checked the shapes.
    fn fp_node(op: FpOp, width: u32, args: Vec<Expr>) -> Expr {
        let consts: Option<Vec<(u128, u32)>> = args
            .iter()
            .map(|a| a.as_constant().map(|v| (v, a.width())))
            .collect();
        match consts {
            Some(vals) => Expr::constant(fold(op, width, &vals), width),
            None => Expr::make(ExprKind::Fp { op, args }, width),
        }
    }

    /// `a op b` (`fadd`, `fsub`, `fmul`, `fdiv`, `frem`), rounded to nearest even.
    pub fn fp_arith(op: FpArith, a: Expr, b: Expr) -> Result<Expr, FpError> {
        Expr::fp_arith_rm(op, RoundMode::NearestEven, a, b)
    }

    /// `a op b` rounded in mode `rm` (`frem` and `remainder` are exact: their nodes carry
    /// [`RoundMode::NearestEven`] whatever `rm` is).
    pub fn fp_arith_rm(op: FpArith, rm: RoundMode, a: Expr, b: Expr) -> Result<Expr, FpError> {
        same_format(&a, &b)?;
        let w = a.width();
        let rm = match op {
            FpArith::Rem | FpArith::IeeeRem => RoundMode::NearestEven,
            _ => rm,
        };
        Ok(Expr::fp_node(FpOp::Arith(op, rm), w, vec![a, b]))
    }

    /// The square root of `a`, rounded to nearest even.
    pub fn fp_sqrt(a: Expr) -> Result<Expr, FpError> {
        Expr::fp_sqrt_rm(RoundMode::NearestEven, a)
    }

    /// The square root of `a`, rounded in mode `rm`.
    pub fn fp_sqrt_rm(rm: RoundMode, a: Expr) -> Result<Expr, FpError> {
        format_of(a.width())?;
        let w = a.width();
        Ok(Expr::fp_node(FpOp::Sqrt(rm), w, vec![a]))
    }

    /// `a * b + c` with one rounding (`fma`) to nearest even.
    pub fn fp_fma(a: Expr, b: Expr, c: Expr) -> Result<Expr, FpError> {
        Expr::fp_fma_rm(RoundMode::NearestEven, a, b, c)
    }

    /// `a * b + c` with one rounding in mode `rm`.
    pub fn fp_fma_rm(rm: RoundMode, a: Expr, b: Expr, c: Expr) -> Result<Expr, FpError> {
        same_format(&a, &b)?;
        same_format(&a, &c)?;
        let w = a.width();
        Ok(Expr::fp_node(FpOp::Fma(rm), w, vec![a, b, c]))
    }

    /// `a` rounded to an integral value in direction `mode` (`floor`, `ceil`, `trunc`,
    /// `round`, `rint`…).
    pub fn fp_round(mode: RoundMode, a: Expr) -> Result<Expr, FpError> {
        format_of(a.width())?;
        let w = a.width();
        Ok(Expr::fp_node(FpOp::Round(mode), w, vec![a]))
    }

    /// `fcmp pred a, b` (a boolean).
    pub fn fcmp(pred: FpPred, a: Expr, b: Expr) -> Result<Expr, FpError> {
        same_format(&a, &b)?;
        Ok(match pred {
            FpPred::True => Expr::true_(),
            FpPred::False => Expr::false_(),
            FpPred::Uno if a == b => Expr::fp_is_nan(a)?,
            FpPred::Ord if a == b => Expr::not(Expr::fp_is_nan(a)?),
            _ => Expr::fp_node(FpOp::Cmp(pred), 1, vec![a, b]),
        })
    }

    /// `fptosi` (`signed`) or `fptoui` of `a` to `width` bits (1..=64).
    pub fn fp_to_int(signed: bool, a: Expr, width: u32) -> Result<Expr, FpError> {
        format_of(a.width())?;
        int_width(width)?;
        let op = if signed { FpOp::ToSI } else { FpOp::ToUI };
        Ok(Expr::fp_node(op, width, vec![a]))
    }

    /// `sitofp` (`signed`) or `uitofp` of the integer `a` (1..=64 bits) to the format of
    /// `width` bits, rounded to nearest even.
    pub fn int_to_fp(signed: bool, a: Expr, width: u32) -> Result<Expr, FpError> {
        Expr::int_to_fp_rm(signed, RoundMode::NearestEven, a, width)
    }

    /// `sitofp` (`signed`) or `uitofp` of the integer `a` (1..=64 bits) to the format of
    /// `width` bits, rounded in mode `rm`.
    pub fn int_to_fp_rm(signed: bool, rm: RoundMode, a: Expr, width: u32) -> Result<Expr, FpError> {
        format_of(width)?;
        int_width(a.width())?;
        let op = if signed {
            FpOp::SIToFP(rm)
        } else {
            FpOp::UIToFP(rm)
        };
        Ok(Expr::fp_node(op, width, vec![a]))
    }

    /// `fpext` (32 → 64) or `fptrunc` (64 → 32, to nearest even) of `a` to `width` bits;
    /// the identity when the widths agree.
    pub fn fp_convert(a: Expr, width: u32) -> Result<Expr, FpError> {
        Expr::fp_convert_rm(RoundMode::NearestEven, a, width)
    }

    /// `fpext` (32 → 64, exact) or `fptrunc` (64 → 32, rounded in mode `rm`) of `a` to
    /// `width` bits; the identity when the widths agree.
    pub fn fp_convert_rm(rm: RoundMode, a: Expr, width: u32) -> Result<Expr, FpError> {
        format_of(a.width())?;
        format_of(width)?;
        Ok(match (a.width(), width) {
            (32, 64) => Expr::fp_node(FpOp::Ext, 64, vec![a]),
            (64, 32) => Expr::fp_node(FpOp::Trunc(rm), 32, vec![a]),
            (x, y) if x == y => a,
            (x, y) => return Err(FpError::Convert(x, y)),
        })
    }

    /// `fneg a`: the sign bit flipped (also of a NaN, as `xorps` does).
    pub fn fneg(a: Expr) -> Result<Expr, FpError> {
        format_of(a.width())?;
        let w = a.width();
        Ok(Expr::xor(Expr::constant(sign_bit(w), w), a))
    }

    /// `fabs a`: the sign bit cleared.
    pub fn fabs(a: Expr) -> Result<Expr, FpError> {
        format_of(a.width())?;
        let w = a.width();
        Ok(Expr::and(Expr::constant(sign_bit(w) - 1, w), a))
    }

    /// `copysign(a, b)`: the magnitude of `a` with the sign of `b`.
    pub fn copysign(a: Expr, b: Expr) -> Result<Expr, FpError> {
        same_format(&a, &b)?;
        let w = a.width();
        let s = sign_bit(w);
        Ok(Expr::or(
            Expr::and(Expr::constant(s - 1, w), a),
            Expr::and(Expr::constant(s, w), b),
        ))
    }

    /// True when `a` is a NaN (a bit-vector comparison on the magnitude).
    pub fn fp_is_nan(a: Expr) -> Result<Expr, FpError> {
        let fmt = format_of(a.width())?;
        let w = a.width();
        let mag = Expr::and(Expr::constant(sign_bit(w) - 1, w), a);
        Ok(Expr::ult(Expr::constant(exp_mask(fmt), w), mag))
    }

    /// LLVM's `is.fpclass(a, mask)`: bit 0 sNaN, 1 qNaN, 2 −∞, 3 −normal, 4 −subnormal,
    /// 5 −0, 6 +0, 7 +subnormal, 8 +normal, 9 +∞ (bit-vector comparisons on the encoding).
    pub fn is_fpclass(a: Expr, mask: u32) -> Result<Expr, FpError> {
        let fmt = format_of(a.width())?;
        let w = a.width();
        let c = |v: u128| Expr::constant(v, w);
        let mag = Expr::and(c(sign_bit(w) - 1), a.clone());
        let neg = Expr::ult(c(sign_bit(w) - 1), a);
        let inf = exp_mask(fmt);
        let classes: [Expr; 8] = [
            // sNaN, qNaN (either sign)
            Expr::and(
                Expr::ult(c(inf), mag.clone()),
                Expr::ult(mag.clone(), c(quiet_nan_min(fmt))),
            ),
            Expr::ule(c(quiet_nan_min(fmt)), mag.clone()),
            // ∞, normal, subnormal, zero (signed below)
            Expr::eq(c(inf), mag.clone()),
            Expr::and(
                Expr::ule(c(min_normal(fmt)), mag.clone()),
                Expr::ult(mag.clone(), c(inf)),
            ),
            Expr::and(
                Expr::ne(c(0), mag.clone()),
                Expr::ult(mag.clone(), c(min_normal(fmt))),
            ),
            Expr::eq(c(0), mag),
            neg.clone(),
            Expr::not(neg),
        ];
        let [snan, qnan, is_inf, normal, sub, zero, neg, pos] = classes;
        let parts = [
            snan,
            qnan,
            Expr::and(neg.clone(), is_inf.clone()),
            Expr::and(neg.clone(), normal.clone()),
            Expr::and(neg.clone(), sub.clone()),
            Expr::and(neg, zero.clone()),
            Expr::and(pos.clone(), zero),
            Expr::and(pos.clone(), sub),
            Expr::and(pos.clone(), normal),
            Expr::and(pos, is_inf),
        ];
        Ok(Expr::or_all(
            parts
                .into_iter()
                .enumerate()
                .filter(|(i, _)| mask >> i & 1 == 1)
                .map(|(_, p)| p),
        ))
    }

    /// `llvm.minnum(a, b)` as x86-64 code computes it: `isnan(a) ? b : (b < a ? b : a)`.
    pub fn fp_min(a: Expr, b: Expr) -> Result<Expr, FpError> {
        Expr::fp_min_max(a, b, FpPred::Olt)
    }

    /// `llvm.maxnum(a, b)` as x86-64 code computes it: `isnan(a) ? b : (b > a ? b : a)`.
    pub fn fp_max(a: Expr, b: Expr) -> Result<Expr, FpError> {
        Expr::fp_min_max(a, b, FpPred::Ogt)
    }

    /// `llvm.minimum(a, b)` (NaN-propagating, `-0 < +0`) as clang 19's x86-64 code computes
    /// it: `x, y = sign(a) ? (b, a) : (a, b)`; `isnan(x) ? x : (x < y ? x : y)` (`minsd`
    /// gives its second operand on a NaN or equal operands). NaNs come out unquietened; of
    /// two NaNs the one with the sign bit clear.
    pub fn fp_minimum(a: Expr, b: Expr) -> Result<Expr, FpError> {
        Expr::fp_minimum_maximum(a, b, false)
    }

    /// `llvm.maximum(a, b)` (NaN-propagating, `+0 > -0`) as clang 19's x86-64 code computes
    /// it: `x, y = sign(a) ? (a, b) : (b, a)`; `isnan(x) ? x : (x > y ? x : y)`. Of two NaNs
    /// the one with the sign bit set.
    pub fn fp_maximum(a: Expr, b: Expr) -> Result<Expr, FpError> {
        Expr::fp_minimum_maximum(a, b, true)
    }

    fn fp_minimum_maximum(a: Expr, b: Expr, max: bool) -> Result<Expr, FpError> {
        same_format(&a, &b)?;
        let w = a.width();
        let neg = Expr::ult(Expr::constant(sign_bit(w) - 1, w), a.clone());
        let (first, second) = if max { (a, b) } else { (b, a) };
        let x = Expr::select(neg.clone(), first.clone(), second.clone());
        let y = Expr::select(neg, second, first);
        let pred = if max { FpPred::Ogt } else { FpPred::Olt };
        let pick = Expr::select(Expr::fcmp(pred, x.clone(), y.clone())?, x.clone(), y);
        Ok(Expr::select(Expr::fp_is_nan(x.clone())?, x, pick))
    }

    fn fp_min_max(a: Expr, b: Expr, pred: FpPred) -> Result<Expr, FpError> {
        let better = Expr::fcmp(pred, b.clone(), a.clone())?;
        let pick = Expr::select(better, b.clone(), a.clone());
        Ok(Expr::select(Expr::fp_is_nan(a)?, b, pick))
    }

    /// The operation and operands of a floating-point node.
    pub fn as_fp(&self) -> Option<(FpOp, &[Expr])> {
        match self.kind() {
            ExprKind::Fp { op, args } => Some((*op, args)),
            _ => None,
        }
    }
}

impl Expr {
    /// Rebuilds a floating-point node of `width` over new operands of the same shapes (as
    /// rewriting does), re-folding constants.
    pub fn fp_rebuild(op: FpOp, width: u32, args: Vec<Expr>) -> Expr {
        match op {
            FpOp::Cmp(pred) if args.len() == 2 => {
                let mut it = args.into_iter();
                let (a, b) = (it.next(), it.next());
                match (a, b) {
                    (Some(a), Some(b)) => Expr::fcmp(pred, a.clone(), b.clone())
                        .unwrap_or_else(|_| Expr::fp_node(op, width, vec![a, b])),
                    _ => Expr::false_(),
                }
            }
            _ => Expr::fp_node(op, width, args),
        }
    }
}
