//! Floating-point expression nodes: the constructors' width checks, constant folding equal to
//! evaluation of the unfolded node, the bit-level operations against the host, and the
//! semantics added for the node kinds against x86-64 (the instructions themselves, and values
//! printed by clang-19's build of C casts).

use sear_expr::fp::sem::{class_bit, ext, round, to_unsigned, trunc};
use sear_expr::fp::{FpArith, FpError, FpOp, FpPred, RoundMode};
use sear_expr::fpsem::FpFormat;
use sear_expr::{Array, ArrayKind, Assignment, Expr, UpdateList};

const F64: &[u64] = &[
    0x0,
    0x8000_0000_0000_0000,
    0x1,
    0x800F_FFFF_FFFF_FFFF,
    0x0010_0000_0000_0000,
    0x3FF0_0000_0000_0000,
    0x3FE0_0000_0000_0000,
    0xBFF8_0000_0000_0000,
    0x4004_0000_0000_0000,
    0x4340_0000_0000_0001,
    0x7FEF_FFFF_FFFF_FFFF,
    0x7FF0_0000_0000_0000,
    0xFFF0_0000_0000_0000,
    0x7FF8_0000_0000_0000,
    0xFFF8_0000_0000_0000,
    0x7FF4_0000_0000_1234,
    0x41F0_0000_0050_0000,
    0xC1F2_A05F_2000_0000,
    0x43E1_5AF1_D78B_58C4,
    0x43F1_5AF1_D78B_58C4,
];

fn var(name: &str, width: u32) -> (sear_expr::ArrayRef, Expr) {
    let a = Array::new(name, (width / 8) as u64, ArrayKind::SymbolicInput, None);
    let e = Expr::read_lsb(
        &UpdateList::new(a.clone()),
        Expr::constant(0, 32),
        width / 8,
    );
    (a, e)
}

fn model(pairs: &[(&sear_expr::ArrayRef, u64, u32)]) -> Assignment {
    let mut m = Assignment::new();
    for (a, v, w) in pairs {
        m.insert((*a).clone(), v.to_le_bytes()[..(*w / 8) as usize].to_vec());
    }
    m
}

#[test]
fn constructors_reject_bad_widths() {
    let (_, x16) = var("h", 16);
    let (_, x32) = var("f", 32);
    let (_, x64) = var("d", 64);
    assert_eq!(
        Expr::fp_arith(FpArith::Add, x16.clone(), x16.clone()),
        Err(FpError::Format(16))
    );
    assert_eq!(
        Expr::fp_arith(FpArith::Add, x32.clone(), x64.clone()),
        Err(FpError::Mismatch(32, 64))
    );
    assert_eq!(
        Expr::int_to_fp(true, Expr::constant(1, 128), 64),
        Err(FpError::IntWidth(128))
    );
    assert!(Expr::fp_to_int(true, x64.clone(), 0).is_err());
    assert!(Expr::fp_convert(x16, 64).is_err());
    assert_eq!(Expr::fp_convert(x32.clone(), 32), Ok(x32.clone()));
    assert!(Expr::fcmp(FpPred::True, x32.clone(), x32.clone())
        .unwrap()
        .is_true());
}

/// Every node kind: the folded constant equals the symbolic node evaluated under a model.
#[test]
fn folding_agrees_with_evaluation() {
    let (a, x) = var("x", 64);
    let (b, y) = var("y", 64);
    let (c, z) = var("z", 64);
    let (i, n) = var("n", 32);
    type Build = fn(&Expr, &Expr, &Expr) -> Expr;
    let builds: Vec<(&str, Build)> = vec![
        ("add", |x, y, _| {
            Expr::fp_arith(FpArith::Add, x.clone(), y.clone()).unwrap()
        }),
        ("sub", |x, y, _| {
            Expr::fp_arith(FpArith::Sub, x.clone(), y.clone()).unwrap()
        }),
        ("mul", |x, y, _| {
            Expr::fp_arith(FpArith::Mul, x.clone(), y.clone()).unwrap()
        }),
        ("div", |x, y, _| {
            Expr::fp_arith(FpArith::Div, x.clone(), y.clone()).unwrap()
        }),
        ("rem", |x, y, _| {
            Expr::fp_arith(FpArith::Rem, x.clone(), y.clone()).unwrap()
        }),
        ("sqrt", |x, _, _| Expr::fp_sqrt(x.clone()).unwrap()),
        ("fma", |x, y, z| {
            Expr::fp_fma(x.clone(), y.clone(), z.clone()).unwrap()
        }),
        ("floor", |x, _, _| {
            Expr::fp_round(RoundMode::Down, x.clone()).unwrap()
        }),
        ("round", |x, _, _| {
            Expr::fp_round(RoundMode::NearestAway, x.clone()).unwrap()
        }),
        ("olt", |x, y, _| {
            Expr::zext(Expr::fcmp(FpPred::Olt, x.clone(), y.clone()).unwrap(), 64)
        }),
        ("ueq", |x, y, _| {
            Expr::zext(Expr::fcmp(FpPred::Ueq, x.clone(), y.clone()).unwrap(), 64)
        }),
        ("tosi", |x, _, _| {
            Expr::fp_to_int(true, x.clone(), 64).unwrap()
        }),
        ("toui", |x, _, _| {
            Expr::fp_to_int(false, x.clone(), 64).unwrap()
        }),
        ("toui32", |x, _, _| {
            Expr::zext(Expr::fp_to_int(false, x.clone(), 32).unwrap(), 64)
        }),
        ("trunc-ext", |x, _, _| {
            Expr::fp_convert(Expr::fp_convert(x.clone(), 32).unwrap(), 64).unwrap()
        }),
        ("min", |x, y, _| Expr::fp_min(x.clone(), y.clone()).unwrap()),
        ("max", |x, y, _| Expr::fp_max(x.clone(), y.clone()).unwrap()),
        ("copysign", |x, y, _| {
            Expr::copysign(x.clone(), y.clone()).unwrap()
        }),
        ("neg", |x, _, _| Expr::fneg(x.clone()).unwrap()),
        ("class", |x, _, _| {
            Expr::zext(Expr::is_fpclass(x.clone(), 0b10_1001_0110).unwrap(), 64)
        }),
    ];
    for (name, build) in &builds {
        let symbolic = build(&x, &y, &z);
        assert!(!symbolic.is_constant(), "{name}");
        for (k, &vx) in F64.iter().enumerate() {
            let vy = F64[(k * 7 + 3) % F64.len()];
            let vz = F64[(k * 5 + 1) % F64.len()];
            let folded = build(
                &Expr::constant(vx as u128, 64),
                &Expr::constant(vy as u128, 64),
                &Expr::constant(vz as u128, 64),
            );
            let m = model(&[(&a, vx, 64), (&b, vy, 64), (&c, vz, 64)]);
            assert_eq!(
                folded.as_constant(),
                Some(m.evaluate(&symbolic)),
                "{name} {vx:#x} {vy:#x} {vz:#x}"
            );
        }
    }
    // Integer → float.
    let conv = Expr::int_to_fp(true, n.clone(), 32).unwrap();
    let m = model(&[(&i, 16_777_217, 32)]);
    assert_eq!(m.evaluate(&conv), 16_777_216f32.to_bits() as u128);
    let conv = Expr::int_to_fp(false, n, 64).unwrap();
    let m = model(&[(&i, 0x8000_0000, 32)]);
    assert_eq!(m.evaluate(&conv), 2_147_483_648f64.to_bits() as u128);
    assert!(matches!(
        conv.as_fp(),
        Some((FpOp::UIToFP(RoundMode::NearestEven), args)) if args.len() == 1
    ));
}

#[test]
fn bit_level_operations_match_the_host() {
    for &v in F64 {
        let x = Expr::constant(v as u128, 64);
        let h = f64::from_bits(v);
        if !h.is_nan() {
            assert_eq!(
                Expr::fneg(x.clone()).unwrap().as_constant(),
                Some((-h).to_bits() as u128)
            );
            assert_eq!(
                Expr::fabs(x.clone()).unwrap().as_constant(),
                Some(h.abs().to_bits() as u128)
            );
        }
        let nan = Expr::fp_is_nan(x.clone()).unwrap();
        assert_eq!(nan.is_true(), h.is_nan(), "{v:#x}");
        for bit in 0..10 {
            let t = Expr::is_fpclass(x.clone(), 1 << bit).unwrap();
            assert_eq!(
                t.is_true(),
                class_bit(FpFormat::Double, v) == bit,
                "{v:#x} class {bit}"
            );
        }
        let expected = match h.classify() {
            std::num::FpCategory::Nan => h.is_nan(),
            _ => false,
        };
        assert_eq!(class_bit(FpFormat::Double, v) <= 1, expected);
    }
    assert_eq!(class_bit(FpFormat::Single, 0x7FA0_0000), 0);
    assert_eq!(class_bit(FpFormat::Single, 0x8000_0001), 4);
    assert_eq!(class_bit(FpFormat::Single, 0x0080_0000), 8);
}

/// The values clang-19's x86-64 build prints for `(uint16_t)`, `(uint32_t)`, `(uint64_t)`
/// casts of doubles (at -O0 and -O2 alike).
#[test]
fn unsigned_conversions_follow_clangs_code() {
    let cases: &[(f64, u64, u64, u64)] = &[
        (4_294_967_301.0, 0, 5, 0x1_0000_0005),
        (-1.0, 0xFFFF, 0xFFFF_FFFF, u64::MAX),
        (-5e9, 0, 0xD5FA_0E00, 0xFFFF_FFFE_D5FA_0E00),
        (1e19, 0, 0, 0x8AC7_2304_89E8_0000),
        (2e19, 0, 0, 0x8000_0000_0000_0000),
        (9.3e18, 0, 0, 0x8110_3CB9_FB22_0000),
        (f64::NAN, 0, 0, 0x8000_0000_0000_0000),
        (f64::INFINITY, 0, 0, 0x8000_0000_0000_0000),
        (f64::NEG_INFINITY, 0, 0, 0x8000_0000_0000_0000),
        (70000.0, 0x1170, 0x11170, 0x11170),
        (-0.7, 0, 0, 0),
    ];
    for &(x, u16_, u32_, u64_) in cases {
        let b = x.to_bits();
        assert_eq!(to_unsigned(FpFormat::Double, b, 16), Some(u16_), "{x} u16");
        assert_eq!(to_unsigned(FpFormat::Double, b, 32), Some(u32_), "{x} u32");
        assert_eq!(to_unsigned(FpFormat::Double, b, 64), Some(u64_), "{x} u64");
    }
}

#[cfg(target_arch = "x86_64")]
#[test]
fn ext_and_trunc_match_cvtss2sd_and_cvtsd2ss() {
    let f32s: &[u32] = &[
        0,
        0x8000_0001,
        0x7F80_0000,
        0x7FA0_1234,
        0xFFC0_0001,
        0x3F80_0001,
    ];
    for &a in f32s {
        let x = f32::from_bits(a);
        let mut y = 0f64;
        // SAFETY: SSE2 is part of the x86-64 baseline; registers only.
        unsafe { std::arch::asm!("cvtss2sd {y}, {x}", y = out(xmm_reg) y, x = in(xmm_reg) x) };
        assert_eq!(ext(a), y.to_bits(), "ext {a:#x}");
    }
    for &a in F64 {
        let x = f64::from_bits(a);
        let mut y = 0f32;
        // SAFETY: as above.
        unsafe { std::arch::asm!("cvtsd2ss {y}, {x}", y = out(xmm_reg) y, x = in(xmm_reg) x) };
        assert_eq!(trunc(a), y.to_bits(), "trunc {a:#x}");
    }
}

#[cfg(target_arch = "x86_64")]
#[test]
fn round_to_integral_matches_roundsd() {
    // roundsd immediate: 0 nearest even, 1 down, 2 up, 3 toward zero.
    for &a in F64 {
        for (imm, mode) in [
            (0, RoundMode::NearestEven),
            (1, RoundMode::Down),
            (2, RoundMode::Up),
            (3, RoundMode::Zero),
        ] {
            let x = f64::from_bits(a);
            let mut y = x;
            // SAFETY: SSE4.1 is checked at run time; registers only.
            if !std::arch::is_x86_feature_detected!("sse4.1") {
                return;
            }
            unsafe {
                match imm {
                    0 => std::arch::asm!("roundsd {y}, {y}, 0", y = inout(xmm_reg) y),
                    1 => std::arch::asm!("roundsd {y}, {y}, 1", y = inout(xmm_reg) y),
                    2 => std::arch::asm!("roundsd {y}, {y}, 2", y = inout(xmm_reg) y),
                    _ => std::arch::asm!("roundsd {y}, {y}, 3", y = inout(xmm_reg) y),
                }
            }
            assert_eq!(
                round(FpFormat::Double, mode, a),
                y.to_bits(),
                "{mode:?} {a:#x}"
            );
        }
    }
}
