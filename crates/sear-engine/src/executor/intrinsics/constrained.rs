//! LLVM's constrained floating-point intrinsics (`llvm.experimental.constrained.*`), which
//! clang emits under `-frounding-math` and `#pragma STDC FENV_ACCESS ON`: each is its
//! plain instruction or intrinsic, rounded in the mode its metadata names
//! (`"round.dynamic"`: the state's mode, set by `fesetround`; `"round.upward"` and the
//! others: that mode). The exception-behaviour argument is ignored (sear models no
//! floating-point exception flags).

use sear_expr::fp::RoundMode;
use sear_ir::{
    BinaryOp, CastOp, Constant, FloatPredicate, Inst, InstKind, Module, Operand, TypeId,
};

use super::{FloatFn, Intrinsic};
use crate::executor::step::{exec, float_kind};
use crate::executor::{Exec, Executor};
use crate::state::State;
use crate::value::Value;

/// What a constrained intrinsic computes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Constrained {
    /// `fadd`, `fsub`, `fmul`, `fdiv`, `frem`.
    Binary(BinaryOp),
    /// `sitofp`, `uitofp`, `fptrunc`, `fpext`, `fptosi`, `fptoui`.
    Cast(CastOp),
    /// `fcmp`, `fcmps` (the predicate is a metadata argument).
    Cmp,
    /// The plain intrinsic of the same name (`fma`, `fmuladd`, `sqrt`, `rint`, `floor`…).
    Plain(Plain),
}

/// The plain intrinsics a constrained one may stand for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Plain {
    /// One float operand.
    Unary(FloatFn),
    /// Two float operands.
    Binary(FloatFn),
    /// `fma`.
    Fma,
    /// `fmuladd`.
    FmulAdd,
}

impl Constrained {
    /// The constrained intrinsic named `llvm.experimental.constrained.<rest>`.
    pub fn lookup(rest: &str) -> Option<Constrained> {
        let stem = rest.split('.').next()?;
        Some(match stem {
            "fadd" => Constrained::Binary(BinaryOp::FAdd),
            "fsub" => Constrained::Binary(BinaryOp::FSub),
            "fmul" => Constrained::Binary(BinaryOp::FMul),
            "fdiv" => Constrained::Binary(BinaryOp::FDiv),
            "frem" => Constrained::Binary(BinaryOp::FRem),
            "sitofp" => Constrained::Cast(CastOp::SiToFp),
            "uitofp" => Constrained::Cast(CastOp::UiToFp),
            "fptrunc" => Constrained::Cast(CastOp::FpTrunc),
            "fpext" => Constrained::Cast(CastOp::FpExt),
            "fptosi" => Constrained::Cast(CastOp::FpToSi),
            "fptoui" => Constrained::Cast(CastOp::FpToUi),
            "fcmp" | "fcmps" => Constrained::Cmp,
            _ => match Intrinsic::lookup(&format!("llvm.{rest}"))? {
                Intrinsic::FloatUnary(f) => Constrained::Plain(Plain::Unary(f)),
                Intrinsic::FloatBinary(f) => Constrained::Plain(Plain::Binary(f)),
                Intrinsic::Fma => Constrained::Plain(Plain::Fma),
                Intrinsic::FmulAdd => Constrained::Plain(Plain::FmulAdd),
                _ => return None,
            },
        })
    }
}

/// The texts of the call's metadata arguments.
fn metadata<'m>(module: &'m Module, inst: &Inst) -> Vec<&'m str> {
    let InstKind::Call { args, .. } = &inst.kind else {
        return Vec::new();
    };
    args.iter()
        .filter_map(|a| match a {
            Operand::Const(c) => match module.constant(*c) {
                Constant::Metadata(text) => Some(text.as_str()),
                _ => None,
            },
            Operand::Slot(_) => None,
        })
        .collect()
}

/// The mode a rounding-mode argument names; `None` for `"round.dynamic"` and other texts.
fn static_mode(text: &str) -> Option<RoundMode> {
    Some(match text {
        "round.tonearest" => RoundMode::NearestEven,
        "round.tonearestaway" => RoundMode::NearestAway,
        "round.upward" => RoundMode::Up,
        "round.downward" => RoundMode::Down,
        "round.towardzero" => RoundMode::Zero,
        _ => return None,
    })
}

/// An `fcmp` predicate's name in a constrained comparison's metadata.
fn predicate(text: &str) -> Option<FloatPredicate> {
    use FloatPredicate::*;
    Some(match text {
        "oeq" => Oeq,
        "ogt" => Ogt,
        "oge" => Oge,
        "olt" => Olt,
        "ole" => Ole,
        "one" => One,
        "ord" => Ord,
        "ueq" => Ueq,
        "ugt" => Ugt,
        "uge" => Uge,
        "ult" => Ult,
        "ule" => Ule,
        "une" => Une,
        "uno" => Uno,
        _ => return None,
    })
}

impl Executor<'_> {
    /// A constrained intrinsic: its plain operation in the mode its metadata names (the
    /// state's mode for `"round.dynamic"`, which the state keeps). The executor's: the plain
    /// operation may be a division, whose checks fork (`binary`).
    pub(crate) fn call_constrained(
        &mut self,
        module: &Module,
        state: &mut State,
        inst: &Inst,
        c: Constrained,
        args: &[Value],
        arg_types: &[TypeId],
    ) -> Exec<Option<Value>> {
        let texts = metadata(module, inst);
        let dynamic = state.rounding;
        if let Some(m) = texts.iter().find_map(|t| static_mode(t)) {
            state.rounding = m;
        }
        let r = self.constrained_op(module, state, inst, c, args, arg_types, &texts);
        state.rounding = dynamic;
        r
    }

    #[allow(clippy::too_many_arguments)]
    fn constrained_op(
        &mut self,
        module: &Module,
        state: &mut State,
        inst: &Inst,
        c: Constrained,
        args: &[Value],
        arg_types: &[TypeId],
        texts: &[&str],
    ) -> Exec<Option<Value>> {
        let a = |i: usize| {
            args.get(i)
                .ok_or_else(|| exec("constrained intrinsic called with too few arguments"))
        };
        Ok(Some(match c {
            Constrained::Binary(op) => self.binary(module, state, op, inst.ty, a(0)?, a(1)?)?,
            Constrained::Cast(op) => {
                let from = *arg_types
                    .first()
                    .ok_or_else(|| exec("constrained conversion without an operand"))?;
                self.cx()
                    .cast(module, state, op, a(0)?, from, inst.ty, false)?
            }
            Constrained::Cmp => {
                let pred = texts
                    .iter()
                    .find_map(|t| predicate(t))
                    .ok_or_else(|| exec("constrained fcmp without a predicate"))?;
                let kind = arg_types
                    .first()
                    .and_then(|t| float_kind(module, *t))
                    .ok_or_else(|| exec("constrained fcmp on non-float operands"))?;
                self.cx().fcmp(state, pred, kind, a(0)?, a(1)?)?
            }
            Constrained::Plain(p) => {
                let intrinsic = match p {
                    Plain::Unary(f) => Intrinsic::FloatUnary(f),
                    Plain::Binary(f) => Intrinsic::FloatBinary(f),
                    Plain::Fma => Intrinsic::Fma,
                    Plain::FmulAdd => Intrinsic::FmulAdd,
                };
                return self.call_intrinsic(module, state, inst, intrinsic, args, arg_types);
            }
        }))
    }
}
