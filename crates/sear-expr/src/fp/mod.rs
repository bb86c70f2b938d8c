//! Floating-point operations on bit-vectors (issue 34; `docs/techniques/floating-point.md`).
//!
//! A `float` or `double` value is a bit-vector of width 32 or 64; floating point exists only
//! as the operations of one node kind, [`crate::ExprKind::Fp`], whose operands and result are
//! bit-vectors and whose meaning is IEEE 754 on those bits, with the results the x86-64 (SSE)
//! build of the same program gives where IEEE 754 leaves a choice (NaN payloads, conversions
//! out of range). Negation, absolute value, `copysign`, class tests and `minnum`/`maxnum` are
//! not nodes: the constructors here build them from bit-vector operations, `fcmp` and
//! `select`, which every layer already understands.

mod build;
pub mod directed;
pub mod sem;

use thiserror::Error;

pub use crate::fpsem::FpPred;
use crate::fpsem::{self, FpBinOp, FpFormat};
pub use sem::RoundMode;

/// A rounding arithmetic operation on two operands of one format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FpArith {
    /// `fadd`.
    Add,
    /// `fsub`.
    Sub,
    /// `fmul`.
    Mul,
    /// `fdiv`.
    Div,
    /// `frem`: C's `fmod` (exact; sign of the dividend), not IEEE `remainder`.
    Rem,
    /// C's `remainder`: IEEE 754 remainder (SMT-LIB `fp.rem`; exact, the quotient rounded
    /// to nearest even).
    IeeeRem,
}

/// The operation of an [`crate::ExprKind::Fp`] node. The format is the width of the
/// floating-point operand (32: binary32, 64: binary64). The operations that round carry
/// their rounding mode ([`FpOp::rounding`]; to nearest even unless the program set another
/// with `fesetround`); `Rem`/`IeeeRem` are exact and always carry
/// [`RoundMode::NearestEven`], the conversions to integers truncate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FpOp {
    /// Binary arithmetic (operands `a`, `b`; result of their width) rounded in the mode.
    Arith(FpArith, RoundMode),
    /// Square root (one operand) rounded in the mode.
    Sqrt(RoundMode),
    /// `a * b + c` with one rounding, in the mode.
    Fma(RoundMode),
    /// Rounding to an integral value in the given direction (one operand).
    Round(RoundMode),
    /// An `fcmp` predicate other than `true`/`false` (two operands; result width 1).
    Cmp(FpPred),
    /// `fptosi` to the node's width (1..=64).
    ToSI,
    /// `fptoui` to the node's width (1..=64).
    ToUI,
    /// `sitofp` of an integer of 1..=64 bits to the node's format, rounded in the mode.
    SIToFP(RoundMode),
    /// `uitofp` of an integer of 1..=64 bits to the node's format, rounded in the mode.
    UIToFP(RoundMode),
    /// `fpext` binary32 → binary64 (exact).
    Ext,
    /// `fptrunc` binary64 → binary32, rounded in the mode.
    Trunc(RoundMode),
}

impl FpOp {
    /// The SMT-LIB-like name used when printing the node.
    pub fn name(self) -> &'static str {
        match self {
            FpOp::Arith(FpArith::Add, _) => "fp.add",
            FpOp::Arith(FpArith::Sub, _) => "fp.sub",
            FpOp::Arith(FpArith::Mul, _) => "fp.mul",
            FpOp::Arith(FpArith::Div, _) => "fp.div",
            FpOp::Arith(FpArith::Rem, _) => "fp.fmod",
            FpOp::Arith(FpArith::IeeeRem, _) => "fp.rem",
            FpOp::Sqrt(_) => "fp.sqrt",
            FpOp::Fma(_) => "fp.fma",
            FpOp::Round(_) => "fp.roundToIntegral",
            FpOp::Cmp(_) => "fp.cmp",
            FpOp::ToSI => "fp.to_sbv",
            FpOp::ToUI => "fp.to_ubv",
            FpOp::SIToFP(_) => "to_fp",
            FpOp::UIToFP(_) => "to_fp_unsigned",
            FpOp::Ext | FpOp::Trunc(_) => "to_fp",
        }
    }

    /// The rounding mode of an operation that rounds its result to the format (arithmetic,
    /// `sqrt`, `fma`, conversions from integers, `fptrunc`), or the direction of
    /// [`FpOp::Round`]; `None` for comparisons, conversions to integers and `fpext`.
    pub fn rounding(self) -> Option<RoundMode> {
        match self {
            FpOp::Arith(_, m)
            | FpOp::Sqrt(m)
            | FpOp::Fma(m)
            | FpOp::Round(m)
            | FpOp::SIToFP(m)
            | FpOp::UIToFP(m)
            | FpOp::Trunc(m) => Some(m),
            FpOp::Cmp(_) | FpOp::ToSI | FpOp::ToUI | FpOp::Ext => None,
        }
    }
}

/// A floating-point node that cannot be built (the engine concretises instead).
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum FpError {
    /// An operand that is not a binary32 or binary64 bit-vector.
    #[error(
        "floating-point operand of width {0}: only 32 (float) and 64 (double) bits are supported"
    )]
    Format(u32),
    /// Operands of different formats.
    #[error("floating-point operands of widths {0} and {1} differ")]
    Mismatch(u32, u32),
    /// An integer side of a conversion outside 1..=64 bits.
    #[error("integer of width {0} in a floating-point conversion: only 1..=64 bits are supported")]
    IntWidth(u32),
    /// `fpext`/`fptrunc` between the wrong formats.
    #[error("conversion from width {0} to {1} is not a float↔double conversion")]
    Convert(u32, u32),
}

/// The format of a floating-point operand of `width` bits.
pub fn format_of(width: u32) -> Result<FpFormat, FpError> {
    FpFormat::from_width(width).ok_or(FpError::Format(width))
}

fn arith_host(op: FpArith) -> Option<FpBinOp> {
    Some(match op {
        FpArith::Add => FpBinOp::Add,
        FpArith::Sub => FpBinOp::Sub,
        FpArith::Mul => FpBinOp::Mul,
        FpArith::Div => FpBinOp::Div,
        FpArith::Rem | FpArith::IeeeRem => return None,
    })
}

/// The value of `op` of result width `width` on the operands `args` (value, width), as the
/// x86-64 build computes it. Total: operand shapes the builder rejects give 0.
pub fn fold(op: FpOp, width: u32, args: &[(u128, u32)]) -> u128 {
    fold_opt(op, width, args).unwrap_or(0)
}

fn fold_opt(op: FpOp, width: u32, args: &[(u128, u32)]) -> Option<u128> {
    let &(a, aw) = args.first()?;
    let a = a as u64;
    let fmt = || FpFormat::from_width(aw);
    let b = || args.get(1).map(|&(v, _)| v as u64);
    Some(match op {
        FpOp::Arith(o, m) => {
            let (f, b) = (fmt()?, b()?);
            match arith_host(o) {
                Some(h) => directed::binary(h, f, m, a, b),
                None if o == FpArith::Rem => sem::rem(f, a, b),
                None => sem::ieee_rem(f, a, b),
            }
        }
        FpOp::Sqrt(m) => directed::sqrt(fmt()?, m, a),
        FpOp::Fma(m) => directed::fma(fmt()?, m, a, b()?, args.get(2)?.0 as u64),
        FpOp::Round(m) => sem::round(fmt()?, m, a),
        FpOp::Cmp(p) => fpsem::compare(p, fmt()?, a, b()?) as u64,
        FpOp::ToSI => sem::to_signed_any(fmt()?, a, width)?,
        FpOp::ToUI => sem::to_unsigned(fmt()?, a, width)?,
        FpOp::SIToFP(m) => directed::from_int(FpFormat::from_width(width)?, m, a, aw, true)?,
        FpOp::UIToFP(m) => directed::from_int(FpFormat::from_width(width)?, m, a, aw, false)?,
        FpOp::Ext => sem::ext(a as u32),
        FpOp::Trunc(m) => directed::trunc(m, a) as u64,
    } as u128)
}
