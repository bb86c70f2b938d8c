//! The interval analysis behind the solver's answers without a solver: the bounds checks of a
//! table-driven DFA (the shape issue 11 measured), each rule on a small example, and
//! soundness on random queries checked by evaluation (every value a node takes under an
//! assignment lies in its claimed interval, and every decided boolean has the decided value).
//!
//! `SEAR_PROPTEST_CASES` scales the number of cases.

mod common;

use proptest::prelude::*;
use sear_expr::interval::{interval, Interval, Intervals};
use sear_expr::testing::{gen_query, random_assignment, QueryConfig, Rng};
use sear_expr::visit::for_each_node;
use sear_expr::{Array, ArrayKind, ArrayRef, Expr, UpdateList};

fn c(v: u128, w: u32) -> Expr {
    Expr::constant(v, w)
}

fn input(name: &str, size: u64) -> UpdateList {
    UpdateList::new(Array::new(name, size, ArrayKind::SymbolicInput, None))
}

fn table(name: &str, bytes: Vec<u8>) -> UpdateList {
    let size = bytes.len() as u64;
    UpdateList::new(Array::new(
        name,
        size,
        ArrayKind::MemoryObject,
        Some(bytes.into()),
    ))
}

fn iv(e: &Expr) -> (u128, u128) {
    let i = interval(e);
    (i.lo, i.hi)
}

/// `state = trans[state][cls[byte]]` over a 256-byte class table (classes 0..=11) and a
/// 40 × 12 transition table (states 0..=39), with the engine's pointer arithmetic: a 64-bit
/// address `base + 12·state + class`, minus the base, cut to 32 bits for the array index.
#[test]
fn dfa_bounds_checks_are_decided() {
    let cls = table("cls", (0..256).map(|i| (i % 12) as u8).collect());
    let trans = table("trans", (0..480).map(|i| (i * 7 % 40) as u8).collect());
    let buf = input("buf", 2);
    let base = 0x1000_0050u128;
    let offset = |state: Expr, byte: u128| {
        let class = Expr::read(&cls, Expr::zext(Expr::read(&buf, c(byte, 32)), 32));
        let address = Expr::add(
            c(base, 64),
            Expr::add(
                Expr::mul(c(12, 64), Expr::zext(state, 64)),
                Expr::zext(class, 64),
            ),
        );
        Expr::sub(address, c(base, 64))
    };
    let first = offset(c(1, 8), 0);
    assert_eq!(iv(&first), (12, 23));
    let index = |off: &Expr| Expr::extract(off.clone(), 0, 32);
    let s1 = Expr::read(&trans, index(&first));
    // Only the bytes at 12..=23 count: 7·i mod 40 is 1 at i = 23.
    assert_eq!(iv(&s1), (1, 39));
    let second = offset(s1.clone(), 1);
    assert_eq!(iv(&second), (12, 479));
    // The engine's bounds check and its negation, as the facade is asked them.
    let in_bounds = Expr::ule(second.clone(), c(479, 64));
    let mut memo = Intervals::new();
    assert_eq!(memo.decide(&in_bounds), Some(true));
    assert_eq!(memo.decide(&Expr::not(in_bounds)), Some(false));
    assert_eq!(
        memo.decide(&Expr::ult(second.clone(), c(480, 64))),
        Some(true)
    );
    // The next state indexes a 40-byte accept table: in bounds too.
    let s2 = Expr::read(&trans, index(&second));
    assert_eq!(memo.decide(&Expr::ule(s2.clone(), c(39, 8))), Some(true));
    // What the table holds is not decided: state 7 is reachable, state 40 is not.
    assert_eq!(memo.decide(&Expr::eq(s2.clone(), c(7, 8))), None);
    assert_eq!(memo.decide(&Expr::eq(s2, c(40, 8))), Some(false));
    // A read past the end of a table claims nothing (an SMT core may leave it free).
    let past = Expr::read(&trans, Expr::add(index(&second), c(1, 32)));
    assert_eq!(iv(&past), (0, 255));
}

#[test]
fn wrapping_sums_and_differences() {
    let x = Expr::zext(Expr::read(&input("x", 1), c(0, 32)), 32);
    assert_eq!(iv(&Expr::add(x.clone(), c(0x100, 32))), (0x100, 0x1ff));
    // Every value of (x + 0x20) + 0xffff_ffe0 wraps: the interval moves down by 2^32.
    let wrapped = Expr::add(Expr::add(x.clone(), c(0x20, 32)), c(0xffff_ffe0, 32));
    assert_eq!(iv(&wrapped), (0, 255));
    // Some values wrap and some do not: nothing is claimed.
    assert_eq!(
        iv(&Expr::add(x.clone(), c(0xffff_ff80, 32))),
        (0, 0xffff_ffff)
    );
    // 5 − x: never negative when x ≤ 5, always negative when x > 5.
    let y = Expr::urem(x.clone(), c(6, 32));
    assert_eq!(iv(&y), (0, 5));
    assert_eq!(iv(&Expr::sub(c(5, 32), y.clone())), (0, 5));
    let z = Expr::add(y.clone(), c(6, 32));
    assert_eq!(iv(&Expr::sub(c(5, 32), z)), (0xffff_fffa, 0xffff_ffff));
}

#[test]
fn bitwise_shifts_extensions_and_signs() {
    let b = Expr::read(&input("b", 1), c(0, 32));
    let x = Expr::zext(b.clone(), 32);
    assert_eq!(iv(&Expr::and(x.clone(), c(0x0f, 32))), (0, 0x0f));
    assert_eq!(iv(&Expr::or(x.clone(), c(0x100, 32))), (0x100, 0x1ff));
    assert_eq!(iv(&Expr::lshr(x.clone(), c(4, 32))), (0, 0x0f));
    assert_eq!(iv(&Expr::shl(x.clone(), c(4, 32))), (0, 0xff0));
    assert_eq!(iv(&Expr::udiv(x.clone(), c(16, 32))), (0, 0x0f));
    // A byte's sign extension crosses the sign boundary: everything; a non-negative one
    // keeps its interval.
    assert_eq!(iv(&Expr::sext(b.clone(), 32)), (0, 0xffff_ffff));
    let small = Expr::lshr(b.clone(), c(1, 8));
    assert_eq!(iv(&Expr::sext(small.clone(), 32)), (0, 0x7f));
    let negative = Expr::or(b.clone(), c(0x80, 8));
    assert_eq!(iv(&Expr::sext(negative.clone(), 16)), (0xff80, 0xffff));
    // Signed comparisons when neither side crosses the sign boundary.
    let mut memo = Intervals::new();
    assert_eq!(
        memo.decide(&Expr::slt(negative.clone(), small.clone())),
        Some(true)
    );
    assert_eq!(
        memo.decide(&Expr::sle(small.clone(), negative.clone())),
        Some(false)
    );
    assert_eq!(memo.decide(&Expr::slt(b.clone(), small.clone())), None);
    // An if-then-else of two intervals is their hull.
    let pick = Expr::select(Expr::eq(b.clone(), c(3, 8)), c(10, 32), c(20, 32));
    assert_eq!(iv(&pick), (10, 20));
    // Writes to a constant table join the written values they may hit.
    let t = table("t", vec![1, 2, 3, 4]);
    let written = t.write(c(2, 32), c(9, 8));
    let at = Expr::zext(Expr::and(b.clone(), c(1, 8)), 32);
    assert_eq!(iv(&Expr::read(&written, at.clone())), (1, 2));
    assert_eq!(iv(&Expr::read(&written, Expr::add(at, c(1, 32)))), (2, 9));
    assert_eq!(interval(&c(5, 8)), Interval::point(5));
}

/// Every node of a random query: its value under random assignments lies in its interval.
fn check_sound(seed: u64, config: &QueryConfig) -> Result<(), TestCaseError> {
    let q = gen_query(seed, config);
    let symbolic: Vec<ArrayRef> = q.symbolic_arrays.clone();
    let mut memo = Intervals::new();
    let mut nodes = Vec::new();
    for_each_node(&q.constraints, |n| nodes.push((n.clone(), memo.of(n))));
    let mut rng = Rng::new(seed ^ 0x5eed);
    for _ in 0..12 {
        let model = random_assignment(&mut rng, &symbolic);
        for (n, i) in &nodes {
            let v = model.evaluate(n);
            prop_assert!(i.contains(v), "{n} = {v:#x}, claimed {i:?}");
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: common::cases(512), ..ProptestConfig::default() })]

    #[test]
    fn claimed_intervals_hold_on_path_like_queries(seed in any::<u64>()) {
        check_sound(seed, &QueryConfig::path_like())?;
    }

    #[test]
    fn claimed_intervals_hold_on_stress_queries(seed in any::<u64>()) {
        check_sound(seed, &QueryConfig::stress())?;
    }
}

#[test]
fn the_random_queries_do_claim_intervals() {
    // Guards the property tests against vacuity: many nodes must claim a narrower interval
    // than their width allows, and some booleans must be decided.
    let (mut narrow, mut decided) = (0, 0);
    for seed in 0..200 {
        let q = gen_query(seed, &QueryConfig::path_like());
        let mut memo = Intervals::new();
        for_each_node(&q.constraints, |n| {
            let i = memo.of(n);
            narrow += (n.width() > 1 && i != Interval::full(n.width())) as u32;
            decided += (n.is_bool() && i.decided().is_some()) as u32;
        });
    }
    assert!(narrow >= 200, "only {narrow} narrow intervals");
    assert!(decided >= 5, "only {decided} decided booleans");
}
