//! `llvm.minimum`/`llvm.maximum` against the values clang 19's x86-64 code computes (measured
//! natively at -O0 and -O2 on a module calling the intrinsics: NaNs unquietened, of two NaNs
//! the positive one for minimum and the negative one for maximum, `-0 < +0`), on constants
//! (folding) and through the evaluator on a symbolic node; and `is.fpclass` with every mask
//! bit against the class of values of every class.

use sear_expr::fp::sem::class_bit;
use sear_expr::fpsem::FpFormat;
use sear_expr::{Array, ArrayKind, Assignment, Expr, UpdateList};

const SNAN: u64 = 0x7FF4_0000_0000_0001;
const QNAN_NEG: u64 = 0xFFF8_0000_0000_0002;
const ONE: u64 = 0x3FF0_0000_0000_0000;
const NZERO: u64 = 0x8000_0000_0000_0000;
const PZERO: u64 = 0;

/// (a, b, minimum, maximum), as the native build printed them.
const NATIVE: &[(u64, u64, u64, u64)] = &[
    (SNAN, SNAN, SNAN, SNAN),
    (SNAN, QNAN_NEG, SNAN, QNAN_NEG),
    (SNAN, ONE, SNAN, SNAN),
    (SNAN, NZERO, SNAN, SNAN),
    (QNAN_NEG, SNAN, SNAN, QNAN_NEG),
    (QNAN_NEG, ONE, QNAN_NEG, QNAN_NEG),
    (QNAN_NEG, PZERO, QNAN_NEG, QNAN_NEG),
    (ONE, SNAN, SNAN, SNAN),
    (ONE, QNAN_NEG, QNAN_NEG, QNAN_NEG),
    (ONE, ONE, ONE, ONE),
    (ONE, NZERO, NZERO, ONE),
    (ONE, PZERO, PZERO, ONE),
    (NZERO, ONE, NZERO, ONE),
    (NZERO, PZERO, NZERO, PZERO),
    (PZERO, NZERO, NZERO, PZERO),
    (PZERO, QNAN_NEG, QNAN_NEG, QNAN_NEG),
    (NZERO, NZERO, NZERO, NZERO),
];

fn var(name: &str, width: u32) -> (Expr, sear_expr::ArrayRef) {
    let a = Array::new(name, (width / 8) as u64, ArrayKind::SymbolicInput, None);
    let e = Expr::read_lsb(
        &UpdateList::new(a.clone()),
        Expr::constant(0, 32),
        width / 8,
    );
    (e, a)
}

#[test]
fn minimum_and_maximum_fold_and_evaluate_as_native_code() {
    let (x, xa) = var("x", 64);
    let (y, ya) = var("y", 64);
    let min = Expr::fp_minimum(x.clone(), y.clone()).unwrap();
    let max = Expr::fp_maximum(x, y).unwrap();
    for &(a, b, lo, hi) in NATIVE {
        let c = |v: u64| Expr::constant(v as u128, 64);
        let folded = (
            Expr::fp_minimum(c(a), c(b)).unwrap().as_constant(),
            Expr::fp_maximum(c(a), c(b)).unwrap().as_constant(),
        );
        assert_eq!(
            folded,
            (Some(lo as u128), Some(hi as u128)),
            "fold {a:#x} {b:#x}"
        );
        let mut m = Assignment::new();
        m.insert(xa.clone(), a.to_le_bytes().to_vec());
        m.insert(ya.clone(), b.to_le_bytes().to_vec());
        assert_eq!(
            m.evaluate(&min),
            lo as u128,
            "evaluate minimum {a:#x} {b:#x}"
        );
        assert_eq!(
            m.evaluate(&max),
            hi as u128,
            "evaluate maximum {a:#x} {b:#x}"
        );
    }
    // binary32: the same rules on float bits.
    let f = |v: f32| Expr::constant(v.to_bits() as u128, 32);
    let r = Expr::fp_minimum(f(0.0), f(-0.0)).unwrap().as_constant();
    assert_eq!(r, Some((-0.0f32).to_bits() as u128));
    let r = Expr::fp_maximum(f(2.5), f(f32::NAN)).unwrap().as_constant();
    assert_eq!(r, Some(f32::NAN.to_bits() as u128));
}

/// Every mask bit alone, and every mask, against the class of one value per class.
#[test]
fn is_fpclass_with_every_mask_bit() {
    let values64: &[u64] = &[
        SNAN,                  // 0 sNaN
        0x7FF8_0000_0000_0000, // 1 qNaN
        0xFFF0_0000_0000_0000, // 2 -inf
        0xBFF0_0000_0000_0000, // 3 -normal
        0x8000_0000_0000_0001, // 4 -subnormal
        NZERO,                 // 5 -0
        PZERO,                 // 6 +0
        0x000F_FFFF_FFFF_FFFF, // 7 +subnormal
        ONE,                   // 8 +normal
        0x7FF0_0000_0000_0000, // 9 +inf
        0xFFF4_0000_0000_0000, // -sNaN: 0
        0xFFF8_0000_0000_0000, // -qNaN: 1
    ];
    let values32: &[u64] = &[
        0x7FA0_0000,
        0x7FC0_0000,
        0xFF80_0000,
        0xBF80_0000,
        0x8000_0001,
        0x8000_0000,
        0,
        0x007F_FFFF,
        0x3F80_0000,
        0x7F80_0000,
        0xFFA0_0000,
        0xFFC0_0000,
    ];
    for (fmt, values) in [(FpFormat::Double, values64), (FpFormat::Single, values32)] {
        let w = fmt.width();
        let (x, xa) = var("c", w);
        for (i, &v) in values.iter().enumerate() {
            let class = class_bit(fmt, v);
            assert_eq!(class as usize, i.min(i % 10), "class of {v:#x}");
            let mut m = Assignment::new();
            m.insert(xa.clone(), v.to_le_bytes()[..(w / 8) as usize].to_vec());
            for mask in 0..1024u32 {
                let expected = mask >> class & 1 == 1;
                let c = Expr::is_fpclass(Expr::constant(v as u128, w), mask).unwrap();
                assert_eq!(
                    c.as_constant(),
                    Some(expected as u128),
                    "fold {v:#x} {mask:#x}"
                );
                if mask.count_ones() <= 1 || mask % 97 == 0 {
                    let e = Expr::is_fpclass(x.clone(), mask).unwrap();
                    assert_eq!(m.evaluate(&e), expected as u128, "eval {v:#x} {mask:#x}");
                }
            }
        }
    }
}
