//! The floating-point operations that round, in the four rounding modes of x86-64 (MXCSR's
//! rounding control, which C's `fesetround` sets), against the SSE instructions executed
//! under each mode (inline assembly that loads the mode, runs the instruction and restores
//! the control word), bit for bit, NaNs included: `fp::fold` of the nodes `Arith`, `Sqrt`,
//! `Fma`, `SIToFP`, `UIToFP` and `Trunc` on edge values and random ones.
#![cfg(target_arch = "x86_64")]

use sear_expr::fp::{fold, FpArith, FpOp, RoundMode};

/// The modes x86-64 has, with their MXCSR rounding-control values.
const MODES: [(RoundMode, u32); 4] = [
    (RoundMode::NearestEven, 0),
    (RoundMode::Down, 1),
    (RoundMode::Up, 2),
    (RoundMode::Zero, 3),
];

fn mxcsr(rc: u32) -> u32 {
    0x1F80 | (rc << 13)
}

/// `$ins x, y` (SSE, or AVX for `vfmadd`) under rounding control `rc`.
macro_rules! under {
    ($rc:expr, $ins:literal, $x:expr, $ty:ty, $($y:tt)*) => {{
        let csr = mxcsr($rc);
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

fn hw_arith32(rc: u32, op: FpArith, a: u32, b: u32) -> u32 {
    let (x, y) = (f32::from_bits(a), f32::from_bits(b));
    let r = match op {
        FpArith::Add => under!(rc, "addss {x}, {y}", x, f32, y = in(xmm_reg) y),
        FpArith::Sub => under!(rc, "subss {x}, {y}", x, f32, y = in(xmm_reg) y),
        FpArith::Mul => under!(rc, "mulss {x}, {y}", x, f32, y = in(xmm_reg) y),
        FpArith::Div => under!(rc, "divss {x}, {y}", x, f32, y = in(xmm_reg) y),
        _ => unreachable!(),
    };
    r.to_bits()
}

fn hw_arith64(rc: u32, op: FpArith, a: u64, b: u64) -> u64 {
    let (x, y) = (f64::from_bits(a), f64::from_bits(b));
    let r = match op {
        FpArith::Add => under!(rc, "addsd {x}, {y}", x, f64, y = in(xmm_reg) y),
        FpArith::Sub => under!(rc, "subsd {x}, {y}", x, f64, y = in(xmm_reg) y),
        FpArith::Mul => under!(rc, "mulsd {x}, {y}", x, f64, y = in(xmm_reg) y),
        FpArith::Div => under!(rc, "divsd {x}, {y}", x, f64, y = in(xmm_reg) y),
        _ => unreachable!(),
    };
    r.to_bits()
}

/// A xorshift generator of bit patterns that reach every exponent range: uniform bits,
/// values near 1, near the subnormal boundary, near overflow, and small integers.
struct Gen(u64);

impl Gen {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn f64(&mut self) -> u64 {
        let r = self.next();
        let sign = r & (1 << 63);
        let frac = self.next() & ((1 << 52) - 1);
        let exp = match r % 6 {
            0 => return r,
            1 => 1023 + (r >> 8) % 8,
            2 => (r >> 8) % 4,
            3 => 2040 + (r >> 8) % 7,
            4 => 1000 + (r >> 8) % 60,
            _ => return (((r >> 8) % 1000) as f64).to_bits() | sign,
        };
        sign | (exp << 52) | frac
    }

    fn f32(&mut self) -> u32 {
        let r = self.next();
        let sign = (r as u32) & (1 << 31);
        let frac = (self.next() as u32) & ((1 << 23) - 1);
        let exp = match r % 6 {
            0 => return r as u32,
            1 => 127 + (r >> 8) % 8,
            2 => (r >> 8) % 4,
            3 => 250 + (r >> 8) % 5,
            4 => 100 + (r >> 8) % 40,
            _ => return (((r >> 8) % 1000) as f32).to_bits() | sign,
        } as u32;
        sign | (exp << 23) | frac
    }
}

const EDGE64: &[u64] = &[
    0x0,
    0x8000_0000_0000_0000,
    0x1,
    0x800F_FFFF_FFFF_FFFF,
    0x3FF0_0000_0000_0000,
    0x3FF0_0000_0000_0001,
    0x4008_0000_0000_0000,
    0x3CA0_0000_0000_0000,
    0x7FEF_FFFF_FFFF_FFFF,
    0xFFEF_FFFF_FFFF_FFFF,
    0x7FF0_0000_0000_0000,
    0xFFF0_0000_0000_0000,
    0x7FF8_0000_0000_0000,
    0x7FF4_0000_0000_1234,
    0x0010_0000_0000_0000,
    0x4340_0000_0000_0001,
];

const EDGE32: &[u32] = &[
    0x0000_0000,
    0x8000_0000,
    0x0000_0001,
    0x807F_FFFF,
    0x3F80_0000,
    0x3F80_0001,
    0x4040_0000,
    0x3380_0000,
    0x7F7F_FFFF,
    0xFF7F_FFFF,
    0x7F80_0000,
    0xFF80_0000,
    0x7FC0_0000,
    0x7FA0_1234,
    0x0080_0000,
    0x4B80_0001,
];

const ARITH: [FpArith; 4] = [FpArith::Add, FpArith::Sub, FpArith::Mul, FpArith::Div];

fn fold2(op: FpOp, w: u32, a: u64, b: u64) -> u64 {
    fold(op, w, &[(a as u128, w), (b as u128, w)]) as u64
}

#[test]
fn arithmetic_rounds_as_sse_in_each_mode() {
    let mut g = Gen(0x9E37_79B9_7F4A_7C15);
    let mut pairs64: Vec<(u64, u64)> = EDGE64
        .iter()
        .flat_map(|&a| EDGE64.iter().map(move |&b| (a, b)))
        .collect();
    let mut pairs32: Vec<(u32, u32)> = EDGE32
        .iter()
        .flat_map(|&a| EDGE32.iter().map(move |&b| (a, b)))
        .collect();
    for _ in 0..20_000 {
        pairs64.push((g.f64(), g.f64()));
        pairs32.push((g.f32(), g.f32()));
    }
    for (m, rc) in MODES {
        for op in ARITH {
            for &(a, b) in &pairs64 {
                let sear = fold2(FpOp::Arith(op, m), 64, a, b);
                let hw = hw_arith64(rc, op, a, b);
                assert_eq!(sear, hw, "{op:?} {m:?} {a:#x} {b:#x}: {sear:#x} vs {hw:#x}");
            }
            for &(a, b) in &pairs32 {
                let sear = fold2(FpOp::Arith(op, m), 32, a as u64, b as u64) as u32;
                let hw = hw_arith32(rc, op, a, b);
                assert_eq!(sear, hw, "{op:?} {m:?} {a:#x} {b:#x}: {sear:#x} vs {hw:#x}");
            }
        }
    }
}

#[test]
fn sqrt_rounds_as_sse_in_each_mode() {
    let mut g = Gen(0x1234_5678_9ABC_DEF1);
    let mut xs64: Vec<u64> = EDGE64.to_vec();
    let mut xs32: Vec<u32> = EDGE32.to_vec();
    for _ in 0..50_000 {
        xs64.push(g.f64() & !(1 << 63));
        xs32.push(g.f32() & !(1 << 31));
    }
    for (m, rc) in MODES {
        for &a in &xs64 {
            let sear = fold(FpOp::Sqrt(m), 64, &[(a as u128, 64)]) as u64;
            let hw = under!(rc, "sqrtsd {x}, {y}", 0.0, f64, y = in(xmm_reg) f64::from_bits(a));
            assert_eq!(sear, hw.to_bits(), "sqrt {m:?} {a:#x}");
        }
        for &a in &xs32 {
            let sear = fold(FpOp::Sqrt(m), 32, &[(a as u128, 32)]) as u32;
            let hw = under!(rc, "sqrtss {x}, {y}", 0.0, f32, y = in(xmm_reg) f32::from_bits(a));
            assert_eq!(sear, hw.to_bits(), "sqrtf {m:?} {a:#x}");
        }
    }
}

#[test]
fn fma_rounds_as_the_fma_instruction_in_each_mode() {
    if !std::arch::is_x86_feature_detected!("fma") {
        eprintln!("no FMA instruction on this machine: skipped");
        return;
    }
    let mut g = Gen(0x0F0F_1234_4321_F0F0);
    for (m, rc) in MODES {
        for i in 0..20_000 {
            let (a, b) = (g.f64(), g.f64());
            // Every third addend cancels the product's high part, where the rounding matters.
            let c = if i % 3 == 0 {
                (-(f64::from_bits(a) * f64::from_bits(b))).to_bits()
            } else {
                g.f64()
            };
            let sear = fold(
                FpOp::Fma(m),
                64,
                &[(a as u128, 64), (b as u128, 64), (c as u128, 64)],
            ) as u64;
            let (y, z) = (f64::from_bits(b), f64::from_bits(c));
            let hw = under!(rc, "vfmadd213sd {x}, {y}, {z}", f64::from_bits(a), f64,
                y = in(xmm_reg) y, z = in(xmm_reg) z);
            assert_eq!(sear, hw.to_bits(), "fma {m:?} {a:#x} {b:#x} {c:#x}");
            let (a, b) = (g.f32(), g.f32());
            let c = if i % 3 == 0 {
                (-(f32::from_bits(a) * f32::from_bits(b))).to_bits()
            } else {
                g.f32()
            };
            let sear = fold(
                FpOp::Fma(m),
                32,
                &[(a as u128, 32), (b as u128, 32), (c as u128, 32)],
            ) as u32;
            let (y, z) = (f32::from_bits(b), f32::from_bits(c));
            let hw = under!(rc, "vfmadd213ss {x}, {y}, {z}", f32::from_bits(a), f32,
                y = in(xmm_reg) y, z = in(xmm_reg) z);
            assert_eq!(sear, hw.to_bits(), "fmaf {m:?} {a:#x} {b:#x} {c:#x}");
        }
    }
}

/// `cvtsi2sd`/`cvtsi2ss` of a 64-bit signed integer under `rc`: (binary64, binary32) bits.
fn hw_from_i64(rc: u32, v: i64) -> (u64, u32) {
    let d = under!(rc, "cvtsi2sd {x}, {y}", 0.0, f64, y = in(reg) v);
    let s = under!(rc, "cvtsi2ss {x}, {y}", 0.0, f32, y = in(reg) v);
    (d.to_bits(), s.to_bits())
}

/// An unsigned 64-bit integer correctly rounded under `rc`: `cvtsi2s*` below 2^63, else of
/// `v / 2` with the lost bit kept as a sticky bit, doubled (exact).
fn hw_from_u64(rc: u32, v: u64) -> (u64, u32) {
    if v >> 63 == 0 {
        return hw_from_i64(rc, v as i64);
    }
    let (d, s) = hw_from_i64(rc, ((v >> 1) | (v & 1)) as i64);
    (
        (f64::from_bits(d) * 2.0).to_bits(),
        (f32::from_bits(s) * 2.0).to_bits(),
    )
}

#[test]
fn int_conversions_round_as_sse_in_each_mode() {
    let mut g = Gen(0xDEAD_BEEF_0BAD_F00D);
    let mut vs: Vec<u64> = vec![
        0,
        1,
        u64::MAX,
        1 << 63,
        (1 << 63) + 1,
        (1 << 53) + 1,
        (1 << 24) + 1,
        (1 << 24) + 3,
        0x7FFF_FFFF,
        0x8000_0001,
        0xFFFF_FFFF,
    ];
    for _ in 0..20_000 {
        let r = g.next();
        vs.push(r >> (r % 64));
    }
    for (m, rc) in MODES {
        for &v in &vs {
            for width in [8u32, 16, 32, 33, 53, 64] {
                let bits = if width == 64 {
                    v
                } else {
                    v & ((1 << width) - 1)
                };
                let signed = ((bits << (64 - width)) as i64) >> (64 - width);
                let unsigned = bits;
                for (sign, op_of, hw) in [
                    (
                        true,
                        FpOp::SIToFP as fn(RoundMode) -> FpOp,
                        hw_from_i64(rc, signed),
                    ),
                    (false, FpOp::UIToFP, hw_from_u64(rc, unsigned)),
                ] {
                    let sear64 = fold(op_of(m), 64, &[(bits as u128, width)]) as u64;
                    let sear32 = fold(op_of(m), 32, &[(bits as u128, width)]) as u32;
                    assert_eq!(
                        sear64, hw.0,
                        "{m:?} signed {sign} i{width} {bits:#x} → double"
                    );
                    assert_eq!(
                        sear32, hw.1,
                        "{m:?} signed {sign} i{width} {bits:#x} → float"
                    );
                }
            }
        }
    }
}

#[test]
fn fptrunc_rounds_as_cvtsd2ss_in_each_mode() {
    let mut g = Gen(0x5555_AAAA_1234_8765);
    let mut xs: Vec<u64> = EDGE64.to_vec();
    for _ in 0..50_000 {
        xs.push(g.f64());
        // Doubles within the float range, with low bits set.
        xs.push(((g.f64() as i64 >> 2) as u64 & 0x8FFF_FFFF_FFFF_FFFF) | 0x3800_0000_0000_0000);
    }
    for (m, rc) in MODES {
        for &a in &xs {
            let sear = fold(FpOp::Trunc(m), 32, &[(a as u128, 64)]) as u32;
            let hw = under!(rc, "cvtsd2ss {x}, {y}", 0.0, f32, y = in(xmm_reg) f64::from_bits(a));
            assert_eq!(sear, hw.to_bits(), "fptrunc {m:?} {a:#x}");
        }
    }
}

/// Ties away from zero (no x86-64 mode: SMT-LIB's `RNA`): the nearest-even result except
/// at exact ties, where the larger magnitude.
#[test]
fn nearest_away_differs_from_nearest_even_only_at_ties() {
    let rna = RoundMode::NearestAway;
    // 2^24 + 1 is halfway between the floats 2^24 and 2^24 + 2.
    let conv = |m, v: u64| fold(FpOp::SIToFP(m), 32, &[(v as u128, 32)]) as u32;
    assert_eq!(f32::from_bits(conv(rna, (1 << 24) + 1)), 16_777_218.0);
    assert_eq!(
        f32::from_bits(conv(RoundMode::NearestEven, (1 << 24) + 1)),
        16_777_216.0
    );
    // 1 + 2^-24 is halfway between 1 and 1 + 2^-23 (and 1 + 3·2^-24 rounds up in both).
    let add = |m, a: f32, b: f32| {
        f32::from_bits(fold2(
            FpOp::Arith(FpArith::Add, m),
            32,
            a.to_bits() as u64,
            b.to_bits() as u64,
        ) as u32)
    };
    let half_ulp = 2f32.powi(-24);
    assert_eq!(add(rna, 1.0, half_ulp), 1.0 + 2f32.powi(-23));
    assert_eq!(add(RoundMode::NearestEven, 1.0, half_ulp), 1.0);
    assert_eq!(add(rna, -1.0, -half_ulp), -1.0 - 2f32.powi(-23));
    // Away from ties both agree.
    let mut g = Gen(42);
    for _ in 0..10_000 {
        let (a, b) = (g.f64(), g.f64());
        for op in ARITH {
            let (e, n) = (
                fold2(FpOp::Arith(op, RoundMode::NearestEven), 64, a, b),
                fold2(FpOp::Arith(op, rna), 64, a, b),
            );
            if e != n {
                // A tie: the two results are neighbours and RNA's has the larger magnitude.
                let (e, n) = (f64::from_bits(e), f64::from_bits(n));
                assert!(n.abs() > e.abs(), "{op:?} {a:#x} {b:#x}");
                assert_eq!((n.to_bits() as i64 - e.to_bits() as i64).abs(), 1);
            }
        }
    }
}

#[test]
fn the_modes_differ_where_the_result_is_inexact() {
    let (one, three) = (1f32.to_bits(), 3f32.to_bits());
    let div = |rc| hw_arith32(rc, FpArith::Div, one, three);
    let sear = |m| fold2(FpOp::Arith(FpArith::Div, m), 32, one as u64, three as u64) as u32;
    // 1/3 = 0x3EAAAAAA.AA…: up (and nearest) is one ulp above down (and toward zero).
    assert_eq!(div(2), div(1) + 1);
    assert_eq!((div(0), div(3)), (div(2), div(1)));
    for (m, rc) in MODES {
        assert_eq!(sear(m), div(rc), "{m:?}");
    }
}
