//! The encoding of floating-point nodes ([`sear_expr::ExprKind::Fp`]) in SMT-LIB's theory of
//! floating point, shared by the Z3 and Bitwuzla translators through [`FpTerms`].
//!
//! Values stay bit-vectors: an operand becomes a float through `(_ to_fp e s)` of its bits and
//! a result goes back to bits through the core's [`FpTerms::fp_bits`] (Z3's `fp.to_ieee_bv`;
//! for Bitwuzla, which has no such operator, a fresh bit-vector `r` with the side condition
//! `isNaN(x) ∨ to_fp(r) = x`). SMT-LIB has a single NaN, so every NaN result is chosen here,
//! in bit-vector terms, as x86-64 computes it and as [`sear_expr::fp`] evaluates it: the first
//! NaN operand with its quiet bit set, else the default NaN `0xFFC00000` /
//! `0xFFF8000000000000`; `fp_bits` is only ever used where the result is not a NaN. Models
//! therefore evaluate exactly as the solver decided, NaN payloads included.

use sear_expr::fp::{FpArith, FpOp, FpPred, RoundMode};
use sear_expr::fpsem::FpFormat;

/// An ordered comparison of two floats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum FpRel {
    /// `fp.lt`.
    Lt,
    /// `fp.leq`.
    Leq,
    /// `fp.eq` (IEEE equality: `-0 = +0`, a NaN equals nothing).
    Eq,
}

/// The term constructors a core offers for the encoding: Booleans `B`, bit-vectors `V` and
/// floats `F`; the operations that round take the node's rounding mode.
pub(crate) trait FpTerms {
    type B: Clone;
    type V: Clone;
    type F: Clone;
    fn bv_const(&mut self, width: u32, value: u128) -> Self::V;
    fn bv_and(&mut self, a: &Self::V, b: &Self::V) -> Self::V;
    fn bv_or(&mut self, a: &Self::V, b: &Self::V) -> Self::V;
    fn bv_eq(&mut self, a: &Self::V, b: &Self::V) -> Self::B;
    fn bv_ult(&mut self, a: &Self::V, b: &Self::V) -> Self::B;
    fn bv_ite(&mut self, c: &Self::B, t: &Self::V, e: &Self::V) -> Self::V;
    fn extract(&mut self, a: &Self::V, hi: u32, lo: u32) -> Self::V;
    fn concat(&mut self, hi: &Self::V, lo: &Self::V) -> Self::V;
    fn not(&mut self, a: &Self::B) -> Self::B;
    fn and(&mut self, a: &Self::B, b: &Self::B) -> Self::B;
    fn or(&mut self, a: &Self::B, b: &Self::B) -> Self::B;
    /// `((_ to_fp e s) bits)`.
    fn fp_from_bits(&mut self, fmt: FpFormat, bits: &Self::V) -> Self::F;
    /// The bits of `f`, used only where `f` is not a NaN.
    fn fp_bits(&mut self, fmt: FpFormat, f: &Self::F) -> Self::V;
    /// `fp.add`…`fp.div` in mode `m`, and `fp.rem` (IEEE remainder, exact) for
    /// [`FpArith::Rem`] and [`FpArith::IeeeRem`].
    fn fp_arith(&mut self, op: FpArith, m: RoundMode, a: &Self::F, b: &Self::F) -> Self::F;
    fn fp_sqrt(&mut self, m: RoundMode, a: &Self::F) -> Self::F;
    fn fp_fma(&mut self, m: RoundMode, a: &Self::F, b: &Self::F, c: &Self::F) -> Self::F;
    fn fp_round(&mut self, mode: RoundMode, a: &Self::F) -> Self::F;
    fn fp_is_nan(&mut self, a: &Self::F) -> Self::B;
    fn fp_rel(&mut self, rel: FpRel, a: &Self::F, b: &Self::F) -> Self::B;
    /// `((_ fp.to_sbv width) RTZ a)`.
    fn fp_to_sbv(&mut self, a: &Self::F, width: u32) -> Self::V;
    /// `((_ to_fp e s) m v)` of a signed or unsigned bit-vector.
    fn fp_from_int(&mut self, fmt: FpFormat, signed: bool, m: RoundMode, v: &Self::V) -> Self::F;
    /// `((_ to_fp e s) m a)` to another format.
    fn fp_convert(&mut self, to: FpFormat, m: RoundMode, a: &Self::F) -> Self::F;
}

/// The translation of a floating-point node.
pub(crate) enum FpOut<B, V> {
    /// An `fcmp` result.
    Bool(B),
    /// Bits.
    Bv(V),
}

fn sign(fmt: FpFormat) -> u128 {
    1u128 << (fmt.width() - 1)
}

fn exp_mask(fmt: FpFormat) -> u128 {
    match fmt {
        FpFormat::Single => 0x7F80_0000,
        FpFormat::Double => 0x7FF0_0000_0000_0000,
    }
}

fn quiet(fmt: FpFormat) -> u128 {
    match fmt {
        FpFormat::Single => 1 << 22,
        FpFormat::Double => 1 << 51,
    }
}

/// The bits of the float `v` in `fmt` (a power of two or its negation, for the bounds).
fn const_bits(fmt: FpFormat, v: f64) -> u128 {
    match fmt {
        FpFormat::Single => (v as f32).to_bits() as u128,
        FpFormat::Double => v.to_bits() as u128,
    }
}

struct Enc<'a, T: FpTerms> {
    t: &'a mut T,
    fmt: FpFormat,
}

impl<T: FpTerms> Enc<'_, T> {
    fn c(&mut self, v: u128) -> T::V {
        self.t.bv_const(self.fmt.width(), v)
    }

    fn mag(&mut self, a: &T::V) -> T::V {
        let m = self.c(sign(self.fmt) - 1);
        self.t.bv_and(&m, a)
    }

    fn is_nan(&mut self, a: &T::V) -> T::B {
        let m = self.mag(a);
        let e = self.c(exp_mask(self.fmt));
        self.t.bv_ult(&e, &m)
    }

    fn mag_is(&mut self, a: &T::V, v: u128) -> T::B {
        let m = self.mag(a);
        let c = self.c(v);
        self.t.bv_eq(&m, &c)
    }

    fn quietened(&mut self, a: &T::V) -> T::V {
        let q = self.c(quiet(self.fmt));
        self.t.bv_or(a, &q)
    }

    fn fp(&mut self, a: &T::V) -> T::F {
        self.t.fp_from_bits(self.fmt, a)
    }

    fn fconst(&mut self, v: f64) -> T::F {
        let bits = self.c(const_bits(self.fmt, v));
        self.fp(&bits)
    }

    /// The first NaN operand quietened, else `otherwise`.
    fn propagate(&mut self, ops: &[T::V], otherwise: T::V) -> T::V {
        let mut out = otherwise;
        for a in ops.iter().rev() {
            let n = self.is_nan(a);
            let q = self.quietened(a);
            out = self.t.bv_ite(&n, &q, &out);
        }
        out
    }

    /// `r`'s bits, or the default NaN when `r` is a NaN.
    fn bits_or_default_nan(&mut self, r: &T::F) -> T::V {
        let n = self.t.fp_is_nan(r);
        let d = self.c(self.fmt.default_nan() as u128);
        let bits = self.t.fp_bits(self.fmt, r);
        self.t.bv_ite(&n, &d, &bits)
    }

    /// C's `fmod` from IEEE `remainder`: `r` has the sign of `a` (or is a zero, which gets
    /// it), else `r ± |b|` towards the sign of `a` (exact: the result is representable).
    fn fmod(&mut self, a: &T::V, b: &T::V, fa: &T::F, fb: &T::F) -> T::V {
        let r = self
            .t
            .fp_arith(FpArith::Rem, RoundMode::NearestEven, fa, fb);
        let rb = self.t.fp_bits(self.fmt, &r);
        let s = self.c(sign(self.fmt));
        let sa = self.t.bv_and(a, &s);
        let sr = self.t.bv_and(&rb, &s);
        let zero = self.mag_is(&rb, 0);
        let same = self.t.bv_eq(&sa, &sr);
        let mb = self.mag(b);
        let toward = self.t.bv_or(&mb, &sa);
        let ft = self.fp(&toward);
        let fixed = self
            .t
            .fp_arith(FpArith::Add, RoundMode::NearestEven, &r, &ft);
        let fixed = self.t.fp_bits(self.fmt, &fixed);
        let inner = self.t.bv_ite(&same, &rb, &fixed);
        let finite = self.t.bv_ite(&zero, &sa, &inner);
        let n = self.t.fp_is_nan(&r);
        let d = self.c(self.fmt.default_nan() as u128);
        self.t.bv_ite(&n, &d, &finite)
    }

    /// glibc's sign for a zero `remainder(a, b)` of doubles, applied to `r`, the bits of
    /// IEEE's `fp.rem(a, b)` (whose zeros have `a`'s sign). glibc 2.36's `remainder` (the
    /// IBM `e_remainder.c`) computes a divisor `0 < |b| < 2^-970` as `remainder(remainder(a,
    /// b'), b')` scaled, with `b' = |b|·2^128`, and returns a zero with the sign of the
    /// intermediate remainder when that is not zero: `a`'s sign flipped exactly when
    /// `q = |a| / b'` is below its nearest integer (ties to even), `q` being exact whenever
    /// the remainder is zero (`q` has at most 53 significant bits then). Otherwise, `|a| ≥
    /// 2^1023` included, a zero has `a`'s sign. Measured against glibc on 2.5·10^6 zero
    /// results (`tests/fp_rem_zero_sign.rs`).
    fn glibc_remainder_zero_sign(&mut self, a: &T::V, b: &T::V, r: T::V) -> T::V {
        let (ma, mb) = (self.mag(a), self.mag(b));
        let tiny_bound = self.c(0x0350_0000_0000_0000);
        let tiny = self.t.bv_ult(&mb, &tiny_bound);
        let huge_bound = self.c(0x7FE0_0000_0000_0000);
        let small = self.t.bv_ult(&ma, &huge_bound);
        let (fa, fb) = (self.fp(&ma), self.fp(&mb));
        let scale = self.fconst(2f64.powi(128));
        let scaled = self
            .t
            .fp_arith(FpArith::Mul, RoundMode::NearestEven, &fb, &scale);
        let q = self
            .t
            .fp_arith(FpArith::Div, RoundMode::NearestEven, &fa, &scaled);
        let nearest = self.t.fp_round(RoundMode::NearestEven, &q);
        let below = self.t.fp_rel(FpRel::Lt, &q, &nearest);
        let zero = self.mag_is(&r, 0);
        let flip = self.t.and(&tiny, &small);
        let flip = self.t.and(&flip, &below);
        let flip = self.t.and(&flip, &zero);
        let s = self.c(sign(self.fmt));
        let sa = self.t.bv_and(a, &s);
        let plus = self.c(0);
        let positive = self.t.bv_eq(&sa, &plus);
        let flipped = self.t.bv_ite(&positive, &s, &plus);
        self.t.bv_ite(&flip, &flipped, &r)
    }

    /// `fptosi` through a `cw`-bit conversion (32 or 64): out of range or NaN gives the
    /// integer indefinite `2^(cw-1)`.
    fn signed_conversion(&mut self, fa: &T::F, a_nan: &T::B, cw: u32) -> T::V {
        let bound = 2f64.powi(cw as i32 - 1);
        let lo = self.fconst(-bound);
        let hi = self.fconst(bound);
        let t = self.t.fp_round(RoundMode::Zero, fa);
        let ge = self.t.fp_rel(FpRel::Leq, &lo, &t);
        let lt = self.t.fp_rel(FpRel::Lt, &t, &hi);
        let in_range = self.t.and(&ge, &lt);
        let not_nan = self.t.not(a_nan);
        let ok = self.t.and(&in_range, &not_nan);
        let v = self.t.fp_to_sbv(fa, cw);
        let indefinite = self.t.bv_const(cw, 1u128 << (cw - 1));
        self.t.bv_ite(&ok, &v, &indefinite)
    }

    fn cmp(&mut self, pred: FpPred, a: &T::V, b: &T::V) -> T::B {
        let (fa, fb) = (self.fp(a), self.fp(b));
        let ordered = |e: &mut Self, p: FpPred| -> T::B {
            match p {
                FpPred::Oeq => e.t.fp_rel(FpRel::Eq, &fa, &fb),
                FpPred::Olt => e.t.fp_rel(FpRel::Lt, &fa, &fb),
                FpPred::Ole => e.t.fp_rel(FpRel::Leq, &fa, &fb),
                FpPred::Ogt => e.t.fp_rel(FpRel::Lt, &fb, &fa),
                FpPred::Oge => e.t.fp_rel(FpRel::Leq, &fb, &fa),
                FpPred::One => {
                    let x = e.t.fp_rel(FpRel::Lt, &fa, &fb);
                    let y = e.t.fp_rel(FpRel::Lt, &fb, &fa);
                    e.t.or(&x, &y)
                }
                _ => {
                    let (x, y) = (e.is_nan(a), e.is_nan(b));
                    let any = e.t.or(&x, &y);
                    e.t.not(&any)
                }
            }
        };
        let negated = |p| match p {
            FpPred::Ueq => Some(FpPred::One),
            FpPred::Ugt => Some(FpPred::Ole),
            FpPred::Uge => Some(FpPred::Olt),
            FpPred::Ult => Some(FpPred::Oge),
            FpPred::Ule => Some(FpPred::Ogt),
            FpPred::Une => Some(FpPred::Oeq),
            FpPred::Uno => Some(FpPred::Ord),
            _ => None,
        };
        match pred {
            FpPred::True | FpPred::False => {
                let x = self.c(0);
                let e = self.t.bv_eq(&x, &x);
                if pred == FpPred::True {
                    e
                } else {
                    self.t.not(&e)
                }
            }
            p => match negated(p) {
                Some(o) => {
                    let r = ordered(self, o);
                    self.t.not(&r)
                }
                None => ordered(self, p),
            },
        }
    }
}

/// The encoding of `op` with result width `width` over the operands `args` (bits and
/// width). `None` for shapes the builder never makes.
pub(crate) fn encode<T: FpTerms>(
    t: &mut T,
    op: FpOp,
    width: u32,
    args: &[(T::V, u32)],
) -> Option<FpOut<T::B, T::V>> {
    let (a, aw) = args.first()?.clone();
    let fmt_in = FpFormat::from_width(aw);
    let arg = |i: usize| args.get(i).map(|(v, _)| v.clone());
    Some(FpOut::Bv(match op {
        FpOp::Arith(o, m) => {
            let mut e = Enc { t, fmt: fmt_in? };
            let b = arg(1)?;
            let (fa, fb) = (e.fp(&a), e.fp(&b));
            let r = if o == FpArith::Rem {
                e.fmod(&a, &b, &fa, &fb)
            } else {
                let r = e.t.fp_arith(o, m, &fa, &fb);
                e.bits_or_default_nan(&r)
            };
            if o == FpArith::IeeeRem && e.fmt == FpFormat::Double {
                // glibc's `remainder` (not `remainderf`, whose zeros are IEEE's) returns the
                // second NaN operand first, and a zero's sign by its own rule.
                let r = e.glibc_remainder_zero_sign(&a, &b, r);
                e.propagate(&[b, a], r)
            } else {
                e.propagate(&[a, b], r)
            }
        }
        FpOp::Sqrt(m) => {
            let mut e = Enc { t, fmt: fmt_in? };
            let fa = e.fp(&a);
            let r = e.t.fp_sqrt(m, &fa);
            let r = e.bits_or_default_nan(&r);
            e.propagate(&[a], r)
        }
        FpOp::Fma(m) => {
            let mut e = Enc { t, fmt: fmt_in? };
            let (b, c) = (arg(1)?, arg(2)?);
            let (fa, fb, fc) = (e.fp(&a), e.fp(&b), e.fp(&c));
            let r = e.t.fp_fma(m, &fa, &fb, &fc);
            let r = e.bits_or_default_nan(&r);
            let inf = exp_mask(e.fmt);
            let (az, bz, ai, bi) = (
                e.mag_is(&a, 0),
                e.mag_is(&b, 0),
                e.mag_is(&a, inf),
                e.mag_is(&b, inf),
            );
            let x = e.t.and(&az, &bi);
            let y = e.t.and(&ai, &bz);
            let invalid = e.t.or(&x, &y);
            let d = e.c(e.fmt.default_nan() as u128);
            let r = e.t.bv_ite(&invalid, &d, &r);
            // The `fma` instruction (glibc's `fma` on x86-64 with FMA): the first NaN of
            // `b`, `a`, `c`, quietened, before the default NaN of `0 * ∞`.
            e.propagate(&[b, a, c], r)
        }
        FpOp::Round(mode) => {
            let mut e = Enc { t, fmt: fmt_in? };
            let fa = e.fp(&a);
            let r = e.t.fp_round(mode, &fa);
            let r = e.t.fp_bits(e.fmt, &r);
            e.propagate(&[a], r)
        }
        FpOp::Cmp(pred) => {
            let mut e = Enc { t, fmt: fmt_in? };
            return Some(FpOut::Bool(e.cmp(pred, &a, &arg(1)?)));
        }
        FpOp::ToSI | FpOp::ToUI => {
            let mut e = Enc { t, fmt: fmt_in? };
            let fa = e.fp(&a);
            let nan = e.is_nan(&a);
            let signed = op == FpOp::ToSI;
            let v = match (signed, width) {
                (true, 1..=32) | (false, 1..=16) => e.signed_conversion(&fa, &nan, 32),
                (_, 1..=63) | (true, 64) => e.signed_conversion(&fa, &nan, 64),
                (false, 64) => {
                    let two63 = e.fconst(2f64.powi(63));
                    let below = e.t.fp_rel(FpRel::Lt, &fa, &two63);
                    let low = e.signed_conversion(&fa, &nan, 64);
                    let shifted =
                        e.t.fp_arith(FpArith::Sub, RoundMode::NearestEven, &fa, &two63);
                    let high = e.signed_conversion(&shifted, &nan, 64);
                    let top = e.t.bv_const(64, 1 << 63);
                    let high = e.t.bv_or(&high, &top);
                    e.t.bv_ite(&below, &low, &high)
                }
                _ => return None,
            };
            let cw = if (signed && width <= 32) || (!signed && width <= 16) {
                32
            } else {
                64
            };
            if width == cw {
                v
            } else {
                e.t.extract(&v, width - 1, 0)
            }
        }
        FpOp::SIToFP(m) | FpOp::UIToFP(m) => {
            let fmt = FpFormat::from_width(width)?;
            let f = t.fp_from_int(fmt, matches!(op, FpOp::SIToFP(_)), m, &a);
            t.fp_bits(fmt, &f)
        }
        FpOp::Ext | FpOp::Trunc(_) => {
            let (from, to) = (fmt_in?, FpFormat::from_width(width)?);
            let mut e = Enc { t, fmt: from };
            let fa = e.fp(&a);
            let nan = e.is_nan(&a);
            let r = e.t.fp_convert(to, op.rounding().unwrap_or_default(), &fa);
            let r = e.t.fp_bits(to, &r);
            let s = e.t.extract(&a, aw - 1, aw - 1);
            let nan_bits = if to == FpFormat::Double {
                let ones = e.t.bv_const(12, 0xFFF);
                let m = e.t.extract(&a, 21, 0);
                let z = e.t.bv_const(29, 0);
                let x = e.t.concat(&s, &ones);
                let x = e.t.concat(&x, &m);
                e.t.concat(&x, &z)
            } else {
                let ones = e.t.bv_const(9, 0x1FF);
                let m = e.t.extract(&a, 50, 29);
                let x = e.t.concat(&s, &ones);
                e.t.concat(&x, &m)
            };
            e.t.bv_ite(&nan, &nan_bits, &r)
        }
    }))
}
