//! The native oracle: each operation of a generated tree computed by the x86-64 instruction
//! the documented lowering uses (inline assembly, so the compiler can neither fold nor
//! commute it), under the node's rounding mode (MXCSR's rounding control); `fmod` and
//! `remainder` by glibc; `None` where the hardware has no such operation (rounding to
//! nearest, ties away, other than `round`).

use sear_expr::fp::{FpArith, FpPred, RoundMode};

use super::gen::{MinMax, Node};

extern "C" {
    fn fmod(x: f64, y: f64) -> f64;
    fn fmodf(x: f32, y: f32) -> f32;
    fn remainder(x: f64, y: f64) -> f64;
    fn remainderf(x: f32, y: f32) -> f32;
    fn round(x: f64) -> f64;
    fn roundf(x: f32) -> f32;
}

/// MXCSR's rounding control for a mode x86-64 has.
fn rc(m: RoundMode) -> Option<u32> {
    match m {
        RoundMode::NearestEven => Some(0),
        RoundMode::Down => Some(1),
        RoundMode::Up => Some(2),
        RoundMode::Zero => Some(3),
        RoundMode::NearestAway => None,
    }
}

/// `$ins x, y...` under rounding control `rc` (the control word restored after it).
macro_rules! under {
    ($rc:expr, $ins:literal, $x:expr, $ty:ty, $($y:tt)*) => {{
        let csr: u32 = 0x1F80 | ($rc << 13);
        let mut saved = 0u32;
        let mut x: $ty = $x;
        // SAFETY: the control word is saved before and restored after the one instruction;
        // registers and two stack words only.
        unsafe {
            std::arch::asm!(
                "stmxcsr [{s}]",
                "ldmxcsr [{n}]",
                $ins,
                "ldmxcsr [{s}]",
                s = in(reg) std::ptr::addr_of_mut!(saved),
                n = in(reg) std::ptr::addr_of!(csr),
                x = inout(xmm_reg) x,
                $($y)*
            );
        }
        x
    }};
}

fn f32b(v: u64) -> f32 {
    f32::from_bits(v as u32)
}

fn f64b(v: u64) -> f64 {
    f64::from_bits(v)
}

fn arith(w: u32, op: FpArith, m: RoundMode, a: u64, b: u64) -> Option<u64> {
    // SAFETY: glibc's functions on values.
    match (op, w) {
        (FpArith::Rem, 32) => return Some(unsafe { fmodf(f32b(a), f32b(b)) }.to_bits() as u64),
        (FpArith::Rem, _) => return Some(unsafe { fmod(f64b(a), f64b(b)) }.to_bits()),
        (FpArith::IeeeRem, 32) => {
            return Some(unsafe { remainderf(f32b(a), f32b(b)) }.to_bits() as u64)
        }
        (FpArith::IeeeRem, _) => return Some(unsafe { remainder(f64b(a), f64b(b)) }.to_bits()),
        _ => {}
    }
    let r = rc(m)?;
    Some(if w == 32 {
        let (x, y) = (f32b(a), f32b(b));
        match op {
            FpArith::Add => under!(r, "addss {x}, {y}", x, f32, y = in(xmm_reg) y),
            FpArith::Sub => under!(r, "subss {x}, {y}", x, f32, y = in(xmm_reg) y),
            FpArith::Mul => under!(r, "mulss {x}, {y}", x, f32, y = in(xmm_reg) y),
            _ => under!(r, "divss {x}, {y}", x, f32, y = in(xmm_reg) y),
        }
        .to_bits() as u64
    } else {
        let (x, y) = (f64b(a), f64b(b));
        match op {
            FpArith::Add => under!(r, "addsd {x}, {y}", x, f64, y = in(xmm_reg) y),
            FpArith::Sub => under!(r, "subsd {x}, {y}", x, f64, y = in(xmm_reg) y),
            FpArith::Mul => under!(r, "mulsd {x}, {y}", x, f64, y = in(xmm_reg) y),
            _ => under!(r, "divsd {x}, {y}", x, f64, y = in(xmm_reg) y),
        }
        .to_bits()
    })
}

fn sqrt(w: u32, m: RoundMode, a: u64) -> Option<u64> {
    let r = rc(m)?;
    Some(if w == 32 {
        under!(r, "sqrtss {x}, {y}", 0.0, f32, y = in(xmm_reg) f32b(a)).to_bits() as u64
    } else {
        under!(r, "sqrtsd {x}, {y}", 0.0, f64, y = in(xmm_reg) f64b(a)).to_bits()
    })
}

fn fma(w: u32, m: RoundMode, a: u64, b: u64, c: u64) -> Option<u64> {
    let r = rc(m)?;
    if !std::arch::is_x86_feature_detected!("fma") {
        return None;
    }
    Some(if w == 32 {
        let (y, z) = (f32b(b), f32b(c));
        under!(r, "vfmadd213ss {x}, {y}, {z}", f32b(a), f32, y = in(xmm_reg) y, z = in(xmm_reg) z)
            .to_bits() as u64
    } else {
        let (y, z) = (f64b(b), f64b(c));
        under!(r, "vfmadd213sd {x}, {y}, {z}", f64b(a), f64, y = in(xmm_reg) y, z = in(xmm_reg) z)
            .to_bits()
    })
}

/// `roundss`/`roundsd` with the mode in the immediate; `round` (ties away) is glibc's.
fn round_integral(w: u32, m: RoundMode, a: u64) -> u64 {
    if m == RoundMode::NearestAway {
        // SAFETY: glibc's functions on values.
        return if w == 32 {
            unsafe { roundf(f32b(a)) }.to_bits() as u64
        } else {
            unsafe { round(f64b(a)) }.to_bits()
        };
    }
    macro_rules! rnd {
        ($ins:literal, $ty:ty, $v:expr) => {{
            let mut y: $ty = $v;
            // SAFETY: SSE4.1 (checked by the caller); registers only.
            unsafe { std::arch::asm!($ins, y = inout(xmm_reg) y) };
            y
        }};
    }
    if w == 32 {
        let v = f32b(a);
        match m {
            RoundMode::NearestEven => rnd!("roundss {y}, {y}, 8", f32, v),
            RoundMode::Down => rnd!("roundss {y}, {y}, 9", f32, v),
            RoundMode::Up => rnd!("roundss {y}, {y}, 10", f32, v),
            _ => rnd!("roundss {y}, {y}, 11", f32, v),
        }
        .to_bits() as u64
    } else {
        let v = f64b(a);
        match m {
            RoundMode::NearestEven => rnd!("roundsd {y}, {y}, 8", f64, v),
            RoundMode::Down => rnd!("roundsd {y}, {y}, 9", f64, v),
            RoundMode::Up => rnd!("roundsd {y}, {y}, 10", f64, v),
            _ => rnd!("roundsd {y}, {y}, 11", f64, v),
        }
        .to_bits()
    }
}

/// `cvttss2si`/`cvttsd2si` to 32 (`wide` false) or 64 bits.
fn cvtt(w: u32, a: u64, wide: bool) -> u64 {
    use std::arch::x86_64::*;
    // SAFETY: SSE2 is part of the x86-64 baseline.
    unsafe {
        match (w, wide) {
            (32, false) => _mm_cvttss_si32(_mm_set_ss(f32b(a))) as u32 as u64,
            (32, true) => _mm_cvttss_si64(_mm_set_ss(f32b(a))) as u64,
            (_, false) => _mm_cvttsd_si32(_mm_set_sd(f64b(a))) as u32 as u64,
            (_, true) => _mm_cvttsd_si64(_mm_set_sd(f64b(a))) as u64,
        }
    }
}

fn mask(n: u32) -> u64 {
    if n == 64 {
        u64::MAX
    } else {
        (1 << n) - 1
    }
}

/// `fptosi`/`fptoui` as clang 19's x86-64 code computes them.
fn to_int(w: u32, signed: bool, n: u32, a: u64) -> u64 {
    let v = if signed {
        cvtt(w, a, n > 32)
    } else if n <= 16 {
        cvtt(w, a, false)
    } else if n <= 63 {
        cvtt(w, a, true)
    } else {
        // a < 2^63 ? cvtt(a) : cvtt(a - 2^63) | 2^63
        let (lt, shifted) = if w == 32 {
            let x = f32b(a);
            let lim = (1u64 << 63) as f32;
            (x < lim, (x - lim).to_bits() as u64)
        } else {
            let x = f64b(a);
            let lim = (1u64 << 63) as f64;
            (x < lim, (x - lim).to_bits())
        };
        if lt {
            cvtt(w, a, true)
        } else {
            cvtt(w, shifted, true) | 1 << 63
        }
    };
    v & mask(n)
}

/// `cvtsi2ss`/`cvtsi2sd` of the integer under the mode (unsigned 64-bit values with the top
/// bit set: of `v / 2` with a sticky bit, doubled, which is exact).
fn from_int(fw: u32, m: RoundMode, signed: bool, n: u32, v: u64) -> Option<u64> {
    let r = rc(m)?;
    let conv = |x: i64| -> u64 {
        if fw == 32 {
            under!(r, "cvtsi2ss {x}, {y}", 0.0, f32, y = in(reg) x).to_bits() as u64
        } else {
            under!(r, "cvtsi2sd {x}, {y}", 0.0, f64, y = in(reg) x).to_bits()
        }
    };
    let v = v & mask(n);
    if signed {
        let s = ((v << (64 - n)) as i64) >> (64 - n);
        return Some(conv(s));
    }
    if v >> 63 == 0 {
        return Some(conv(v as i64));
    }
    let half = conv(((v >> 1) | (v & 1)) as i64);
    Some(if fw == 32 {
        (f32b(half) * 2.0).to_bits() as u64
    } else {
        (f64b(half) * 2.0).to_bits()
    })
}

fn ext(a: u64) -> u64 {
    let x = f32b(a);
    let y: f64;
    // SAFETY: SSE2; registers only.
    unsafe { std::arch::asm!("cvtss2sd {y}, {x}", y = out(xmm_reg) y, x = in(xmm_reg) x) };
    y.to_bits()
}

fn trunc(m: RoundMode, a: u64) -> Option<u64> {
    let r = rc(m)?;
    Some(under!(r, "cvtsd2ss {x}, {y}", 0.0, f32, y = in(xmm_reg) f64b(a)).to_bits() as u64)
}

/// `minsd`/`maxsd`-style `dst = op(x, y)`: `x < y ? x : y` (min) / `x > y ? x : y` (max).
fn minmax_ins(w: u32, max: bool, x: u64, y: u64) -> u64 {
    if w == 32 {
        let (mut a, b) = (f32b(x), f32b(y));
        // SAFETY: SSE; registers only.
        unsafe {
            if max {
                std::arch::asm!("maxss {a}, {b}", a = inout(xmm_reg) a, b = in(xmm_reg) b)
            } else {
                std::arch::asm!("minss {a}, {b}", a = inout(xmm_reg) a, b = in(xmm_reg) b)
            }
        }
        a.to_bits() as u64
    } else {
        let (mut a, b) = (f64b(x), f64b(y));
        // SAFETY: SSE2; registers only.
        unsafe {
            if max {
                std::arch::asm!("maxsd {a}, {b}", a = inout(xmm_reg) a, b = in(xmm_reg) b)
            } else {
                std::arch::asm!("minsd {a}, {b}", a = inout(xmm_reg) a, b = in(xmm_reg) b)
            }
        }
        a.to_bits()
    }
}

fn is_nan(w: u32, a: u64) -> bool {
    if w == 32 {
        f32b(a).is_nan()
    } else {
        f64b(a).is_nan()
    }
}

/// `minnum`/`maxnum` (clang 19: `isnan(a) ? b : minsd(b, a)`), `minimum`/`maximum` (LLVM
/// 19: the operands ordered by sign, then `isnan(x) ? x : minsd(x, y)`).
fn minmax(w: u32, k: MinMax, a: u64, b: u64) -> u64 {
    match k {
        MinMax::MinNum | MinMax::MaxNum => {
            if is_nan(w, a) {
                b
            } else {
                minmax_ins(w, k == MinMax::MaxNum, b, a)
            }
        }
        MinMax::Minimum | MinMax::Maximum => {
            let max = k == MinMax::Maximum;
            let neg = a >> (w - 1) & 1 == 1;
            let (first, second) = if max { (a, b) } else { (b, a) };
            let (x, y) = if neg {
                (first, second)
            } else {
                (second, first)
            };
            if is_nan(w, x) {
                x
            } else {
                minmax_ins(w, max, x, y)
            }
        }
    }
}

fn compare(w: u32, p: FpPred, a: u64, b: u64) -> bool {
    let (lt, gt, eq, uno) = if w == 32 {
        let (x, y) = (std::hint::black_box(f32b(a)), std::hint::black_box(f32b(b)));
        (x < y, x > y, x == y, x.is_nan() || y.is_nan())
    } else {
        let (x, y) = (std::hint::black_box(f64b(a)), std::hint::black_box(f64b(b)));
        (x < y, x > y, x == y, x.is_nan() || y.is_nan())
    };
    match p {
        FpPred::Oeq => eq,
        FpPred::Ogt => gt,
        FpPred::Oge => gt || eq,
        FpPred::Olt => lt,
        FpPred::Ole => lt || eq,
        FpPred::One => lt || gt,
        FpPred::Ord => !uno,
        FpPred::Ueq => eq || uno,
        FpPred::Ugt => gt || uno,
        FpPred::Uge => !lt,
        FpPred::Ult => lt || uno,
        FpPred::Ule => !gt,
        FpPred::Une => !eq,
        FpPred::Uno => uno,
        FpPred::True => true,
        FpPred::False => false,
    }
}

/// LLVM's `is.fpclass` mask bit of a value: 0 sNaN, 1 qNaN, 2 −inf, 3 −normal,
/// 4 −subnormal, 5 −0, 6 +0, 7 +subnormal, 8 +normal, 9 +inf.
fn class_bit(w: u32, a: u64) -> u32 {
    use std::num::FpCategory::*;
    let (cat, neg, quiet) = if w == 32 {
        let x = f32b(a);
        (x.classify(), x.is_sign_negative(), a >> 22 & 1 == 1)
    } else {
        let x = f64b(a);
        (x.classify(), x.is_sign_negative(), a >> 51 & 1 == 1)
    };
    match (cat, neg) {
        (Nan, _) => quiet as u32,
        (Infinite, true) => 2,
        (Normal, true) => 3,
        (Subnormal, true) => 4,
        (Zero, true) => 5,
        (Zero, false) => 6,
        (Subnormal, false) => 7,
        (Normal, false) => 8,
        (Infinite, false) => 9,
    }
}

/// The value of `node` natively, or `None` if an operation in it has no native form here.
pub fn eval(node: &Node, leaves: &[u64]) -> Option<u64> {
    Some(match node {
        Node::Leaf(_, i) => leaves[*i],
        Node::Arith(w, op, m, a, b) => arith(*w, *op, *m, eval(a, leaves)?, eval(b, leaves)?)?,
        Node::Sqrt(w, m, a) => sqrt(*w, *m, eval(a, leaves)?)?,
        Node::Fma(w, m, a, b, c) => {
            fma(*w, *m, eval(a, leaves)?, eval(b, leaves)?, eval(c, leaves)?)?
        }
        Node::Round(w, m, a) => {
            if !std::arch::is_x86_feature_detected!("sse4.1") {
                return None;
            }
            round_integral(*w, *m, eval(a, leaves)?)
        }
        Node::Neg(w, a) => eval(a, leaves)? ^ 1 << (w - 1),
        Node::Abs(w, a) => eval(a, leaves)? & !(1 << (w - 1)),
        Node::CopySign(w, a, b) => {
            let s = 1u64 << (w - 1);
            eval(a, leaves)? & !s | eval(b, leaves)? & s
        }
        Node::MinMax(w, k, a, b) => minmax(*w, *k, eval(a, leaves)?, eval(b, leaves)?),
        Node::Ext(a) => ext(eval(a, leaves)?),
        Node::Trunc(m, a) => trunc(*m, eval(a, leaves)?)?,
        Node::FromInt(fw, m, signed, a) => from_int(*fw, *m, *signed, a.width(), eval(a, leaves)?)?,
        Node::ToInt(n, signed, a) => to_int(a.width(), *signed, *n, eval(a, leaves)?),
        Node::Cmp(p, a, b) => compare(a.width(), *p, eval(a, leaves)?, eval(b, leaves)?) as u64,
        Node::Class(mask, a) => (mask >> class_bit(a.width(), eval(a, leaves)?) & 1) as u64,
        Node::Select(c, a, b) => {
            if eval(c, leaves)? == 1 {
                eval(a, leaves)?
            } else {
                eval(b, leaves)?
            }
        }
    })
}
