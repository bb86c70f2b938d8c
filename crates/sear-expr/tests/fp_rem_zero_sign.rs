//! The sign of a zero `remainder`: glibc 2.36's `remainder` (double, the IBM
//! `e_remainder.c`) does not always give a zero result `x`'s sign as IEEE 754 does; for a
//! divisor `0 < |y| < 2^-970` it computes through `y' = |y|·2^128` and a zero takes the sign
//! of the intermediate `remainder(x, y')`. `remainderf` gives every zero `x`'s sign. The
//! evaluator folds through glibc, so it follows glibc; these tests pin the rule the solver
//! cores' encoding (`sear-solver/src/fpenc.rs`) implements against glibc called natively,
//! on zero results built as exact multiples (tiny, subnormal and normal divisors, huge and
//! negative dividends, ties of the intermediate quotient).

use sear_expr::fp::{fold, FpArith, FpOp, RoundMode};
use sear_expr::testing::Rng;

extern "C" {
    fn remainder(x: f64, y: f64) -> f64;
    fn remainderf(x: f32, y: f32) -> f32;
}

fn glibc(x: f64, y: f64) -> f64 {
    // SAFETY: a pure libm function.
    unsafe { remainder(x, y) }
}

fn sear(w: u32, a: u64, b: u64) -> u64 {
    fold(
        FpOp::Arith(FpArith::IeeeRem, RoundMode::NearestEven),
        w,
        &[(a as u128, w), (b as u128, w)],
    ) as u64
}

/// The rule: a zero `remainder(x, y)` has `x`'s sign, flipped when `0 < |y| < 2^-970`,
/// `|x| < 2^1023` and `q = |x| / (|y|·2^128)` lies below its nearest integer (ties to
/// even). `q` is exact whenever the remainder is zero.
fn rule_negative(x: f64, y: f64) -> bool {
    let (ax, ay) = (x.abs(), y.abs());
    let mut neg = x.is_sign_negative();
    if ay != 0.0 && ay < 2f64.powi(-970) && ax < 2f64.powi(1023) {
        let q = ax / (ay * 2f64.powi(128));
        if q < q.round_ties_even() {
            neg = !neg;
        }
    }
    neg
}

/// `x = k·y` for a random `k` with few significant bits, when that product is exact.
fn multiple(rng: &mut Rng, y: f64) -> Option<f64> {
    let bits = rng.next_u64() % 53 + 1;
    let mut k = (rng.next_u64() % (1u64 << bits)) as f64;
    if rng.next_u64().is_multiple_of(2) {
        k *= 2f64.powi((rng.next_u64() % 1100) as i32);
    }
    if rng.next_u64().is_multiple_of(2) {
        k = -k;
    }
    let x = k * y;
    (x.is_finite() && k.mul_add(y, -x) == 0.0).then_some(x)
}

fn divisor(rng: &mut Rng) -> f64 {
    let r = rng.next_u64();
    let sign = r & (1 << 63);
    f64::from_bits(match rng.next_u64() % 3 {
        // Exponents up to 2^-965: both sides of glibc's 2^-970.
        0 => sign | ((rng.next_u64() % 60) << 52) | (r & 0x000F_FFFF_FFFF_FFFF),
        // Subnormals, some with few significant bits.
        1 => sign | (r & 0x000F_FFFF_FFFF_FFFF) >> (rng.next_u64() % 50),
        _ => sign | ((1 + rng.next_u64() % 2046) << 52) | (r & 0x000F_FFFF_FF00_0000),
    })
}

#[test]
fn zero_remainders_follow_glibcs_rule_and_the_evaluator_agrees() {
    let mut rng = Rng::new(0x9E37_79B9_7F4A_7C15);
    let (mut zeros, mut not_ieee) = (0, 0);
    for _ in 0..400_000 {
        let y = divisor(&mut rng);
        let Some(x) = multiple(&mut rng, y) else {
            continue;
        };
        // `x` scaled into [2^1023, 2^1024) (exactly: powers of two, in two steps).
        let e = if x == 0.0 {
            0
        } else {
            1023 - x.abs().log2().floor() as i32
        };
        let huge = x * 2f64.powi(e / 2) * 2f64.powi(e - e / 2);
        for (x, y) in [(x, y), (-x, y), (x, -y), (huge, y)] {
            if y == 0.0 || !x.is_finite() {
                continue;
            }
            let g = glibc(x, y);
            let s = sear(64, x.to_bits(), y.to_bits());
            assert_eq!(s, g.to_bits(), "{:#x} {:#x}", x.to_bits(), y.to_bits());
            if g == 0.0 {
                zeros += 1;
                not_ieee += usize::from(g.is_sign_negative() != x.is_sign_negative());
                assert_eq!(
                    g.is_sign_negative(),
                    rule_negative(x, y),
                    "remainder({:#018x}, {:#018x}) = {:#018x}",
                    x.to_bits(),
                    y.to_bits(),
                    g.to_bits()
                );
            }
        }
    }
    assert!(zeros > 200_000, "{zeros} zero results");
    assert!(not_ieee > 20, "{not_ieee} zeros without x's sign");
}

/// Measured with glibc 2.36: the differential test's case, ties of the intermediate
/// quotient (`1.5 → 2`: flipped; `0.5 → 0`, `2.5 → 2`: not), huge `x`, zero `x`, and a
/// divisor just above `2^-970` (IEEE's sign).
#[test]
fn measured_zero_signs() {
    let y3 = f64::from_bits(3);
    let cases: &[(u64, u64, u64)] = &[
        (
            0x0a8a_0fdc_4eed_dbbc,
            0x8010_0000_0000_0000,
            0x8000_0000_0000_0000,
        ),
        (
            0x0a8a_0fdc_4eed_dbbc,
            0x0010_0000_0000_0000,
            0x8000_0000_0000_0000,
        ),
        (0x8a8a_0fdc_4eed_dbbc, 0x8010_0000_0000_0000, 0),
        (0x0a8a_0fdc_4eed_dbbc, 0x83f0_0000_0000_0000, 0),
        (
            (3.0 * 2f64.powi(127) * y3).to_bits(),
            3,
            0x8000_0000_0000_0000,
        ),
        ((2f64.powi(127) * y3).to_bits(), 3, 0),
        ((5.0 * 2f64.powi(127) * y3).to_bits(), 3, 0),
        (
            (7.0 * 2f64.powi(127) * y3).to_bits(),
            3,
            0x8000_0000_0000_0000,
        ),
        (0x7fe0_0000_0000_0000, 1, 0),
        (0xffe0_0000_0000_0000, 1, 0x8000_0000_0000_0000),
        (0x8000_0000_0000_0000, 1, 0x8000_0000_0000_0000),
        (
            0x0842_8677_038f_aa6a,
            0x000a_fa59_7d5e_9de0,
            0x8000_0000_0000_0000,
        ),
        (0x8821_346b_622d_c31e, 0x000c_cdb5_1f63_8b40, 0),
    ];
    for &(x, y, r) in cases {
        let (fx, fy) = (f64::from_bits(x), f64::from_bits(y));
        assert_eq!(glibc(fx, fy).to_bits(), r, "glibc {x:#x} {y:#x}");
        assert_eq!(sear(64, x, y), r, "sear {x:#x} {y:#x}");
        assert_eq!(rule_negative(fx, fy), r != 0, "rule {x:#x} {y:#x}");
    }
}

/// `remainderf` (flt-32, fdlibm's) gives every zero `x`'s sign.
#[test]
fn remainderf_zeros_have_xs_sign() {
    let mut rng = Rng::new(0x2545_F491_4F6C_DD1D);
    let mut zeros = 0;
    for _ in 0..400_000 {
        let r = rng.next_u64() as u32;
        let y = f32::from_bits(match rng.next_u64() % 2 {
            0 => r & 0x807F_FFFF,
            _ => (r & 0x8000_0000) | (((1 + rng.next_u64() % 253) as u32) << 23) | (r & 0x7F_F000),
        });
        let k = (rng.next_u64() % (1 << (rng.next_u64() % 24 + 1))) as f32
            * 2f32.powi((rng.next_u64() % 250) as i32);
        let x = if rng.next_u64().is_multiple_of(2) {
            k * y
        } else {
            -k * y
        };
        if y == 0.0 || !x.is_finite() {
            continue;
        }
        // SAFETY: a pure libm function.
        let g = unsafe { remainderf(x, y) };
        assert_eq!(
            sear(32, x.to_bits() as u64, y.to_bits() as u64),
            g.to_bits() as u64
        );
        if g == 0.0 {
            zeros += 1;
            assert_eq!(g.is_sign_negative(), x.is_sign_negative(), "{x:e} {y:e}");
        }
    }
    assert!(zeros > 50_000, "{zeros} zero results");
}
