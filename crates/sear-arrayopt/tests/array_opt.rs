//! Tests of the array-read transformations (spec `000-klee-array.md` §7, worked examples
//! T1–T10) and of their building blocks. Every transformed expression is also checked for
//! equivalence with the original by exhaustive evaluation over the index values the path
//! condition admits.

use std::sync::Arc;

use sear_arrayopt::distribute::{distribute, MAX_LEAVES};
use sear_arrayopt::ranges::range_test;
use sear_arrayopt::{index_transform, ArrayOptConfig, ArrayOptimizer, CellsCache, OptMode};
use sear_expr::visit::has_array_term;
use sear_expr::{Array, ArrayKind, ArrayRef, Assignment, Expr, ExprKind, ReadPolicy, UpdateList};

fn table(name: &str, bytes: &[u8]) -> UpdateList {
    UpdateList::new(Array::new(
        name,
        bytes.len() as u64,
        ArrayKind::MemoryObject,
        Some(Arc::from(bytes)),
    ))
}

fn input(name: &str, size: u64) -> ArrayRef {
    Array::new(name, size, ArrayKind::SymbolicInput, None)
}

/// The `bytes`-wide little-endian input variable stored in `array`.
fn var(array: &ArrayRef, bytes: u32) -> Expr {
    Expr::read_lsb(
        &UpdateList::new(array.clone()),
        Expr::constant(0, 32),
        bytes,
    )
}

fn c(v: u128, w: u32) -> Expr {
    Expr::constant(v, w)
}

fn ints(values: &[u32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

fn opt(mode: OptMode) -> ArrayOptimizer {
    ArrayOptimizer::new(ArrayOptConfig::with_mode(mode))
}

/// Asserts that `a` and `b` agree whenever `pc` holds, for every value of `array` in
/// `values` (little-endian, `array.size()` bytes).
fn assert_equivalent(
    a: &Expr,
    b: &Expr,
    pc: &Expr,
    array: &ArrayRef,
    values: impl IntoIterator<Item = u128>,
) {
    let mut checked = 0;
    for v in values {
        let mut m = Assignment::new();
        let bytes = (0..array.size()).map(|i| (v >> (8 * i)) as u8).collect();
        m.insert(array.clone(), bytes);
        if m.evaluate(pc) != 1 {
            continue;
        }
        checked += 1;
        assert_eq!(m.evaluate(a), m.evaluate(b), "differ at {v}: {a} vs {b}");
    }
    assert!(checked > 0, "no value satisfied the path condition");
}

fn count_selects(e: &Expr) -> usize {
    let mut n = 0;
    sear_expr::visit::for_each_node([e], |x| {
        n += matches!(x.kind(), ExprKind::Select { .. }) as usize
    });
    n
}

// ---- T3: value-based {0,0,2,2,0,0,3} ----

#[test]
fn t3_value_based_read() {
    let v_arr = input("v", 1);
    let v = var(&v_arr, 1);
    let a = table("A", &[0, 0, 2, 2, 0, 0, 3]);
    let read = Expr::read(&a, Expr::zext(v.clone(), 32));
    let mut o = opt(OptMode::Value);
    let t = o.optimize_value(&read);
    // 0 has two runs, so it is the unguarded default.
    let expected = Expr::select(
        Expr::and(Expr::ule(c(2, 8), v.clone()), Expr::ule(v.clone(), c(3, 8))),
        c(2, 8),
        Expr::select(Expr::eq(c(6, 8), v.clone()), c(3, 8), c(0, 8)),
    );
    assert_eq!(t, expected);
    assert!(!has_array_term([&t]));
    let pc = Expr::ult(v.clone(), c(7, 8));
    assert_equivalent(&read, &t, &pc, &v_arr, 0..256);
    assert_eq!(o.stats().value_successes, 1);
}

#[test]
fn t3_consumer_prefers_index_based_in_all_mode() {
    let v_arr = input("v", 1);
    let v = var(&v_arr, 1);
    let a = table("A", &[0, 0, 2, 2, 0, 0, 3]);
    let cond = Expr::eq(c(2, 8), Expr::read(&a, Expr::zext(v.clone(), 32)));
    let mut o = opt(OptMode::All);
    let t = o.optimize_condition(&cond);
    assert_eq!(
        t,
        Expr::and(Expr::ule(c(2, 8), v.clone()), Expr::ule(v, c(3, 8)))
    );
    assert_eq!(
        (o.stats().index_successes, o.stats().value_successes),
        (1, 0)
    );
}

// ---- T4: index-based {0,0,3,3,0,0,4} ----

#[test]
fn t4_index_based_predicate_and_its_negation() {
    let v_arr = input("v", 1);
    let v = var(&v_arr, 1);
    let a = table("A", &[0, 0, 3, 3, 0, 0, 4]);
    let cond = Expr::ult(Expr::read(&a, Expr::zext(v.clone(), 32)), c(3, 8));
    let mut o = opt(OptMode::Index);
    let t = o.optimize_condition(&cond);
    let expected = Expr::or(
        Expr::ule(v.clone(), c(1, 8)),
        Expr::and(Expr::ule(c(4, 8), v.clone()), Expr::ule(v.clone(), c(5, 8))),
    );
    assert_eq!(t, expected);
    let pc = Expr::ult(v.clone(), c(7, 8));
    assert_equivalent(&cond, &t, &pc, &v_arr, 0..256);
    assert_equivalent(&Expr::not(cond.clone()), &Expr::not(t), &pc, &v_arr, 0..256);
    // The else branch of the paper: 2 ≤ v ≤ 3 ∨ v = 6.
    let ge = Expr::uge(Expr::read(&a, Expr::zext(v.clone(), 32)), c(3, 8));
    let t = o.optimize_condition(&ge);
    let expected = Expr::or(
        Expr::and(Expr::ule(c(2, 8), v.clone()), Expr::ule(v.clone(), c(3, 8))),
        Expr::eq(c(6, 8), v),
    );
    assert_eq!(t, expected);
}

// ---- T5: mixed array {0, 0, s1, s2, 2, 2} of ints ----

#[test]
fn t5_mixed_array_one_branch_per_symbolic_element() {
    let (s1a, s2a, ia) = (input("s1", 4), input("s2", 4), input("i", 1));
    let i = var(&ia, 1);
    let mut ul = table("A", &ints(&[0, 0, 0, 0, 2, 2]));
    for (k, s) in [(2u64, &s1a), (3, &s2a)] {
        for b in 0..4u64 {
            let byte = Expr::read(&UpdateList::new(s.clone()), c(b as u128, 32));
            ul = ul.write(c((4 * k + b) as u128, 32), byte);
        }
    }
    let base = Expr::mul(c(4, 32), Expr::zext(i.clone(), 32));
    let read = Expr::read_lsb(&ul, base, 4);
    let cond = Expr::eq(c(7, 32), read.clone());
    // Not a constant array: the index-based transformation must not fire.
    let mut cells = CellsCache::new(1 << 20);
    assert!(index_transform(&cond, &mut cells).is_none());
    let mut o = opt(OptMode::All);
    let t = o.optimize_condition(&cond);
    let (s1, s2) = (var(&s1a, 4), var(&s2a, 4));
    let ite = Expr::select(
        Expr::ule(i.clone(), c(1, 8)),
        c(0, 32),
        Expr::select(
            Expr::and(Expr::ule(c(4, 8), i.clone()), Expr::ule(i.clone(), c(5, 8))),
            c(2, 32),
            Expr::select(Expr::eq(c(2, 8), i.clone()), s1, s2),
        ),
    );
    // The read itself becomes the paper's ITE; the condition (which the builder split into
    // byte equalities) uses its bytes.
    assert_eq!(o.optimize_value(&read), ite);
    assert!(!has_array_term([&t]), "no array read may remain: {t}");
    assert_eq!(
        (o.stats().index_successes, o.stats().mixed_successes),
        (0, 2)
    );
    // Equivalence over i with a few values of s1 and s2.
    for (x1, x2) in [(7u32, 0u32), (0, 7), (7, 7), (1, 2)] {
        let mut m = Assignment::new();
        m.insert(s1a.clone(), x1.to_le_bytes().to_vec());
        m.insert(s2a.clone(), x2.to_le_bytes().to_vec());
        for iv in 0..6u8 {
            m.insert(ia.clone(), vec![iv]);
            assert_eq!(m.evaluate(&cond), m.evaluate(&t), "i={iv} s1={x1} s2={x2}");
        }
    }
}

// ---- T1: isBase64 ----

fn b64_table() -> Vec<u8> {
    let mut t = vec![0xFFu8; 256];
    let alphabet = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    for (v, ch) in alphabet.iter().enumerate() {
        t[*ch as usize] = v as u8;
    }
    t
}

#[test]
fn t1_is_base64_index_based() {
    let ka = input("k", 1);
    let k = var(&ka, 1);
    let b64 = table("b64", &b64_table());
    let read = Expr::read(&b64, Expr::zext(k.clone(), 32));
    // b64[k] >= 0 on a signed char, as clang emits it: sext to int, signed compare.
    let cond = Expr::sge(Expr::sext(read, 32), c(0, 32));
    let mut o = opt(OptMode::Index);
    let t = o.optimize_condition(&cond);
    let r = |lo: u128, hi: u128| {
        Expr::and(
            Expr::ule(c(lo, 8), k.clone()),
            Expr::ule(k.clone(), c(hi, 8)),
        )
    };
    let expected = Expr::or_all([
        Expr::eq(c(43, 8), k.clone()),
        r(47, 57),
        r(65, 90),
        r(97, 122),
    ]);
    assert_eq!(t, expected);
    assert_equivalent(&cond, &t, &Expr::true_(), &ka, 0..256);
    assert_equivalent(&Expr::not(cond), &Expr::not(t), &Expr::true_(), &ka, 0..256);
}

#[test]
fn t1c_is_base64_value_based_has_64_guards() {
    let ka = input("k", 1);
    let k = var(&ka, 1);
    let b64 = table("b64", &b64_table());
    let read = Expr::read(&b64, Expr::zext(k, 32));
    let cond = Expr::sge(Expr::sext(read.clone(), 32), c(0, 32));
    let mut o = opt(OptMode::Value);
    let t = o.optimize_condition(&cond);
    assert!(!has_array_term([&t]));
    // The comparison of the value tree with 0 is a formula over its guards (the builder's
    // comparisons of ite trees with constant leaves, `sear_expr::ite_compare`).
    assert_eq!(count_selects(&t), 0);
    assert_equivalent(&cond, &t, &Expr::true_(), &ka, 0..256);
    let v = o.optimize_value(&read);
    assert_eq!(count_selects(&v), 64, "65 distinct values, -1 unguarded");
    assert_equivalent(&read, &v, &Expr::true_(), &ka, 0..256);
}

#[test]
fn t1b_table_filled_by_writes_transforms_the_same() {
    // The table is a zero root with constant writes on top (filled at run time).
    let ka = input("k", 1);
    let k = var(&ka, 1);
    let mut ul = table("b64", &[0u8; 256]);
    for (j, b) in b64_table().iter().enumerate() {
        ul = ul.write(c(j as u128, 32), c(*b as u128, 8));
    }
    let cond = Expr::sge(
        Expr::sext(Expr::read(&ul, Expr::zext(k.clone(), 32)), 32),
        c(0, 32),
    );
    let t = opt(OptMode::Index).optimize_condition(&cond);
    let static_t = {
        let b64 = table("b64s", &b64_table());
        let cond = Expr::sge(
            Expr::sext(Expr::read(&b64, Expr::zext(k, 32)), 32),
            c(0, 32),
        );
        opt(OptMode::Index).optimize_condition(&cond)
    };
    assert_eq!(t, static_t);
}

// ---- T2: the bc DFA ----

#[test]
fn t2a_i_check_table_with_a_symbolic_class() {
    let mut check = vec![7u32; 580];
    check[0] = 0;
    let check = table("check", &ints(&check));
    let cca = input("currClass", 4);
    let cc = var(&cca, 4);
    let base = Expr::mul(c(4, 32), cc.clone());
    let cond = Expr::ne(Expr::read_lsb(&check, base.clone(), 4), c(0, 32));
    let t = opt(OptMode::All).optimize_condition(&cond);
    // 4 ≤ 4·cc ≤ 2316 on the byte offset: 4·cc may wrap, so the multiplier stays.
    let expected = Expr::and(
        Expr::ule(c(4, 32), base.clone()),
        Expr::ule(base.clone(), c(2316, 32)),
    );
    assert_eq!(t, expected);
    let pc = Expr::ule(base, c(2316, 32));
    let values = (0..600u128).chain([
        (1u128 << 30) + 1,
        (1 << 30) + 600,
        (1 << 31) + 3,
        u32::MAX as u128,
    ]);
    assert_equivalent(&cond, &t, &pc, &cca, values);
}

/// A flex-like equivalence-class table: 0 ↦ 0, letters ↦ 1, digits ↦ 2, '+' ↦ 3, rest ↦ 4.
fn ec_table() -> Vec<u8> {
    (0..=255u8)
        .map(|ch| match ch {
            0 => 0,
            b'a'..=b'z' | b'A'..=b'Z' => 1,
            b'0'..=b'9' => 2,
            b'+' => 3,
            _ => 4,
        })
        .collect()
}

#[test]
fn t2a_ii_nested_reads_enumerate_the_inner_index() {
    let mut check = vec![5u32; 580];
    check[0] = 0;
    let check = table("check", &ints(&check));
    let ec = table("ec", &ec_table());
    let cha = input("ch", 1);
    let ch = var(&cha, 1);
    let class = Expr::zext(Expr::read(&ec, Expr::zext(ch.clone(), 32)), 32);
    let cond = Expr::ne(
        Expr::read_lsb(&check, Expr::mul(c(4, 32), class), 4),
        c(0, 32),
    );
    let mut o = opt(OptMode::All);
    let t = o.optimize_condition(&cond);
    // check[ec[c]] ≠ 0 ⇔ ec[c] ≠ 0 ⇔ c ≠ 0.
    assert_eq!(t, Expr::ule(c(1, 8), ch));
    assert_equivalent(&cond, &t, &Expr::true_(), &cha, 0..256);
    assert_eq!(o.stats().index_successes, 1);
}

#[test]
fn t2_line13_class_lookup_value_based() {
    let ec = table("ec", &ec_table());
    let cha = input("ch", 1);
    let ch = var(&cha, 1);
    let read = Expr::read(&ec, Expr::zext(ch.clone(), 32));
    let t = opt(OptMode::Value).optimize_value(&read);
    // Fewest runs first: 0 (one run, `ch = 0`) is the first guard; 4 (most runs) the default.
    let ExprKind::Select {
        cond, then_expr, ..
    } = t.kind()
    else {
        panic!("expected an ITE, got {t}");
    };
    assert_eq!(*cond, Expr::eq(c(0, 8), ch));
    assert_eq!(then_expr.as_constant(), Some(0));
    assert_equivalent(&read, &t, &Expr::true_(), &cha, 0..256);
}

// ---- T6: dynamic constant folding ----

#[test]
fn t6_read_folding_and_its_ablation() {
    let sa = input("s", 1);
    let s = var(&sa, 1);
    let ka = input("k", 4);
    let idx = var(&ka, 4);
    // T[idx] = 9; T[2] must not fold.
    let t = table("T", &[1, 2, 3, 4]).write(idx.clone(), c(9, 8));
    assert!(Expr::read(&t, c(2, 32)).as_constant().is_none());
    // B[1] = s; B[1] is s; B[3] folds to 4 through the write at 1.
    let b = table("B", &[1, 2, 3, 4]).write(c(1, 32), s.clone());
    assert_eq!(Expr::read(&b, c(1, 32)), s);
    assert_eq!(Expr::read(&b, c(3, 32)).as_constant(), Some(4));
    assert_eq!(ReadPolicy::Fold.read(&b, c(3, 32)).as_constant(), Some(4));
    // Without folding: the hit still returns s, but B[3] stays a read over the whole list.
    let hit = ReadPolicy::Unfolded.read(&b, c(1, 32));
    let unfolded = ReadPolicy::Unfolded.read(&b, c(3, 32));
    let plain = Expr::read_unfolded(&table("C", &[1, 2, 3, 4]), c(0, 32));
    assert_eq!(hit, s);
    match unfolded.kind() {
        ExprKind::Read { updates, .. } => assert_eq!(updates.len(), 1),
        _ => panic!("expected a read, got {unfolded}"),
    }
    assert!(plain.as_constant().is_none());
    assert!(has_array_term([&plain]));
    let mut m = Assignment::new();
    m.insert(sa, vec![0]);
    assert_eq!(m.evaluate(&unfolded), 4);
    // The policy is an argument, not a state: folding reads still fold afterwards.
    assert_eq!(Expr::read(&b, c(3, 32)).as_constant(), Some(4));
}

/// The optimiser rebuilds the reads its rewrites touch under its read policy: an outer read
/// it cannot transform (its list has a write at a symbolic index) gets the rewritten inner
/// offset, and keeps its skipped writes only without folding.
#[test]
fn rebuilt_reads_follow_the_optimizers_read_policy() {
    let ca = input("c", 1);
    let ch = var(&ca, 1);
    let ka = input("k", 4);
    let k = var(&ka, 4);
    let sa = input("s", 1);
    let s = var(&sa, 1);
    let inner = Expr::read(&table("E", &[5, 6, 5, 6]), Expr::zext(ch.clone(), 32));
    // A[k] = s, then A[100] = 7: an offset of E's values provably misses 100.
    let outer_list = table("A", &[0; 128]).write(k, s).write(c(100, 32), c(7, 8));
    let outer = Expr::read_unfolded(&outer_list, Expr::zext(inner, 32));
    let path = Expr::ule(ch.clone(), c(3, 8));
    let mut lengths = Vec::new();
    for reads in [ReadPolicy::Fold, ReadPolicy::Unfolded] {
        let mut o =
            ArrayOptimizer::new(ArrayOptConfig::with_mode(OptMode::Value)).with_read_policy(reads);
        let t = o.optimize_value(&outer);
        assert_ne!(t, outer, "the inner read is rewritten");
        assert_equivalent(&outer, &t, &path, &ca, 0..256);
        let rebuilt: Vec<usize> = sear_expr::visit::collect_reads([&t])
            .iter()
            .filter_map(|r| match r.kind() {
                ExprKind::Read { updates, .. } if updates.root().name() == "A" => {
                    Some(updates.len())
                }
                _ => None,
            })
            .collect();
        lengths.push(rebuilt);
    }
    // Folding trims the write at 100; stock reads keep the whole list.
    assert_eq!(lengths, vec![vec![1], vec![2]]);
}

// ---- T7, T8: nested tables and feasibility without a solver ----

#[test]
fn t7_nested_constant_tables() {
    let array = table("array", &[1, 2, 7, 0xFC, 5]);
    let array2 = table("array2", &[0, 3, 4, 1, 2]);
    let ka = input("k", 1);
    let k = var(&ka, 1);
    let inner = Expr::read(&array2, Expr::zext(k.clone(), 32));
    let cond = Expr::eq(c(7, 8), Expr::read(&array, Expr::zext(inner, 32)));
    let t = opt(OptMode::Index).optimize_condition(&cond);
    assert_eq!(t, Expr::eq(c(4, 8), k.clone()));
    assert_equivalent(&cond, &t, &Expr::ult(k, c(5, 8)), &ka, 0..256);
}

#[test]
fn t8_evaluation_decides_infeasible_branches() {
    let array = table("array", &[0, 1, 0, 1, 0]);
    let ka = input("k", 1);
    let k = var(&ka, 1);
    let read = Expr::read(&array, Expr::zext(k.clone(), 32));
    let mut o = opt(OptMode::Index);
    let t = o.optimize_condition(&Expr::eq(c(0, 8), read.clone()));
    // Three runs in, two out: the complement encoding with an explicit bound.
    let expected = Expr::and(
        Expr::ule(k.clone(), c(4, 8)),
        Expr::not(Expr::or(
            Expr::eq(c(1, 8), k.clone()),
            Expr::eq(c(3, 8), k.clone()),
        )),
    );
    assert_eq!(t, expected);
    assert_equivalent(
        &Expr::eq(c(0, 8), read.clone()),
        &t,
        &Expr::ult(k.clone(), c(5, 8)),
        &ka,
        0..256,
    );
    assert!(o.optimize_condition(&Expr::eq(c(9, 8), read)).is_false());
    assert_eq!(o.stats().index_infeasible, 1);
}

// ---- T9: a symbolic-index write disables both transformations ----

#[test]
fn t9_symbolic_index_write_disables_everything() {
    let (ja, ka) = (input("j", 1), input("k", 1));
    let ul = table("A", &[0, 0, 3, 3, 0, 0, 4]).write(Expr::zext(var(&ja, 1), 32), c(1, 8));
    let cond = Expr::ult(Expr::read(&ul, Expr::zext(var(&ka, 1), 32)), c(3, 8));
    let mut o = opt(OptMode::All);
    assert_eq!(o.optimize_condition(&cond), cond);
    assert_eq!(o.optimize_value(&cond), cond);
    // The second time, the answer comes from the cache of unoptimisable expressions.
    assert_eq!(o.optimize_condition(&cond), cond);
    assert_eq!(o.stats().cache_hits, 1);
}

// ---- T10: wrap-around soundness ----

#[test]
fn t10_wrapping_index_stays_sound() {
    let ka = input("k", 8);
    let k = var(&ka, 8);
    let t_arr = table("T", &ints(&[10, 20, 30, 20]));
    // The engine's offset: trunc32(4·k) of the 64-bit pointer difference.
    let byte_offset = Expr::mul(c(4, 64), k.clone());
    let offset = Expr::trunc(byte_offset.clone(), 32);
    let read = Expr::read_lsb(&t_arr, offset.clone(), 4);
    let pc = Expr::ule(byte_offset, c(12, 64)); // the engine's in-bounds check
    let huge = 1u128 << 62;
    let values: Vec<u128> = (0..8)
        .chain(huge..huge + 8)
        .chain([(1 << 63) + 1, (3 << 62) + 3, u64::MAX as u128])
        .collect();
    for mode in [OptMode::Index, OptMode::Value, OptMode::All] {
        let mut o = opt(mode);
        let cond = Expr::eq(c(20, 32), read.clone());
        let t = o.optimize_condition(&cond);
        assert_ne!(t, cond, "{mode:?} should transform");
        assert_equivalent(&cond, &t, &pc, &ka, values.iter().copied());
        let v = o.optimize_value(&read);
        if mode != OptMode::Index {
            assert_equivalent(&read, &v, &pc, &ka, values.iter().copied());
        }
    }
}

// ---- building blocks ----

#[test]
fn range_tests_peel_only_what_cannot_wrap() {
    let xa = input("x", 1);
    let x = var(&xa, 1);
    let shapes = [
        Expr::zext(x.clone(), 16),
        Expr::mul(c(3, 16), Expr::zext(x.clone(), 16)),
        Expr::add(c(200, 16), Expr::mul(c(4, 16), Expr::zext(x.clone(), 16))),
        Expr::mul(c(3, 8), x.clone()),
        Expr::add(c(250, 8), x.clone()),
        Expr::shl(Expr::zext(x.clone(), 16), c(2, 16)),
        Expr::mul(c(300, 16), Expr::zext(x.clone(), 16)),
    ];
    for e in &shapes {
        for (lo, hi) in [
            (0u64, 0u64),
            (1, 5),
            (4, 12),
            (7, 300),
            (250, 260),
            (0, 65535),
            (600, 600),
            (765, 1020),
        ] {
            let t = range_test(e, lo, hi);
            for xv in 0..=255u8 {
                let mut m = Assignment::new();
                m.insert(xa.clone(), vec![xv]);
                let v = m.evaluate(e);
                let expected = (lo as u128) <= v && v <= hi as u128;
                assert_eq!(
                    m.evaluate(&t) == 1,
                    expected,
                    "{e} in [{lo}, {hi}] at x={xv}: {t}"
                );
            }
        }
    }
}

/// Random tables and predicates: both transformations agree with the original everywhere
/// in bounds (a small exhaustive-per-case property test).
#[test]
fn random_tables_and_predicates_are_equivalent() {
    let mut rng = 0x2545F4914F6CDD1Du64;
    let mut next = move || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng
    };
    let ka = input("k", 1);
    let k = var(&ka, 1);
    for case in 0..200 {
        let n = 1 + (next() % 40) as usize;
        let distinct = 1 + next() % 4;
        let bytes: Vec<u8> = (0..n).map(|_| (next() % distinct) as u8 * 3).collect();
        let ul = table(&format!("R{case}"), &bytes);
        let scale = [1u128, 2, 4][(next() % 3) as usize];
        let width_bytes = [1u32, 2][(next() % 2) as usize];
        let base = Expr::mul(c(scale, 32), Expr::zext(k.clone(), 32));
        let read = Expr::read_lsb(&ul, base.clone(), width_bytes);
        let w = 8 * width_bytes;
        let konst = c((next() % 8) as u128, w);
        let cond = match next() % 4 {
            0 => Expr::eq(konst, read.clone()),
            1 => Expr::ult(read.clone(), konst),
            2 => Expr::sle(konst, read.clone()),
            _ => Expr::ult(Expr::add(read.clone(), Expr::zext(k.clone(), w)), konst),
        };
        let pc = Expr::ule(
            base.clone(),
            c((n as u128).saturating_sub(width_bytes as u128), 32),
        );
        if (n as u32) < width_bytes {
            continue;
        }
        for mode in [OptMode::Index, OptMode::Value, OptMode::All] {
            let mut o = opt(mode);
            let t = o.optimize_condition(&cond);
            assert_equivalent(&cond, &t, &pc, &ka, 0..256);
            let v = o.optimize_value(&read);
            assert_equivalent(&read, &v, &pc, &ka, 0..256);
        }
    }
}

// ---- constant folding through if-then-else offsets ----

#[test]
fn nested_lookups_keyed_by_one_byte_compose_into_one_rangeite() {
    let ec = table("ec", &ec_table());
    let cha = input("ch", 1);
    let ch = var(&cha, 1);
    // tab[ec[ch]] as an int table: the composed function of ch has two values.
    let tab = table("tab", &ints(&[7, 9, 9, 9, 7]));
    let class = Expr::zext(Expr::read(&ec, Expr::zext(ch.clone(), 32)), 32);
    let read = Expr::read_lsb(&tab, Expr::mul(c(4, 32), class), 4);
    let mut o = opt(OptMode::Value);
    let t = o.optimize_value(&read);
    // 9 for letters, digits and '+'; 7 elsewhere (NUL and the rest: the most runs).
    let r = |lo: u128, hi: u128| {
        Expr::and(
            Expr::ule(c(lo, 8), ch.clone()),
            Expr::ule(ch.clone(), c(hi, 8)),
        )
    };
    let nine = Expr::or_all([
        Expr::eq(c(b'+' as u128, 8), ch.clone()),
        r(b'0' as u128, b'9' as u128),
        r(b'A' as u128, b'Z' as u128),
        r(b'a' as u128, b'z' as u128),
    ]);
    assert_eq!(t, Expr::select(nine, c(9, 32), c(7, 32)));
    assert_eq!(o.stats().value_composed, 1);
    assert_equivalent(&read, &t, &Expr::true_(), &cha, 0..256);
}

#[test]
fn lookups_keyed_by_two_bytes_compose_into_a_two_level_rangeite() {
    let ec = table("ec", &ec_table());
    let (aa, ba) = (input("a", 1), input("b", 1));
    let (a, b) = (var(&aa, 1), var(&ba, 1));
    // tab[ec[a] + ec[b]]: rows (functions of b) are shared by all a of one class.
    let tab: Vec<u8> = (0..9u8).map(|i| i * 11 % 7).collect();
    let tab = table("tab", &tab);
    let ca = Expr::zext(Expr::read(&ec, Expr::zext(a.clone(), 32)), 32);
    let cb = Expr::zext(Expr::read(&ec, Expr::zext(b.clone(), 32)), 32);
    let read = Expr::read(&tab, Expr::add(ca, cb));
    let mut o = opt(OptMode::Value);
    let t = o.optimize_value(&read);
    assert!(!has_array_term([&t]), "{t}");
    assert_eq!(o.stats().value_composed, 1);
    // Five classes of a: five rows, each a RANGEITE over b with at most five values.
    assert!(count_selects(&t) <= 4 + 5 * 4, "{t}");
    for av in (0..=255u8).step_by(3) {
        for bv in (0..=255u8).step_by(5) {
            let mut m = Assignment::new();
            m.insert(aa.clone(), vec![av]);
            m.insert(ba.clone(), vec![bv]);
            assert_eq!(m.evaluate(&read), m.evaluate(&t), "a={av} b={bv}");
        }
    }
}

#[test]
fn nested_value_reads_over_three_bytes_fold_at_the_leaves_of_the_inner_ites() {
    let ec = table("ec", &ec_table());
    let arrays: Vec<ArrayRef> = ["a", "b", "d"].iter().map(|n| input(n, 1)).collect();
    // tab[ec[a] + ec[b] + ec[d]]: three bytes, so no composition; the inner reads become
    // ITEs and the outer offset distributes into a tree of at most 5 × 5 × 5 leaves.
    let tab: Vec<u8> = (0..13u8).map(|i| i * 11 % 7).collect();
    let tab = table("tab", &tab);
    let classes: Vec<Expr> = arrays
        .iter()
        .map(|x| Expr::zext(Expr::read(&ec, Expr::zext(var(x, 1), 32)), 32))
        .collect();
    let offset = Expr::add(
        Expr::add(classes[0].clone(), classes[1].clone()),
        classes[2].clone(),
    );
    let read = Expr::read(&tab, offset);
    let mut o = opt(OptMode::Value);
    let t = o.optimize_value(&read);
    assert!(!has_array_term([&t]), "{t}");
    assert_eq!(o.stats().value_distributed, 1);
    let mut arithmetic = false;
    sear_expr::visit::for_each_node([&t], |x| {
        arithmetic |= matches!(
            x.kind(),
            ExprKind::Binary {
                op: sear_expr::BinOp::Add,
                ..
            }
        )
    });
    assert!(!arithmetic, "offsets folded at the leaves: {t}");
    for (av, bv, dv) in [
        (0u8, 0u8, 0u8),
        (b'a', b'1', b'+'),
        (b'+', b'+', 9),
        (b'Z', 200, b'z'),
    ] {
        let mut m = Assignment::new();
        for (x, v) in arrays.iter().zip([av, bv, dv]) {
            m.insert(x.clone(), vec![v]);
        }
        assert_eq!(m.evaluate(&read), m.evaluate(&t), "{av} {bv} {dv}");
    }
}

#[test]
fn distribution_combines_two_trees_within_the_leaf_budget() {
    let (xa, ya) = (input("x", 1), input("y", 1));
    let (x, y) = (var(&xa, 1), var(&ya, 1));
    let tx = Expr::select(Expr::ult(x.clone(), c(10, 8)), c(1, 16), c(2, 16));
    let ty = Expr::select(Expr::eq(c(3, 8), y.clone()), c(10, 16), c(20, 16));
    let sum = Expr::mul(c(3, 16), Expr::add(tx, ty));
    let t = distribute(&sum, MAX_LEAVES).expect("a tree");
    assert_eq!(count_selects(&t), 3, "{t}");
    for (xv, yv) in [(0u8, 3u8), (0, 4), (50, 3), (50, 9)] {
        let mut m = Assignment::new();
        m.insert(xa.clone(), vec![xv]);
        m.insert(ya.clone(), vec![yv]);
        assert_eq!(m.evaluate(&sum), m.evaluate(&t));
    }
    assert!(
        distribute(&sum, 3).is_none(),
        "4 leaves exceed a budget of 3"
    );
    assert!(
        distribute(&Expr::add(x, c(1, 8)), MAX_LEAVES).is_none(),
        "no ITE, nothing to do"
    );
}

#[test]
fn distribution_goes_through_comparisons_of_trees() {
    // `(ite(x < 10, 1, 2) < 2) + 4`: the comparison's tree is boolean, which the builder
    // folds into `x < 10` (no ITE left); its extension must still distribute (coreutils'
    // expr under --indexify=strings reached this as a panic).
    let xa = input("x", 1);
    let x = var(&xa, 1);
    let tx = Expr::select(Expr::ult(x.clone(), c(10, 8)), c(1, 16), c(2, 16));
    let flag = Expr::zext(Expr::ult(tx.clone(), c(2, 16)), 16);
    let e = Expr::add(flag, Expr::mul(tx, c(4, 16)));
    // The builder's ite lifting may have built the tree already; then there is nothing left
    // to distribute.
    let t = distribute(&e, MAX_LEAVES).unwrap_or_else(|| e.clone());
    assert!(count_selects(&t) > 0, "a tree: {t}");
    for xv in [0u8, 9, 10, 200] {
        let mut m = Assignment::new();
        m.insert(xa.clone(), vec![xv]);
        assert_eq!(m.evaluate(&e), m.evaluate(&t), "x = {xv}: {t}");
    }
}

// ---- conditions over two input bytes: a DFA after two characters ----

/// `next[4·next[ec[a]] + ec[b]]`: the state after reading `a` then `b` from state 0 of a
/// four-class DFA with states 0..=5.
fn two_step_dfa(a: &Expr, b: &Expr) -> Expr {
    let ec = table("ec", &ec_table());
    let next: Vec<u8> = (0..24u8).map(|i| (i * 7 + i / 5) % 6).collect();
    let next = table("next", &next);
    let ca = Expr::zext(Expr::read(&ec, Expr::zext(a.clone(), 32)), 32);
    let s1 = Expr::read(&next, Expr::and(ca, c(3, 32)));
    let cb = Expr::zext(Expr::read(&ec, Expr::zext(b.clone(), 32)), 32);
    let at = Expr::add(
        Expr::mul(c(4, 32), Expr::zext(s1, 32)),
        Expr::and(cb, c(3, 32)),
    );
    Expr::read(&next, at)
}

#[test]
fn conditions_over_two_input_bytes_are_tabulated_over_the_bytes() {
    let (aa, ba) = (input("a", 1), input("b", 1));
    let (a, b) = (var(&aa, 1), var(&ba, 1));
    let s2 = two_step_dfa(&a, &b);
    let cond = Expr::ult(c(2, 8), s2.clone()); // accepting states 3..=5
    let mut cells = CellsCache::new(1 << 20);
    assert!(
        index_transform(&cond, &mut cells).is_none(),
        "Algorithm 2 alone has no single offset to fix"
    );
    let mut o = opt(OptMode::Index);
    let t = o.optimize_condition(&cond);
    assert!(!has_array_term([&t]), "{t}");
    assert_eq!(o.stats().index_tabulated, 1);
    assert_eq!(o.stats().index_successes, 1);
    let mut seen = [false; 2];
    for av in 0..=255u8 {
        for bv in 0..=255u8 {
            let mut m = Assignment::new();
            m.insert(aa.clone(), vec![av]);
            m.insert(ba.clone(), vec![bv]);
            let want = m.evaluate(&cond);
            assert_eq!(want, m.evaluate(&t), "a={av} b={bv}: {t}");
            seen[want as usize] = true;
        }
    }
    assert_eq!(seen, [true, true], "the condition is not constant");
    // The tabulated form only compares the bytes with constants.
    sear_expr::visit::for_each_node([&t], |n| {
        if let ExprKind::Cmp { lhs, rhs, .. } = n.kind() {
            assert!(lhs.is_constant() || rhs.is_constant(), "{n}");
        }
    });
}

#[test]
fn conditions_over_three_input_bytes_are_left_to_the_value_transformation() {
    let (aa, ba, ca) = (input("a", 1), input("b", 1), input("c", 1));
    let (a, b, x) = (var(&aa, 1), var(&ba, 1), var(&ca, 1));
    let s2 = two_step_dfa(&a, &b);
    let cond = Expr::eq(Expr::add(s2, x), c(3, 8));
    let mut o = opt(OptMode::Index);
    assert_eq!(o.optimize_condition(&cond), cond);
    assert_eq!(o.stats().index_tabulated, 0);
    let mut o = opt(OptMode::All);
    let t = o.optimize_condition(&cond);
    assert_eq!(o.stats().index_tabulated, 0);
    assert!(o.stats().value_successes >= 1, "{t}");
}

#[test]
fn large_value_rewrites_over_three_bytes_are_left_to_the_solver() {
    let bytes: Vec<ArrayRef> = ["a", "b", "x"].iter().map(|n| input(n, 1)).collect();
    // A 16-state, 16-class DFA run for three characters from state 0.
    let ec: Vec<u8> = (0..=255u8).map(|ch| ch.wrapping_mul(37) >> 4).collect();
    let ec = table("ec", &ec);
    let next: Vec<u8> = (0..256u32).map(|i| ((i * 97 + i / 7) % 16) as u8).collect();
    let next = table("next", &next);
    let mut state = c(0, 8);
    for b in &bytes {
        let class = Expr::zext(Expr::read(&ec, Expr::zext(var(b, 1), 32)), 32);
        let at = Expr::add(Expr::mul(c(16, 32), Expr::zext(state, 32)), class);
        state = Expr::read(&next, at);
    }
    let cond = Expr::ult(c(11, 8), state);
    let mut o = opt(OptMode::All);
    assert_eq!(o.optimize_condition(&cond), cond, "kept as array reads");
    assert_eq!(o.stats().value_too_large, 1);
    let mut unlimited = ArrayOptimizer::new(ArrayOptConfig {
        max_condition_growth: 0,
        ..ArrayOptConfig::with_mode(OptMode::All)
    });
    let t = unlimited.optimize_condition(&cond);
    assert!(!has_array_term([&t]), "{t}");
}

/// A chain of reads whose offsets hold the previous read (a pointer moved along a table by
/// symbolic steps, as coreutils `expr` walks `argv`): the reads are replaced innermost
/// first with one rewriter for every offset, and the result is the original's value.
#[test]
fn chained_reads_whose_offsets_hold_the_previous_read() {
    let t = table("t", &[3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3]);
    let xa = input("x", 2);
    let byte = |i: u64| Expr::read(&UpdateList::new(xa.clone()), c(i as u128, 32));
    let mut p = Expr::and(Expr::zext(byte(0), 32), c(3, 32));
    for i in 1..4 {
        let hit = Expr::eq(Expr::read(&t, p.clone()), byte(i % 2));
        p = Expr::add(p, Expr::zext(hit, 32));
    }
    let cond = Expr::eq(Expr::read(&t, p), c(5, 8));
    let mut o = opt(OptMode::All);
    let rewritten = o.optimize_condition(&cond);
    assert_ne!(rewritten, cond, "the chain's reads were not transformed");
    assert_equivalent(&cond, &rewritten, &Expr::true_(), &xa, 0..1 << 16);
}
