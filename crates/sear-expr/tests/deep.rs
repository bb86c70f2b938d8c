//! Very deep expressions: building, evaluating, printing, parsing and dropping them must not
//! overflow the (2 MiB) stack of a test thread. `SEAR_DEEP_DEPTH` sets the depth.

use sear_expr::smtlib::{parse_script, print_expr, print_query, print_term, QueryPrintOptions};
use sear_expr::{Array, ArrayKind, ArrayRef, Assignment, Expr, UpdateList};

fn depth() -> usize {
    std::env::var("SEAR_DEEP_DEPTH")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(200_000)
}

fn input() -> (ArrayRef, Expr) {
    let a = Array::new("in", 4, ArrayKind::SymbolicInput, None);
    let x = Expr::read_lsb(&UpdateList::new(a.clone()), Expr::constant(0, 32), 4);
    (a, x)
}

/// `x + (x + (x + ...))`, `n` additions deep (no constants, so nothing folds).
fn add_chain(x: &Expr, y: &Expr, n: usize) -> Expr {
    let mut e = x.clone();
    for i in 0..n {
        e = if i % 2 == 0 {
            Expr::add(y.clone(), e)
        } else {
            Expr::add(e, x.clone())
        };
    }
    e
}

#[test]
fn deep_add_chain_builds_evaluates_prints_parses_and_drops() {
    let n = depth();
    let (a, x) = input();
    let y = Expr::read(&UpdateList::new(a.clone()), Expr::constant(3, 32));
    let y = Expr::zext(y, 32);
    let e = add_chain(&x, &y, n);
    assert!(e.depth() as usize > n);
    let mut model = Assignment::new();
    model.insert(a.clone(), vec![1, 0, 0, 2]);
    // x = 0x02000001, y = 2: the chain adds x and y alternately.
    let x_val: u128 = 0x0200_0001;
    let expected = (x_val + (n as u128).div_ceil(2) * 2 + (n as u128 / 2) * x_val) & 0xffff_ffff;
    assert_eq!(model.evaluate(&e), expected);

    let constraint = Expr::ult(e.clone(), Expr::constant(77, 32));
    let text = print_query(
        std::slice::from_ref(&constraint),
        &QueryPrintOptions::default(),
    );
    assert!(text.len() > n * 10);
    let term = print_term(&e);
    assert!(term.starts_with("(let ") && term.contains("(bvadd"));
    let debug = print_expr(&e);
    assert!(debug.len() < 30_000 && debug.ends_with('…'));
    let _ = format!("{e:?}");

    let script = parse_script(&text).expect("the printed query parses");
    let parsed = script.assertions();
    assert_eq!(parsed.len(), 1);
    assert_eq!(parsed[0].depth(), constraint.depth());
    let mut parsed_model = Assignment::new();
    parsed_model.insert(script.arrays[0].clone(), vec![1, 0, 0, 2]);
    assert_eq!(
        parsed_model.evaluate(&parsed[0]),
        model.evaluate(&constraint)
    );
    drop(script);
    drop(parsed);
    drop(constraint);
    drop(e);
}

#[test]
fn deep_update_list_reads_print_and_parse() {
    let n = depth() / 4;
    let (a, x) = input();
    let mut updates = UpdateList::new(a.clone());
    for i in 0..n {
        // Symbolic indices: every write may alias, so the list stays whole.
        let index = Expr::add(
            Expr::constant(i as u128 % 4, 32),
            Expr::zext(Expr::extract(x.clone(), 0, 2), 32),
        );
        updates = updates.write(index, Expr::constant(i as u128, 8));
    }
    let read = Expr::read(&updates, Expr::constant(1, 32));
    let mut model = Assignment::new();
    model.insert(a.clone(), vec![0, 0, 0, 0]);
    // The newest write hitting index 1 is the last i with (i % 4) == 1.
    let last = (0..n).rev().find(|i| i % 4 == 1).unwrap();
    assert_eq!(model.evaluate(&read), last as u128 & 0xff);
    let c = Expr::eq(Expr::constant(5, 8), read);
    let text = print_query(std::slice::from_ref(&c), &QueryPrintOptions::default());
    let script = parse_script(&text).expect("parses");
    let mut parsed_model = Assignment::new();
    parsed_model.insert(script.arrays[0].clone(), vec![0, 0, 0, 0]);
    assert_eq!(
        parsed_model.evaluate(&script.assertions()[0]),
        model.evaluate(&c)
    );
}

#[test]
fn deep_nesting_in_text_parses_without_recursion() {
    let n = depth();
    let mut text = String::from("(declare-fun x () (_ BitVec 8))\n(assert (= #x00 ");
    for _ in 0..n {
        text.push_str("(bvnot ");
    }
    text.push('x');
    for _ in 0..n {
        text.push(')');
    }
    text.push_str("))\n");
    let script = parse_script(&text).expect("parses");
    // An even number of negations cancels out.
    let x = script.bitvector_consts[0].1.clone();
    let expected = if n.is_multiple_of(2) {
        Expr::eq(Expr::constant(0, 8), x)
    } else {
        Expr::eq(Expr::constant(0xff, 8), x)
    };
    assert_eq!(script.assertions()[0], expected);

    // Deeply nested lets, each shadowing the last.
    let mut text = String::from("(declare-fun x () (_ BitVec 8))\n(assert (= #x00 ");
    for _ in 0..n / 2 {
        text.push_str("(let ((x (bvadd x #x01))) ");
    }
    text.push('x');
    for _ in 0..n / 2 {
        text.push(')');
    }
    text.push_str("))\n");
    let script = parse_script(&text).expect("parses");
    let x = script.bitvector_consts[0].1.clone();
    let sum = Expr::add(Expr::constant((n / 2) as u128, 8), x);
    assert_eq!(script.assertions()[0], Expr::eq(Expr::constant(0, 8), sum));

    // Unclosed deep nesting is an error, not a crash.
    let text = "(assert ".repeat(n);
    let err = parse_script(&text).unwrap_err();
    assert_eq!((err.line, err.column), (1, 1));
}

#[test]
fn deep_chains_with_constants_simplify_without_recursion() {
    // h = ((h + 1) ^ 3) repeated: comparisons against constants peel one layer at a time,
    // and truncations push through constant operands.
    // Two layers per step: n / 2 steps give depth n.
    let n = depth() / 2;
    let (a, x) = input();
    let mut h = x.clone();
    for _ in 0..n {
        h = Expr::xor(Expr::constant(3, 32), Expr::add(Expr::constant(1, 32), h));
    }
    assert!(h.depth() as usize > 2 * n);
    let c = Expr::eq(Expr::constant(42, 32), h.clone());
    let low = Expr::extract(h.clone(), 0, 8);
    let mut model = Assignment::new();
    model.insert(a, vec![7, 0, 0, 0]);
    let mut v: u128 = 7;
    for _ in 0..n {
        v = ((v + 1) & 0xffff_ffff) ^ 3;
    }
    assert_eq!(model.evaluate(&h), v);
    assert_eq!(model.evaluate(&c), (v == 42) as u128);
    assert_eq!(model.evaluate(&low), v & 0xff);
}
