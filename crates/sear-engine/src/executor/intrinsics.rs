//! `llvm.*` intrinsics (and the libc memory functions that share their semantics).

use sear_expr::bits::{mask, to_signed};
use sear_expr::Expr;
use sear_ir::{Inst, Module, TypeId};

use super::memlen::Source;
use super::ops::{self, decode_float, encode_float, HostFloat};
use super::step::{exec, float_kind, select_value, unsupported};
use super::{Exec, Executor};
use crate::state::State;
use crate::termination::{ErrorKind, Termination};
use crate::value::Value;

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
    Rint,
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
        } else if stem("rint") || stem("nearbyint") || stem("roundeven") {
            FloatUnary(FloatFn::Rint)
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
    /// Runs an intrinsic; returns its result, if it has one.
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
                if let Some(v) = kind.and_then(|k| self.fp_class(k, x, mask)) {
                    return Ok(Some(v));
                }
                let x = self.concretize_value(state, a(0)?, "floating-point class test")?;
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
                let width = Self::return_width(module, inst);
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
                if let Some(v) = self.fp_intrinsic(f, kind, args) {
                    return Ok(Some(v));
                }
                let x = self.concretize_value(state, a(0)?, "floating-point intrinsic")?;
                let y = match intrinsic {
                    FloatBinary(_) => {
                        self.concretize_value(state, a(1)?, "floating-point intrinsic")?
                    }
                    _ => x.clone(),
                };
                Some(
                    ops::lift2(&x, &y, &mut |p, q| {
                        let (p, q) = (p.as_concrete().unwrap_or(0), q.as_concrete().unwrap_or(0));
                        float_fn(f, kind, p, q).map(|b| Value::concrete(b, ops::float_width(kind)))
                    })
                    .map_err(unsupported)?,
                )
            }
            Fma | FmulAdd => {
                let kind = float_kind(module, inst.ty).ok_or_else(|| exec("fma on non-float"))?;
                let name = if intrinsic == Fma { "fma" } else { "fmuladd" };
                if let Some(v) = self.fp_multi_fn(name, kind, &[a(0)?, a(1)?, a(2)?]) {
                    return Ok(Some(v));
                }
                let x = self.concretize_value(state, a(0)?, "fma")?;
                let y = self.concretize_value(state, a(1)?, "fma")?;
                let z = self.concretize_value(state, a(2)?, "fma")?;
                let bits = |v: &Value| v.as_concrete().unwrap_or(0);
                let xy = ops::float_binary(sear_ir::BinaryOp::FMul, kind, bits(&x), bits(&y))
                    .map_err(unsupported)?;
                let r = ops::float_binary(sear_ir::BinaryOp::FAdd, kind, xy, bits(&z))
                    .map_err(unsupported)?;
                Some(Value::concrete(r, ops::float_width(kind)))
            }
        })
    }
}

fn overflow(op: OverflowOp, a: &Value, b: &Value) -> Exec<Value> {
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
fn saturating(op: OverflowOp, a: &Value, b: &Value) -> Result<Value, ops::Unsupported> {
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

/// `llvm.is.fpclass`: whether the class of the float `v` (`float`, `double` or `x86_fp80`,
/// by width) is in `mask`: bit 0 signaling NaN, 1 quiet NaN, 2 -inf, 3 -normal,
/// 4 -subnormal, 5 -0, 6 +0, 7 +subnormal, 8 +normal, 9 +inf.
fn fp_class_test(v: &Value, mask: u32) -> Result<Value, ops::Unsupported> {
    let bits = v.as_concrete().unwrap_or(0);
    // (sign, exponent all ones, exponent zero, fraction is zero, quiet bit)
    let (negative, max_exp, zero_exp, zero_frac, quiet) = match v.width() {
        32 => {
            let (e, f) = ((bits >> 23) & 0xFF, bits & 0x7F_FFFF);
            (
                bits >> 31 & 1 == 1,
                e == 0xFF,
                e == 0,
                f == 0,
                f >> 22 & 1 == 1,
            )
        }
        64 => {
            let (e, f) = ((bits >> 52) & 0x7FF, bits & 0xF_FFFF_FFFF_FFFF);
            (
                bits >> 63 & 1 == 1,
                e == 0x7FF,
                e == 0,
                f == 0,
                f >> 51 & 1 == 1,
            )
        }
        80 => {
            // The integer bit (63) is explicit; the fraction is bits 0..63.
            let (e, f) = ((bits >> 64) & 0x7FFF, bits & 0x7FFF_FFFF_FFFF_FFFF);
            let zero_exp = e == 0 && bits & (1 << 63) == 0;
            (
                bits >> 79 & 1 == 1,
                e == 0x7FFF,
                zero_exp,
                f == 0,
                f >> 62 & 1 == 1,
            )
        }
        w => {
            return Err(ops::Unsupported(format!(
                "llvm.is.fpclass on a {w}-bit value"
            )))
        }
    };
    let class = match (max_exp, zero_exp, zero_frac) {
        (true, _, false) if quiet => 1,
        (true, _, false) => 0,
        (true, _, true) => 2,
        (false, true, true) => 5,
        (false, true, false) => 4,
        (false, false, _) => 3,
    };
    // Negative classes are 2..=5; the positive ones mirror them: 9..=6.
    let bit = if class < 2 || negative {
        class
    } else {
        11 - class
    };
    Ok(Value::bool(mask >> bit & 1 == 1))
}

fn funnel(left: bool, a: &Value, b: &Value, c: &Value) -> Value {
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

fn reduce(op: ReduceOp, v: &Value) -> Value {
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

fn float_fn(
    f: FloatFn,
    kind: sear_ir::FloatKind,
    a: u128,
    b: u128,
) -> Result<u128, ops::Unsupported> {
    if let Some(bits) = super::fpsym::minimum_maximum(f, kind, a, b) {
        return bits;
    }
    let as64 = |h: HostFloat| match h {
        HostFloat::F32(x) => x as f64,
        HostFloat::F64(x) => x,
    };
    let x = as64(decode_float(kind, a)?);
    let y = as64(decode_float(kind, b)?);
    let r = match f {
        FloatFn::Fabs => x.abs(),
        FloatFn::Floor => x.floor(),
        FloatFn::Ceil => x.ceil(),
        FloatFn::Trunc => x.trunc(),
        FloatFn::Round => x.round(),
        FloatFn::Rint => x.round_ties_even(),
        FloatFn::Sqrt => x.sqrt(),
        FloatFn::CopySign => x.copysign(y),
        FloatFn::MinNum => x.min(y),
        FloatFn::MaxNum => x.max(y),
        FloatFn::Pow => x.powf(y),
        FloatFn::Minimum | FloatFn::Maximum => unreachable!("minimum_maximum answered"),
    };
    encode_float(kind, r)
}

/// True when `v` is the concrete minimum signed value of its width.
fn is_signed_min(v: &Value) -> bool {
    match v {
        Value::Concrete(bits, w) if *w > 0 => *bits == 1u128 << (w - 1),
        _ => false,
    }
}
