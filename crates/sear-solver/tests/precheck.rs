//! The UNSAT pre-check on the spec's worked examples (001 §3, §11 T2/T3/T5/T10), built the
//! way the engine builds them: `int i, j` as little-endian reads of input arrays, `a[i]` as a
//! 4-byte read of the flushed constant array at offsets `4·i + k`.

use std::collections::BTreeMap;
use std::sync::Arc;

use sear_expr::{Array, ArrayKind, ArrayRef, Expr, UpdateList};
use sear_solver::ilp::IlpSolver;
use sear_solver::precheck::analyze::{precheck, Outcome};

fn int_var(name: &str) -> (ArrayRef, Expr) {
    let a = Array::new(name, 4, ArrayKind::SymbolicInput, None);
    let e = Expr::read_lsb(&UpdateList::new(a.clone()), Expr::constant(0, 32), 4);
    (a, e)
}

fn c32(v: u128) -> Expr {
    Expr::constant(v, 32)
}

/// `0 <= x & x < n` as clang emits it for `klee_assume` with `&`.
fn assume_range(x: &Expr, n: u128) -> Expr {
    let ge0 = Expr::zext(Expr::sle(c32(0), x.clone()), 32);
    let lt = Expr::zext(Expr::slt(x.clone(), c32(n)), 32);
    Expr::not(Expr::eq(c32(0), Expr::and(ge0, lt)))
}

/// The foo query of the bug branch for `a = {0, 0, 0, last}`: constraints and the array.
pub fn foo_query(last: u8) -> (Vec<Expr>, ArrayRef) {
    let (_, i) = int_var("i");
    let (_, j) = int_var("j");
    let mut bytes = vec![0u8; 16];
    bytes[12] = last;
    let a = Array::new("mo_a", 16, ArrayKind::MemoryObject, Some(Arc::from(bytes)));
    let ul = UpdateList::new(a.clone());
    let elem = |x: &Expr| Expr::read_lsb(&ul, Expr::mul(c32(4), x.clone()), 4);
    let in_bounds = |x: &Expr| {
        Expr::ule(
            Expr::mul(Expr::constant(4, 64), Expr::sext(x.clone(), 64)),
            Expr::constant(12, 64),
        )
    };
    let cs = vec![
        assume_range(&i, 4),
        assume_range(&j, 4),
        Expr::slt(c32(4), Expr::add(j.clone(), i.clone())),
        in_bounds(&i),
        in_bounds(&j),
        Expr::slt(c32(10), Expr::add(elem(&j), elem(&i))),
    ];
    (cs, a)
}

#[test]
fn t2_foo_last5_is_unsat_by_precheck() {
    let (cs, a) = foo_query(5);
    let mut gran = BTreeMap::new();
    gran.insert(a, 4);
    let mut ilp = IlpSolver::default();
    let outcome = precheck(&cs, &gran, &mut ilp, 10_000);
    assert!(matches!(outcome, Outcome::Unsat), "{outcome:?}");
}

/// Without the access size, byte-level read intervals mix bytes of different offsets (byte
/// 12 lies in the interval [9, 13] of `4i + 1`), the element interval is far wider than
/// [0, 5], and the pre-check cannot conclude: the type information is what makes T2 provable.
#[test]
fn t2_needs_the_access_size() {
    let (cs, _) = foo_query(5);
    let mut ilp = IlpSolver::default();
    let outcome = precheck(&cs, &BTreeMap::new(), &mut ilp, 10_000);
    assert!(matches!(outcome, Outcome::Unknown(_)), "{outcome:?}");
}

#[test]
fn t3_foo_last9_is_unknown_with_intervals() {
    let (cs, a) = foo_query(9);
    let mut gran = BTreeMap::new();
    gran.insert(a, 4);
    let mut ilp = IlpSolver::default();
    let Outcome::Unknown(iv) = precheck(&cs, &gran, &mut ilp, 10_000) else {
        panic!("expected unknown");
    };
    let mut found: Vec<(u128, u128)> = iv.iter().map(|(_, b)| *b).collect();
    found.sort();
    assert_eq!(
        found,
        vec![
            (8, 12),
            (8, 12),
            (9, 13),
            (9, 13),
            (10, 14),
            (10, 14),
            (11, 15),
            (11, 15)
        ],
        "4i+k and 4j+k for k = 0..3"
    );
}
