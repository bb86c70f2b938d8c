//! SMT-LIB parsing: operator semantics against reference implementations, scoping,
//! commands, declarations and errors with positions.

mod common;

use sear_expr::smtlib::{parse_script, Command, ParseError, Script};
use sear_expr::{ArrayKind, Assignment, BinOp, Expr};

fn mask(w: u32) -> u128 {
    if w == 128 {
        u128::MAX
    } else {
        (1 << w) - 1
    }
}

fn signed(v: u128, w: u32) -> i128 {
    ((v << (128 - w)) as i128) >> (128 - w)
}

fn parse(text: &str) -> Script {
    parse_script(text).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

fn values(script: &Script) -> Vec<Expr> {
    script
        .commands
        .iter()
        .filter_map(|c| match c {
            Command::GetValue(v) => Some(v.iter().map(|(_, e, _)| e.clone())),
            _ => None,
        })
        .flatten()
        .collect()
}

/// A model giving each declared constant of `script` a value (little-endian bytes).
fn model_for(script: &Script, consts: &[u128]) -> Assignment {
    let mut model = Assignment::new();
    for (array, &value) in script.arrays.iter().zip(consts) {
        let bytes = (0..array.size())
            .map(|i| (value >> (8 * i)) as u8)
            .collect();
        model.insert(array.clone(), bytes);
    }
    model
}

/// `bvsmod` exactly as the SMT-LIB theory defines it.
fn smod_reference(s: u128, t: u128, w: u32) -> u128 {
    let m = mask(w);
    let msb = |v: u128| (v >> (w - 1)) & 1;
    let neg = |v: u128| v.wrapping_neg() & m;
    let abs_s = if msb(s) == 0 { s } else { neg(s) };
    let abs_t = if msb(t) == 0 { t } else { neg(t) };
    let u = if abs_t == 0 { abs_s } else { abs_s % abs_t };
    if u == 0 || (msb(s) == 0 && msb(t) == 0) {
        u
    } else if msb(s) == 1 && msb(t) == 0 {
        neg(u).wrapping_add(t) & m
    } else if msb(s) == 0 && msb(t) == 1 {
        u.wrapping_add(t) & m
    } else {
        neg(u)
    }
}

fn interesting(w: u32) -> Vec<u128> {
    if w <= 4 {
        return (0..1u128 << w).collect();
    }
    let m = mask(w);
    let smin = 1u128 << (w - 1);
    let mut v = vec![
        0,
        1,
        2,
        3,
        5,
        m,
        m - 1,
        smin,
        smin - 1,
        smin + 1,
        0x5555_5555_5555_5555_5555_5555_5555_5555 & m,
        0x0f0f & m,
    ];
    v.sort_unstable();
    v.dedup();
    v
}

/// A reference implementation of a binary operator: `(a, b, width) -> value`.
type Reference = dyn Fn(u128, u128, u32) -> u128;

#[test]
fn binary_operators_match_their_definitions() {
    let ops: &[(&str, &Reference)] = &[
        ("bvadd", &|a, b, w| common::binary(BinOp::Add, w, a, b)),
        ("bvsub", &|a, b, w| common::binary(BinOp::Sub, w, a, b)),
        ("bvmul", &|a, b, w| common::binary(BinOp::Mul, w, a, b)),
        ("bvudiv", &|a, b, w| common::binary(BinOp::UDiv, w, a, b)),
        ("bvsdiv", &|a, b, w| common::binary(BinOp::SDiv, w, a, b)),
        ("bvurem", &|a, b, w| common::binary(BinOp::URem, w, a, b)),
        ("bvsrem", &|a, b, w| common::binary(BinOp::SRem, w, a, b)),
        ("bvsmod", &smod_reference),
        ("bvand", &|a, b, _| a & b),
        ("bvor", &|a, b, _| a | b),
        ("bvxor", &|a, b, _| a ^ b),
        ("bvnand", &|a, b, w| !(a & b) & mask(w)),
        ("bvnor", &|a, b, w| !(a | b) & mask(w)),
        ("bvxnor", &|a, b, w| !(a ^ b) & mask(w)),
        ("bvshl", &|a, b, w| common::binary(BinOp::Shl, w, a, b)),
        ("bvlshr", &|a, b, w| common::binary(BinOp::LShr, w, a, b)),
        ("bvashr", &|a, b, w| common::binary(BinOp::AShr, w, a, b)),
        ("bvcomp", &|a, b, _| (a == b) as u128),
        ("bvult", &|a, b, _| (a < b) as u128),
        ("bvule", &|a, b, _| (a <= b) as u128),
        ("bvugt", &|a, b, _| (a > b) as u128),
        ("bvuge", &|a, b, _| (a >= b) as u128),
        ("bvslt", &|a, b, w| (signed(a, w) < signed(b, w)) as u128),
        ("bvsle", &|a, b, w| (signed(a, w) <= signed(b, w)) as u128),
        ("bvsgt", &|a, b, w| (signed(a, w) > signed(b, w)) as u128),
        ("bvsge", &|a, b, w| (signed(a, w) >= signed(b, w)) as u128),
        ("=", &|a, b, _| (a == b) as u128),
        ("distinct", &|a, b, _| (a != b) as u128),
    ];
    for w in [1, 3, 8, 13, 64, 128] {
        let mut text = format!(
            "(declare-fun s () (_ BitVec {w}))\n(declare-fun t () (_ BitVec {w}))\n(get-value ("
        );
        for (name, _) in ops {
            text.push_str(&format!("({name} s t) "));
        }
        text.push_str("))");
        let script = parse(&text);
        let exprs = values(&script);
        assert_eq!(exprs.len(), ops.len());
        for &a in &interesting(w) {
            for &b in &interesting(w) {
                let model = model_for(&script, &[a, b]);
                for ((name, reference), e) in ops.iter().zip(&exprs) {
                    assert_eq!(
                        model.evaluate(e),
                        reference(a, b, w),
                        "({name} {a:#x} {b:#x}) at width {w}"
                    );
                }
            }
        }
    }
}

#[test]
fn unary_and_indexed_operators_match_their_definitions() {
    let w = 8;
    let text = "(declare-fun s () (_ BitVec 8))
        (get-value ((bvnot s) (bvneg s) ((_ extract 6 2) s) ((_ zero_extend 5) s) ((_ sign_extend 5) s)
                    ((_ repeat 3) s) ((_ rotate_left 3) s) ((_ rotate_right 3) s) ((_ rotate_left 11) s)
                    (concat s #b101) (concat #x1 s #b0)))";
    let script = parse(text);
    let exprs = values(&script);
    for a in 0..256u128 {
        let model = model_for(&script, &[a]);
        let rotl = |k: u32| ((a << k) | (a >> (w - k))) & 0xff;
        let expected = [
            !a & 0xff,
            a.wrapping_neg() & 0xff,
            (a >> 2) & 0x1f,
            a,
            signed(a, 8) as u128 & mask(13),
            a | (a << 8) | (a << 16),
            rotl(3),
            rotl(5),
            rotl(3),
            (a << 3) | 0b101,
            (1 << 9) | (a << 1),
        ];
        for (e, x) in exprs.iter().zip(expected) {
            assert_eq!(model.evaluate(e), x, "{e:?} at {a:#x}");
        }
    }
}

#[test]
fn literals() {
    let script = parse("(get-value (#x0a #b101 (_ bv10 8) (_ bv300 8) (_ bv340282366920938463463374607431768211457 128) #xffffffffffffffffffffffffffffffff true false))");
    let got: Vec<(Option<u128>, u32)> = values(&script)
        .iter()
        .map(|e| (e.as_constant(), e.width()))
        .collect();
    assert_eq!(
        got,
        vec![
            (Some(10), 8),
            (Some(5), 3),
            (Some(10), 8),
            (Some(300 % 256), 8),
            (Some(1), 128),
            (Some(u128::MAX), 128),
            (Some(1), 1),
            (Some(0), 1),
        ]
    );
}

#[test]
fn core_connectives_and_associativity() {
    let script = parse(
        "(declare-const p Bool) (declare-const q Bool) (declare-const r Bool)
         (get-value ((=> p q r) (and p q r) (or p q r) (xor p q r) (= p q r) (distinct p q r) (not p) (ite p q r)))",
    );
    let exprs = values(&script);
    for bits in 0..8u128 {
        let (p, q, r) = (bits & 1 == 1, bits & 2 == 2, bits & 4 == 4);
        let model = model_for(&script, &[p as u128, q as u128, r as u128]);
        let expected = [
            !p || (!q || r),
            p && q && r,
            p || q || r,
            p ^ q ^ r,
            p == q && q == r,
            p != q && p != r && q != r,
            !p,
            if p { q } else { r },
        ];
        for (e, x) in exprs.iter().zip(expected) {
            assert_eq!(model.evaluate(e), x as u128, "{e:?} at p={p} q={q} r={r}");
        }
    }
}

#[test]
fn nary_bitvector_operators_associate_left() {
    let script = parse(
        "(declare-const a (_ BitVec 8)) (declare-const b (_ BitVec 8)) (declare-const c (_ BitVec 8))
         (get-value ((bvsub a b c) (bvadd a b c) (bvmul a b c) (bvand a b c) (bvor a b c) (bvxor a b c) (concat a b c) (= a b c)))",
    );
    let exprs = values(&script);
    for (a, b, c) in [(9u128, 4u128, 2u128), (0, 255, 1), (200, 100, 50)] {
        let model = model_for(&script, &[a, b, c]);
        let expected = [
            a.wrapping_sub(b).wrapping_sub(c) & 0xff,
            (a + b + c) & 0xff,
            (a * b * c) & 0xff,
            a & b & c,
            a | b | c,
            a ^ b ^ c,
            (a << 16) | (b << 8) | c,
            (a == b && b == c) as u128,
        ];
        for (e, x) in exprs.iter().zip(expected) {
            assert_eq!(model.evaluate(e), x, "{e:?}");
        }
    }
}

#[test]
fn let_binds_in_parallel_and_shadows() {
    let script = parse(
        "(declare-const x (_ BitVec 8)) (declare-const y (_ BitVec 8))
         (get-value ((let ((x y) (y x)) (bvsub x y))
                     (let ((x #x01)) (let ((x (bvadd x x))) (let ((z x)) (bvadd z x))))
                     (bvadd x (let ((x #x05)) x))))",
    );
    let exprs = values(&script);
    let model = model_for(&script, &[10, 3]);
    assert_eq!(model.evaluate(&exprs[0]), 3u128.wrapping_sub(10) & 0xff);
    assert_eq!(exprs[1].as_constant(), Some(4));
    assert_eq!(model.evaluate(&exprs[2]), 15);
}

#[test]
fn declarations_become_arrays() {
    let script = parse(
        "; sear-array in size=12 kind=symbolic-input
         (declare-fun in () (Array (_ BitVec 32) (_ BitVec 8)))
         ; sear-array |odd name| size=3 kind=memory-object
         (declare-fun |odd name| () (Array (_ BitVec 64) (_ BitVec 8)))
         (declare-fun bare () (Array (_ BitVec 32) (_ BitVec 8)))
         (declare-fun unused () (Array (_ BitVec 32) (_ BitVec 8)))
         (declare-fun b () Bool)
         (declare-const w17 (_ BitVec 17))
         (declare-const w128 (_ BitVec 128))
         (assert (= (select bare #x00000009) (select bare (bvadd #x00000003 ((_ zero_extend 24) (select in #x00000000))))))
         (assert (= #x00 (select |odd name| #x0000000000000002)))",
    );
    let summary: Vec<(&str, u64, u32, ArrayKind)> = script
        .arrays
        .iter()
        .map(|a| (a.name(), a.size(), a.index_width(), a.kind()))
        .collect();
    assert_eq!(
        summary,
        vec![
            ("in", 12, 32, ArrayKind::SymbolicInput),
            ("odd name", 3, 64, ArrayKind::MemoryObject),
            // No size given: one more than the largest constant index read.
            ("bare", 10, 32, ArrayKind::Other),
            ("unused", 0, 32, ArrayKind::Other),
            ("b", 1, 32, ArrayKind::Other),
            ("w17", 3, 32, ArrayKind::Other),
            ("w128", 16, 32, ArrayKind::Other),
        ]
    );
    assert_eq!(script.bool_consts.len(), 1);
    let names: Vec<&str> = script
        .bitvector_consts
        .iter()
        .map(|(n, _)| n.as_str())
        .collect();
    assert_eq!(names, ["w17", "w128"]);
    // Constants are little-endian reads of their arrays, truncated to the width.
    let mut model = Assignment::new();
    model.insert(script.arrays[5].clone(), vec![0x34, 0x12, 0xff]);
    model.insert(script.arrays[4].clone(), vec![0x03]);
    assert_eq!(model.evaluate(&script.bitvector_consts[0].1), 0x1_1234);
    assert_eq!(model.evaluate(&script.bool_consts[0].1), 1);
    assert_eq!(script.bitvector_consts[1].1.width(), 128);
}

#[test]
fn defined_constant_arrays_and_terms() {
    let script = parse(
        "; sear-array tbl size=6 kind=memory-object
         (define-fun tbl () (Array (_ BitVec 32) (_ BitVec 8))
           (store (store ((as const (Array (_ BitVec 32) (_ BitVec 8))) #x00) #x00000001 #x11) #x00000004 #x44))
         (define-fun small () (Array (_ BitVec 32) (_ BitVec 8))
           (store ((as const (Array (_ BitVec 32) (_ BitVec 8))) #x00) #x00000002 #x22))
         (declare-const i (_ BitVec 32))
         (define-fun sym () (Array (_ BitVec 32) (_ BitVec 8))
           (store ((as const (Array (_ BitVec 32) (_ BitVec 8))) #x07) i #x01))
         (define-fun two () (_ BitVec 8) (bvadd #x01 #x01))
         (get-value ((select tbl #x00000004) (select small i) (select sym #x00000003) two))",
    );
    let exprs = values(&script);
    assert_eq!(exprs[0].as_constant(), Some(0x44));
    assert_eq!(exprs[3].as_constant(), Some(2));
    // The constant roots carry their contents, size and kind.
    let roots = sear_expr::visit::collect_arrays(&exprs[1..2]);
    let small = roots
        .iter()
        .find(|a| a.is_constant())
        .expect("a constant root");
    assert_eq!(
        (small.name(), small.size(), small.contents()),
        ("small", 3, Some(&[0, 0, 0x22][..]))
    );
    // A non-zero default stays an exact ite over the writes.
    for (i, expected) in [(3u128, 1u128), (4, 7)] {
        let model = model_for(&script, &[i]);
        assert_eq!(model.evaluate(&exprs[2]), expected);
    }
    // Symbolic arrays exclude the constant ones.
    assert_eq!(script.arrays.len(), 1);
}

#[test]
fn commands_in_order() {
    let script = parse(
        "(set-info :status sat) (set-option :produce-models true) (set-logic QF_ABV)
         (set-info :source |multi
line|) (echo \"say \"\"hi\"\"\")
         (declare-const x (_ BitVec 8))
         (push 1) (assert (= x #x01)) (check-sat) (pop 1)
         (push) (declare-const y (_ BitVec 8)) (assert (= x y)) (pop)
         (declare-const y (_ BitVec 8))
         (assert (! (bvult x y) :named lt)) (assert lt)
         (check-sat) (get-model) (get-value (x (bvadd x y)))
         (exit)
         (assert garbage)",
    );
    let kinds: Vec<String> = script
        .commands
        .iter()
        .map(|c| match c {
            Command::Assert(_) => "assert".into(),
            Command::AssertNamed(n, _) => format!("assert :named {n}"),
            Command::CheckSat => "check-sat".into(),
            Command::CheckSatAssuming(l) => format!("check-sat-assuming {}", l.len()),
            Command::GetUnsatCore => "get-unsat-core".into(),
            Command::Reset => "reset".into(),
            Command::ResetAssertions => "reset-assertions".into(),
            Command::GetModel => "get-model".into(),
            Command::GetValue(v) => format!(
                "get-value {}",
                v.iter()
                    .map(|(t, _, _)| t.as_str())
                    .collect::<Vec<_>>()
                    .join(",")
            ),
            Command::Push(n) => format!("push {n}"),
            Command::Pop(n) => format!("pop {n}"),
            Command::Echo(s) => format!("echo {s}"),
            Command::Exit => "exit".into(),
            Command::Ignored(s) => format!("ignored {s}"),
        })
        .collect();
    assert_eq!(
        kinds,
        vec![
            "ignored (set-info :status sat)",
            "ignored (set-option :produce-models true)",
            "ignored (set-logic QF_ABV)",
            "ignored (set-info :source |multi\nline|)",
            "echo say \"hi\"",
            "push 1",
            "assert",
            "check-sat",
            "pop 1",
            "push 1",
            "assert",
            "pop 1",
            "assert :named lt",
            "assert",
            "check-sat",
            "get-model",
            "get-value x,(bvadd x y)",
            "exit",
        ]
    );
    // `lt` names the same term.
    let asserts = script.assertions();
    assert_eq!(asserts[asserts.len() - 1], asserts[asserts.len() - 2]);
}

fn error(text: &str) -> ParseError {
    match parse_script(text) {
        Ok(_) => panic!("parsed: {text}"),
        Err(e) => e,
    }
}

#[test]
fn errors_name_line_column_and_construct() {
    let cases: &[(&str, usize, usize, &str)] = &[
        ("(assert (bvadd #x01))", 1, 9, "bvadd expects at least 2 arguments"),
        ("(assert\n  (= #x01 #b1))", 2, 3, "different sorts"),
        ("(assert #x01)", 1, 9, "expected Bool"),
        ("(assert (= x #x01))", 1, 12, "unknown symbol x"),
        ("(declare-fun a () (Array (_ BitVec 32) (_ BitVec 8)))\n(assert (= a a))", 2, 9, "= between arrays is not supported"),
        ("(declare-fun a () (Array (_ BitVec 32) (_ BitVec 8)))\n(assert (= #x00 (select (ite true a a) #x00000000)))", 2, 25, "ite over arrays is not supported"),
        ("(declare-fun a () (Array (_ BitVec 32) (_ BitVec 8)))\n(assert (= #x00 (select a #x00)))", 2, 17, "index must be (_ BitVec 32)"),
        ("(declare-fun a () (Array (_ BitVec 16) (_ BitVec 8)))", 1, 19, "only arrays from"),
        ("(declare-fun f ((_ BitVec 8)) (_ BitVec 8))", 1, 16, "functions with parameters"),
        ("(define-fun f ((x (_ BitVec 8))) (_ BitVec 8) x)(assert (= (f true) #x00))", 1, 60, "f: argument x has sort Bool"),
        ("(define-sort B (X) X)", 1, 16, "define-sort with parameters"),
        ("(define-fun f () (_ BitVec 8) true)", 1, 31, "the body has sort Bool"),
        ("(declare-const x Bool) (declare-const x Bool)", 1, 39, "x is already declared"),
        ("(declare-const x (_ BitVec 0))", 1, 28, "width 0"),
        ("(declare-const x (_ BitVec 129))", 1, 28, "width 129"),
        ("(declare-const x Int)", 1, 18, "unsupported sort Int"),
        ("(assert (= #x000000000000000000000000000000000 #x0))", 1, 12, "wider than 128 bits"),
        ("(assert (= #x00 ((_ extract 8 0) #x00)))", 1, 17, "extract: bit 8 of a 8-bit value"),
        ("(assert (= #x00 ((_ extract 0 1) #x00)))", 1, 18, "first index must not be below"),
        ("(assert (= #x00 ((_ zero_extend 200) #x00)))", 1, 17, "wider than 128"),
        ("(assert (forall ((x Bool)) x))", 1, 9, "only (forall"),
        ("(assert (exists ((x Bool)) x))", 1, 10, "exists is not supported"),
        ("(assert (= #x00 (foo #x00)))", 1, 18, "unknown function foo"),
        ("(check-sat)\n(pop 1)", 2, 1, "pop without a matching push"),
        ("(declare-fun a () (Array (_ BitVec 32) (_ BitVec 8)))(get-value (a))", 1, 66, "get-value of an array"),
        ("(check-sat) (frobnicate)", 1, 14, "unsupported command frobnicate"),
        ("(assert true", 1, 1, "unclosed parenthesis"),
        ("(assert true))", 1, 14, "expected '(' to start a command"),
        ("assert", 1, 1, "expected '(' to start a command"),
        ("(assert (bvadd))", 1, 9, "bvadd needs arguments"),
        ("(assert (let () true))", 1, 14, "let needs at least one binding"),
        ("(assert (let ((x true) (x false)) x))", 1, 25, "x is bound twice"),
        ("(assert (= #x00 (_ bv1)))", 1, 17, "expected (_ bvN width)"),
        ("(assert (bvadd #x01 #x02 ) )", 1, 9, "expected Bool"),
        ("(declare-const x (_ BitVec 8))\n(assert (x #x01))", 2, 10, "x is not a function"),
        ("(assert bvadd)", 1, 9, "bvadd is a function"),
        ("; sear-array a size=big\n(check-sat)", 1, 1, "malformed sear-array comment"),
        ("(echo 12)", 1, 7, "echo expects a string"),
        ("(push 99999999999)", 1, 7, "numeral too large"),
        ("(assert (= #x00 ((as const (Array (_ BitVec 32) (_ BitVec 8))) #x00)))", 1, 9, "= between arrays"),
        ("(assert (=> true))", 1, 9, "=> expects at least 2 arguments"),
        ("(assert \"text\")", 1, 9, "expected a term"),
        ("(assert (and true #b1))", 1, 9, "and: expected Bool, got (_ BitVec 1)"),
    ];
    let mut wrong = Vec::new();
    for &(text, line, column, message) in cases {
        let e = error(text);
        if !(e.line == line && e.column == column && e.message.contains(message)) {
            wrong.push(format!(
                "for {text:?}: got {e}, expected line {line}, column {column}: ...{message}..."
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn push_and_pop_scope_declarations() {
    let script = parse(
        "(push 3) (declare-const a Bool) (pop 1) (declare-const a Bool)
         (push 4000000000) (declare-const b Bool) (pop 2) (declare-const b Bool) (pop 3999999998)
         (pop 2) (declare-const a Bool) (assert (! a :named c)) (push 1) (assert (! a :named d)) (pop 1) (assert (! a :named d))",
    );
    assert_eq!(script.commands.len(), 11);
    let e = error("(push 2) (pop 1) (pop 1) (pop 1)");
    assert_eq!(
        (e.column, e.message.as_str()),
        (26, "pop without a matching push")
    );
    let e = error("(declare-const a Bool) (assert (! a :named a))");
    assert!(e.message.contains("a is already declared"), "{e}");
}

#[test]
fn parse_error_is_an_error_with_a_position_in_its_message() {
    fn is_error<E: std::error::Error + Send + Sync + 'static>(_: &E) {}
    let e = error("(assert\n\n     nope)");
    is_error(&e);
    assert_eq!(e.to_string(), "line 3, column 6: unknown symbol nope");
}
