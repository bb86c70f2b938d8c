//! `sear_expr::fpsem` against the x86-64 hardware: the SSE instructions themselves, on edge
//! values (zeros, subnormals, infinities, NaNs with payloads, values at the integer limits).
#![cfg(target_arch = "x86_64")]

use std::arch::x86_64::*;

use sear_expr::fpsem::{binary, sqrt, to_signed, FpBinOp, FpFormat};

const F32: &[u32] = &[
    0x0000_0000,
    0x8000_0000,
    0x0000_0001,
    0x807F_FFFF,
    0x3F80_0000,
    0xBF80_0000,
    0x4B80_0001,
    0x7F7F_FFFF,
    0x7F80_0000,
    0xFF80_0000,
    0x7FC0_0000,
    0xFFC0_0000,
    0x7FA0_1234,
    0xFF80_0001,
    0x7FC0_4321,
    0x4F00_0000,
    0xCF00_0000,
    0xCF00_0001,
    0x4EFF_FFFF,
    0x3F00_0000,
    0xBFC0_0000,
    0x5F00_0000,
    0xDF00_0000,
    0xDF00_0001,
];

const F64: &[u64] = &[
    0x0,
    0x8000_0000_0000_0000,
    0x1,
    0x800F_FFFF_FFFF_FFFF,
    0x3FF0_0000_0000_0000,
    0x4340_0000_0000_0001,
    0x7FEF_FFFF_FFFF_FFFF,
    0x7FF0_0000_0000_0000,
    0xFFF0_0000_0000_0000,
    0x7FF8_0000_0000_0000,
    0xFFF8_0000_0000_0000,
    0x7FF4_0000_0000_1234,
    0xFFF0_0000_0000_0001,
    0x41E0_0000_0000_0000,
    0xC1E0_0000_0000_0000,
    0xC1E0_0000_0020_0000,
    0x41DF_FFFF_FFC0_0000,
    0x43E0_0000_0000_0000,
    0xC3E0_0000_0000_0000,
    0xC3E0_0000_0000_0001,
    0x3FE0_0000_0000_0000,
    0xBFF8_0000_0000_0000,
];

const OPS: [FpBinOp; 4] = [FpBinOp::Add, FpBinOp::Sub, FpBinOp::Mul, FpBinOp::Div];

/// The SSE instruction itself (inline assembly: an intrinsic may be commuted by the compiler,
/// which changes which NaN operand propagates).
fn hw32(op: FpBinOp, a: u32, b: u32) -> u32 {
    let mut x = f32::from_bits(a);
    let y = f32::from_bits(b);
    // SAFETY: SSE is part of the x86-64 baseline; registers only.
    unsafe {
        match op {
            FpBinOp::Add => {
                std::arch::asm!("addss {x}, {y}", x = inout(xmm_reg) x, y = in(xmm_reg) y)
            }
            FpBinOp::Sub => {
                std::arch::asm!("subss {x}, {y}", x = inout(xmm_reg) x, y = in(xmm_reg) y)
            }
            FpBinOp::Mul => {
                std::arch::asm!("mulss {x}, {y}", x = inout(xmm_reg) x, y = in(xmm_reg) y)
            }
            FpBinOp::Div => {
                std::arch::asm!("divss {x}, {y}", x = inout(xmm_reg) x, y = in(xmm_reg) y)
            }
        }
    }
    x.to_bits()
}

/// As [`hw32`], for binary64.
fn hw64(op: FpBinOp, a: u64, b: u64) -> u64 {
    let mut x = f64::from_bits(a);
    let y = f64::from_bits(b);
    // SAFETY: SSE is part of the x86-64 baseline; registers only.
    unsafe {
        match op {
            FpBinOp::Add => {
                std::arch::asm!("addsd {x}, {y}", x = inout(xmm_reg) x, y = in(xmm_reg) y)
            }
            FpBinOp::Sub => {
                std::arch::asm!("subsd {x}, {y}", x = inout(xmm_reg) x, y = in(xmm_reg) y)
            }
            FpBinOp::Mul => {
                std::arch::asm!("mulsd {x}, {y}", x = inout(xmm_reg) x, y = in(xmm_reg) y)
            }
            FpBinOp::Div => {
                std::arch::asm!("divsd {x}, {y}", x = inout(xmm_reg) x, y = in(xmm_reg) y)
            }
        }
    }
    x.to_bits()
}

#[test]
fn binary_ops_match_sse_bit_for_bit() {
    for op in OPS {
        for &a in F32 {
            for &b in F32 {
                let got = binary(op, FpFormat::Single, a as u64, b as u64);
                assert_eq!(got, hw32(op, a, b) as u64, "{op:?} {a:#x} {b:#x}");
            }
        }
        for &a in F64 {
            for &b in F64 {
                let got = binary(op, FpFormat::Double, a, b);
                assert_eq!(got, hw64(op, a, b), "{op:?} {a:#x} {b:#x}");
            }
        }
    }
}

#[test]
fn sqrt_matches_sse() {
    for &a in F32 {
        // SAFETY: SSE2 is part of the x86-64 baseline.
        let hw = unsafe {
            let r = _mm_sqrt_ss(_mm_set_ss(f32::from_bits(a)));
            _mm_cvtsi128_si32(_mm_castps_si128(r)) as u32
        };
        assert_eq!(sqrt(FpFormat::Single, a as u64), hw as u64, "sqrt {a:#x}");
    }
    for &a in F64 {
        // SAFETY: as above.
        let hw = unsafe {
            let v = _mm_set_sd(f64::from_bits(a));
            _mm_cvtsi128_si64(_mm_castpd_si128(_mm_sqrt_sd(v, v))) as u64
        };
        assert_eq!(sqrt(FpFormat::Double, a), hw, "sqrt {a:#x}");
    }
}

#[test]
fn conversions_to_integers_give_the_integer_indefinite() {
    for &a in F32 {
        // SAFETY: SSE2 is part of the x86-64 baseline.
        let (h32, h64) = unsafe {
            let v = _mm_set_ss(f32::from_bits(a));
            (_mm_cvttss_si32(v) as u32 as u64, _mm_cvttss_si64(v) as u64)
        };
        assert_eq!(
            to_signed(FpFormat::Single, a as u64, 32),
            Some(h32),
            "{a:#x}"
        );
        assert_eq!(
            to_signed(FpFormat::Single, a as u64, 64),
            Some(h64),
            "{a:#x}"
        );
        assert_eq!(
            to_signed(FpFormat::Single, a as u64, 8),
            Some(h32 & 0xFF),
            "{a:#x}"
        );
    }
    for &a in F64 {
        // SAFETY: as above.
        let (h32, h64) = unsafe {
            let v = _mm_set_sd(f64::from_bits(a));
            (_mm_cvttsd_si32(v) as u32 as u64, _mm_cvttsd_si64(v) as u64)
        };
        assert_eq!(to_signed(FpFormat::Double, a, 32), Some(h32), "{a:#x}");
        assert_eq!(to_signed(FpFormat::Double, a, 64), Some(h64), "{a:#x}");
    }
    assert_eq!(to_signed(FpFormat::Double, 0, 65), None);
    assert_eq!(to_signed(FpFormat::Double, 0, 0), None);
}

#[test]
fn invalid_operations_give_the_negative_default_nan() {
    let inf = f64::INFINITY.to_bits();
    assert_eq!(
        binary(FpBinOp::Sub, FpFormat::Double, inf, inf),
        0xFFF8_0000_0000_0000
    );
    assert_eq!(binary(FpBinOp::Div, FpFormat::Single, 0, 0), 0xFFC0_0000);
    // The first NaN operand propagates, quietened.
    assert_eq!(
        binary(FpBinOp::Add, FpFormat::Single, 0x7FA0_1234, 0x7FC0_4321),
        0x7FE0_1234
    );
}

#[test]
fn comparisons_follow_ieee_and_comiss() {
    use sear_expr::fpsem::{compare, FpPred::*};
    let nan = 0x7FC0_0000u64;
    let (one, zero, nzero) = (0x3F80_0000u64, 0u64, 0x8000_0000u64);
    let f = FpFormat::Single;
    assert!(compare(Oeq, f, zero, nzero) && !compare(One, f, zero, nzero));
    assert!(!compare(Oeq, f, nan, nan) && compare(Une, f, nan, nan));
    assert!(compare(Uno, f, one, nan) && !compare(Ord, f, one, nan));
    assert!(compare(Ult, f, nan, one) && !compare(Olt, f, nan, one));
    for &a in F32 {
        for &b in F32 {
            // SAFETY: SSE is part of the x86-64 baseline.
            let (lt, eq, gt) = unsafe {
                let (x, y) = (_mm_set_ss(f32::from_bits(a)), _mm_set_ss(f32::from_bits(b)));
                (
                    _mm_comilt_ss(x, y),
                    _mm_comieq_ss(x, y),
                    _mm_comigt_ss(x, y),
                )
            };
            assert_eq!(
                compare(Olt, f, a as u64, b as u64),
                lt == 1,
                "{a:#x} < {b:#x}"
            );
            assert_eq!(
                compare(Ogt, f, a as u64, b as u64),
                gt == 1,
                "{a:#x} > {b:#x}"
            );
            // The intrinsic checks the parity flag too: false on unordered operands (fcmp oeq).
            assert_eq!(
                compare(Oeq, f, a as u64, b as u64),
                eq == 1,
                "{a:#x} == {b:#x}"
            );
        }
    }
}

#[test]
fn integer_conversions_round_like_cvtsi2ss() {
    use sear_expr::fpsem::from_int;
    let vals: [u64; 8] = [
        0,
        1,
        (1 << 24) + 1,
        (1 << 53) + 1,
        0x8000_0000,
        0x7FFF_FFFF,
        u64::MAX,
        0x8000_0000_0000_0000,
    ];
    for v in vals {
        // SAFETY: SSE2 is part of the x86-64 baseline.
        let (s64, d64, s32, d32) = unsafe {
            let z = _mm_setzero_ps();
            let zd = _mm_setzero_pd();
            (
                _mm_cvtss_f32(_mm_cvtsi64_ss(z, v as i64)).to_bits() as u64,
                _mm_cvtsd_f64(_mm_cvtsi64_sd(zd, v as i64)).to_bits(),
                _mm_cvtss_f32(_mm_cvtsi32_ss(z, v as u32 as i32)).to_bits() as u64,
                _mm_cvtsd_f64(_mm_cvtsi32_sd(zd, v as u32 as i32)).to_bits(),
            )
        };
        assert_eq!(from_int(FpFormat::Single, v, 64, true), Some(s64), "{v:#x}");
        assert_eq!(from_int(FpFormat::Double, v, 64, true), Some(d64), "{v:#x}");
        assert_eq!(from_int(FpFormat::Single, v, 32, true), Some(s32), "{v:#x}");
        assert_eq!(from_int(FpFormat::Double, v, 32, true), Some(d32), "{v:#x}");
        // Unsigned 32-bit values are exact as signed 64-bit ones.
        let u = v as u32 as u64;
        let su = unsafe { _mm_cvtss_f32(_mm_cvtsi64_ss(_mm_setzero_ps(), u as i64)) };
        assert_eq!(
            from_int(FpFormat::Single, v, 32, false),
            Some(su.to_bits() as u64)
        );
    }
    // 2^24 + 1 is not a float: it rounds to even, 2^24.
    assert_eq!(
        from_int(FpFormat::Single, (1 << 24) + 1, 32, true),
        Some(0x4B80_0000)
    );
    assert_eq!(from_int(FpFormat::Single, 0, 65, true), None);
}
