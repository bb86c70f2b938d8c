//! Parsed values and the SMT-LIB operators, mapped onto the simplifying constructors.
//!
//! Operators without a node of their own are expressed exactly with existing ones:
//! `bvneg x = 0 - x`, `bvnand = not(and)`, `bvcomp = ite(a = b, #b1, #b0)`, rotations and
//! `repeat` as concatenations of extracts, and `bvsmod` through `bvsrem` (see [`smod`]).

use crate::array::UpdateList;
use crate::bits::MAX_WIDTH;
use crate::expr::{BinOp, Expr};
use crate::smtlib::fpops::{
    apply_fp, canonical_mode, format_params, fp_equal, fp_fn_from_name, fp_indexed, FpFn,
};

/// A constant array `((as const (Array ...)) v)` with writes, kept apart from [`UpdateList`]
/// because reads beyond any size still give the default.
#[derive(Clone, Debug)]
pub(crate) struct ConstArray {
    pub index_width: u32,
    pub default: Expr,
    /// Writes, oldest first.
    pub stores: Vec<(Expr, Expr)>,
}

/// An array-sorted value.
#[derive(Clone, Debug)]
pub(crate) enum ArrayVal {
    Updates(UpdateList),
    Const(ConstArray),
}

impl ArrayVal {
    fn index_width(&self) -> u32 {
        match self {
            ArrayVal::Updates(u) => u.root().index_width(),
            ArrayVal::Const(c) => c.index_width,
        }
    }
}

/// A sorted value of a parsed term.
#[derive(Clone, Debug)]
pub(crate) enum Val {
    Bool(Expr),
    Bv(Expr),
    Array(ArrayVal),
    /// A float: the bit-vector of its encoding (32 or 64 bits).
    Fp(Expr),
    /// A rounding mode: a 3-bit index into [`crate::fp::RoundMode::ALL`].
    Rm(Expr),
}

impl Val {
    /// The SMT-LIB sort, for messages.
    pub(crate) fn sort_name(&self) -> String {
        match self {
            Val::Bool(_) => "Bool".into(),
            Val::Bv(e) => format!("(_ BitVec {})", e.width()),
            Val::Array(a) => crate::smtlib::dag::array_sort(a.index_width()),
            Val::Fp(e) => {
                let (eb, sb) = format_params(e.width());
                format!("(_ FloatingPoint {eb} {sb})")
            }
            Val::Rm(_) => "RoundingMode".into(),
        }
    }
}

/// A declared sort.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SortSpec {
    Bool,
    Bv(u32),
    Array(u32),
    /// A floating-point sort of the width (32 or 64).
    Fp(u32),
    /// `RoundingMode`.
    Rm,
}

impl SortSpec {
    /// True if `v` has this sort.
    pub(crate) fn matches(self, v: &Val) -> bool {
        match (self, v) {
            (SortSpec::Bool, Val::Bool(_)) => true,
            (SortSpec::Bv(w), Val::Bv(e)) => e.width() == w,
            (SortSpec::Array(iw), Val::Array(a)) => a.index_width() == iw,
            (SortSpec::Fp(w), Val::Fp(e)) => e.width() == w,
            (SortSpec::Rm, Val::Rm(_)) => true,
            _ => false,
        }
    }
}

/// Comparison operators of the bit-vector theory.
#[derive(Clone, Copy, Debug)]
pub(crate) enum BvCmp {
    Ult,
    Ule,
    Ugt,
    Uge,
    Slt,
    Sle,
    Sgt,
    Sge,
}

/// An operator in function position.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Op {
    Not,
    And,
    Or,
    Xor,
    Implies,
    Eq,
    Distinct,
    Ite,
    Concat,
    BvNot,
    BvNeg,
    /// A binary operator; `true` when it may take more than two arguments (left-assoc).
    BvBin(BinOp, bool),
    BvNand,
    BvNor,
    BvXnor,
    BvComp,
    BvSmod,
    BvCmp(BvCmp),
    Extract(u32, u32),
    ZeroExtend(u32),
    SignExtend(u32),
    Repeat(u32),
    RotateLeft(u32),
    RotateRight(u32),
    Select,
    Store,
    ConstArray(u32),
    /// An operator of the floating-point theory.
    Fp(FpFn),
}

/// The operator named by a plain symbol.
pub(crate) fn op_from_name(name: &str) -> Option<Op> {
    use BinOp::*;
    Some(match name {
        "not" => Op::Not,
        "and" => Op::And,
        "or" => Op::Or,
        "xor" => Op::Xor,
        "=>" => Op::Implies,
        "=" => Op::Eq,
        "distinct" => Op::Distinct,
        "ite" => Op::Ite,
        "concat" => Op::Concat,
        "bvnot" => Op::BvNot,
        "bvneg" => Op::BvNeg,
        "bvadd" => Op::BvBin(Add, true),
        "bvsub" => Op::BvBin(Sub, true),
        "bvmul" => Op::BvBin(Mul, true),
        "bvand" => Op::BvBin(And, true),
        "bvor" => Op::BvBin(Or, true),
        "bvxor" => Op::BvBin(Xor, true),
        "bvudiv" => Op::BvBin(UDiv, false),
        "bvsdiv" => Op::BvBin(SDiv, false),
        "bvurem" => Op::BvBin(URem, false),
        "bvsrem" => Op::BvBin(SRem, false),
        "bvshl" => Op::BvBin(Shl, false),
        "bvlshr" => Op::BvBin(LShr, false),
        "bvashr" => Op::BvBin(AShr, false),
        "bvnand" => Op::BvNand,
        "bvnor" => Op::BvNor,
        "bvxnor" => Op::BvXnor,
        "bvcomp" => Op::BvComp,
        "bvsmod" => Op::BvSmod,
        "bvult" => Op::BvCmp(BvCmp::Ult),
        "bvule" => Op::BvCmp(BvCmp::Ule),
        "bvugt" => Op::BvCmp(BvCmp::Ugt),
        "bvuge" => Op::BvCmp(BvCmp::Uge),
        "bvslt" => Op::BvCmp(BvCmp::Slt),
        "bvsle" => Op::BvCmp(BvCmp::Sle),
        "bvsgt" => Op::BvCmp(BvCmp::Sgt),
        "bvsge" => Op::BvCmp(BvCmp::Sge),
        "select" => Op::Select,
        "store" => Op::Store,
        _ => return fp_fn_from_name(name).map(Op::Fp),
    })
}

/// The operator `(_ name indices...)`.
pub(crate) fn indexed_op(name: &str, indices: &[u32]) -> Result<Op, String> {
    let one = |make: fn(u32) -> Op| match indices {
        [k] => Ok(make(*k)),
        _ => Err(format!("{name} takes one index")),
    };
    match name {
        "extract" => match indices {
            [i, j] if j <= i => Ok(Op::Extract(*i, *j)),
            [_, _] => Err("extract: the first index must not be below the second".into()),
            _ => Err("extract takes two indices".into()),
        },
        "zero_extend" => one(Op::ZeroExtend),
        "sign_extend" => one(Op::SignExtend),
        "repeat" => one(Op::Repeat),
        "rotate_left" => one(Op::RotateLeft),
        "rotate_right" => one(Op::RotateRight),
        _ => match fp_indexed(name, indices) {
            Some(f) => f.map(Op::Fp),
            None => Err(format!("unknown indexed operator {name}")),
        },
    }
}

type R = Result<Val, String>;

fn bools(name: &str, args: Vec<Val>) -> Result<Vec<Expr>, String> {
    args.into_iter()
        .map(|v| match v {
            Val::Bool(e) => Ok(e),
            other => Err(format!("{name}: expected Bool, got {}", other.sort_name())),
        })
        .collect()
}

/// Bit-vector arguments, all of the same width.
fn bvs(name: &str, args: Vec<Val>) -> Result<Vec<Expr>, String> {
    let mut out: Vec<Expr> = Vec::with_capacity(args.len());
    for v in args {
        match v {
            Val::Bv(e) => {
                if let Some(first) = out.first() {
                    if first.width() != e.width() {
                        return Err(format!(
                            "{name}: operand widths differ ({} and {})",
                            first.width(),
                            e.width()
                        ));
                    }
                }
                out.push(e);
            }
            other => {
                return Err(format!(
                    "{name}: expected a bit-vector, got {}",
                    other.sort_name()
                ))
            }
        }
    }
    Ok(out)
}

fn arity(name: &str, args: &[Val], min: usize, max: usize) -> Result<(), String> {
    if args.len() < min || args.len() > max {
        let expected = if min == max {
            format!("{min}")
        } else if max == usize::MAX {
            format!("at least {min}")
        } else {
            format!("{min} to {max}")
        };
        return Err(format!(
            "{name} expects {expected} arguments, got {}",
            args.len()
        ));
    }
    Ok(())
}

fn single_bv(name: &str, args: Vec<Val>) -> Result<Expr, String> {
    arity(name, &args, 1, 1)?;
    Ok(bvs(name, args)?.remove(0))
}

fn two_bvs(name: &str, args: Vec<Val>) -> Result<(Expr, Expr), String> {
    arity(name, &args, 2, 2)?;
    let mut v = bvs(name, args)?;
    let b = v.pop().expect("two arguments");
    Ok((v.pop().expect("two arguments"), b))
}

fn checked_width(name: &str, width: Option<u32>) -> Result<u32, String> {
    match width {
        Some(w) if (1..=MAX_WIDTH).contains(&w) => Ok(w),
        _ => Err(format!("{name}: result wider than {MAX_WIDTH} bits")),
    }
}

/// Equality of two values of the same sort (arrays are rejected).
fn equal(name: &str, a: &Val, b: &Val) -> Result<Expr, String> {
    match (a, b) {
        (Val::Bool(x), Val::Bool(y)) => Ok(Expr::eq(x.clone(), y.clone())),
        (Val::Bv(x), Val::Bv(y)) if x.width() == y.width() => Ok(Expr::eq(x.clone(), y.clone())),
        (Val::Fp(x), Val::Fp(y)) if x.width() == y.width() => fp_equal(x, y),
        (Val::Rm(x), Val::Rm(y)) => Ok(Expr::eq(canonical_mode(x), canonical_mode(y))),
        (Val::Array(_), _) | (_, Val::Array(_)) => {
            Err(format!("{name} between arrays is not supported"))
        }
        _ => Err(format!(
            "{name}: operands have different sorts ({} and {})",
            a.sort_name(),
            b.sort_name()
        )),
    }
}

/// `bvsmod`: the remainder with the sign of the divisor, built from `bvsrem`.
///
/// `srem(s, t)` has the magnitude of `urem(|s|, |t|)` and the sign of `s`; when it is
/// non-zero and the signs of `s` and `t` differ, adding `t` moves it to the sign of `t`.
/// This also gives `smod(s, 0) = s`, as SMT-LIB requires.
pub(crate) fn smod(s: Expr, t: Expr) -> Expr {
    let zero = Expr::constant(0, s.width());
    let r = Expr::srem(s.clone(), t.clone());
    let same_sign = Expr::eq(
        Expr::slt(s, zero.clone()),
        Expr::slt(t.clone(), zero.clone()),
    );
    let keep = Expr::or(Expr::eq(zero, r.clone()), same_sign);
    Expr::select(keep, r.clone(), Expr::add(r, t))
}

/// Rotates left by `k` bits.
pub(crate) fn rotate_left(x: Expr, k: u32) -> Expr {
    let w = x.width();
    let k = k % w;
    if k == 0 {
        return x;
    }
    Expr::concat(
        Expr::extract(x.clone(), 0, w - k),
        Expr::extract(x, w - k, k),
    )
}

/// A read of a constant array: an `ite` chain over its writes, ending in the default.
fn select_const(array: &ConstArray, index: Expr) -> Expr {
    let mut pending = Vec::new();
    let mut base = array.default.clone();
    for (i, v) in array.stores.iter().rev() {
        let same = Expr::eq(i.clone(), index.clone());
        if same.is_true() {
            base = v.clone();
            break;
        }
        if !same.is_false() {
            pending.push((same, v.clone()));
        }
    }
    pending
        .into_iter()
        .rev()
        .fold(base, |acc, (cond, v)| Expr::select(cond, v, acc))
}

/// Applies `op` to evaluated arguments; errors are messages without a position.
pub(crate) fn apply(op: Op, name: &str, mut args: Vec<Val>) -> R {
    match op {
        Op::Fp(f) => apply_fp(f, name, args),
        Op::Not => {
            arity(name, &args, 1, 1)?;
            Ok(Val::Bool(Expr::not(bools(name, args)?.remove(0))))
        }
        Op::And | Op::Or | Op::Xor => {
            let items = bools(name, args)?;
            let mut iter = items.into_iter();
            let first = iter
                .next()
                .ok_or_else(|| format!("{name} expects arguments"))?;
            Ok(Val::Bool(iter.fold(first, |acc, e| match op {
                Op::And => Expr::and(acc, e),
                Op::Or => Expr::or(acc, e),
                _ => Expr::xor(acc, e),
            })))
        }
        Op::Implies => {
            arity(name, &args, 2, usize::MAX)?;
            let items = bools(name, args)?;
            let mut iter = items.into_iter().rev();
            let last = iter.next().expect("at least two arguments");
            Ok(Val::Bool(iter.fold(last, |acc, e| Expr::implies(e, acc))))
        }
        Op::Eq => {
            arity(name, &args, 2, usize::MAX)?;
            let mut acc = Expr::true_();
            for pair in args.windows(2) {
                acc = Expr::and(acc, equal(name, &pair[0], &pair[1])?);
            }
            Ok(Val::Bool(acc))
        }
        Op::Distinct => {
            arity(name, &args, 2, usize::MAX)?;
            let mut acc = Expr::true_();
            for i in 0..args.len() {
                for j in i + 1..args.len() {
                    acc = Expr::and(acc, Expr::not(equal(name, &args[i], &args[j])?));
                }
            }
            Ok(Val::Bool(acc))
        }
        Op::Ite => {
            arity(name, &args, 3, 3)?;
            let else_val = args.pop().expect("three arguments");
            let then_val = args.pop().expect("three arguments");
            let cond = bools(name, args)?.remove(0);
            match (then_val, else_val) {
                (Val::Bool(t), Val::Bool(e)) => Ok(Val::Bool(Expr::select(cond, t, e))),
                (Val::Bv(t), Val::Bv(e)) if t.width() == e.width() => {
                    Ok(Val::Bv(Expr::select(cond, t, e)))
                }
                (Val::Fp(t), Val::Fp(e)) if t.width() == e.width() => {
                    Ok(Val::Fp(Expr::select(cond, t, e)))
                }
                (Val::Rm(t), Val::Rm(e)) => Ok(Val::Rm(Expr::select(cond, t, e))),
                (Val::Array(_), _) | (_, Val::Array(_)) => {
                    Err("ite over arrays is not supported".into())
                }
                (t, e) => Err(format!(
                    "ite: branches have different sorts ({} and {})",
                    t.sort_name(),
                    e.sort_name()
                )),
            }
        }
        Op::Concat => {
            arity(name, &args, 2, usize::MAX)?;
            let mut parts = Vec::with_capacity(args.len());
            let mut width: u32 = 0;
            for v in args {
                match v {
                    Val::Bv(e) => {
                        width = checked_width(name, width.checked_add(e.width()))?;
                        parts.push(e);
                    }
                    other => {
                        return Err(format!(
                            "concat: expected a bit-vector, got {}",
                            other.sort_name()
                        ))
                    }
                }
            }
            Ok(Val::Bv(Expr::concat_all(&parts)))
        }
        Op::BvNot => Ok(Val::Bv(Expr::not(single_bv(name, args)?))),
        Op::BvNeg => {
            let x = single_bv(name, args)?;
            Ok(Val::Bv(Expr::sub(Expr::constant(0, x.width()), x)))
        }
        Op::BvBin(bin, nary) => {
            arity(name, &args, 2, if nary { usize::MAX } else { 2 })?;
            let items = bvs(name, args)?;
            let mut iter = items.into_iter();
            let first = iter.next().expect("at least two arguments");
            Ok(Val::Bv(
                iter.fold(first, |acc, e| Expr::binary(bin, acc, e)),
            ))
        }
        Op::BvNand | Op::BvNor | Op::BvXnor => {
            let (a, b) = two_bvs(name, args)?;
            let inner = match op {
                Op::BvNand => Expr::and(a, b),
                Op::BvNor => Expr::or(a, b),
                _ => Expr::xor(a, b),
            };
            Ok(Val::Bv(Expr::not(inner)))
        }
        Op::BvComp => {
            let (a, b) = two_bvs(name, args)?;
            let one = Expr::constant(1, 1);
            Ok(Val::Bv(Expr::select(
                Expr::eq(a, b),
                one,
                Expr::constant(0, 1),
            )))
        }
        Op::BvSmod => {
            let (a, b) = two_bvs(name, args)?;
            Ok(Val::Bv(smod(a, b)))
        }
        Op::BvCmp(cmp) => {
            let (a, b) = two_bvs(name, args)?;
            Ok(Val::Bool(match cmp {
                BvCmp::Ult => Expr::ult(a, b),
                BvCmp::Ule => Expr::ule(a, b),
                BvCmp::Ugt => Expr::ugt(a, b),
                BvCmp::Uge => Expr::uge(a, b),
                BvCmp::Slt => Expr::slt(a, b),
                BvCmp::Sle => Expr::sle(a, b),
                BvCmp::Sgt => Expr::sgt(a, b),
                BvCmp::Sge => Expr::sge(a, b),
            }))
        }
        Op::Extract(i, j) => {
            let x = single_bv(name, args)?;
            if i >= x.width() {
                return Err(format!("extract: bit {i} of a {}-bit value", x.width()));
            }
            Ok(Val::Bv(Expr::extract(x, j, i - j + 1)))
        }
        Op::ZeroExtend(k) | Op::SignExtend(k) => {
            let x = single_bv(name, args)?;
            let w = checked_width(name, x.width().checked_add(k))?;
            Ok(Val::Bv(if matches!(op, Op::ZeroExtend(_)) {
                Expr::zext(x, w)
            } else {
                Expr::sext(x, w)
            }))
        }
        Op::Repeat(k) => {
            let x = single_bv(name, args)?;
            if k == 0 {
                return Err("repeat: the count must be positive".into());
            }
            checked_width(name, x.width().checked_mul(k))?;
            Ok(Val::Bv(Expr::concat_all(&vec![x; k as usize])))
        }
        Op::RotateLeft(k) => Ok(Val::Bv(rotate_left(single_bv(name, args)?, k))),
        Op::RotateRight(k) => {
            let x = single_bv(name, args)?;
            let w = x.width();
            Ok(Val::Bv(rotate_left(x, w - k % w)))
        }
        Op::Select => {
            arity(name, &args, 2, 2)?;
            let index = args.pop().expect("two arguments");
            let Val::Array(array) = args.pop().expect("two arguments") else {
                return Err("select: the first argument must be an array".into());
            };
            let index = array_index(name, &array, index)?;
            Ok(Val::Bv(match &array {
                ArrayVal::Updates(u) => Expr::read(u, index),
                ArrayVal::Const(c) => select_const(c, index),
            }))
        }
        Op::Store => {
            arity(name, &args, 3, 3)?;
            let value = match args.pop().expect("three arguments") {
                Val::Bv(v) if v.width() == 8 => v,
                other => {
                    return Err(format!(
                        "store: the value must be (_ BitVec 8), got {}",
                        other.sort_name()
                    ))
                }
            };
            let index = args.pop().expect("three arguments");
            let Val::Array(array) = args.pop().expect("three arguments") else {
                return Err("store: the first argument must be an array".into());
            };
            let index = array_index(name, &array, index)?;
            Ok(Val::Array(match array {
                ArrayVal::Updates(u) => ArrayVal::Updates(u.write(index, value)),
                ArrayVal::Const(mut c) => {
                    c.stores.push((index, value));
                    ArrayVal::Const(c)
                }
            }))
        }
        Op::ConstArray(index_width) => {
            arity(name, &args, 1, 1)?;
            match args.pop().expect("one argument") {
                Val::Bv(v) if v.width() == 8 => Ok(Val::Array(ArrayVal::Const(ConstArray {
                    index_width,
                    default: v,
                    stores: Vec::new(),
                }))),
                other => Err(format!(
                    "const array: the default must be (_ BitVec 8), got {}",
                    other.sort_name()
                )),
            }
        }
    }
}

fn array_index(name: &str, array: &ArrayVal, index: Val) -> Result<Expr, String> {
    match index {
        Val::Bv(i) if i.width() == array.index_width() => Ok(i),
        other => Err(format!(
            "{name}: the index must be (_ BitVec {}), got {}",
            array.index_width(),
            other.sort_name()
        )),
    }
}
