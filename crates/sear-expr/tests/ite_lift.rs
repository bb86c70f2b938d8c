//! `ite` lifting (`sear_expr::ite_lift`): operators over `ite`s on one condition are built as
//! one `ite` of the operator over the branches, merged values combine without a query, the
//! value is kept under every assignment, and nesting is bounded.

use sear_expr::testing::{random_assignment, Rng};
use sear_expr::{Array, ArrayKind, ArrayRef, Expr, ExprKind, UpdateList};

/// A 32-bit input, one array (as `__VERIFIER_nondet_int()` makes it).
fn input(name: &str) -> (ArrayRef, Expr) {
    let a = Array::new(name, 4, ArrayKind::SymbolicInput, None);
    let v = Expr::read_lsb(&UpdateList::new(a.clone()), Expr::constant(0, 32), 4);
    (a, v)
}

fn c32(v: u128) -> Expr {
    Expr::constant(v, 32)
}

#[test]
fn a_pointer_merged_byte_by_byte_reads_back_whole_and_compares_to_its_condition() {
    // A pointer one side allocated, stored as four merged bytes ite(c, byte_j(X), 0).
    let (_, x) = input("x");
    let c = Expr::eq(c32(1), x);
    let address: u128 = 0x4000_0040;
    let bytes: Vec<Expr> = (0..4)
        .rev()
        .map(|j| {
            Expr::select(
                c.clone(),
                Expr::constant((address >> (8 * j)) & 0xff, 8),
                Expr::constant(0, 8),
            )
        })
        .collect();
    let p = Expr::concat_all(&bytes);
    assert_eq!(p, Expr::select(c.clone(), c32(address), c32(0)));
    assert_eq!(Expr::ne(p.clone(), c32(0)), c);
    // p + 4 (a field's address) keeps the shape: both arms fold.
    assert_eq!(
        Expr::add(p, c32(4)),
        Expr::select(c, c32(address + 4), c32(4))
    );
}

#[test]
fn merged_cells_on_one_condition_compare_without_the_other_side() {
    // a[i] = ite(c, k, 7), b[i] = ite(c, k * k, 7): a[i] == b[i] is ¬c ∨ k == k * k, and
    // b[i] == a[i] * a[i] is c ∨ 7 == 49, i.e. c.
    let (_, x) = input("x");
    let (_, k) = input("k");
    let c = Expr::ne(c32(0), x);
    let a = Expr::select(c.clone(), k.clone(), c32(7));
    let b = Expr::select(c.clone(), Expr::mul(k.clone(), k.clone()), c32(7));
    assert_eq!(
        Expr::eq(a.clone(), b.clone()),
        Expr::or(
            Expr::not(c.clone()),
            Expr::eq(k.clone(), Expr::mul(k.clone(), k))
        )
    );
    assert_eq!(Expr::eq(b, Expr::mul(a.clone(), a)), c);
}

#[test]
fn lifting_keeps_the_value_under_every_assignment() {
    let (xa, x) = input("x");
    let (ya, y) = input("y");
    let (za, z) = input("z");
    let c = Expr::ult(x.clone(), y.clone());
    let l = Expr::select(c.clone(), x.clone(), z.clone());
    let r = Expr::select(c.clone(), Expr::add(y.clone(), c32(3)), x.clone());
    let built = [
        Expr::sub(l.clone(), r.clone()),
        Expr::mul(l.clone(), r.clone()),
        Expr::udiv(l.clone(), r.clone()),
        Expr::slt(l.clone(), r.clone()),
        Expr::eq(l.clone(), r.clone()),
        Expr::concat(Expr::trunc(l.clone(), 8), Expr::trunc(r.clone(), 8)),
        Expr::zext(
            Expr::select(c.clone(), Expr::constant(5, 8), Expr::trunc(z, 8)),
            32,
        ),
    ];
    let mut rng = Rng::new(38);
    for _ in 0..200 {
        let model = random_assignment(&mut rng, &[xa.clone(), ya.clone(), za.clone()]);
        let (lv, rv) = (model.evaluate(&l), model.evaluate(&r));
        let m = u32::MAX as u128;
        assert_eq!(model.evaluate(&built[0]), lv.wrapping_sub(rv) & m);
        assert_eq!(model.evaluate(&built[1]), lv.wrapping_mul(rv) & m);
        assert_eq!(model.evaluate(&built[2]), lv.checked_div(rv).unwrap_or(m));
        assert_eq!(
            model.evaluate(&built[3]),
            ((lv as u32 as i32) < (rv as u32 as i32)) as u128
        );
        assert_eq!(model.evaluate(&built[4]), (lv == rv) as u128);
        assert_eq!(model.evaluate(&built[5]), ((lv & 0xff) << 8) | (rv & 0xff));
    }
}

#[test]
fn nesting_is_bounded_on_chains_as_deep_as_a_loop() {
    // Two ite chains over the same 10,000 conditions (result = ite(c_i, 0, result) twice):
    // combining them lifts a few levels, not the whole chain.
    let conds: Vec<Expr> = (0..10_000)
        .map(|i| Expr::ne(c32(0), input(&format!("c{i}")).1))
        .collect();
    let (_, v) = input("v");
    let chain = |leaf: Expr| {
        conds
            .iter()
            .fold(leaf, |acc, c| Expr::select(c.clone(), c32(0), acc))
    };
    let (a, b) = (chain(v.clone()), chain(Expr::add(v, c32(1))));
    let before = sear_expr::ite_lift::lifted();
    let sum = Expr::add(a, b);
    let lifts = sear_expr::ite_lift::lifted() - before;
    assert!(
        lifts <= 2 * sear_expr::ite_lift::MAX_DEPTH as u64,
        "{lifts} lifts"
    );
    assert!(matches!(sum.kind(), ExprKind::Select { .. }));
}
