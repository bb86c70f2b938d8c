//! The concrete oracle computes what the program computes natively: a C program built by
//! clang applies the same string.h / math.h functions and float instructions to the same
//! values, and every result must equal the oracle's row bit for bit.

use std::fmt::Write as _;
use std::process::Command;

use sear_indexify::ops::{Arith, MathFn, Op, Pred, StrFn};
use sear_indexify::oracle::{apply, Arg, Outcome};
use sear_indexify::{GValue, Ty};

const STRINGS: [&str; 6] = ["", "a", "NVidia", "NVidiaCorporation", "foobar", "bar"];
const DOUBLES: [f64; 9] = [
    0.0,
    -0.0,
    1.5,
    -2.25,
    1e300,
    1e-300,
    0.1,
    f64::INFINITY,
    7.0,
];

fn c_string(s: &str) -> String {
    format!("{s:?}")
}

fn c_double(x: f64) -> String {
    format!("u2d(0x{:016x}ULL)", x.to_bits())
}

/// The expected lines, and the C statements printing the same lines natively.
fn cases() -> (Vec<String>, String) {
    let mut expected = Vec::new();
    let mut c = String::new();
    let str_ops = [
        (StrFn::Strcmp, "strcmp"),
        (StrFn::Strcasecmp, "strcasecmp"),
        (StrFn::Strstr, "strstr"),
        (StrFn::Strspn, "strspn"),
        (StrFn::Strcspn, "strcspn"),
        (StrFn::Strpbrk, "strpbrk"),
    ];
    for a in STRINGS {
        let ga = GValue::str(a.as_bytes());
        let len = apply(&Op::Str(StrFn::Strlen), &[Arg::Val(&ga)]);
        expected.push(format!("{len:?}"));
        writeln!(
            c,
            "  printf(\"Some(Int(%lu))\\n\", (unsigned long)strlen({}));",
            c_string(a)
        )
        .unwrap();
        for b in STRINGS {
            let gb = GValue::str(b.as_bytes());
            for (f, name) in str_ops {
                let r = apply(&Op::Str(f), &[Arg::Val(&ga), Arg::Val(&gb)]);
                expected.push(format!("{r:?}"));
                let call = format!("{name}({}, {})", c_string(a), c_string(b));
                match Op::Str(f).ret() {
                    sear_indexify::ops::Ret::Offset => writeln!(
                        c,
                        "  {{ const char *h = {}; const char *p = {name}(h, {}); if (p) printf(\"Some(Int(%lu))\\n\", (unsigned long)(p - h)); else printf(\"Some(Null)\\n\"); }}",
                        c_string(a),
                        c_string(b)
                    ),
                    sear_indexify::ops::Ret::Int(64) => {
                        writeln!(c, "  printf(\"Some(Int(%lu))\\n\", (unsigned long){call});")
                    }
                    _ => writeln!(c, "  printf(\"Some(Int(%u))\\n\", (unsigned)(int){call});"),
                }
                .unwrap();
            }
            for n in [0u64, 4, 8] {
                let r = apply(
                    &Op::Str(StrFn::Strncmp),
                    &[Arg::Val(&ga), Arg::Val(&gb), Arg::Int(n)],
                );
                expected.push(format!("{r:?}"));
                writeln!(
                    c,
                    "  printf(\"Some(Int(%u))\\n\", (unsigned)strncmp({}, {}, {n}));",
                    c_string(a),
                    c_string(b)
                )
                .unwrap();
            }
        }
    }
    let binary = [
        (Op::Arith(Arith::Add, Ty::F64), "x + y"),
        (Op::Arith(Arith::Mul, Ty::F64), "x * y"),
        (Op::Arith(Arith::Div, Ty::F64), "x / y"),
        (Op::Math(MathFn::Pow, Ty::F64), "pow(x, y)"),
        (Op::Math(MathFn::Fmod, Ty::F64), "fmod(x, y)"),
        (Op::Math(MathFn::Atan2, Ty::F64), "atan2(x, y)"),
    ];
    let unary = [
        (Op::Math(MathFn::Floor, Ty::F64), "floor(x)"),
        (Op::Math(MathFn::Sqrt, Ty::F64), "sqrt(x)"),
        (Op::Math(MathFn::Sin, Ty::F64), "sin(x)"),
        (Op::Math(MathFn::Exp, Ty::F64), "exp(x)"),
        (Op::Math(MathFn::Log, Ty::F64), "log(x)"),
        (Op::Math(MathFn::Fabs, Ty::F64), "fabs(x)"),
        (Op::Neg(Ty::F64), "-x"),
    ];
    for x in DOUBLES {
        let gx = GValue::f64(x);
        for (op, expr) in unary {
            let r = apply(&op, &[Arg::Val(&gx)]);
            expected.push(format!("{r:?}"));
            writeln!(c, "  {{ double x = {}; pd({expr}); }}", c_double(x)).unwrap();
        }
        let r = apply(
            &Op::ToInt {
                signed: true,
                width: 32,
                from: Ty::F64,
            },
            &[Arg::Val(&gx)],
        );
        expected.push(format!("{r:?}"));
        writeln!(
            c,
            "  {{ double x = {}; if (x > -2147483649.0 && x < 2147483648.0) printf(\"Some(Int(%u))\\n\", (unsigned)(int)x); else printf(\"%s\\n\", \"{r:?}\"); }}",
            c_double(x)
        )
        .unwrap();
        for y in DOUBLES {
            let gy = GValue::f64(y);
            for (op, expr) in binary {
                let r = apply(&op, &[Arg::Val(&gx), Arg::Val(&gy)]);
                expected.push(format!("{r:?}"));
                writeln!(
                    c,
                    "  {{ double x = {}, y = {}; pd({expr}); }}",
                    c_double(x),
                    c_double(y)
                )
                .unwrap();
            }
            let r = apply(
                &Op::Cmp(Pred::Olt, Ty::F64),
                &[Arg::Val(&gx), Arg::Val(&gy)],
            );
            expected.push(format!("{r:?}"));
            writeln!(
                c,
                "  {{ double x = {}, y = {}; printf(\"Some(Int(%d))\\n\", x < y); }}",
                c_double(x),
                c_double(y)
            )
            .unwrap();
        }
    }
    (expected, c)
}

#[test]
fn oracle_rows_equal_native_results() {
    let (expected, body) = cases();
    let program = format!(
        "#include <math.h>\n#include <stdio.h>\n#include <string.h>\n#include <strings.h>\n\
         #include <stdint.h>\n\
         static double u2d(uint64_t b) {{ double d; memcpy(&d, &b, 8); return d; }}\n\
         static void pd(double d) {{ uint64_t b; memcpy(&b, &d, 8);\n\
           if (d != d) b = 0x7ff8000000000000ULL; /* one NaN */\n\
           printf(\"Some(Value(F64(%llu)))\\n\", (unsigned long long)b); }}\n\
         int main(void) {{\n{body}  return 0;\n}}\n"
    );
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("native.c");
    std::fs::write(&src, program).unwrap();
    let exe = dir.path().join("native");
    let clang = sear_ir::frontend::find_tool("clang-19", "clang").expect("clang");
    let built = Command::new(clang)
        .args(["-O0", "-fno-builtin", "-o"])
        .arg(&exe)
        .arg(&src)
        .arg("-lm")
        .output()
        .unwrap();
    assert!(
        built.status.success(),
        "{}",
        String::from_utf8_lossy(&built.stderr)
    );
    let out = Command::new(&exe).output().unwrap();
    let native: Vec<String> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(str::to_string)
        .collect();
    assert_eq!(native.len(), expected.len());
    for (i, (n, e)) in native.iter().zip(&expected).enumerate() {
        assert_eq!(n, e, "row {i}");
    }
    // a sanity check of the format: NVidia and NVidiaCorporation agree on 4 characters
    let (a, b) = (GValue::str(b"NVidia"), GValue::str(b"NVidiaCorporation"));
    assert_eq!(
        apply(
            &Op::Str(StrFn::Strncmp),
            &[Arg::Val(&a), Arg::Val(&b), Arg::Int(4)]
        ),
        Some(Outcome::Int(0))
    );
}
