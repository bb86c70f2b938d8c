//! `fma` with NaN operands: the evaluator against glibc's `fma`/`fmaf` (what a C program
//! calls; on x86-64 with FMA it runs the `vfmadd213` instruction), bit for bit. Found by the
//! floating-point differential test (`sear-solver/tests/fp_differential.rs`): the NaN of
//! `b` wins over that of `a`, and a NaN `c` over the default NaN of `0 * ∞`.
#![cfg(target_arch = "x86_64")]

use sear_expr::fp::{fold, FpOp, RoundMode};

extern "C" {
    fn fma(x: f64, y: f64, z: f64) -> f64;
    fn fmaf(x: f32, y: f32, z: f32) -> f32;
}

const D: &[u64] = &[
    0x0,
    0x8000_0000_0000_0000,
    0x3FF0_0000_0000_0000,
    0x7FF0_0000_0000_0000,
    0xFFF0_0000_0000_0000,
    0x7FF8_0000_0000_0003,
    0xFFF8_0000_0000_4321,
    0x7FF0_0000_0000_0005,
    0x7FF4_0000_0000_1234,
];

const F: &[u32] = &[
    0x0,
    0x8000_0000,
    0x3F80_0000,
    0x7F80_0000,
    0xFF80_0000,
    0x7FC0_0003,
    0xFFC0_4321,
    0x7F80_0005,
    0x7FA0_1234,
];

#[test]
fn fma_nans_are_glibcs() {
    if !std::arch::is_x86_feature_detected!("fma") {
        eprintln!("no FMA instruction: glibc's software fma orders NaNs otherwise; skipped");
        return;
    }
    let mut nan_results = 0;
    for &a in D {
        for &b in D {
            for &c in D {
                // SAFETY: glibc's function on values.
                let hw = unsafe {
                    fma(
                        std::hint::black_box(f64::from_bits(a)),
                        f64::from_bits(b),
                        f64::from_bits(c),
                    )
                };
                let sear = fold(
                    FpOp::Fma(RoundMode::NearestEven),
                    64,
                    &[(a as u128, 64), (b as u128, 64), (c as u128, 64)],
                ) as u64;
                assert_eq!(sear, hw.to_bits(), "fma({a:#x}, {b:#x}, {c:#x})");
                nan_results += hw.is_nan() as u32;
            }
        }
    }
    for &a in F {
        for &b in F {
            for &c in F {
                // SAFETY: as above.
                let hw = unsafe {
                    fmaf(
                        std::hint::black_box(f32::from_bits(a)),
                        f32::from_bits(b),
                        f32::from_bits(c),
                    )
                };
                let sear = fold(
                    FpOp::Fma(RoundMode::NearestEven),
                    32,
                    &[(a as u128, 32), (b as u128, 32), (c as u128, 32)],
                ) as u32;
                assert_eq!(sear, hw.to_bits(), "fmaf({a:#x}, {b:#x}, {c:#x})");
            }
        }
    }
    assert!(nan_results > 300);
}
