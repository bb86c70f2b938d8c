//! The read constructors and their policy: `Expr::read` folds, `Expr::read_unfolded` builds
//! stock reads, the choice is an argument (never a state), substitutions follow the policy
//! they are given, and constant-root folds are counted process-wide.
//!
//! The fold counter is global, so every test of this binary that builds reads of constant
//! roots holds `SERIAL`, and the counting test sees exactly its own folds.

use std::sync::{Arc, Mutex};

use rustc_hash::FxHashMap;
use sear_expr::reads::folds;
use sear_expr::visit::{substitute, substitute_with};
use sear_expr::{Array, ArrayKind, ArrayRef, Assignment, Expr, ExprKind, ReadPolicy, UpdateList};

static SERIAL: Mutex<()> = Mutex::new(());

fn table(name: &str, bytes: &[u8]) -> UpdateList {
    UpdateList::new(Array::new(
        name,
        bytes.len() as u64,
        ArrayKind::MemoryObject,
        Some(Arc::from(bytes)),
    ))
}

fn byte_var(name: &str) -> (ArrayRef, Expr) {
    let a = Array::new(name, 1, ArrayKind::SymbolicInput, None);
    let v = Expr::read(&UpdateList::new(a.clone()), Expr::constant(0, 32));
    (a, v)
}

fn c(v: u128, w: u32) -> Expr {
    Expr::constant(v, w)
}

fn list_len(e: &Expr) -> Option<usize> {
    match e.kind() {
        ExprKind::Read { updates, .. } => Some(updates.len()),
        _ => None,
    }
}

#[test]
fn constant_root_folds_are_counted_and_unfolded_reads_are_not() {
    let _g = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let t = table("T", &[10, 20, 30, 40]);
    let before = folds();
    assert_eq!(Expr::read(&t, c(2, 32)).as_constant(), Some(30));
    assert_eq!(ReadPolicy::Fold.read(&t, c(3, 32)).as_constant(), Some(40));
    assert_eq!(folds(), before + 2);
    // Out of bounds: no fold, no count.
    assert!(Expr::read(&t, c(4, 32)).as_constant().is_none());
    // Stock reads never fold a constant root, so they count nothing.
    let r = ReadPolicy::Unfolded.read(&t, c(2, 32));
    assert!(r.as_constant().is_none());
    assert_eq!(Assignment::new().evaluate(&r), 30);
    assert_eq!(folds(), before + 2);
    // A hit on a write is not a constant-root fold.
    let w = t.write(c(1, 32), c(99, 8));
    assert_eq!(Expr::read(&w, c(1, 32)).as_constant(), Some(99));
    assert_eq!(folds(), before + 2);
}

#[test]
fn the_policy_is_an_argument_and_the_same_inputs_give_the_same_read() {
    let _g = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let (_, s) = byte_var("s");
    // B[1] = s, then B[2] = 7: a read at 3 skips both writes.
    let b = table("B", &[1, 2, 3, 4])
        .write(c(1, 32), s.clone())
        .write(c(2, 32), c(7, 8));
    let folded = Expr::read(&b, c(3, 32));
    let stock = Expr::read_unfolded(&b, c(3, 32));
    assert_eq!(folded.as_constant(), Some(4));
    assert_eq!(list_len(&stock), Some(2));
    // Interleaving the two changes neither.
    assert_eq!(Expr::read(&b, c(3, 32)), folded);
    assert_eq!(Expr::read_unfolded(&b, c(3, 32)), stock);
    assert_eq!(ReadPolicy::from_folding(true), ReadPolicy::Fold);
    assert_eq!(ReadPolicy::from_folding(false), ReadPolicy::Unfolded);
    // Both constructors return a provably equal write's value.
    assert_eq!(Expr::read_unfolded(&b, c(1, 32)), s);
    assert_eq!(Expr::read(&b, c(1, 32)), s);
    // A write that may alias stops both walks; folding trims the writes skipped before it,
    // stock reads keep them.
    let (ka, k) = byte_var("k");
    let (va, v) = byte_var("v");
    let listed = UpdateList::new(Array::new("in", 8, ArrayKind::SymbolicInput, None))
        .write(Expr::zext(k, 32), v)
        .write(c(2, 32), c(7, 8));
    assert_eq!(list_len(&Expr::read(&listed, c(3, 32))), Some(1));
    let stock = Expr::read_unfolded(&listed, c(3, 32));
    assert_eq!(list_len(&stock), Some(2));
    let mut m = Assignment::new();
    m.insert(ka, vec![3]);
    m.insert(va, vec![9]);
    assert_eq!(
        m.evaluate(&stock),
        m.evaluate(&Expr::read(&listed, c(3, 32)))
    );
}

#[test]
fn little_endian_reads_follow_the_policy_byte_by_byte() {
    let _g = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let t = table("W", &[0x78, 0x56, 0x34, 0x12]);
    assert_eq!(
        ReadPolicy::Fold.read_lsb(&t, c(0, 32), 4).as_constant(),
        Some(0x1234_5678)
    );
    assert_eq!(
        Expr::read_lsb(&t, c(0, 32), 4).as_constant(),
        Some(0x1234_5678)
    );
    let stock = ReadPolicy::Unfolded.read_lsb(&t, c(0, 32), 4);
    assert!(stock.as_constant().is_none());
    assert_eq!(stock.width(), 32);
    assert_eq!(Assignment::new().evaluate(&stock), 0x1234_5678);
}

#[test]
fn substitutions_rebuild_reads_under_the_given_policy() {
    let _g = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let (_, x) = byte_var("x");
    let (_, s) = byte_var("s");
    let b = table("S", &[1, 2, 3, 4]).write(c(1, 32), s);
    let read = Expr::read(&b, Expr::zext(x.clone(), 32));
    let mut map = FxHashMap::default();
    map.insert(x, c(3, 8));
    // x := 3: a folding rebuild reaches the constant root, a stock one keeps the read.
    assert_eq!(substitute(&read, &map).as_constant(), Some(4));
    assert_eq!(
        substitute_with(&read, &map, ReadPolicy::Fold).as_constant(),
        Some(4)
    );
    let stock = substitute_with(&read, &map, ReadPolicy::Unfolded);
    assert_eq!(list_len(&stock), Some(1));
    assert_eq!(Assignment::new().evaluate(&stock), 4);
}
