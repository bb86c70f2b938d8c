//! The congruence analysis shared by the array-read transformations and the solver: each
//! rule on a worked example, the residues the solver asks for, and soundness on random
//! index-like terms checked by evaluation (every claimed `t ≡ r (mod 2^k)` must hold under
//! every assignment tried).
//!
//! `SEAR_PROPTEST_CASES` scales the number of cases.

mod common;

use proptest::prelude::*;
use sear_expr::congruence::{congruence, Congruence, Congruences};
use sear_expr::testing::{random_assignment, Rng};
use sear_expr::visit::for_each_node;
use sear_expr::{Array, ArrayKind, ArrayRef, Expr, UpdateList};

fn c(v: u128, w: u32) -> Expr {
    Expr::constant(v, w)
}

/// A 32-bit input variable (4 symbolic bytes).
fn var(name: &str) -> Expr {
    let a = Array::new(name, 4, ArrayKind::SymbolicInput, None);
    Expr::read_lsb(&UpdateList::new(a), c(0, 32), 4)
}

fn cg(e: &Expr) -> (u64, u32) {
    let k = congruence(e);
    (k.rem, k.bits)
}

#[test]
fn multiples_offsets_and_shifts() {
    let x = var("x");
    let four_x = Expr::mul(c(4, 32), x.clone());
    assert_eq!(cg(&four_x), (0, 2));
    let plus = Expr::add(c(6, 32), four_x.clone());
    assert_eq!(cg(&plus), (2, 2));
    assert!(congruence(&plus).allows(10) && !congruence(&plus).allows(4));
    assert_eq!(cg(&Expr::sub(plus.clone(), c(3, 32))), (3, 2));
    assert_eq!(cg(&Expr::shl(x.clone(), c(3, 32))), (0, 3));
    assert_eq!(cg(&Expr::shl(plus.clone(), c(1, 32))), (4, 3));
    assert_eq!(cg(&x), (0, 0));
    assert_eq!(congruence(&x), Congruence::UNKNOWN);
    // 12·x: two trailing zeros of 12.
    assert_eq!(cg(&Expr::mul(c(12, 32), x.clone())), (0, 2));
    // (4x)·(2y + 1) ≡ 0 (mod 4); (4x + 2)·(4y + 2) ≡ 4 (mod 8).
    let y = var("y");
    let odd = Expr::add(c(1, 32), Expr::mul(c(2, 32), y.clone()));
    assert_eq!(cg(&Expr::mul(four_x.clone(), odd)), (0, 2));
    let four_y_2 = Expr::add(c(2, 32), Expr::mul(c(4, 32), y.clone()));
    assert_eq!(cg(&Expr::mul(plus.clone(), four_y_2)), (4, 3));
    // Widths: never more than the node's; zero extension keeps, low extract truncates.
    let x8 = Expr::extract(x.clone(), 0, 8);
    let t = Expr::mul(c(64, 8), x8.clone());
    assert_eq!(cg(&t), (0, 6));
    assert_eq!(cg(&Expr::zext(t.clone(), 64)), (0, 6));
    // Shifting out every bit folds to the constant 0.
    assert_eq!(cg(&Expr::shl(x8.clone(), c(8, 8))), (0, 8));
    assert_eq!(
        cg(&Expr::extract(Expr::shl(x.clone(), c(5, 32)), 0, 4)),
        (0, 4)
    );
    // A constant: its value, up to 64 bits.
    assert_eq!(cg(&c(13, 8)), (13, 8));
    assert_eq!(cg(&c(u128::MAX, 128)), (u64::MAX, 64));
}

#[test]
fn bitwise_operators_concatenation_and_if_then_else() {
    let x = var("x");
    let y = var("y");
    let four_x = Expr::mul(c(4, 32), x.clone());
    // A mask's low zero bits are zero in the result, whatever the other side.
    assert_eq!(cg(&Expr::and(c(0xF0, 32), x.clone())), (0, 4));
    // (4x + 1) & 0xFF: bit 0 is 1 & 1, bit 1 is 0 on the left.
    let four_x_1 = Expr::add(c(1, 32), four_x.clone());
    assert_eq!(cg(&Expr::and(c(0xFF, 32), four_x_1.clone())), (1, 2));
    // (4x) | 3 ≡ 3 (mod 4); then 0b100 | 4x is known at bit 2 too.
    assert_eq!(cg(&Expr::or(c(3, 32), four_x.clone())), (3, 2));
    assert_eq!(cg(&Expr::or(c(7, 32), four_x.clone())), (7, 3));
    assert_eq!(
        cg(&Expr::xor(c(1, 32), Expr::mul(c(8, 32), y.clone()))),
        (1, 3)
    );
    // concat(hi, lo): the low part's, extended by the high part's when the low part is
    // fully known.
    let x8 = Expr::extract(x.clone(), 0, 8);
    let low_known = Expr::concat(Expr::mul(c(2, 8), x8.clone()), c(0x34, 8));
    assert_eq!(cg(&low_known), (0x34, 9));
    let y8 = Expr::extract(y.clone(), 0, 8);
    assert_eq!(
        cg(&Expr::concat(x8.clone(), Expr::mul(c(4, 8), y8.clone()))),
        (0, 2)
    );
    // ite: the low bits both arms agree on.
    let cond = Expr::ult(x.clone(), y.clone());
    assert_eq!(cg(&Expr::select(cond.clone(), c(4, 32), c(12, 32))), (4, 3));
    assert_eq!(
        cg(&Expr::select(cond.clone(), four_x.clone(), c(8, 32))),
        (0, 2)
    );
    assert_eq!(cg(&Expr::select(cond, c(1, 32), c(2, 32))), (0, 0));
    // Division and reads say nothing.
    assert_eq!(cg(&Expr::udiv(four_x, c(2, 32))), (0, 0));
}

#[test]
fn residues_modulo_access_sizes() {
    let x = var("x");
    let mut r = Congruences::new();
    let t = Expr::add(c(5, 32), Expr::mul(c(4, 32), x.clone()));
    assert_eq!(r.residue(&t, 1), Some(0));
    assert_eq!(r.residue(&t, 2), Some(1));
    assert_eq!(r.residue(&t, 4), Some(1));
    assert_eq!(r.residue(&t, 8), None);
    assert_eq!(r.residue(&x, 2), None);
    assert_eq!(r.residue(&x, 1), Some(0));
    // A constant's residue is its value's, even beyond its width.
    assert_eq!(r.residue(&c(13, 8), 512), Some(13));
    // The memo answers later queries over shared subterms the same way.
    let u = Expr::add(c(2, 32), t.clone());
    assert_eq!(r.residue(&u, 4), Some(3));
    assert_eq!(r.of(&t), congruence(&t));
    // An 8-bit term has no residue modulo 512.
    let x8 = Expr::extract(x, 0, 8);
    assert_eq!(r.residue(&Expr::mul(c(4, 8), x8), 512), None);
}

/// A random index-like term of `width` bits over `leaves`: sums, products and shifts by
/// constants with many trailing zeros, masks, extensions and if-then-else.
fn term(rng: &mut Rng, leaves: &[Expr], width: u32, depth: u32) -> Expr {
    let constant = |rng: &mut Rng| {
        let v = rng.next_u128() >> rng.below(128);
        c(v << rng.below(6), width)
    };
    if depth == 0 || rng.chance(20) {
        return if rng.chance(40) {
            constant(rng)
        } else {
            let l = rng.pick(leaves).clone();
            Expr::zext_or_trunc(l, width)
        };
    }
    let sub = |rng: &mut Rng| term(rng, leaves, width, depth - 1);
    match rng.below(12) {
        0 | 1 => Expr::add(sub(rng), sub(rng)),
        2 => Expr::sub(sub(rng), sub(rng)),
        3 | 4 => Expr::mul(sub(rng), sub(rng)),
        5 => Expr::shl(sub(rng), c(rng.below(width as u64 + 2) as u128, width)),
        6 => Expr::and(sub(rng), sub(rng)),
        7 => Expr::or(sub(rng), sub(rng)),
        8 => Expr::xor(sub(rng), sub(rng)),
        9 => {
            let (a, b) = (sub(rng), sub(rng));
            Expr::select(Expr::ult(a.clone(), b.clone()), a, b)
        }
        10 if width > 8 => {
            let half = width / 2;
            let hi = term(rng, leaves, half, depth - 1);
            let lo = term(rng, leaves, width - half, depth - 1);
            Expr::concat(hi, lo)
        }
        _ => {
            let narrow = term(rng, leaves, 8, depth - 1);
            if rng.chance(50) {
                Expr::zext(narrow, width.max(8))
            } else {
                Expr::sext(narrow, width.max(8))
            }
        }
    }
}

fn check_sound(seed: u64) -> Result<(), TestCaseError> {
    let mut rng = Rng::new(seed);
    let arrays: Vec<ArrayRef> = (0..3)
        .map(|i| Array::new(format!("a{i}"), 4, ArrayKind::SymbolicInput, None))
        .collect();
    let leaves: Vec<Expr> = arrays
        .iter()
        .map(|a| Expr::read_lsb(&UpdateList::new(a.clone()), c(0, 32), 4))
        .collect();
    let width = *rng.pick(&[8u32, 16, 32, 64]);
    let t = term(&mut rng, &leaves, width, 5);
    let mut memo = Congruences::new();
    let mut nodes = Vec::new();
    for_each_node([&t], |n| nodes.push((n.clone(), memo.of(n))));
    for _ in 0..16 {
        let model = random_assignment(&mut rng, &arrays);
        for (n, k) in &nodes {
            prop_assert!(k.bits <= n.width().min(64), "{n}: {k:?}");
            let v = model.evaluate(n) as u64;
            prop_assert!(k.allows(v), "{n} = {v} under {model:?}, claimed {k:?}");
            // A fresh analysis agrees with the memoised one.
            prop_assert_eq!(congruence(n), *k);
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: common::cases(512), ..ProptestConfig::default() })]

    #[test]
    fn claimed_congruences_hold_under_evaluation(seed in any::<u64>()) {
        check_sound(seed)?;
    }
}

#[test]
fn the_random_terms_do_claim_congruences() {
    // Guards the property test against vacuity: a good share of the generated terms must
    // have a non-trivial congruence.
    let mut claimed = 0;
    for seed in 0..200 {
        let mut rng = Rng::new(seed);
        let a = Array::new("a", 4, ArrayKind::SymbolicInput, None);
        let leaves = [Expr::read_lsb(&UpdateList::new(a), c(0, 32), 4)];
        let t = term(&mut rng, &leaves, 32, 5);
        claimed += (!t.is_constant() && congruence(&t).bits > 0) as u32;
    }
    assert!(
        claimed >= 40,
        "only {claimed} of 200 terms claim a congruence"
    );
}
