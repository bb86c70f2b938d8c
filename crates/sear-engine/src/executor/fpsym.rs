//! Symbolic floating point in the executor (`--fp=symbolic`, issue 34): the operations on
//! `float` and `double` values build [`sear_expr::ExprKind::Fp`] nodes (and bit-vector
//! operations for negation, `fabs`, `copysign` and class tests) instead of concretising
//! their symbolic operands. Every function here returns `None` when it does not apply
//! (concrete operands, `--fp=concretize`, another format, an unsupported shape); the caller
//! then takes the concrete path, which concretises with a warning.

use std::rc::Rc;

use sear_expr::fp::{FpArith, FpPred, RoundMode};
use sear_expr::Expr;
use sear_ir::{BinaryOp, CastOp, FloatKind, FloatPredicate};

use super::intrinsics::FloatFn;
use crate::config::FpMode;
use crate::executor::Cx;
use crate::value::Value;

/// True when a scalar inside `v` is symbolic.
pub(crate) fn has_symbolic(v: &Value) -> bool {
    match v {
        Value::Concrete(..) => false,
        Value::Symbolic(_) => true,
        Value::Aggregate(items) => items.iter().any(has_symbolic),
    }
}

fn scalar(v: &Value) -> Option<Expr> {
    match v {
        Value::Concrete(x, w) => Some(Expr::constant(*x, *w)),
        Value::Symbolic(e) => Some(e.clone()),
        Value::Aggregate(_) => None,
    }
}

/// `f` over the scalars of `args` (all scalars, or vectors of one length element-wise).
pub(crate) fn map_values(
    args: &[&Value],
    f: &mut dyn FnMut(&[Expr]) -> Option<Expr>,
) -> Option<Value> {
    if let Some(Value::Aggregate(first)) = args.first() {
        let n = first.len();
        let mut out = Vec::with_capacity(n);
        for i in 0..n {
            let mut elems = Vec::with_capacity(args.len());
            for a in args {
                match a {
                    Value::Aggregate(items) if items.len() == n => elems.push(&items[i]),
                    _ => return None,
                }
            }
            out.push(map_values(&elems, f)?);
        }
        return Some(Value::Aggregate(Rc::from(out)));
    }
    let exprs: Option<Vec<Expr>> = args.iter().map(|a| scalar(a)).collect();
    f(&exprs?).map(Value::from_expr)
}

/// The predicate of an `fcmp`.
pub(crate) fn pred(p: FloatPredicate) -> FpPred {
    match p {
        FloatPredicate::False => FpPred::False,
        FloatPredicate::Oeq => FpPred::Oeq,
        FloatPredicate::Ogt => FpPred::Ogt,
        FloatPredicate::Oge => FpPred::Oge,
        FloatPredicate::Olt => FpPred::Olt,
        FloatPredicate::Ole => FpPred::Ole,
        FloatPredicate::One => FpPred::One,
        FloatPredicate::Ord => FpPred::Ord,
        FloatPredicate::Ueq => FpPred::Ueq,
        FloatPredicate::Ugt => FpPred::Ugt,
        FloatPredicate::Uge => FpPred::Uge,
        FloatPredicate::Ult => FpPred::Ult,
        FloatPredicate::Ule => FpPred::Ule,
        FloatPredicate::Une => FpPred::Une,
        FloatPredicate::Uno => FpPred::Uno,
        FloatPredicate::True => FpPred::True,
    }
}

/// `llvm.minimum`/`llvm.maximum` on concrete bits of `kind`: `None` for other functions,
/// an error for formats other than `float`/`double` (the path then ends, naming it).
pub(crate) fn minimum_maximum(
    f: FloatFn,
    kind: FloatKind,
    a: u128,
    b: u128,
) -> Option<Result<u128, super::ops::Unsupported>> {
    let build = match f {
        FloatFn::Minimum => Expr::fp_minimum,
        FloatFn::Maximum => Expr::fp_maximum,
        _ => return None,
    };
    let w = super::ops::float_width(kind);
    let folded = build(Expr::constant(a, w), Expr::constant(b, w))
        .ok()
        .and_then(|e| e.as_constant());
    Some(folded.ok_or_else(|| {
        super::ops::Unsupported(format!(
            "llvm.minimum/maximum on {} is not supported",
            format_name(kind)
        ))
    }))
}

/// True for the formats sear reasons about symbolically.
pub(crate) fn symbolic_format(kind: FloatKind) -> bool {
    matches!(kind, FloatKind::Single | FloatKind::Double)
}

/// The C name of a format (for warnings about formats that stay concrete).
pub(crate) fn format_name(kind: FloatKind) -> &'static str {
    match kind {
        FloatKind::Half => "half",
        FloatKind::Single => "float",
        FloatKind::Double => "double",
        FloatKind::X86Fp80 => "x86_fp80 (long double)",
        FloatKind::Fp128 => "fp128",
    }
}

impl Cx<'_, '_> {
    /// Whether operations on `kind` with these operands are built symbolically.
    pub(crate) fn fp_applies(&mut self, kind: FloatKind, args: &[&Value]) -> bool {
        if self.config.fp != FpMode::Symbolic || !args.iter().any(|a| has_symbolic(a)) {
            return false;
        }
        if !symbolic_format(kind) {
            self.report.warn_once(&format!(
                "floating-point type {} is not reasoned about symbolically: concretizing",
                format_name(kind)
            ));
            return false;
        }
        true
    }

    /// `fadd`…`frem` on symbolic operands, rounded in mode `rm`.
    pub(crate) fn fp_binary(
        &mut self,
        op: BinaryOp,
        kind: FloatKind,
        a: &Value,
        b: &Value,
        rm: RoundMode,
    ) -> Option<Value> {
        if !self.fp_applies(kind, &[a, b]) {
            return None;
        }
        let op = match op {
            BinaryOp::FAdd => FpArith::Add,
            BinaryOp::FSub => FpArith::Sub,
            BinaryOp::FMul => FpArith::Mul,
            BinaryOp::FDiv => FpArith::Div,
            BinaryOp::FRem => FpArith::Rem,
            _ => return None,
        };
        let r = map_values(&[a, b], &mut |x| {
            Expr::fp_arith_rm(op, rm, x[0].clone(), x[1].clone()).ok()
        });
        self.count_fp(r)
    }

    /// `fneg` on a symbolic operand.
    pub(crate) fn fp_neg(&mut self, kind: FloatKind, a: &Value) -> Option<Value> {
        if !self.fp_applies(kind, &[a]) {
            return None;
        }
        let r = map_values(&[a], &mut |x| Expr::fneg(x[0].clone()).ok());
        self.count_fp(r)
    }

    /// `fcmp` on symbolic operands.
    pub(crate) fn fp_cmp(
        &mut self,
        p: FloatPredicate,
        kind: FloatKind,
        a: &Value,
        b: &Value,
    ) -> Option<Value> {
        if !self.fp_applies(kind, &[a, b]) {
            return None;
        }
        let p = pred(p);
        let r = map_values(&[a, b], &mut |x| {
            Expr::fcmp(p, x[0].clone(), x[1].clone()).ok()
        });
        self.count_fp(r)
    }

    /// A floating-point cast (`fptosi`, `fptoui`, `sitofp`, `uitofp`, `fpext`, `fptrunc`) of
    /// a symbolic operand, `from`/`to` the float formats of its sides (None for an integer
    /// side) and `to_width` the result's width, rounded in mode `rm` where it rounds.
    pub(crate) fn fp_cast(
        &mut self,
        op: CastOp,
        from: Option<FloatKind>,
        to: Option<FloatKind>,
        to_width: u32,
        v: &Value,
        rm: RoundMode,
    ) -> Option<Value> {
        let kinds: Vec<FloatKind> = from.into_iter().chain(to).collect();
        let kind = *kinds
            .iter()
            .find(|k| !symbolic_format(**k))
            .or(kinds.first())?;
        if !self.fp_applies(kind, &[v]) {
            return None;
        }
        let r = map_values(&[v], &mut |x| {
            let x = x[0].clone();
            match op {
                CastOp::FpToSi => Expr::fp_to_int(true, x, to_width).ok(),
                CastOp::FpToUi => Expr::fp_to_int(false, x, to_width).ok(),
                CastOp::SiToFp => Expr::int_to_fp_rm(true, rm, x, to_width).ok(),
                CastOp::UiToFp => Expr::int_to_fp_rm(false, rm, x, to_width).ok(),
                CastOp::FpExt | CastOp::FpTrunc => Expr::fp_convert_rm(rm, x, to_width).ok(),
                _ => None,
            }
        });
        self.count_fp(r)
    }

    /// A one-operand intrinsic or libm function on a symbolic operand: `sqrt`, `fabs`, the
    /// roundings (`sqrt` rounds in mode `rm`; `rint` and `nearbyint` round to an integral
    /// value in it). `None` for other names.
    pub(crate) fn fp_unary_fn(
        &mut self,
        name: &str,
        kind: FloatKind,
        a: &Value,
        rm: RoundMode,
    ) -> Option<Value> {
        if !self.fp_applies(kind, &[a]) {
            return None;
        }
        let build = |x: Expr| match name {
            "sqrt" => Expr::fp_sqrt_rm(rm, x).ok(),
            "fabs" => Expr::fabs(x).ok(),
            "floor" => Expr::fp_round(RoundMode::Down, x).ok(),
            "ceil" => Expr::fp_round(RoundMode::Up, x).ok(),
            "trunc" => Expr::fp_round(RoundMode::Zero, x).ok(),
            "round" => Expr::fp_round(RoundMode::NearestAway, x).ok(),
            "rint" | "nearbyint" => Expr::fp_round(rm, x).ok(),
            "roundeven" => Expr::fp_round(RoundMode::NearestEven, x).ok(),
            _ => None,
        };
        if !matches!(
            name,
            "sqrt"
                | "fabs"
                | "floor"
                | "ceil"
                | "trunc"
                | "round"
                | "rint"
                | "nearbyint"
                | "roundeven"
        ) {
            return None;
        }
        let r = map_values(&[a], &mut |x| build(x[0].clone()));
        self.count_fp(r)
    }

    /// A two- or three-operand intrinsic or libm function on symbolic operands: `copysign`,
    /// `minnum`/`maxnum` (and C's `fmin`/`fmax`), `fmod`, `fma`, `fmuladd` (unfused, as
    /// x86-64 without FMA compiles it); `fma` and `fmuladd` round in mode `rm`. `None` for
    /// other names.
    pub(crate) fn fp_multi_fn(
        &mut self,
        name: &str,
        kind: FloatKind,
        args: &[&Value],
        rm: RoundMode,
    ) -> Option<Value> {
        if !self.fp_applies(kind, args) {
            return None;
        }
        let arity = match name {
            "fma" | "fmuladd" => 3,
            "copysign" | "minnum" | "maxnum" | "fmin" | "fmax" | "fmod" | "remainder"
            | "minimum" | "maximum" => 2,
            _ => return None,
        };
        if args.len() != arity {
            return None;
        }
        let r = map_values(args, &mut |x| {
            let (a, b) = (x[0].clone(), x[1].clone());
            match name {
                "copysign" => Expr::copysign(a, b).ok(),
                "minnum" | "fmin" => Expr::fp_min(a, b).ok(),
                "maxnum" | "fmax" => Expr::fp_max(a, b).ok(),
                "fmod" => Expr::fp_arith(FpArith::Rem, a, b).ok(),
                "remainder" => Expr::fp_arith(FpArith::IeeeRem, a, b).ok(),
                "minimum" => Expr::fp_minimum(a, b).ok(),
                "maximum" => Expr::fp_maximum(a, b).ok(),
                "fma" => Expr::fp_fma_rm(rm, a, b, x[2].clone()).ok(),
                "fmuladd" => {
                    let p = Expr::fp_arith_rm(FpArith::Mul, rm, a, b).ok()?;
                    Expr::fp_arith_rm(FpArith::Add, rm, p, x[2].clone()).ok()
                }
                _ => None,
            }
        });
        self.count_fp(r)
    }

    /// A float intrinsic (`llvm.fabs`, `llvm.floor`…, `llvm.copysign`, `llvm.minnum`…) on
    /// symbolic operands, in rounding mode `rm`; `None` for `pow` (concretised) and
    /// concrete operands.
    pub(crate) fn fp_intrinsic(
        &mut self,
        f: FloatFn,
        kind: FloatKind,
        args: &[Value],
        rm: RoundMode,
    ) -> Option<Value> {
        let name = match f {
            FloatFn::Fabs => "fabs",
            FloatFn::Floor => "floor",
            FloatFn::Ceil => "ceil",
            FloatFn::Trunc => "trunc",
            FloatFn::Round => "round",
            FloatFn::Rint => "rint",
            FloatFn::RoundEven => "roundeven",
            FloatFn::Sqrt => "sqrt",
            FloatFn::CopySign => "copysign",
            FloatFn::MinNum => "minnum",
            FloatFn::MaxNum => "maxnum",
            FloatFn::Minimum => "minimum",
            FloatFn::Maximum => "maximum",
            FloatFn::Pow => return None,
        };
        match args {
            [a] => self.fp_unary_fn(name, kind, a, rm),
            [a, b, ..]
                if matches!(
                    f,
                    FloatFn::CopySign
                        | FloatFn::MinNum
                        | FloatFn::MaxNum
                        | FloatFn::Minimum
                        | FloatFn::Maximum
                ) =>
            {
                self.fp_multi_fn(name, kind, &[a, b], rm)
            }
            [a, ..] => self.fp_unary_fn(name, kind, a, rm),
            [] => None,
        }
    }

    /// `is.fpclass(a, mask)` on a symbolic operand.
    pub(crate) fn fp_class(&mut self, kind: FloatKind, a: &Value, mask: u32) -> Option<Value> {
        if !self.fp_applies(kind, &[a]) {
            return None;
        }
        let r = map_values(&[a], &mut |x| Expr::is_fpclass(x[0].clone(), mask).ok());
        self.count_fp(r)
    }

    fn count_fp(&mut self, r: Option<Value>) -> Option<Value> {
        if r.is_some() {
            self.stats.fp_symbolic_ops += 1;
        }
        r
    }
}

/// What x86-64 code gives for a plain `uitofp` (not the constrained intrinsic) of `v` to
/// `double`, `r` being the correctly rounded conversion: clang 19's lowering of a 64-bit
/// `uitofp` computes `(2^84 + hi·2^32 − 2^84) + (2^52 + lo − 2^52)`, whose exact
/// subtractions give −0 when rounding down, so 0 converts to −0.0 under `FE_DOWNWARD`
/// (measured natively at -O0 and -O2). Every other case is `r`.
pub(crate) fn x86_uitofp(
    rm: RoundMode,
    from: u32,
    to: Option<FloatKind>,
    v: &Value,
    r: Value,
) -> Value {
    if rm != RoundMode::Down || from != 64 || to != Some(FloatKind::Double) {
        return r;
    }
    map_values(&[v, &r], &mut |x| {
        let zero = Expr::eq(x[0].clone(), Expr::constant(0, 64));
        let neg_zero = Expr::constant(1 << 63, 64);
        Some(Expr::select(zero, neg_zero, x[1].clone()))
    })
    .unwrap_or(r)
}
