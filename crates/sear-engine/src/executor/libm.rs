//! The C math library's transcendental functions (`sin`, `cos`, `tan`, their inverses and
//! hyperbolic forms, `exp`, `exp2`, `expm1`, `log`, `log2`, `log10`, `log1p`, `cbrt`, `pow`,
//! `atan2`, `hypot`), with their `f` (float) and `l` (long double) variants.
//!
//! Arguments are concrete values (a symbolic one is concretised, with a warning, as for the
//! floating-point intrinsics). `float` and `double` results are computed by the host's C
//! library through Rust's `f32`/`f64` methods, which call it: on Linux that is glibc, so a
//! result is bit for bit what the program computes natively. `long double` is computed in
//! double precision (glibc's x87 versions are not reachable from Rust) and widened, with a
//! warning once per run.
//!
//! `remainder` (IEEE remainder, exact) is not transcendental: [`Executor::call_remainder`]
//! builds an `fp.rem` node on symbolic operands and folds concrete ones (glibc's results,
//! NaNs included); `long double` operands are computed concretely by `rustc_apfloat`.

use sear_ir::{FloatKind, Inst, Module};

use super::ops::{decode_float, encode_float, HostFloat};
use sear_expr::fp::{FpArith, FpOp};

use super::step::{exec, float_kind};
use super::Exec;
use crate::executor::Cx;
use crate::state::State;
use crate::value::Value;

/// A math library function.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum MathFn {
    Sin,
    Cos,
    Tan,
    Asin,
    Acos,
    Atan,
    Sinh,
    Cosh,
    Tanh,
    Exp,
    Exp2,
    Expm1,
    Log,
    Log2,
    Log10,
    Log1p,
    Cbrt,
    Pow,
    Atan2,
    Hypot,
}

impl MathFn {
    /// The function a C name calls (`sin`, `sinf`, `sinl`, ...).
    pub fn lookup(name: &str) -> Option<MathFn> {
        let base = |stem: &str| {
            name == stem
                || name
                    .strip_prefix(stem)
                    .is_some_and(|s| s == "f" || s == "l")
        };
        use MathFn::*;
        [
            ("sin", Sin),
            ("cos", Cos),
            ("tan", Tan),
            ("asin", Asin),
            ("acos", Acos),
            ("atan", Atan),
            ("sinh", Sinh),
            ("cosh", Cosh),
            ("tanh", Tanh),
            ("exp", Exp),
            ("exp2", Exp2),
            ("expm1", Expm1),
            ("log", Log),
            ("log2", Log2),
            ("log10", Log10),
            ("log1p", Log1p),
            ("cbrt", Cbrt),
            ("pow", Pow),
            ("atan2", Atan2),
            ("hypot", Hypot),
        ]
        .into_iter()
        .find(|(stem, _)| base(stem))
        .map(|(_, f)| f)
    }

    /// The function's C name (the `double` version).
    pub fn c_name(self) -> String {
        format!("{self:?}").to_lowercase()
    }

    fn binary(self) -> bool {
        matches!(self, MathFn::Pow | MathFn::Atan2 | MathFn::Hypot)
    }

    fn f64(self, x: f64, y: f64) -> f64 {
        use MathFn::*;
        match self {
            Sin => x.sin(),
            Cos => x.cos(),
            Tan => x.tan(),
            Asin => x.asin(),
            Acos => x.acos(),
            Atan => x.atan(),
            Sinh => x.sinh(),
            Cosh => x.cosh(),
            Tanh => x.tanh(),
            Exp => x.exp(),
            Exp2 => x.exp2(),
            Expm1 => x.exp_m1(),
            Log => x.ln(),
            Log2 => x.log2(),
            Log10 => x.log10(),
            Log1p => x.ln_1p(),
            Cbrt => x.cbrt(),
            Pow => x.powf(y),
            Atan2 => x.atan2(y),
            Hypot => x.hypot(y),
        }
    }

    fn f32(self, x: f32, y: f32) -> f32 {
        use MathFn::*;
        match self {
            Sin => x.sin(),
            Cos => x.cos(),
            Tan => x.tan(),
            Asin => x.asin(),
            Acos => x.acos(),
            Atan => x.atan(),
            Sinh => x.sinh(),
            Cosh => x.cosh(),
            Tanh => x.tanh(),
            Exp => x.exp(),
            Exp2 => x.exp2(),
            Expm1 => x.exp_m1(),
            Log => x.ln(),
            Log2 => x.log2(),
            Log10 => x.log10(),
            Log1p => x.ln_1p(),
            Cbrt => x.cbrt(),
            Pow => x.powf(y),
            Atan2 => x.atan2(y),
            Hypot => x.hypot(y),
        }
    }
}

impl Cx<'_, '_> {
    /// Calls the math function `f` on `args`; the float type is the call's result type.
    pub(crate) fn call_math(
        &mut self,
        module: &Module,
        state: &mut State,
        inst: &Inst,
        f: MathFn,
        args: &[Value],
    ) -> Exec<Value> {
        let kind = float_kind(module, inst.ty)
            .ok_or_else(|| exec("math function with a non-floating-point result"))?;
        let arity = if f.binary() { 2 } else { 1 };
        if args.len() < arity {
            return Err(exec("math function called with too few arguments"));
        }
        let mut bits = [0u128; 2];
        for (i, a) in args.iter().take(arity).enumerate() {
            let reason = format!(
                "the argument of the transcendental math function {} (not symbolic)",
                f.c_name()
            );
            let v = self.concretize_value(state, a, &reason)?;
            bits[i] = v.as_concrete().unwrap_or(0);
        }
        let unsupported = |e: super::ops::Unsupported| exec(e.0);
        let result = match kind {
            FloatKind::Single => {
                let x = f32::from_bits(bits[0] as u32);
                let y = f32::from_bits(bits[1] as u32);
                f.f32(x, y).to_bits() as u128
            }
            FloatKind::Double => {
                let x = f64::from_bits(bits[0] as u64);
                let y = f64::from_bits(bits[1] as u64);
                f.f64(x, y).to_bits() as u128
            }
            other => {
                self.report
                    .warn_once("long double math functions are computed in double precision");
                let as64 = |b: u128| match decode_float(other, b) {
                    Ok(HostFloat::F64(x)) => Ok(x),
                    Ok(HostFloat::F32(x)) => Ok(x as f64),
                    Err(e) => Err(e),
                };
                let x = as64(bits[0]).map_err(unsupported)?;
                let y = as64(bits[1]).map_err(unsupported)?;
                encode_float(other, f.f64(x, y)).map_err(unsupported)?
            }
        };
        Ok(Value::concrete(result, super::ops::float_width(kind)))
    }

    /// `remainder(x, y)` (`remainderf`, `remainderl`): the IEEE remainder, exact. Symbolic
    /// operands of `float`/`double` build an `fp.rem` node (under `--fp=symbolic`);
    /// otherwise the operands are concretised (with a warning when symbolic) and the
    /// result folded.
    pub(crate) fn call_remainder(
        &mut self,
        module: &Module,
        state: &mut State,
        inst: &Inst,
        args: &[Value],
    ) -> Exec<Value> {
        let kind = float_kind(module, inst.ty)
            .ok_or_else(|| exec("remainder with a non-floating-point result"))?;
        let [x, y, ..] = args else {
            return Err(exec("remainder called with too few arguments"));
        };
        if let Some(v) = self.fp_multi_fn("remainder", kind, &[x, y], Default::default()) {
            return Ok(v);
        }
        let reason = "the arguments of remainder";
        let x = self.concretize_value(state, x, reason)?;
        let y = self.concretize_value(state, y, reason)?;
        let (a, b) = (x.as_concrete().unwrap_or(0), y.as_concrete().unwrap_or(0));
        let w = super::ops::float_width(kind);
        let bits = match kind {
            FloatKind::Single | FloatKind::Double => sear_expr::fp::fold(
                FpOp::Arith(FpArith::IeeeRem, Default::default()),
                w,
                &[(a, w), (b, w)],
            ),
            other => super::softfloat::ieee_rem(other, a, b),
        };
        Ok(Value::concrete(bits, w))
    }
}
