//! Comparisons of `ite` trees with constant leaves against constants
//! (`sear_expr::ite_compare`): built as formulas over the conditions, equal in value under
//! every assignment, iteratively on chains as deep as a loop, and no larger than the tree.

use sear_expr::junctions::conjuncts;
use sear_expr::testing::{random_assignment, Rng};
use sear_expr::{Array, ArrayKind, ArrayRef, BinOp, CmpOp, Expr, ExprKind, UpdateList};

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
fn a_flag_cleared_on_one_side_of_each_iteration_is_a_conjunction() {
    // result = 1; for i: if (p[i] != g[i]) result = 0;  then `result != 0`.
    let pairs: Vec<(Expr, Expr)> = (0..5)
        .map(|i| (input(&format!("p{i}")).1, input(&format!("g{i}")).1))
        .collect();
    let result = pairs.iter().fold(c32(1), |acc, (p, g)| {
        Expr::select(Expr::ne(p.clone(), g.clone()), c32(0), acc)
    });
    assert!(result.is_constant_ite_tree());
    let nonzero = Expr::ne(result.clone(), c32(0));
    let expected = pairs.iter().rev().fold(Expr::true_(), |acc, (p, g)| {
        Expr::and(acc, Expr::eq(p.clone(), g.clone()))
    });
    let mut got = conjuncts(&nonzero);
    let mut want = conjuncts(&expected);
    got.sort_by_key(|e| format!("{e:?}"));
    want.sort_by_key(|e| format!("{e:?}"));
    assert_eq!(got, want);
    // `result == 0` is its negation.
    assert_eq!(Expr::eq(c32(0), result), Expr::not(nonzero));
}

#[test]
fn shapes_of_small_trees() {
    let (_, x) = input("x");
    let (_, y) = input("y");
    let c = Expr::ult(x.clone(), y.clone());
    let d = Expr::eq(c32(7), x);
    let tree = Expr::select(c.clone(), c32(3), Expr::select(d.clone(), c32(5), c32(9)));
    assert!(tree.is_constant_ite_tree());
    // Every leaf below 10: the comparison is decided.
    assert!(Expr::ult(tree.clone(), c32(10)).is_true());
    // 3 < t: leaves 3, 5, 9 give false, true, true: ¬c ∧ (d ∨ ¬d) = ¬c.
    assert_eq!(Expr::ult(c32(3), tree.clone()), Expr::not(c.clone()));
    // t == 5 is ¬c ∧ d.
    assert_eq!(
        Expr::eq(c32(5), tree.clone()),
        Expr::and(Expr::not(c.clone()), d.clone())
    );
    // A non-constant leaf: no tree, no rewrite.
    let (_, z) = input("z");
    let open = Expr::select(c, c32(3), Expr::select(d, z, c32(9)));
    assert!(!open.is_constant_ite_tree());
    assert!(matches!(
        Expr::eq(c32(5), open).kind(),
        ExprKind::Cmp { .. } | ExprKind::Select { .. }
    ));
}

#[test]
fn every_comparison_keeps_its_value_under_every_assignment() {
    let inputs: Vec<(ArrayRef, Expr)> = (0..6).map(|i| input(&format!("v{i}"))).collect();
    let v = |i: usize| inputs[i].1.clone();
    let conds = [
        Expr::ult(v(0), v(1)),
        Expr::eq(c32(3), v(2)),
        Expr::slt(v(3), v(4)),
        Expr::ne(v(5), v(0)),
    ];
    // A tree with nesting on both sides and a shared subtree.
    let shared = Expr::select(conds[2].clone(), c32(0xffff_fff0), c32(4));
    let tree = Expr::select(
        conds[0].clone(),
        Expr::select(conds[1].clone(), c32(4), shared.clone()),
        Expr::select(conds[3].clone(), shared, c32(0x8000_0000)),
    );
    assert!(tree.is_constant_ite_tree());
    let arrays: Vec<ArrayRef> = inputs.iter().map(|(a, _)| a.clone()).collect();
    let mut rng = Rng::new(38);
    for k in [0u128, 4, 5, 0xffff_fff0, 0x8000_0000, 0x7fff_ffff] {
        let built: Vec<(CmpOp, bool, Expr)> = CmpOp::ALL
            .iter()
            .flat_map(|&op| {
                [
                    (op, true, Expr::cmp(op, tree.clone(), c32(k))),
                    (op, false, Expr::cmp(op, c32(k), tree.clone())),
                ]
            })
            .collect();
        for _ in 0..100 {
            let model = random_assignment(&mut rng, &arrays);
            let t = model.evaluate(&tree) as u32;
            let k = k as u32;
            for (op, tree_left, e) in &built {
                let (a, b) = if *tree_left { (t, k) } else { (k, t) };
                let want = match op {
                    CmpOp::Eq => a == b,
                    CmpOp::Ult => a < b,
                    CmpOp::Ule => a <= b,
                    CmpOp::Slt => (a as i32) < (b as i32),
                    CmpOp::Sle => (a as i32) <= (b as i32),
                };
                assert_eq!(model.evaluate(e), want as u128, "{op:?} {tree_left} {k}");
            }
        }
    }
}

#[test]
fn a_chain_as_deep_as_a_loop_is_rewritten_iteratively_and_stays_small() {
    // 100,000 iterations, as sv-benchmarks' standard_password_ground: no recursion on the
    // chain (this would overflow a test thread's stack), one node of the formula per level.
    const N: usize = 100_000;
    let a = Array::new("p", 4 * N as u64, ArrayKind::SymbolicInput, None);
    let b = Array::new("g", 4 * N as u64, ArrayKind::SymbolicInput, None);
    let at = |arr: &ArrayRef, i: usize| {
        Expr::read_lsb(&UpdateList::new(arr.clone()), c32(4 * i as u128), 4)
    };
    let mut result = c32(1);
    for i in 0..N {
        result = Expr::select(Expr::ne(at(&a, i), at(&b, i)), c32(0), result);
    }
    assert!(result.is_constant_ite_tree());
    let before = sear_expr::ite_compare::nodes();
    let nonzero = Expr::ne(result.clone(), c32(0));
    let work = sear_expr::ite_compare::nodes() - before;
    assert!(work <= N as u64, "{work} nodes rewritten");
    let parts = conjuncts(&nonzero);
    assert_eq!(parts.len(), N);
    assert!(parts.contains(&Expr::eq(at(&a, 17), at(&b, 17))));
    // One more level costs one more node (the chain below it is cached).
    let longer = Expr::select(Expr::ne(at(&a, 0), at(&b, 1)), c32(0), result);
    let before = sear_expr::ite_compare::nodes();
    let again = Expr::ne(longer.clone(), c32(0));
    assert_eq!(sear_expr::ite_compare::nodes() - before, 1);
    assert_eq!(conjuncts(&again).len(), N + 1);
    // The false side: a disjunction of the inequalities.
    let zero = Expr::eq(c32(0), longer);
    assert!(matches!(
        zero.kind(),
        ExprKind::Binary { op: BinOp::Or, .. }
    ));
}
