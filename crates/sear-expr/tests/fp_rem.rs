//! C's `fmod` (LLVM `frem`, [`FpArith::Rem`]) and `remainder` ([`FpArith::IeeeRem`]) as the
//! evaluator folds them, against the host's glibc called natively, bit for bit (NaN payloads,
//! signed zeros, infinities, subnormals), over special values and 4·10^5 random pairs.

use sear_expr::fp::{fold, FpArith, FpOp, RoundMode};

extern "C" {
    fn fmod(x: f64, y: f64) -> f64;
    fn fmodf(x: f32, y: f32) -> f32;
    fn remainder(x: f64, y: f64) -> f64;
    fn remainderf(x: f32, y: f32) -> f32;
}

const SPECIAL64: &[u64] = &[
    0x0,
    0x8000_0000_0000_0000,
    0x1,
    0x8000_0000_0000_0001,
    0x000F_FFFF_FFFF_FFFF,
    0x0010_0000_0000_0000,
    0x3FF0_0000_0000_0000,
    0xBFF0_0000_0000_0000,
    0x4000_0000_0000_0000,
    0x4008_0000_0000_0000,
    0xC014_0000_0000_0000,
    0x3FE0_0000_0000_0000,
    0x7FEF_FFFF_FFFF_FFFF,
    0xFFEF_FFFF_FFFF_FFFF,
    0x7FF0_0000_0000_0000,
    0xFFF0_0000_0000_0000,
    0x7FF8_0000_0000_0000,
    0xFFF8_0000_0000_0000,
    0x7FF4_0000_0000_1234,
    0xFFF0_0000_0000_0042,
    0x4330_0000_0000_0001,
    0x3CB0_0000_0000_0000,
];

const SPECIAL32: &[u32] = &[
    0x0,
    0x8000_0000,
    0x1,
    0x8000_0001,
    0x007F_FFFF,
    0x0080_0000,
    0x3F80_0000,
    0xBF80_0000,
    0x4000_0000,
    0x4040_0000,
    0xC0A0_0000,
    0x3F00_0000,
    0x7F7F_FFFF,
    0xFF7F_FFFF,
    0x7F80_0000,
    0xFF80_0000,
    0x7FC0_0000,
    0xFFC0_0000,
    0x7FA0_1234,
    0xFF80_0042,
    0x4B80_0001,
    0x3400_0000,
];

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

fn sear(op: FpArith, w: u32, a: u64, b: u64) -> u64 {
    fold(
        FpOp::Arith(op, RoundMode::NearestEven),
        w,
        &[(a as u128, w), (b as u128, w)],
    ) as u64
}

fn glibc64(op: FpArith, a: u64, b: u64) -> u64 {
    let (x, y) = (f64::from_bits(a), f64::from_bits(b));
    // SAFETY: pure libm functions.
    unsafe {
        match op {
            FpArith::Rem => fmod(x, y),
            _ => remainder(x, y),
        }
    }
    .to_bits()
}

fn glibc32(op: FpArith, a: u32, b: u32) -> u32 {
    let (x, y) = (f32::from_bits(a), f32::from_bits(b));
    // SAFETY: pure libm functions.
    unsafe {
        match op {
            FpArith::Rem => fmodf(x, y),
            _ => remainderf(x, y),
        }
    }
    .to_bits()
}

/// Pairs of doubles: every special pair, random bit patterns, and random pairs whose
/// exponents are close (so the result is neither `x` nor a NaN).
fn pairs64(rng: &mut Rng, n: usize) -> Vec<(u64, u64)> {
    let mut v: Vec<(u64, u64)> = SPECIAL64
        .iter()
        .flat_map(|&a| SPECIAL64.iter().map(move |&b| (a, b)))
        .collect();
    for i in 0..n {
        let (a, mut b) = (rng.next(), rng.next());
        if i % 2 == 0 {
            let shift = (rng.next() % 40) << 52;
            b = (a & !(0x7FF << 52)) | ((a & (0x7FF << 52)).saturating_sub(shift) & (0x7FF << 52));
            b ^= rng.next() & 0x800F_FFFF_FFFF_FFFF;
        }
        v.push((a, b));
    }
    v
}

fn pairs32(rng: &mut Rng, n: usize) -> Vec<(u32, u32)> {
    let mut v: Vec<(u32, u32)> = SPECIAL32
        .iter()
        .flat_map(|&a| SPECIAL32.iter().map(move |&b| (a, b)))
        .collect();
    for i in 0..n {
        let (a, mut b) = (rng.next() as u32, rng.next() as u32);
        if i % 2 == 0 {
            let shift = ((rng.next() % 20) as u32) << 23;
            b = (a & !(0xFF << 23)) | ((a & (0xFF << 23)).saturating_sub(shift) & (0xFF << 23));
            b ^= rng.next() as u32 & 0x807F_FFFF;
        }
        v.push((a, b));
    }
    v
}

#[test]
fn fmod_and_remainder_fold_as_glibc_computes_them() {
    let mut rng = Rng(0x2545_F491_4F6C_DD1D);
    let mut checked = 0;
    for op in [FpArith::Rem, FpArith::IeeeRem] {
        for (a, b) in pairs64(&mut rng, 100_000) {
            let (s, g) = (sear(op, 64, a, b), glibc64(op, a, b));
            assert_eq!(
                s, g,
                "{op:?} double {a:#018x} {b:#018x}: sear {s:#018x}, glibc {g:#018x}"
            );
            checked += 1;
        }
        for (a, b) in pairs32(&mut rng, 100_000) {
            let (s, g) = (sear(op, 32, a as u64, b as u64), glibc32(op, a, b) as u64);
            assert_eq!(
                s, g,
                "{op:?} float {a:#010x} {b:#010x}: sear {s:#010x}, glibc {g:#010x}"
            );
            checked += 1;
        }
    }
    assert!(checked > 400_000);
}

/// The cases glibc documents, by value: `fmod(inf, y)` and `fmod(x, 0)` are NaN,
/// `fmod(x, inf)` is `x`, a zero result takes `x`'s sign; `remainder` rounds the quotient
/// to nearest even.
#[test]
fn documented_cases() {
    let f = |op, x: f64, y: f64| f64::from_bits(sear(op, 64, x.to_bits(), y.to_bits()));
    assert!(f(FpArith::Rem, f64::INFINITY, 2.0).is_nan());
    assert!(f(FpArith::Rem, 3.0, 0.0).is_nan());
    assert_eq!(f(FpArith::Rem, 3.5, f64::NEG_INFINITY), 3.5);
    assert_eq!(f(FpArith::Rem, -4.0, 2.0).to_bits(), (-0.0f64).to_bits());
    assert_eq!(f(FpArith::Rem, -5.5, 2.0), -1.5);
    assert_eq!(f(FpArith::IeeeRem, 5.0, 2.0), 1.0);
    assert_eq!(f(FpArith::IeeeRem, 7.0, 2.0), -1.0);
    assert_eq!(f(FpArith::IeeeRem, -5.5, 2.0), 0.5);
    assert!(f(FpArith::IeeeRem, f64::INFINITY, 2.0).is_nan());
    assert_eq!(
        f(FpArith::IeeeRem, -4.0, 2.0).to_bits(),
        (-0.0f64).to_bits()
    );
}
