//! The concrete oracle: every table row is the result of the real implementation, the host
//! C library's `string.h` and `math.h` functions (glibc on Linux, the library a program
//! replayed natively calls) and the processor's IEEE arithmetic for the float instructions.

use std::ffi::{c_char, c_int, CString};

use crate::ops::{Arith, MathFn, Op, StrFn};
use crate::value::{GValue, Ty};

/// An argument of an operator application.
#[derive(Clone, Copy, Debug)]
pub enum Arg<'a> {
    /// An indexed value.
    Val(&'a GValue),
    /// An integer argument (as the C call receives it: `size_t`, `int`).
    Int(u64),
}

/// The result of one application.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Outcome {
    /// A value of an indexed type.
    Value(GValue),
    /// An integer (or boolean 0/1, or a byte offset into the first argument).
    Int(u64),
    /// The null pointer (no match).
    Null,
}

mod libm {
    extern "C" {
        pub fn fabs(x: f64) -> f64;
        pub fn floor(x: f64) -> f64;
        pub fn ceil(x: f64) -> f64;
        pub fn trunc(x: f64) -> f64;
        pub fn round(x: f64) -> f64;
        pub fn sqrt(x: f64) -> f64;
        pub fn sin(x: f64) -> f64;
        pub fn cos(x: f64) -> f64;
        pub fn tan(x: f64) -> f64;
        pub fn asin(x: f64) -> f64;
        pub fn acos(x: f64) -> f64;
        pub fn atan(x: f64) -> f64;
        pub fn sinh(x: f64) -> f64;
        pub fn cosh(x: f64) -> f64;
        pub fn tanh(x: f64) -> f64;
        pub fn exp(x: f64) -> f64;
        pub fn exp2(x: f64) -> f64;
        pub fn expm1(x: f64) -> f64;
        pub fn log(x: f64) -> f64;
        pub fn log2(x: f64) -> f64;
        pub fn log10(x: f64) -> f64;
        pub fn log1p(x: f64) -> f64;
        pub fn cbrt(x: f64) -> f64;
        pub fn pow(x: f64, y: f64) -> f64;
        pub fn atan2(x: f64, y: f64) -> f64;
        pub fn hypot(x: f64, y: f64) -> f64;
        pub fn fmod(x: f64, y: f64) -> f64;
        pub fn fmin(x: f64, y: f64) -> f64;
        pub fn fmax(x: f64, y: f64) -> f64;
        pub fn copysign(x: f64, y: f64) -> f64;
        pub fn fabsf(x: f32) -> f32;
        pub fn floorf(x: f32) -> f32;
        pub fn ceilf(x: f32) -> f32;
        pub fn truncf(x: f32) -> f32;
        pub fn roundf(x: f32) -> f32;
        pub fn sqrtf(x: f32) -> f32;
        pub fn sinf(x: f32) -> f32;
        pub fn cosf(x: f32) -> f32;
        pub fn tanf(x: f32) -> f32;
        pub fn asinf(x: f32) -> f32;
        pub fn acosf(x: f32) -> f32;
        pub fn atanf(x: f32) -> f32;
        pub fn sinhf(x: f32) -> f32;
        pub fn coshf(x: f32) -> f32;
        pub fn tanhf(x: f32) -> f32;
        pub fn expf(x: f32) -> f32;
        pub fn exp2f(x: f32) -> f32;
        pub fn expm1f(x: f32) -> f32;
        pub fn logf(x: f32) -> f32;
        pub fn log2f(x: f32) -> f32;
        pub fn log10f(x: f32) -> f32;
        pub fn log1pf(x: f32) -> f32;
        pub fn cbrtf(x: f32) -> f32;
        pub fn powf(x: f32, y: f32) -> f32;
        pub fn atan2f(x: f32, y: f32) -> f32;
        pub fn hypotf(x: f32, y: f32) -> f32;
        pub fn fmodf(x: f32, y: f32) -> f32;
        pub fn fminf(x: f32, y: f32) -> f32;
        pub fn fmaxf(x: f32, y: f32) -> f32;
        pub fn copysignf(x: f32, y: f32) -> f32;
    }
}

/// Applies `op` to `args` with the real implementation. `None` when the arguments do not
/// fit the operator's signature (a caller's mistake).
pub fn apply(op: &Op, args: &[Arg]) -> Option<Outcome> {
    match op {
        Op::Str(f) => apply_str(*f, args),
        Op::Arith(a, ty) => {
            let (x, y) = (float(args.first()?)?, float(args.get(1)?)?);
            Some(Outcome::Value(match ty {
                Ty::F64 => GValue::f64(arith64(*a, x, y)),
                Ty::F32 => GValue::f32(arith32(*a, x as f32, y as f32)),
                Ty::Str => return None,
            }))
        }
        Op::Neg(ty) => {
            let v = value(args.first()?)?;
            Some(Outcome::Value(match v {
                GValue::F64(b) => GValue::F64(b ^ (1 << 63)).canonical(),
                GValue::F32(b) => GValue::F32(b ^ (1 << 31)).canonical(),
                GValue::Str(_) => return None,
            }))
            .filter(|_| v.ty() == *ty)
        }
        Op::Cmp(p, _) => {
            let (x, y) = (float(args.first()?)?, float(args.get(1)?)?);
            Some(Outcome::Int(p.holds(x, y) as u64))
        }
        Op::ToInt { signed, width, .. } => {
            let x = float(args.first()?)?;
            Some(Outcome::Int(to_int(x, *signed, *width)))
        }
        Op::Ext => Some(Outcome::Value(GValue::f64(
            value(args.first()?)?.as_f32()? as f64
        ))),
        Op::Trunc => Some(Outcome::Value(GValue::f32(
            value(args.first()?)?.as_f64()? as f32
        ))),
        Op::Math(f, ty) => {
            let x = value(args.first()?)?;
            let y = args.get(1).and_then(|a| value(a));
            match ty {
                Ty::F64 => {
                    let r = math64(*f, x.as_f64()?, y.and_then(GValue::as_f64).unwrap_or(0.0));
                    Some(Outcome::Value(GValue::f64(r)))
                }
                Ty::F32 => {
                    let r = math32(*f, x.as_f32()?, y.and_then(GValue::as_f32).unwrap_or(0.0));
                    Some(Outcome::Value(GValue::f32(r)))
                }
                Ty::Str => None,
            }
        }
    }
}

/// The value a builder application adds to the garden: the result of an operator with an
/// indexed result, or the suffix a pointer result points to.
pub fn build(op: &Op, args: &[Arg]) -> Option<GValue> {
    match apply(op, args)? {
        Outcome::Value(v) => Some(v),
        Outcome::Int(offset) if op.ret() == crate::ops::Ret::Offset => {
            let s = value(args.first()?)?.as_str()?;
            Some(GValue::Str(s.get(offset as usize..)?.to_vec()))
        }
        _ => None,
    }
}

fn value<'a>(a: &Arg<'a>) -> Option<&'a GValue> {
    match a {
        Arg::Val(v) => Some(v),
        Arg::Int(_) => None,
    }
}

fn float(a: &Arg) -> Option<f64> {
    match value(a)? {
        GValue::F64(b) => Some(f64::from_bits(*b)),
        GValue::F32(b) => Some(f32::from_bits(*b) as f64),
        GValue::Str(_) => None,
    }
}

fn arith64(a: Arith, x: f64, y: f64) -> f64 {
    match a {
        Arith::Add => x + y,
        Arith::Sub => x - y,
        Arith::Mul => x * y,
        Arith::Div => x / y,
        // LLVM's frem is C's fmod
        Arith::Rem => unsafe { libm::fmod(x, y) },
    }
}

fn arith32(a: Arith, x: f32, y: f32) -> f32 {
    match a {
        Arith::Add => x + y,
        Arith::Sub => x - y,
        Arith::Mul => x * y,
        Arith::Div => x / y,
        Arith::Rem => unsafe { libm::fmodf(x, y) },
    }
}

/// `fptosi`/`fptoui` as x86-64 computes them: in range, truncation toward zero; NaN or out
/// of range, the "integer indefinite" value of the conversion clang emits (`cvttsd2si` to
/// 32 bits for results up to 32 bits, to 64 bits otherwise).
fn to_int(x: f64, signed: bool, width: u32) -> u64 {
    let mask = if width >= 64 {
        u64::MAX
    } else {
        (1u64 << width) - 1
    };
    let t = x.trunc();
    let in_range = |lo: f64, hi: f64| !x.is_nan() && t >= lo && t < hi;
    let bits = if width <= 32 && (signed || width < 32) {
        if in_range(-2147483648.0, 2147483648.0) {
            t as i32 as u32 as u64
        } else {
            0x8000_0000
        }
    } else if signed || width < 64 {
        if in_range(-9223372036854775808.0, 9223372036854775808.0) {
            t as i64 as u64
        } else {
            0x8000_0000_0000_0000
        }
    } else if in_range(0.0, 18446744073709551616.0) {
        t as u64
    } else if in_range(-9223372036854775808.0, 0.0) {
        t as i64 as u64
    } else {
        0x8000_0000_0000_0000
    };
    bits & mask
}

fn math64(f: MathFn, x: f64, y: f64) -> f64 {
    use MathFn::*;
    unsafe {
        match f {
            Fabs => libm::fabs(x),
            Floor => libm::floor(x),
            Ceil => libm::ceil(x),
            Trunc => libm::trunc(x),
            Round => libm::round(x),
            Sqrt => libm::sqrt(x),
            Sin => libm::sin(x),
            Cos => libm::cos(x),
            Tan => libm::tan(x),
            Asin => libm::asin(x),
            Acos => libm::acos(x),
            Atan => libm::atan(x),
            Sinh => libm::sinh(x),
            Cosh => libm::cosh(x),
            Tanh => libm::tanh(x),
            Exp => libm::exp(x),
            Exp2 => libm::exp2(x),
            Expm1 => libm::expm1(x),
            Log => libm::log(x),
            Log2 => libm::log2(x),
            Log10 => libm::log10(x),
            Log1p => libm::log1p(x),
            Cbrt => libm::cbrt(x),
            Pow => libm::pow(x, y),
            Atan2 => libm::atan2(x, y),
            Hypot => libm::hypot(x, y),
            Fmod => libm::fmod(x, y),
            Fmin => libm::fmin(x, y),
            Fmax => libm::fmax(x, y),
            Copysign => libm::copysign(x, y),
        }
    }
}

fn math32(f: MathFn, x: f32, y: f32) -> f32 {
    use MathFn::*;
    unsafe {
        match f {
            Fabs => libm::fabsf(x),
            Floor => libm::floorf(x),
            Ceil => libm::ceilf(x),
            Trunc => libm::truncf(x),
            Round => libm::roundf(x),
            Sqrt => libm::sqrtf(x),
            Sin => libm::sinf(x),
            Cos => libm::cosf(x),
            Tan => libm::tanf(x),
            Asin => libm::asinf(x),
            Acos => libm::acosf(x),
            Atan => libm::atanf(x),
            Sinh => libm::sinhf(x),
            Cosh => libm::coshf(x),
            Tanh => libm::tanhf(x),
            Exp => libm::expf(x),
            Exp2 => libm::exp2f(x),
            Expm1 => libm::expm1f(x),
            Log => libm::logf(x),
            Log2 => libm::log2f(x),
            Log10 => libm::log10f(x),
            Log1p => libm::log1pf(x),
            Cbrt => libm::cbrtf(x),
            Pow => libm::powf(x, y),
            Atan2 => libm::atan2f(x, y),
            Hypot => libm::hypotf(x, y),
            Fmod => libm::fmodf(x, y),
            Fmin => libm::fminf(x, y),
            Fmax => libm::fmaxf(x, y),
            Copysign => libm::copysignf(x, y),
        }
    }
}

fn c_string(a: &Arg) -> Option<CString> {
    CString::new(value(a)?.as_str()?.to_vec()).ok()
}

fn offset(result: *const c_char, base: *const c_char) -> Outcome {
    if result.is_null() {
        Outcome::Null
    } else {
        Outcome::Int(result as usize as u64 - base as usize as u64)
    }
}

fn apply_str(f: StrFn, args: &[Arg]) -> Option<Outcome> {
    let a = c_string(args.first()?)?;
    let int_arg = |i: usize| match args.get(i) {
        Some(Arg::Int(n)) => Some(*n),
        _ => None,
    };
    let (pa, b) = (a.as_ptr(), args.get(1).and_then(c_string));
    // SAFETY: every pointer is a live NUL-terminated CString; the functions only read them
    // (strcat writes into a buffer sized for the result).
    unsafe {
        let pb = || b.as_ref().map(|b| b.as_ptr());
        Some(match f {
            StrFn::Strlen => Outcome::Int(libc::strlen(pa) as u64),
            StrFn::Strcmp => Outcome::Int(libc::strcmp(pa, pb()?) as u32 as u64),
            StrFn::Strncmp => {
                Outcome::Int(libc::strncmp(pa, pb()?, int_arg(2)? as usize) as u32 as u64)
            }
            StrFn::Strcasecmp => Outcome::Int(libc::strcasecmp(pa, pb()?) as u32 as u64),
            StrFn::Strncasecmp => {
                Outcome::Int(libc::strncasecmp(pa, pb()?, int_arg(2)? as usize) as u32 as u64)
            }
            StrFn::Strstr => offset(libc::strstr(pa, pb()?), pa),
            StrFn::Strchr => offset(libc::strchr(pa, int_arg(1)? as u32 as c_int), pa),
            StrFn::Strrchr => offset(libc::strrchr(pa, int_arg(1)? as u32 as c_int), pa),
            StrFn::Strpbrk => offset(libc::strpbrk(pa, pb()?), pa),
            StrFn::Strspn => Outcome::Int(libc::strspn(pa, pb()?) as u64),
            StrFn::Strcspn => Outcome::Int(libc::strcspn(pa, pb()?) as u64),
            StrFn::Strcpy => {
                let src = b.as_ref()?.as_bytes_with_nul();
                let mut buf = vec![0u8; src.len()];
                libc::strcpy(buf.as_mut_ptr().cast(), pb()?);
                Outcome::Value(GValue::str(&buf))
            }
            StrFn::Strcat => {
                let (x, y) = (a.as_bytes(), b.as_ref()?.as_bytes_with_nul());
                let mut buf = vec![0u8; x.len() + y.len()];
                buf[..x.len()].copy_from_slice(x);
                libc::strcat(buf.as_mut_ptr().cast(), pb()?);
                Outcome::Value(GValue::str(&buf))
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ops::{Pred, Ret};

    fn s(x: &str) -> GValue {
        GValue::str(x.as_bytes())
    }

    #[test]
    fn string_functions_are_the_host_libc() {
        let (a, b) = (s("NVidia"), s("NVidiaCorporation"));
        let cmp = |n| {
            apply(
                &Op::Str(StrFn::Strncmp),
                &[Arg::Val(&a), Arg::Val(&b), Arg::Int(n)],
            )
        };
        assert_eq!(cmp(4), Some(Outcome::Int(0)));
        let Some(Outcome::Int(r)) = cmp(32) else {
            panic!("strncmp")
        };
        assert!((r as u32 as i32) < 0, "'\\0' < 'C'");
        let (h, n) = (s("foobar"), s("bar"));
        assert_eq!(
            apply(&Op::Str(StrFn::Strstr), &[Arg::Val(&h), Arg::Val(&n)]),
            Some(Outcome::Int(3))
        );
        assert_eq!(
            apply(&Op::Str(StrFn::Strstr), &[Arg::Val(&n), Arg::Val(&h)]),
            Some(Outcome::Null)
        );
        assert_eq!(
            build(&Op::Str(StrFn::Strstr), &[Arg::Val(&h), Arg::Val(&s("oo"))]),
            Some(s("oobar"))
        );
        assert_eq!(
            apply(
                &Op::Str(StrFn::Strcat),
                &[Arg::Val(&s("a")), Arg::Val(&s("foo"))]
            ),
            Some(Outcome::Value(s("afoo")))
        );
        assert_eq!(Op::Str(StrFn::Strstr).ret(), Ret::Offset);
    }

    #[test]
    fn float_operators_are_ieee_and_libm() {
        let (x, y) = (GValue::f64(1.5), GValue::f64(0.25));
        assert_eq!(
            apply(
                &Op::Arith(Arith::Add, Ty::F64),
                &[Arg::Val(&x), Arg::Val(&y)]
            ),
            Some(Outcome::Value(GValue::f64(1.75)))
        );
        assert_eq!(
            apply(&Op::Math(MathFn::Floor, Ty::F64), &[Arg::Val(&x)]),
            Some(Outcome::Value(GValue::f64(1.0)))
        );
        assert_eq!(
            apply(&Op::Cmp(Pred::Ogt, Ty::F64), &[Arg::Val(&x), Arg::Val(&y)]),
            Some(Outcome::Int(1))
        );
        assert_eq!(
            apply(&Op::Neg(Ty::F64), &[Arg::Val(&GValue::f64(0.0))]),
            Some(Outcome::Value(GValue::f64(-0.0)))
        );
        assert_eq!(to_int(-2.7, true, 32), (-2i32) as u32 as u64);
        assert_eq!(to_int(f64::NAN, true, 32), 0x8000_0000);
        assert_eq!(to_int(3e9, false, 32), 3_000_000_000);
    }
}
