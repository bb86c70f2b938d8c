//! Floating-point nodes in the Z3 and Bitwuzla cores: on points (inputs fixed), each core
//! finds the evaluator's result satisfiable and every other result unsatisfiable, bit for
//! bit (NaN payloads, signed zeros, conversions out of range); free queries give models the
//! evaluator confirms.

use sear_expr::fp::{FpArith, FpPred, RoundMode};
use sear_expr::{Assignment, Expr};
use sear_solver::SatResult;

mod fp_common;
use fp_common::{assert_only_result, check, cores, var};

type Build = fn(&Expr, &Expr, &Expr) -> Expr;

fn builds() -> Vec<(&'static str, Build)> {
    vec![
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
        ("remainder", |x, y, _| {
            Expr::fp_arith(FpArith::IeeeRem, x.clone(), y.clone()).unwrap()
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
        ("rint", |x, _, _| {
            Expr::fp_round(RoundMode::NearestEven, x.clone()).unwrap()
        }),
        ("olt", |x, y, _| {
            Expr::fcmp(FpPred::Olt, x.clone(), y.clone()).unwrap()
        }),
        ("ueq", |x, y, _| {
            Expr::fcmp(FpPred::Ueq, x.clone(), y.clone()).unwrap()
        }),
        ("oge", |x, y, _| {
            Expr::fcmp(FpPred::Oge, x.clone(), y.clone()).unwrap()
        }),
        ("une", |x, y, _| {
            Expr::fcmp(FpPred::Une, x.clone(), y.clone()).unwrap()
        }),
        ("tosi32", |x, _, _| {
            Expr::fp_to_int(true, x.clone(), 32).unwrap()
        }),
        ("tosi64", |x, _, _| {
            Expr::fp_to_int(true, x.clone(), 64).unwrap()
        }),
        ("tosi8", |x, _, _| {
            Expr::fp_to_int(true, x.clone(), 8).unwrap()
        }),
        ("toui16", |x, _, _| {
            Expr::fp_to_int(false, x.clone(), 16).unwrap()
        }),
        ("toui32", |x, _, _| {
            Expr::fp_to_int(false, x.clone(), 32).unwrap()
        }),
        ("toui64", |x, _, _| {
            Expr::fp_to_int(false, x.clone(), 64).unwrap()
        }),
        ("sitofp", |x, _, _| {
            Expr::int_to_fp(true, x.clone(), x.width()).unwrap()
        }),
        ("uitofp", |x, _, _| {
            Expr::int_to_fp(false, x.clone(), x.width()).unwrap()
        }),
        ("convert", |x, _, _| {
            Expr::fp_convert(x.clone(), if x.width() == 32 { 64 } else { 32 }).unwrap()
        }),
        ("min", |x, y, _| Expr::fp_min(x.clone(), y.clone()).unwrap()),
        ("class", |x, _, _| {
            Expr::is_fpclass(x.clone(), 0b01_1001_0110).unwrap()
        }),
    ]
}

const EDGE64: &[u64] = &[
    0x0,
    0x8000_0000_0000_0000,
    0x1,
    0x3FF0_0000_0000_0000,
    0xC014_0000_0000_0000,
    0x4008_0000_0000_0000,
    0x7FF0_0000_0000_0000,
    0xFFF0_0000_0000_0000,
    0x7FF4_0000_0000_1234,
    0xFFF8_0000_0000_0000,
    0x43E1_5AF1_D78B_58C4,
    0xC1E0_0000_0020_0000,
    0x3FE8_0000_0000_0000,
];

const EDGE32: &[u64] = &[
    0x0,
    0x8000_0000,
    0x1,
    0x3F80_0000,
    0xC0A0_0000,
    0x4040_0000,
    0x7F80_0000,
    0xFF80_0000,
    0x7FA0_1234,
    0xFFC0_0000,
    0x5F00_0001,
    0x4F80_0001,
    0x3F40_0000,
];

/// A xorshift generator (the inputs of the random points).
struct Rng(u64);

impl Rng {
    fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

fn points(width: u32, rng: &mut Rng) -> Vec<[u64; 3]> {
    let edge = if width == 32 { EDGE32 } else { EDGE64 };
    let mask = if width == 32 { 0xFFFF_FFFF } else { u64::MAX };
    let mut out = Vec::new();
    for (i, &a) in edge.iter().enumerate() {
        let b = edge[(i * 5 + 2) % edge.len()];
        let c = edge[(i * 7 + 1) % edge.len()];
        out.push([a, b, c]);
    }
    for _ in 0..6 {
        out.push([0; 3].map(|_| rng.next_u64() & mask));
    }
    out
}

/// On fixed inputs, the node equals the evaluator's value (sat) and nothing else (unsat).
#[test]
fn cores_agree_with_the_evaluator_on_points() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut checked = 0;
    for width in [32u32, 64] {
        let (x, y, z) = (var("x", width), var("y", width), var("z", width));
        let pts = points(width, &mut rng);
        for (name, build) in builds() {
            if std::env::var("FP_ONLY").is_ok_and(|o| o != name) {
                continue;
            }
            let start = std::time::Instant::now();
            let node = build(&x, &y, &z);
            // `fp.rem` and `fp.sqrt` of binary64 cost seconds per query (SymFPU and Z3 both
            // unroll them over the exponent or significand): fewer points.
            let n = match (name, width) {
                ("rem" | "remainder", 64) => 1,
                ("sqrt", 64) => 2,
                (_, 64) => 8,
                _ => pts.len(),
            };
            for p in &pts[..n] {
                let [cx, cy, cz] = p.map(|v| Expr::constant(v as u128, width));
                let expected = build(&cx, &cy, &cz);
                let fixed = [
                    Expr::eq(cx.clone(), x.clone()),
                    Expr::eq(cy.clone(), y.clone()),
                    Expr::eq(cz.clone(), z.clone()),
                ];
                for core in cores().iter_mut() {
                    let what = format!("{name} w{width} {p:x?}");
                    assert_only_result(core.as_mut(), &fixed, &node, &expected, &what);
                    checked += 1;
                }
            }
            eprintln!("{name} w{width}: {:?}", start.elapsed());
        }
    }
    assert!(checked > 600 || std::env::var("FP_ONLY").is_ok());
}

/// Free queries: the cores find inputs that the evaluator confirms.
#[test]
fn free_queries_have_models_the_evaluator_confirms() {
    let x = var("fx", 64);
    let y = var("fy", 64);
    let d = |v: f64| Expr::constant(v.to_bits() as u128, 64);
    let xf = var("xf", 32);
    let f = |v: f32| Expr::constant(v.to_bits() as u128, 32);
    let add = Expr::fp_arith(FpArith::Add, x.clone(), y.clone()).unwrap();
    let queries: Vec<(&str, Vec<Expr>, bool)> = vec![
        // Absorption: x + y == x with |y| > 1e-3.
        (
            "absorption",
            vec![
                Expr::fcmp(FpPred::Oeq, add.clone(), x.clone()).unwrap(),
                Expr::fcmp(FpPred::Ogt, Expr::fabs(y.clone()).unwrap(), d(1e-3)).unwrap(),
            ],
            true,
        ),
        // (binary32: Z3's binary64 square root takes minutes.)
        (
            "sqrt window",
            vec![
                Expr::fcmp(FpPred::Ogt, Expr::fp_sqrt(xf.clone()).unwrap(), f(3.0)).unwrap(),
                Expr::fcmp(FpPred::Olt, xf.clone(), f(9.00001)).unwrap(),
            ],
            true,
        ),
        (
            "x < x",
            vec![Expr::fcmp(FpPred::Olt, x.clone(), x.clone()).unwrap()],
            false,
        ),
        (
            "nan result with a payload",
            vec![Expr::eq(
                Expr::constant(0x7FF8_0000_0000_0042, 64),
                add.clone(),
            )],
            true,
        ),
        (
            "x * 0 is not zero",
            vec![
                Expr::not(Expr::fp_is_nan(x.clone()).unwrap()),
                Expr::fcmp(
                    FpPred::One,
                    Expr::fp_arith(FpArith::Mul, x.clone(), d(0.0)).unwrap(),
                    d(0.0),
                )
                .unwrap(),
            ],
            false,
        ),
        (
            "int conversion rounds",
            vec![{
                let n = var("n", 32);
                let f = Expr::int_to_fp(true, n.clone(), 32).unwrap();
                let back = Expr::fp_to_int(true, f, 32).unwrap();
                Expr::ne(back, n)
            }],
            true,
        ),
    ];
    for (name, cs, sat) in queries {
        for core in cores().iter_mut() {
            let start = std::time::Instant::now();
            eprintln!("{name} {} ...", core.name());
            match check(core.as_mut(), &cs) {
                SatResult::Sat(m) => {
                    assert!(sat, "{name}: {} says sat", core.name());
                    assert!(m.satisfies(&cs), "{name}: {}'s model", core.name());
                }
                SatResult::Unsat => assert!(!sat, "{name}: {} says unsat", core.name()),
            }
            eprintln!("{name} {}: {:?}", core.name(), start.elapsed());
        }
    }
    let _ = Assignment::new();
}
