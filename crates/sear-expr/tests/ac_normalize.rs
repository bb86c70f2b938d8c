//! AC normalisation (`sear_expr::ac`): reductions computed in different orders build one
//! node, every rewrite keeps the value, and out-of-order chains stay linear in cost.

use proptest::prelude::*;
use sear_expr::testing::{random_assignment, Rng};
use sear_expr::{Array, ArrayKind, ArrayRef, BinOp, Expr, UpdateList};

/// `n` 32-bit inputs, one array each (as `__VERIFIER_nondet_int()` makes them).
fn inputs(n: usize) -> (Vec<ArrayRef>, Vec<Expr>) {
    let arrays: Vec<ArrayRef> = (0..n)
        .map(|i| Array::new(format!("x{i}"), 4, ArrayKind::SymbolicInput, None))
        .collect();
    let values = arrays
        .iter()
        .map(|a| Expr::read_lsb(&UpdateList::new(a.clone()), Expr::constant(0, 32), 4))
        .collect();
    (arrays, values)
}

fn reduce(op: BinOp, items: &[Expr]) -> Expr {
    let mut acc = items[0].clone();
    for item in &items[1..] {
        acc = Expr::binary(op, acc, item.clone());
    }
    acc
}

#[test]
fn xor_reduction_in_three_orders_is_one_node() {
    // xor3's shape: res = x[0]; res ^= x[i] (as 64-bit), then the same after swapping
    // x[0] and x[1], and after rotating the array by one.
    let (_, x) = inputs(300);
    let wide: Vec<Expr> = x.iter().map(|v| Expr::sext(v.clone(), 64)).collect();
    let forwards = Expr::trunc(reduce(BinOp::Xor, &wide), 32);
    let mut swapped = wide.clone();
    swapped.swap(0, 1);
    let mut rotated = swapped.clone();
    rotated.rotate_left(1);
    assert_eq!(Expr::trunc(reduce(BinOp::Xor, &swapped), 32), forwards);
    assert_eq!(Expr::trunc(reduce(BinOp::Xor, &rotated), 32), forwards);
    assert_eq!(
        Expr::ne(
            forwards.clone(),
            Expr::trunc(reduce(BinOp::Xor, &rotated), 32)
        ),
        Expr::false_()
    );
}

#[test]
fn sum_with_interleaved_constants_is_one_node() {
    // mapavg's shape: ret = ret + i + x[i], then ret / N, in two orders.
    let (_, x) = inputs(200);
    let sum = |order: &[usize]| {
        let mut ret = Expr::constant(0, 64);
        for (i, &k) in order.iter().enumerate() {
            ret = Expr::add(ret, Expr::constant(i as u128, 64));
            ret = Expr::add(ret, Expr::sext(x[k].clone(), 64));
        }
        Expr::trunc(Expr::sdiv(ret, Expr::constant(200, 64)), 32)
    };
    let order: Vec<usize> = (0..200).collect();
    let mut swapped = order.clone();
    swapped.swap(0, 1);
    let mut rotated = swapped.clone();
    rotated.rotate_left(1);
    assert_eq!(sum(&swapped), sum(&order));
    assert_eq!(sum(&rotated), sum(&order));
}

#[test]
fn short_reductions_backwards_equal_forwards() {
    // Backwards, every operand is inserted below the chain: within the rebuild bound for a
    // short chain (a long one is left plain: `reverse_order_stays_linear`).
    let (_, x) = inputs(10);
    let mut backwards = x.clone();
    backwards.reverse();
    for op in [BinOp::And, BinOp::Or, BinOp::Add, BinOp::Mul] {
        assert_eq!(reduce(op, &backwards), reduce(op, &x), "{op:?}");
    }
}

#[test]
fn duplicates_cancel_and_absorb() {
    let (_, x) = inputs(3);
    let (a, b, c) = (x[0].clone(), x[1].clone(), x[2].clone());
    let abc = reduce(BinOp::Xor, &[a.clone(), b.clone(), c.clone()]);
    assert_eq!(
        Expr::xor(abc.clone(), b.clone()),
        Expr::xor(a.clone(), c.clone())
    );
    assert_eq!(
        Expr::xor(
            abc.clone(),
            reduce(BinOp::Xor, &[c.clone(), a.clone(), b.clone()])
        ),
        Expr::constant(0, 32)
    );
    let and = reduce(BinOp::And, &[a.clone(), b.clone(), c.clone()]);
    assert_eq!(Expr::and(and.clone(), a.clone()), and);
    assert_eq!(
        Expr::and(and.clone(), Expr::constant(0, 32)),
        Expr::constant(0, 32)
    );
    let or = reduce(BinOp::Or, &[c.clone(), b.clone()]);
    assert_eq!(Expr::or(b.clone(), or.clone()), or);
    assert_eq!(
        Expr::xor(a.clone(), Expr::not(a.clone())),
        Expr::constant(u32::MAX as u128, 32)
    );
}

#[test]
fn complements_meet_in_any_order() {
    // x and ~x are neighbours in a chain, so x ^ ~x, x + ~x (= ~0), x & ~x and x | ~x fold
    // however far apart they were built.
    let (_, x) = inputs(3);
    let (a, b, c) = (x[0].clone(), x[1].clone(), x[2].clone());
    let ones = Expr::constant(u32::MAX as u128, 32);
    let na = Expr::not(a.clone());
    let xor = reduce(
        BinOp::Xor,
        &[na.clone(), b.clone(), Expr::constant(7, 32), a.clone()],
    );
    assert_eq!(xor, Expr::xor(Expr::constant(!7u32 as u128, 32), b.clone()));
    let add = reduce(BinOp::Add, &[c.clone(), na.clone(), b.clone(), a.clone()]);
    assert_eq!(
        add,
        Expr::add(ones.clone(), Expr::add(b.clone(), c.clone()))
    );
    let and = reduce(BinOp::And, &[a.clone(), b.clone(), c.clone(), na.clone()]);
    assert_eq!(and, Expr::constant(0, 32));
    let or = reduce(BinOp::Or, &[na, c, b, a]);
    assert_eq!(or, ones);
}

#[test]
fn subtraction_removes_an_operand_of_a_sum() {
    let (_, x) = inputs(4);
    let sum = reduce(BinOp::Add, &x);
    let without = Expr::sub(sum.clone(), x[1].clone());
    assert_eq!(
        without,
        reduce(BinOp::Add, &[x[0].clone(), x[2].clone(), x[3].clone()])
    );
    // zero_sum's shape: add every element, subtract every element.
    let mut acc = Expr::add(Expr::constant(5, 32), sum);
    for v in &x {
        acc = Expr::sub(acc, v.clone());
    }
    assert_eq!(acc, Expr::constant(5, 32));
}

#[test]
fn reverse_order_stays_linear() {
    // Each operand arrives below every one of the chain: after a few rebuilds the chain
    // is left plain, and the rest of the loop costs O(1) a step.
    let (_, x) = inputs(20_000);
    let before = sear_expr::ac::stats();
    let start = std::time::Instant::now();
    let mut acc = x[x.len() - 1].clone();
    for v in x.iter().rev().skip(1) {
        acc = Expr::add(acc, v.clone());
    }
    let after = sear_expr::ac::stats();
    assert!(after.over_budget > before.over_budget);
    assert!(after.rebuilt - before.rebuilt < 100_000, "{after:?}");
    assert!(start.elapsed().as_secs() < 10);
    assert_eq!(acc.width(), 32);
}

/// A random reduction: operands (inputs, their negations, constants) in a random order
/// under a random operator; the built expression must evaluate like the fold.
fn check_permutation(seed: u64) -> Result<(), TestCaseError> {
    let mut rng = Rng::new(seed);
    let (arrays, x) = inputs(6);
    let ops = [BinOp::Add, BinOp::Mul, BinOp::And, BinOp::Or, BinOp::Xor];
    let op = ops[(rng.next_u64() % ops.len() as u64) as usize];
    let n = 2 + (rng.next_u64() % 12) as usize;
    let items: Vec<Expr> = (0..n)
        .map(|_| match rng.next_u64() % 4 {
            0 => Expr::constant(rng.next_u64() as u128 & 0xffff_ffff, 32),
            1 => Expr::not(x[(rng.next_u64() % 6) as usize].clone()),
            _ => x[(rng.next_u64() % 6) as usize].clone(),
        })
        .collect();
    // Built as a random tree over the items, not only a left fold.
    let mut pool = items.clone();
    while pool.len() > 1 {
        let i = (rng.next_u64() % pool.len() as u64) as usize;
        let a = pool.swap_remove(i);
        let j = (rng.next_u64() % pool.len() as u64) as usize;
        let b = pool.swap_remove(j);
        pool.push(Expr::binary(op, a, b));
    }
    let built = pool.pop().unwrap();
    let mut shuffled = items.clone();
    for i in (1..shuffled.len()).rev() {
        shuffled.swap(i, (rng.next_u64() % (i as u64 + 1)) as usize);
    }
    let folded = reduce(op, &shuffled);
    for _ in 0..8 {
        let model = random_assignment(&mut rng, &arrays);
        let values: Vec<u128> = items.iter().map(|e| model.evaluate(e)).collect();
        let expected = values[1..].iter().fold(values[0], |acc, &v| {
            sear_expr::fold::fold_binary(op, 32, acc, v)
        });
        prop_assert_eq!(
            model.evaluate(&built),
            expected,
            "{:?} built {:?}",
            op,
            built
        );
        prop_assert_eq!(
            model.evaluate(&folded),
            expected,
            "{:?} folded {:?}",
            op,
            folded
        );
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn normalised_reductions_keep_their_value(seed in any::<u64>()) {
        check_permutation(seed)?;
    }
}

#[test]
fn the_order_does_not_depend_on_which_nodes_were_built_first() {
    // The operands built in reverse, as an earlier path of the process (or another
    // worker's prefix) may have built them: a forward sum is still the chain in index
    // order, with the last element on top, as in a process that built them forwards.
    let (_, x) = inputs(40);
    let backwards: Vec<Expr> = x.iter().rev().map(|v| Expr::sext(v.clone(), 64)).collect();
    let forwards: Vec<Expr> = backwards.iter().rev().cloned().collect();
    let sum = reduce(BinOp::Add, &forwards);
    let mut chain = sum.clone();
    for expected in forwards[1..].iter().rev() {
        let sear_expr::ExprKind::Binary {
            op: BinOp::Add,
            lhs,
            rhs,
        } = chain.kind().clone()
        else {
            panic!("not a chain: {chain}");
        };
        assert_eq!(&rhs, expected, "{sum}");
        chain = lhs;
    }
    assert_eq!(chain, forwards[0]);
}
