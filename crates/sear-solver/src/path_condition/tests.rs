use std::time::Duration;

use sear_expr::{Array, ArrayKind, Assignment, Expr, UpdateList};

use super::PathCondition;
use crate::layers::Independence;
use crate::query::{QueryMeta, SolverError};
use crate::sat::{SatQuery, SatResult, SatSolver};
use crate::stats::LayerStats;
use crate::testing::{PathGen, Recorder};

fn input(name: &str, size: u64) -> UpdateList {
    UpdateList::new(Array::new(name, size, ArrayKind::SymbolicInput, None))
}

/// `in[0..4] as i32 < 0`.
fn negative(u: &UpdateList) -> Expr {
    let v = Expr::read_lsb(u, Expr::constant(0, 32), 4);
    Expr::slt(v, Expr::constant(0, 32))
}

#[test]
fn a_fresh_input_has_an_empty_slice_whatever_the_length() {
    let mut pc = PathCondition::new();
    let inputs: Vec<UpdateList> = (0..2000).map(|i| input(&format!("x{i}"), 4)).collect();
    for x in &inputs {
        pc.push(negative(x));
    }
    assert_eq!(pc.len(), 2000);
    assert_eq!(pc.factor_count(), 2000);
    let fresh = negative(&input("fresh", 4));
    assert!(pc.slice_for(&[&fresh]).is_empty());
    // One earlier input: exactly its constraint.
    let x7 = &inputs[7];
    let again = Expr::eq(
        Expr::read_lsb(x7, Expr::constant(0, 32), 4),
        Expr::constant(5, 32),
    );
    let slice = pc.slice_for(&[&again]);
    assert_eq!(slice, vec![negative(x7)]);
}

#[test]
fn factors_join_through_shared_bytes_and_keep_list_order() {
    let (a, b, c) = (input("a", 4), input("b", 4), input("c", 4));
    let ra = Expr::read_lsb(&a, Expr::constant(0, 32), 4);
    let rb = Expr::read_lsb(&b, Expr::constant(0, 32), 4);
    let rc = Expr::read_lsb(&c, Expr::constant(0, 32), 4);
    let c0 = Expr::slt(ra.clone(), Expr::constant(3, 32));
    let c1 = Expr::slt(rc.clone(), Expr::constant(9, 32));
    let c2 = Expr::slt(rb.clone(), Expr::constant(4, 32));
    let c3 = Expr::ult(ra.clone(), rb.clone());
    let pc: PathCondition = vec![c0.clone(), c1.clone(), c2.clone(), c3.clone()].into();
    assert_eq!(pc.factor_count(), 2);
    let q = Expr::eq(rb.clone(), Expr::constant(1, 32));
    assert_eq!(
        pc.slice_for(&[&q]),
        vec![c0.clone(), c2.clone(), c3.clone()]
    );
    let both = Expr::eq(rc, rb);
    assert_eq!(pc.slice_for(&[&both]), vec![c0, c1, c2, c3]);
}

#[test]
fn a_read_at_a_symbolic_index_joins_every_reader_of_the_array() {
    let (a, i) = (input("a", 8), input("i", 1));
    let byte = |k: u128| Expr::read(&a, Expr::constant(k, 32));
    let c0 = Expr::eq(byte(0), Expr::constant(1, 8));
    let c1 = Expr::eq(byte(5), Expr::constant(2, 8));
    let mut pc: PathCondition = vec![c0.clone(), c1.clone()].into();
    assert_eq!(pc.factor_count(), 2);
    let idx = Expr::zext(Expr::read(&i, Expr::constant(0, 32)), 32);
    let sym = Expr::eq(Expr::read(&a, idx), Expr::constant(7, 8));
    pc.push(sym.clone());
    assert_eq!(pc.factor_count(), 1);
    let later = Expr::eq(byte(6), Expr::constant(0, 8));
    assert_eq!(pc.slice_for(&[&later]), vec![c0, c1, sym]);
}

#[test]
fn forks_share_until_one_adds() {
    let mut parent = PathCondition::new();
    parent.push(negative(&input("p", 4)));
    let mut left = parent.clone();
    let right = parent.clone();
    assert_eq!(left, right);
    let x = input("x", 4);
    left.push(negative(&x));
    assert!(!left.ptr_eq(&right));
    assert_eq!(left.len(), 2);
    assert_eq!(right.len(), 1);
    let nx = negative(&x);
    assert!(right.slice_for(&[&nx]).is_empty());
    assert_eq!(left.slice_for(&[&nx]), vec![nx.clone()]);
    assert_eq!(left.prefix(1), right);
    assert_eq!(left.to_vec().len(), 2);
}

/// A core stand-in for the comparison below: the recorder above it is what is compared,
/// the answer is never looked at.
struct Sat;

impl SatSolver for Sat {
    fn name(&self) -> &'static str {
        "sat"
    }
    fn check(&mut self, _: &SatQuery) -> Result<SatResult, SolverError> {
        Ok(SatResult::Sat(Assignment::new()))
    }
    fn set_timeout(&mut self, _: Option<Duration>) {}
    fn collect_stats(&self, _: &mut Vec<LayerStats>) {}
}

/// On random paths (byte reads, symbolic-index reads, writes through memory), the slice
/// of the persistent index is exactly what the independence layer passes below for the
/// same query under the whole list.
#[test]
fn slices_equal_the_independence_layers_on_random_paths() {
    let meta = QueryMeta::default();
    for seed in 0..300 {
        let mut g = PathGen::new(seed);
        let (rec, seen) = Recorder::new(Box::new(Sat));
        let mut layer = Independence::new(Box::new(rec));
        let mut pc = PathCondition::new();
        let mut list: Vec<Expr> = Vec::new();
        for _ in 0..12 {
            let mut side = Vec::new();
            let cond = g.condition(2, &mut side);
            for c in side.into_iter().chain([cond.clone()]) {
                // Ask first (the path's branch query), then add (the branch taken).
                let q = SatQuery::new(&list, c.clone(), &meta, true, false);
                seen.borrow_mut().clear();
                layer.check(&q).unwrap();
                let below = seen.borrow().first().map(|s| s.constraints.clone());
                let mine = pc.slice_for(&[&c]);
                match below {
                    Some(b) => assert_eq!(b, mine, "seed {seed}: slice of {c}"),
                    None => assert!(mine.is_empty(), "seed {seed}"),
                }
                if !c.is_true() && c.as_constant().is_none() {
                    list.push(c.clone());
                    pc.push(c);
                }
            }
        }
        assert_eq!(pc.to_vec(), list);
    }
}

/// `expr`'s `args += (strcmp(*args, kw) == 0)`: a pointer stepped by comparisons of input
/// bytes, `base + 8·[a0 = '+'] + 8·[a0' = '-']` where the second byte read goes through the
/// first step (`ite(a0 = '+', b0, a0)`).
fn stepped_pointer(a: &UpdateList, b: &UpdateList) -> (Expr, Expr, Expr) {
    let byte = |u: &UpdateList| Expr::read(u, Expr::constant(0, 32));
    let step = |c: Expr| Expr::mul(Expr::constant(8, 64), Expr::zext(c, 64));
    let plus = Expr::eq(Expr::constant(b'+' as u128, 8), byte(a));
    let second = Expr::select(plus.clone(), byte(b), byte(a));
    let minus = Expr::eq(Expr::constant(b'-' as u128, 8), second);
    let base = Expr::constant(0x5000_0000_06d8, 64);
    let pointer = Expr::add(Expr::add(base, step(plus.clone())), step(minus.clone()));
    (pointer, plus, minus)
}

#[test]
fn the_fixed_terms_make_a_stepped_pointer_constant() {
    let (a, b) = (input("a", 3), input("b", 3));
    let (pointer, plus, minus) = stepped_pointer(&a, &b);
    let mut pc = PathCondition::new();
    assert_eq!(pc.simplify(&pointer), pointer, "nothing fixed yet");
    pc.push(Expr::not(plus.clone()));
    // `a0 = '+'` is false: the second comparison reads `a0` again.
    let once = pc.simplify(&pointer);
    assert!(!once.is_constant() && once != pointer, "{once}");
    // The path then fixes the rebuilt comparison: the pointer is the base.
    pc.push(Expr::not(pc.simplify(&minus)));
    assert_eq!(pc.simplify(&pointer).as_constant(), Some(0x5000_0000_06d8));
    // An equality fixes its term to the constant; each constraint itself is true.
    let a1 = Expr::read(&a, Expr::constant(1, 32));
    pc.push(Expr::eq(Expr::constant(b'x' as u128, 8), a1.clone()));
    let next = Expr::add(Expr::zext(a1, 32), Expr::constant(1, 32));
    assert_eq!(pc.simplify(&next).as_constant(), Some(b'x' as u128 + 1));
    assert!(pc.simplify(&Expr::not(plus)).is_true());
}

#[test]
fn the_simplified_form_has_the_value_of_the_original_in_every_model() {
    let (a, b) = (input("a", 3), input("b", 3));
    let (pointer, plus, minus) = stepped_pointer(&a, &b);
    let mut pc = PathCondition::new();
    pc.push(Expr::not(plus));
    let simplified = pc.simplify(&Expr::add(pointer.clone(), Expr::zext(minus, 64)));
    let original = Expr::add(
        pointer,
        Expr::zext(
            Expr::eq(
                Expr::constant(b'-' as u128, 8),
                Expr::select(
                    Expr::eq(
                        Expr::constant(b'+' as u128, 8),
                        Expr::read(&a, Expr::constant(0, 32)),
                    ),
                    Expr::read(&b, Expr::constant(0, 32)),
                    Expr::read(&a, Expr::constant(0, 32)),
                ),
            ),
            64,
        ),
    );
    // Every assignment of a0 and b0 that satisfies the path (a0 ≠ '+').
    for a0 in 0..=255u8 {
        for b0 in [0u8, b'+', b'-', b'x'] {
            if a0 == b'+' {
                continue;
            }
            let mut m = Assignment::new();
            m.insert(a.root().clone(), vec![a0, 0, 0]);
            m.insert(b.root().clone(), vec![b0, 0, 0]);
            assert_eq!(
                m.evaluate(&simplified),
                m.evaluate(&original),
                "a0={a0} b0={b0}"
            );
        }
    }
}

#[test]
fn a_plain_path_condition_simplifies_nothing() {
    let (a, b) = (input("a", 3), input("b", 3));
    let (pointer, plus, _) = stepped_pointer(&a, &b);
    let mut pc = PathCondition::with_simplification(false);
    pc.push(Expr::not(plus));
    assert_eq!(pc.simplify(&pointer), pointer);
    assert_eq!(
        pc.prefix(1).simplify(&pointer),
        pointer,
        "a prefix stays plain"
    );
}

/// An array read at more constant indices than a short reader list holds (its readers
/// move into a map): each byte's constraint stays its own factor until a constraint
/// joins two bytes, and a read at a symbolic index joins every reader.
#[test]
fn many_bytes_of_one_array_keep_their_factors() {
    let a = input("big", 64);
    let byte = |i: u64| Expr::read(&a, Expr::constant(i as u128, 32));
    let small = |i: u64| Expr::ult(byte(i), Expr::constant(10, 8));
    let mut pc = PathCondition::new();
    for i in 0..64 {
        pc.push(small(i));
    }
    assert_eq!(pc.factor_count(), 64);
    let q = Expr::eq(byte(40), Expr::constant(3, 8));
    assert_eq!(pc.slice_for(&[&q]), vec![small(40)]);
    let join = Expr::ult(byte(3), byte(50));
    pc.push(join.clone());
    assert_eq!(pc.factor_count(), 63);
    let q50 = Expr::eq(byte(50), Expr::constant(1, 8));
    assert_eq!(
        pc.slice_for(&[&q50]),
        vec![small(3), small(50), join.clone()]
    );
    let x = input("x", 4);
    let at = Expr::read(&a, Expr::read_lsb(&x, Expr::constant(0, 32), 4));
    let whole = Expr::eq(at, Expr::constant(7, 8));
    let mut all: Vec<Expr> = (0..64).map(small).collect();
    all.push(join);
    assert_eq!(pc.slice_for(&[&whole]), all);
    pc.push(whole);
    assert_eq!(pc.factor_count(), 1);
}
