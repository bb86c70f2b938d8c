//! SMT-LIB's floating-point theory (`QF_FP`, `QF_BVFP`, `QF_ABVFP`) over sear's
//! floating-point nodes ([`crate::fp`]).
//!
//! A value of sort `Float32` / `(_ FloatingPoint 8 24)` or `Float64` / `(_ FloatingPoint 11
//! 53)` is the bit-vector of its IEEE 754 encoding (32 or 64 bits); other formats are
//! rejected with an error naming the sort. A `RoundingMode` value is a 3-bit index into
//! [`RoundMode::ALL`] (`RNE`, `RNA`, `RTP`, `RTN`, `RTZ`; indices above 4 mean `RTZ`), so a
//! declared rounding-mode constant is symbolic: an operation under it is an `ite` over the
//! five modes.
//!
//! SMT-LIB has one NaN: `=` on floats holds between any two NaNs and otherwise is equality of
//! the encodings (so `+0` and `-0` differ), and no operation lets a script observe a NaN's
//! bits. Where SMT-LIB leaves a result unspecified, sear gives x86-64's: `fp.to_sbv` and
//! `fp.to_ubv` of a NaN, an infinity or a value out of range give the conversion's value of
//! [`crate::fp`] (the "integer indefinite" `0x80…0` cut to the width, for example), and
//! `fp.min`/`fp.max` of `+0` and `-0` give the first operand.

use crate::array::UpdateList;
use crate::expr::Expr;
use crate::fp::{FpArith, FpError, FpPred, RoundMode};
use crate::smtlib::ops::{SortSpec, Val};
use crate::smtlib::parse::Parser;

/// An operator of the floating-point theory.
#[derive(Clone, Copy, Debug)]
pub(crate) enum FpFn {
    /// `(fp sign exponent significand)`.
    Literal,
    Abs,
    Neg,
    /// `fp.add`, `fp.sub`, `fp.mul`, `fp.div` (with a rounding mode).
    Arith(FpArith),
    /// `fp.rem` (IEEE remainder, no rounding mode).
    Rem,
    Fma,
    Sqrt,
    RoundToIntegral,
    Min,
    Max,
    /// `fp.eq`, `fp.lt`, `fp.leq`, `fp.gt`, `fp.geq` (chainable).
    Cmp(FpPred),
    /// A class test: the `is.fpclass` mask of the classes it accepts.
    Class(u32),
    /// `(_ to_fp e s)` to the format of that width.
    ToFp(u32),
    /// `(_ to_fp_unsigned e s)`.
    ToFpUnsigned(u32),
    /// `(_ fp.to_sbv n)` (`true`) or `(_ fp.to_ubv n)`.
    ToBv(bool, u32),
}

/// The operator named by a plain symbol of the theory.
pub(crate) fn fp_fn_from_name(name: &str) -> Option<FpFn> {
    Some(match name {
        "fp" => FpFn::Literal,
        "fp.abs" => FpFn::Abs,
        "fp.neg" => FpFn::Neg,
        "fp.add" => FpFn::Arith(FpArith::Add),
        "fp.sub" => FpFn::Arith(FpArith::Sub),
        "fp.mul" => FpFn::Arith(FpArith::Mul),
        "fp.div" => FpFn::Arith(FpArith::Div),
        "fp.rem" => FpFn::Rem,
        "fp.fma" => FpFn::Fma,
        "fp.sqrt" => FpFn::Sqrt,
        "fp.roundToIntegral" => FpFn::RoundToIntegral,
        "fp.min" => FpFn::Min,
        "fp.max" => FpFn::Max,
        "fp.eq" => FpFn::Cmp(FpPred::Oeq),
        "fp.lt" => FpFn::Cmp(FpPred::Olt),
        "fp.leq" => FpFn::Cmp(FpPred::Ole),
        "fp.gt" => FpFn::Cmp(FpPred::Ogt),
        "fp.geq" => FpFn::Cmp(FpPred::Oge),
        "fp.isNormal" => FpFn::Class(1 << 3 | 1 << 8),
        "fp.isSubnormal" => FpFn::Class(1 << 4 | 1 << 7),
        "fp.isZero" => FpFn::Class(1 << 5 | 1 << 6),
        "fp.isInfinite" => FpFn::Class(1 << 2 | 1 << 9),
        "fp.isNaN" => FpFn::Class(0b11),
        "fp.isNegative" => FpFn::Class(0b11_1100),
        "fp.isPositive" => FpFn::Class(0b11_1100_0000),
        _ => return None,
    })
}

/// The width of the format `(_ FloatingPoint eb sb)`, or an error naming the sort.
pub(crate) fn format_width(eb: u32, sb: u32) -> Result<u32, String> {
    match (eb, sb) {
        (8, 24) => Ok(32),
        (11, 53) => Ok(64),
        _ => Err(format!(
            "unsupported floating-point sort (_ FloatingPoint {eb} {sb}): only Float32 \
             (_ FloatingPoint 8 24) and Float64 (_ FloatingPoint 11 53) are supported"
        )),
    }
}

/// `eb sb` of a format width.
pub(crate) fn format_params(width: u32) -> (u32, u32) {
    if width == 32 {
        (8, 24)
    } else {
        (11, 53)
    }
}

/// The indexed operators of the theory.
pub(crate) fn fp_indexed(name: &str, indices: &[u32]) -> Option<Result<FpFn, String>> {
    Some(match (name, indices) {
        ("to_fp", [eb, sb]) => format_width(*eb, *sb).map(FpFn::ToFp),
        ("to_fp_unsigned", [eb, sb]) => format_width(*eb, *sb).map(FpFn::ToFpUnsigned),
        ("fp.to_sbv" | "fp.to_ubv", [n]) => {
            if (1..=64).contains(n) {
                Ok(FpFn::ToBv(name == "fp.to_sbv", *n))
            } else {
                Err(format!("{name}: only 1 to 64 bits are supported, not {n}"))
            }
        }
        ("to_fp" | "to_fp_unsigned", _) => Err(format!("{name} takes two indices")),
        ("fp.to_sbv" | "fp.to_ubv", _) => Err(format!("{name} takes one index")),
        _ => return None,
    })
}

/// The special constants `(_ +zero eb sb)`, `(_ -zero ..)`, `(_ +oo ..)`, `(_ -oo ..)`,
/// `(_ NaN ..)` (the quiet NaN with the sign bit clear).
pub(crate) fn special_constant(name: &str, eb: u32, sb: u32) -> Option<Result<Val, String>> {
    let width = match format_width(eb, sb) {
        Ok(w) => w,
        Err(e) if ["+zero", "-zero", "+oo", "-oo", "NaN"].contains(&name) => return Some(Err(e)),
        Err(_) => return None,
    };
    let sign = 1u128 << (width - 1);
    let exp = if width == 32 {
        0x7F80_0000u128
    } else {
        0x7FF0_0000_0000_0000
    };
    let quiet = if width == 32 { 0x40_0000u128 } else { 1 << 51 };
    let bits = match name {
        "+zero" => 0,
        "-zero" => sign,
        "+oo" => exp,
        "-oo" => sign | exp,
        "NaN" => exp | quiet,
        _ => return None,
    };
    Some(Ok(Val::Fp(Expr::constant(bits, width))))
}

/// The rounding-mode constant a symbol names (`RNE`, `roundNearestTiesToEven`, ...).
pub(crate) fn rounding_constant(name: &str) -> Option<Val> {
    let mode = RoundMode::from_smtlib(name)?;
    let index = RoundMode::ALL.iter().position(|&m| m == mode)?;
    Some(Val::Rm(Expr::constant(index as u128, 3)))
}

/// The canonical index (0..=4) of a rounding-mode value.
pub(crate) fn canonical_mode(rm: &Expr) -> Expr {
    let four = Expr::constant(4, 3);
    Expr::select(Expr::ule(rm.clone(), four.clone()), rm.clone(), four)
}

/// SMT-LIB equality of two floats of one format: both NaN, or the same encoding.
pub(crate) fn fp_equal(a: &Expr, b: &Expr) -> Result<Expr, String> {
    let both_nan = Expr::and(
        fe(Expr::fp_is_nan(a.clone()))?,
        fe(Expr::fp_is_nan(b.clone()))?,
    );
    Ok(Expr::or(both_nan, Expr::eq(a.clone(), b.clone())))
}

fn fe(r: Result<Expr, FpError>) -> Result<Expr, String> {
    r.map_err(|e| e.to_string())
}

/// `build(mode)` under the rounding-mode value `rm`: one node for a constant mode, else an
/// `ite` over the five.
fn with_mode(
    rm: &Expr,
    build: impl Fn(RoundMode) -> Result<Expr, FpError>,
) -> Result<Expr, String> {
    if let Some(k) = rm.as_constant() {
        return fe(build(RoundMode::ALL[(k as usize).min(4)]));
    }
    let mut acc = fe(build(RoundMode::ALL[4]))?;
    for k in (0..4).rev() {
        let same = Expr::eq(rm.clone(), Expr::constant(k as u128, 3));
        acc = Expr::select(same, fe(build(RoundMode::ALL[k]))?, acc);
    }
    Ok(acc)
}

fn arity(name: &str, args: &[Val], n: usize) -> Result<(), String> {
    if args.len() == n {
        Ok(())
    } else {
        Err(format!("{name} expects {n} arguments, got {}", args.len()))
    }
}

fn float(name: &str, v: &Val) -> Result<Expr, String> {
    match v {
        Val::Fp(e) => Ok(e.clone()),
        other => Err(format!(
            "{name}: expected a floating-point value, got {}",
            other.sort_name()
        )),
    }
}

fn mode(name: &str, v: &Val) -> Result<Expr, String> {
    match v {
        Val::Rm(e) => Ok(e.clone()),
        other => Err(format!(
            "{name}: expected a RoundingMode, got {}",
            other.sort_name()
        )),
    }
}

/// Floats of one format.
fn floats(name: &str, args: &[Val]) -> Result<Vec<Expr>, String> {
    let out = args
        .iter()
        .map(|v| float(name, v))
        .collect::<Result<Vec<_>, _>>()?;
    if out.windows(2).any(|w| w[0].width() != w[1].width()) {
        return Err(format!(
            "{name}: operands of different floating-point sorts"
        ));
    }
    Ok(out)
}

fn bv(name: &str, v: &Val) -> Result<Expr, String> {
    match v {
        Val::Bv(e) => Ok(e.clone()),
        other => Err(format!(
            "{name}: expected a bit-vector, got {}",
            other.sort_name()
        )),
    }
}

/// SMT-LIB's `fp.rem` from sear's `IeeeRem`, which is C's `remainder` and gives a zero
/// result glibc's sign (for tiny divisors not always `x`'s): a zero takes `x`'s sign, as
/// IEEE 754 and SMT-LIB say. Nonzero results are the same.
fn ieee_zero_sign(r: Val, x: &Expr) -> Val {
    let Val::Fp(r) = r else {
        return r;
    };
    let width = r.width();
    let sign = 1u128 << (width - 1);
    let magnitude = Expr::and(r.clone(), Expr::constant(sign - 1, width));
    let zero = Expr::eq(magnitude, Expr::constant(0, width));
    let x_sign = Expr::and(x.clone(), Expr::constant(sign, width));
    Val::Fp(Expr::select(zero, x_sign, r))
}

/// Applies a floating-point operator to evaluated arguments.
pub(crate) fn apply_fp(f: FpFn, name: &str, args: Vec<Val>) -> Result<Val, String> {
    let fp = |r: Result<Expr, FpError>| fe(r).map(Val::Fp);
    match f {
        FpFn::Literal => {
            arity(name, &args, 3)?;
            let parts = args
                .iter()
                .map(|v| bv(name, v))
                .collect::<Result<Vec<_>, _>>()?;
            match (parts[0].width(), parts[1].width(), parts[2].width()) {
                (1, 8, 23) | (1, 11, 52) => Ok(Val::Fp(Expr::concat_all(&parts))),
                (1, eb, m) => Err(format_width(eb, m + 1).err().unwrap_or_default()),
                (w, ..) => Err(format!("fp: the sign has {w} bits, not 1")),
            }
        }
        FpFn::Abs | FpFn::Neg => {
            arity(name, &args, 1)?;
            let x = float(name, &args[0])?;
            fp(if matches!(f, FpFn::Abs) {
                Expr::fabs(x)
            } else {
                Expr::fneg(x)
            })
        }
        FpFn::Arith(op) => {
            arity(name, &args, 3)?;
            let rm = mode(name, &args[0])?;
            let v = floats(name, &args[1..])?;
            with_mode(&rm, |m| {
                Expr::fp_arith_rm(op, m, v[0].clone(), v[1].clone())
            })
            .map(Val::Fp)
        }
        FpFn::Rem => {
            arity(name, &args, 2)?;
            let v = floats(name, &args)?;
            fp(Expr::fp_arith(FpArith::IeeeRem, v[0].clone(), v[1].clone()))
                .map(|r| ieee_zero_sign(r, &v[0]))
        }
        FpFn::Fma => {
            arity(name, &args, 4)?;
            let rm = mode(name, &args[0])?;
            let v = floats(name, &args[1..])?;
            with_mode(&rm, |m| {
                Expr::fp_fma_rm(m, v[0].clone(), v[1].clone(), v[2].clone())
            })
            .map(Val::Fp)
        }
        FpFn::Sqrt | FpFn::RoundToIntegral => {
            arity(name, &args, 2)?;
            let rm = mode(name, &args[0])?;
            let x = float(name, &args[1])?;
            with_mode(&rm, |m| {
                if matches!(f, FpFn::Sqrt) {
                    Expr::fp_sqrt_rm(m, x.clone())
                } else {
                    Expr::fp_round(m, x.clone())
                }
            })
            .map(Val::Fp)
        }
        FpFn::Min | FpFn::Max => {
            arity(name, &args, 2)?;
            let v = floats(name, &args)?;
            let (a, b) = (v[0].clone(), v[1].clone());
            fp(if matches!(f, FpFn::Min) {
                Expr::fp_min(a, b)
            } else {
                Expr::fp_max(a, b)
            })
        }
        FpFn::Cmp(pred) => {
            if args.len() < 2 {
                return Err(format!("{name} expects at least 2 arguments"));
            }
            let v = floats(name, &args)?;
            let mut acc = Expr::true_();
            for w in v.windows(2) {
                acc = Expr::and(acc, fe(Expr::fcmp(pred, w[0].clone(), w[1].clone()))?);
            }
            Ok(Val::Bool(acc))
        }
        FpFn::Class(mask) => {
            arity(name, &args, 1)?;
            Ok(Val::Bool(fe(Expr::is_fpclass(
                float(name, &args[0])?,
                mask,
            ))?))
        }
        FpFn::ToFp(width) => match args.as_slice() {
            [Val::Bv(x)] if x.width() == width => Ok(Val::Fp(x.clone())),
            [Val::Bv(x)] => Err(format!(
                "{name}: a {}-bit vector does not encode a float of {width} bits",
                x.width()
            )),
            [rm, Val::Fp(x)] => {
                let rm = mode(name, rm)?;
                with_mode(&rm, |m| Expr::fp_convert_rm(m, x.clone(), width)).map(Val::Fp)
            }
            [rm, Val::Bv(x)] => int_to_fp(name, true, rm, x, width),
            [_, other] => Err(format!(
                "{name}: conversion from {} is not supported",
                other.sort_name()
            )),
            _ => Err(format!("{name} expects 1 or 2 arguments")),
        },
        FpFn::ToFpUnsigned(width) => {
            arity(name, &args, 2)?;
            int_to_fp(name, false, &args[0], &bv(name, &args[1])?, width)
        }
        FpFn::ToBv(signed, n) => {
            arity(name, &args, 2)?;
            let rm = mode(name, &args[0])?;
            let x = float(name, &args[1])?;
            // Rounded to an integral value in the mode, then converted (exactly, when in
            // range) by the truncating conversion.
            let rounded = with_mode(&rm, |m| match m {
                RoundMode::Zero => Ok(x.clone()),
                _ => Expr::fp_round(m, x.clone()),
            })?;
            Ok(Val::Bv(fe(Expr::fp_to_int(signed, rounded, n))?))
        }
    }
}

fn int_to_fp(name: &str, signed: bool, rm: &Val, x: &Expr, width: u32) -> Result<Val, String> {
    let rm = mode(name, rm)?;
    if x.width() > 64 {
        return Err(format!(
            "{name}: conversion from a {}-bit integer: only 1 to 64 bits are supported",
            x.width()
        ));
    }
    with_mode(&rm, |m| Expr::int_to_fp_rm(signed, m, x.clone(), width)).map(Val::Fp)
}

/// The sort a symbol names in the theory (`Float32`, `Float64`, `RoundingMode`; the other
/// standard formats give an error naming them).
pub(crate) fn fp_sort_symbol(name: &str) -> Option<Result<SortSpec, String>> {
    Some(match name {
        "Float32" => Ok(SortSpec::Fp(32)),
        "Float64" => Ok(SortSpec::Fp(64)),
        "RoundingMode" => Ok(SortSpec::Rm),
        "Float16" => format_width(5, 11).map(SortSpec::Fp),
        "Float128" => format_width(15, 113).map(SortSpec::Fp),
        _ => return None,
    })
}

impl Parser<'_> {
    /// A declared float (a 4- or 8-byte array read little-endian) or rounding mode (3 bits
    /// of a one-byte array).
    pub(crate) fn declare_fp(&mut self, name: &str, sort: SortSpec) -> Val {
        let (bytes, width) = match sort {
            SortSpec::Fp(w) => (w / 8, w),
            _ => (1, 3),
        };
        let array = self.new_array(name, bytes as u64, 32, None);
        self.pass.script.arrays.push(array.clone());
        let read = Expr::read_lsb(&UpdateList::new(array), Expr::constant(0, 32), bytes);
        let e = Expr::extract(read, 0, width);
        if let SortSpec::Fp(_) = sort {
            self.pass
                .script
                .fp_consts
                .push((name.to_string(), e.clone()));
            Val::Fp(e)
        } else {
            self.pass
                .script
                .rounding_consts
                .push((name.to_string(), e.clone()));
            Val::Rm(e)
        }
    }
}
