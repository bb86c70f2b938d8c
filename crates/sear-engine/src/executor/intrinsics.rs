//! `llvm.*` intrinsics (and the libc memory functions that share their semantics): the table
//! and the dispatch; integer intrinsics on values are in `intrinsics/arith.rs`, floating-point
//! ones in `intrinsics/fp.rs`.

use sear_expr::bits::mask;
use sear_expr::Expr;
use sear_ir::{Inst, Module, TypeId};

use super::memlen::Source;
use super::step::{exec, float_kind, select_value, unsupported};
use super::{fpsym, ops};
use super::{Exec, Executor};
use crate::state::State;
use crate::termination::{ErrorKind, Termination};
use crate::value::Value;

mod arith;
mod constrained;
mod fp;

pub(crate) use arith::unary_bits;
use arith::{funnel, is_signed_min, overflow, reduce, saturating};
pub use constrained::Constrained as ConstrainedOp;
use fp::{float_fn, fp_class_test};

/// An intrinsic the engine implements.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum Intrinsic {
    MemCpy,
    MemMove,
    MemSet,
    Nop,
    Identity,
    VaStart,
    VaCopy,
    Overflow(OverflowOp),
    /// `llvm.{u,s}{add,sub}.sat`: the arithmetic clamped to the type's range.
    Saturating(OverflowOp),
    Ctlz,
    Cttz,
    Ctpop,
    Bswap,
    BitReverse,
    Fshl,
    Fshr,
    SMin,
    SMax,
    UMin,
    UMax,
    Abs,
    StackSave,
    PtrMask,
    LoadRelative,
    IsFpClass,
    Trap,
    IsConstant,
    ObjectSize,
    Reduce(ReduceOp),
    FloatUnary(FloatFn),
    FloatBinary(FloatFn),
    Fma,
    /// `llvm.fmuladd`: a multiplication and an addition, unfused (as x86-64 without FMA).
    FmulAdd,
    /// `llvm.experimental.constrained.*`: an operation in a given or the state's rounding
    /// mode (intrinsics/constrained.rs).
    Constrained(ConstrainedOp),
}

/// The arithmetic of an `*.with.overflow` intrinsic.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum OverflowOp {
    SAdd,
    UAdd,
    SSub,
    USub,
    SMul,
    UMul,
}

/// The combining operator of a `llvm.vector.reduce.*` intrinsic.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum ReduceOp {
    Add,
    Mul,
    And,
    Or,
    Xor,
    SMax,
    SMin,
    UMax,
    UMin,
}

/// Floating-point math intrinsics evaluated on concrete values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum FloatFn {
    Fabs,
    Floor,
    Ceil,
    Trunc,
    Round,
    /// `llvm.rint`, `llvm.nearbyint`: to an integral value in the state's rounding mode.
    Rint,
    /// `llvm.roundeven`: to an integral value, ties to even.
    RoundEven,
    Sqrt,
    CopySign,
    MinNum,
    MaxNum,
    /// `llvm.minimum` (NaN-propagating; fpsym.rs).
    Minimum,
    /// `llvm.maximum` (NaN-propagating; fpsym.rs).
    Maximum,
    Pow,
}

impl Intrinsic {
    /// The intrinsic for an `llvm.*` function name.
    pub fn lookup(name: &str) -> Option<Intrinsic> {
        let rest = name.strip_prefix("llvm.")?;
        if let Some(op) = rest.strip_prefix("experimental.constrained.") {
            return constrained::Constrained::lookup(op).map(Intrinsic::Constrained);
        }
        let stem = |p: &str| rest == p || rest.starts_with(&format!("{p}."));
        use Intrinsic::*;
        Some(if stem("memcpy") || stem("memcpy.inline") {
            MemCpy
        } else if stem("memmove") {
            MemMove
        } else if stem("memset") || stem("memset.inline") {
            MemSet
        } else if [
            "lifetime.start",
            "lifetime.end",
            "dbg.declare",
            "dbg.value",
            "dbg.label",
            "assume",
            "experimental.noalias.scope.decl",
            "prefetch",
            "va_end",
            "stackrestore",
            "invariant.start",
            "invariant.end",
            "donothing",
            "sideeffect",
            "pseudoprobe",
            "var.annotation",
        ]
        .iter()
        .any(|p| stem(p))
        {
            Nop
        } else if stem("expect")
            || stem("expect.with.probability")
            || stem("annotation")
            || stem("ptr.annotation")
            || stem("launder.invariant.group")
            || stem("strip.invariant.group")
            || stem("threadlocal.address")
        {
            Identity
        } else if rest == "va_start" || stem("va_start") {
            VaStart
        } else if rest == "va_copy" || stem("va_copy") {
            VaCopy
        } else if stem("sadd.with.overflow") {
            Overflow(OverflowOp::SAdd)
        } else if stem("uadd.with.overflow") {
            Overflow(OverflowOp::UAdd)
        } else if stem("ssub.with.overflow") {
            Overflow(OverflowOp::SSub)
        } else if stem("usub.with.overflow") {
            Overflow(OverflowOp::USub)
        } else if stem("smul.with.overflow") {
            Overflow(OverflowOp::SMul)
        } else if stem("umul.with.overflow") {
            Overflow(OverflowOp::UMul)
        } else if stem("uadd.sat") {
            Saturating(OverflowOp::UAdd)
        } else if stem("usub.sat") {
            Saturating(OverflowOp::USub)
        } else if stem("sadd.sat") {
            Saturating(OverflowOp::SAdd)
        } else if stem("ssub.sat") {
            Saturating(OverflowOp::SSub)
        } else if stem("ctlz") {
            Ctlz
        } else if stem("cttz") {
            Cttz
        } else if stem("ctpop") {
            Ctpop
        } else if stem("bswap") {
            Bswap
        } else if stem("bitreverse") {
            BitReverse
        } else if stem("fshl") {
            Fshl
        } else if stem("fshr") {
            Fshr
        } else if stem("smin") {
            SMin
        } else if stem("smax") {
            SMax
        } else if stem("umin") {
            UMin
        } else if stem("umax") {
            UMax
        } else if stem("abs") {
            Abs
        } else if stem("is.fpclass") {
            IsFpClass
        } else if stem("ptrmask") {
            PtrMask
        } else if stem("load.relative") {
            LoadRelative
        } else if stem("stacksave") {
            StackSave
        } else if stem("trap") || stem("debugtrap") || stem("ubsantrap") {
            Trap
        } else if stem("is.constant") {
            IsConstant
        } else if stem("objectsize") {
            ObjectSize
        } else if let Some(op) = rest.strip_prefix("vector.reduce.") {
            let op = op.split('.').next().unwrap_or("");
            Reduce(match op {
                "add" => ReduceOp::Add,
                "mul" => ReduceOp::Mul,
                "and" => ReduceOp::And,
                "or" => ReduceOp::Or,
                "xor" => ReduceOp::Xor,
                "smax" => ReduceOp::SMax,
                "smin" => ReduceOp::SMin,
                "umax" => ReduceOp::UMax,
                "umin" => ReduceOp::UMin,
                _ => return None,
            })
        } else if stem("fabs") {
            FloatUnary(FloatFn::Fabs)
        } else if stem("floor") {
            FloatUnary(FloatFn::Floor)
        } else if stem("ceil") {
            FloatUnary(FloatFn::Ceil)
        } else if stem("trunc") {
            FloatUnary(FloatFn::Trunc)
        } else if stem("round") {
            FloatUnary(FloatFn::Round)
        } else if stem("rint") || stem("nearbyint") {
            FloatUnary(FloatFn::Rint)
        } else if stem("roundeven") {
            FloatUnary(FloatFn::RoundEven)
        } else if stem("sqrt") {
            FloatUnary(FloatFn::Sqrt)
        } else if stem("copysign") {
            FloatBinary(FloatFn::CopySign)
        } else if stem("minnum") {
            FloatBinary(FloatFn::MinNum)
        } else if stem("maxnum") {
            FloatBinary(FloatFn::MaxNum)
        } else if stem("minimum") {
            FloatBinary(FloatFn::Minimum)
        } else if stem("maximum") {
            FloatBinary(FloatFn::Maximum)
        } else if stem("pow") {
            FloatBinary(FloatFn::Pow)
        } else if stem("fma") {
            Fma
        } else if stem("fmuladd") {
            FmulAdd
        } else {
            return None;
        })
    }
}

impl Executor<'_> {
    /// Runs an intrinsic; returns its result, if it has one. The dispatch is the executor's:
    /// `memcpy`, `memmove`, `memset` and the overflow checks may fork; the other arms are
    /// functions on values (`intrinsics/arith.rs`, `intrinsics/fp.rs`) or `Cx` methods.
    pub(crate) fn call_intrinsic(
        &mut self,
        module: &Module,
        state: &mut State,
        inst: &Inst,
        intrinsic: Intrinsic,
        args: &[Value],
        arg_types: &[TypeId],
    ) -> Exec<Option<Value>> {
        use Intrinsic::*;
        let a = |i: usize| -> Exec<&Value> {
            args.get(i)
                .ok_or_else(|| exec("intrinsic called with too few arguments"))
        };
        Ok(match intrinsic {
            Constrained(c) => {
                return self.call_constrained(module, state, inst, c, args, arg_types);
            }
            MemCpy | MemMove => {
                let (dst, src) = (a(0)?, a(1)?);
                let what = if intrinsic == MemCpy {
                    "memcpy length"
                } else {
                    "memmove length"
                };
                if self.bounded_length_op(state, dst, Source::Copy(src), a(2)?, what)? {
                    return Ok(Some(dst.clone()));
                }
                let n = self.memory_length(state, &[dst, src], a(2)?, "memcpy length")?;
                if intrinsic == MemCpy {
                    self.check_no_overlap(state, dst, src, n)?;
                }
                let bytes = self.read_bytes(state, src, n)?;
                self.write_bytes(state, dst, &bytes)?;
                Some(dst.clone())
            }
            MemSet => {
                let byte = Expr::trunc(a(1)?.to_expr(), 8);
                let fill = Source::Fill(byte.clone());
                if self.bounded_length_op(state, a(0)?, fill, a(2)?, "memset length")? {
                    return Ok(Some(a(0)?.clone()));
                }
                let n = self.memory_length(state, &[a(0)?], a(2)?, "memset length")?;
                self.fill_bytes(state, a(0)?, &byte, n)?;
                Some(a(0)?.clone())
            }
            Nop => None,
            Identity => Some(a(0)?.clone()),
            VaStart => {
                self.va_start(state, a(0)?)?;
                None
            }
            VaCopy => {
                // x86-64's va_list is a 24-byte struct, i386's a pointer.
                let len = match self.program.module.data_model {
                    sear_ir::DataModel::Lp64 => 24,
                    sear_ir::DataModel::Ilp32 => 4,
                };
                let bytes = self.read_bytes(state, a(1)?, len)?;
                self.write_bytes(state, a(0)?, &bytes)?;
                None
            }
            Overflow(op) => Some(overflow(op, a(0)?, a(1)?)?),
            Saturating(op) => Some(
                ops::lift2(a(0)?, a(1)?, &mut |x, y| saturating(op, x, y)).map_err(unsupported)?,
            ),
            Abs if a(1)?.as_concrete() == Some(1) && is_signed_min(a(0)?) => {
                // `is_int_min_poison` set and the argument is INT_MIN: the result is poison
                // (KLEE reports it the same way).
                return Err(Termination::error(
                    ErrorKind::Exec,
                    "llvm.abs called with poison and INT_MIN",
                ));
            }
            Ctlz | Cttz | Ctpop | Bswap | BitReverse | Abs => {
                let x = a(0)?;
                Some(ops::lift1(x, &mut |v| Ok(unary_bits(intrinsic, v))).map_err(unsupported)?)
            }
            Fshl | Fshr => {
                let (x, y, z) = (a(0)?, a(1)?, a(2)?);
                Some(funnel(intrinsic == Fshl, x, y, z))
            }
            SMin | SMax | UMin | UMax => {
                let pred = match intrinsic {
                    SMin => sear_ir::IntPredicate::Slt,
                    SMax => sear_ir::IntPredicate::Sgt,
                    UMin => sear_ir::IntPredicate::Ult,
                    _ => sear_ir::IntPredicate::Ugt,
                };
                Some(
                    ops::lift2(a(0)?, a(1)?, &mut |x, y| {
                        Ok(select_value(&ops::icmp(pred, x, y), x, y))
                    })
                    .map_err(unsupported)?,
                )
            }
            StackSave => Some(Value::Concrete(0, 64)),
            IsFpClass => {
                let mask = a(1)?.as_concrete().unwrap_or(0) as u32;
                let kind = arg_types.first().and_then(|t| float_kind(module, *t));
                let x = a(0)?;
                if let Some(v) = kind.and_then(|k| self.cx().fp_class(k, x, mask)) {
                    return Ok(Some(v));
                }
                let x = self
                    .cx()
                    .concretize_value(state, a(0)?, "floating-point class test")?;
                Some(ops::lift1(&x, &mut |v| fp_class_test(v, mask)).map_err(unsupported)?)
            }
            LoadRelative => {
                // ptr + sext(load i32 from ptr + offset): a relative table entry.
                let (p, offset) = (a(0)?, a(1)?);
                let offset = Value::from_expr(Expr::sext_or_trunc(offset.to_expr(), 64));
                let at = ops::int_binary(sear_expr::BinOp::Add, p, &offset);
                let mut bytes = self.read_bytes(state, &at, 4)?;
                bytes.reverse(); // most significant byte first
                let rel = Expr::sext(Expr::concat_all(&bytes), 64);
                let module = &self.program.module;
                Some(super::layout::fit_pointer(
                    module,
                    ops::int_binary(sear_expr::BinOp::Add, p, &Value::from_expr(rel)),
                ))
            }
            PtrMask => {
                let (p, mask) = (a(0)?, a(1)?);
                let mask = Value::from_expr(Expr::zext_or_trunc(mask.to_expr(), p.width()));
                Some(ops::int_binary(sear_expr::BinOp::And, p, &mask))
            }
            Trap => return Err(Termination::error(ErrorKind::Abort, "llvm.trap called")),
            // True for an operand that is a constant in the IR, as LLVM's lowering of the
            // intrinsic decides (a value computed at run time is not, concrete or not).
            IsConstant => {
                let constant = matches!(
                    &inst.kind,
                    sear_ir::InstKind::Call { args, .. }
                        if matches!(args.first(), Some(sear_ir::Operand::Const(_)))
                );
                Some(Value::Concrete(constant as u128, 1))
            }
            // The bytes from the pointer to the end of its object when it is a concrete
            // pointer into a live object; otherwise unknown: 0 when the minimum is asked
            // for, all ones for the maximum (as LLVM's lowering answers).
            ObjectSize => {
                let min = a(1)?.as_concrete().unwrap_or(0) == 1;
                let width = super::calls::return_width(module, inst);
                let known = a(0)?
                    .as_concrete()
                    .and_then(|p| match state.memory.lookup(p as u64) {
                        crate::memory::Lookup::Live(e) => {
                            Some((e.object.address + e.object.size).saturating_sub(p as u64))
                        }
                        _ => None,
                    });
                Some(match known {
                    Some(n) => Value::concrete(n as u128, width),
                    None => Value::concrete(if min { 0 } else { mask(width) }, width),
                })
            }
            Reduce(op) => Some(reduce(op, a(0)?)),
            FloatUnary(f) | FloatBinary(f) => {
                let kind = float_kind(module, inst.ty)
                    .ok_or_else(|| exec("float intrinsic on non-float"))?;
                let rm = state.rounding;
                if let Some(v) = self.cx().fp_intrinsic(f, kind, args, rm) {
                    return Ok(Some(v));
                }
                let x = self
                    .cx()
                    .concretize_value(state, a(0)?, "floating-point intrinsic")?;
                let y = match intrinsic {
                    FloatBinary(_) => {
                        self.cx()
                            .concretize_value(state, a(1)?, "floating-point intrinsic")?
                    }
                    _ => x.clone(),
                };
                Some(
                    ops::lift2(&x, &y, &mut |p, q| {
                        let (p, q) = (p.as_concrete().unwrap_or(0), q.as_concrete().unwrap_or(0));
                        float_fn(f, kind, p, q, rm)
                            .map(|b| Value::concrete(b, ops::float_width(kind)))
                    })
                    .map_err(unsupported)?,
                )
            }
            Fma | FmulAdd => {
                let kind = float_kind(module, inst.ty).ok_or_else(|| exec("fma on non-float"))?;
                let name = if intrinsic == Fma { "fma" } else { "fmuladd" };
                let rm = state.rounding;
                if let Some(v) = self
                    .cx()
                    .fp_multi_fn(name, kind, &[a(0)?, a(1)?, a(2)?], rm)
                {
                    return Ok(Some(v));
                }
                let x = self.cx().concretize_value(state, a(0)?, "fma")?;
                let y = self.cx().concretize_value(state, a(1)?, "fma")?;
                let z = self.cx().concretize_value(state, a(2)?, "fma")?;
                let bits = |v: &Value| v.as_concrete().unwrap_or(0);
                let w = ops::float_width(kind);
                if intrinsic == Fma && fpsym::symbolic_format(kind) {
                    // One rounding, as glibc's `fma` (what `llvm.fma` calls at -O0).
                    let operands = [bits(&x), bits(&y), bits(&z)].map(|v| (v, w));
                    let r = sear_expr::fp::fold(sear_expr::fp::FpOp::Fma(rm), w, &operands);
                    return Ok(Some(Value::concrete(r, w)));
                }
                let (mul, add) = (sear_ir::BinaryOp::FMul, sear_ir::BinaryOp::FAdd);
                let xy =
                    ops::float_binary(mul, kind, bits(&x), bits(&y), rm).map_err(unsupported)?;
                let r = ops::float_binary(add, kind, xy, bits(&z), rm).map_err(unsupported)?;
                Some(Value::concrete(r, ops::float_width(kind)))
            }
        })
    }
}
