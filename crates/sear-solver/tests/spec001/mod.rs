//! Queries of spec 001's worked examples, built as the engine builds them: `int` variables as
//! little-endian reads of 4-byte input arrays, `a[i]` as a 4-byte read of the flushed
//! constant array at offsets `4·i + k`, `klee_assume(0 <= i & i < n)` as clang emits it.

#![allow(dead_code)]

use std::collections::BTreeMap;
use std::sync::Arc;

use sear_expr::{Array, ArrayKind, ArrayRef, Expr, UpdateList};

/// An `int` input: its array and its value.
pub fn int_var(name: &str) -> (ArrayRef, Expr) {
    let a = Array::new(name, 4, ArrayKind::SymbolicInput, None);
    let e = Expr::read_lsb(&UpdateList::new(a.clone()), Expr::constant(0, 32), 4);
    (a, e)
}

/// A 32-bit constant.
pub fn c32(v: u128) -> Expr {
    Expr::constant(v, 32)
}

/// `0 <= x & x < n`.
pub fn assume_range(x: &Expr, n: u128) -> Expr {
    let ge0 = Expr::zext(Expr::sle(c32(0), x.clone()), 32);
    let lt = Expr::zext(Expr::slt(x.clone(), c32(n)), 32);
    Expr::not(Expr::eq(c32(0), Expr::and(ge0, lt)))
}

/// A constant `int` array.
pub fn int_array(name: &str, values: &[u32]) -> ArrayRef {
    let bytes: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
    let n = bytes.len() as u64;
    Array::new(name, n, ArrayKind::MemoryObject, Some(Arc::from(bytes)))
}

/// `a[x]` for an `int` array.
pub fn elem(a: &ArrayRef, x: &Expr) -> Expr {
    Expr::read_lsb(&UpdateList::new(a.clone()), Expr::mul(c32(4), x.clone()), 4)
}

/// The engine's in-bounds check of `&a[x]` for a 4-element `int` array.
pub fn in_bounds(x: &Expr, elems: u128) -> Expr {
    Expr::ule(
        Expr::mul(Expr::constant(4, 64), Expr::sext(x.clone(), 64)),
        Expr::constant(4 * (elems - 1), 64),
    )
}

/// The foo query of the bug branch for `a = {0, 0, 0, last}` (§3): constraints, the array,
/// and the `i`, `j` inputs.
pub fn foo_query(last: u32) -> (Vec<Expr>, ArrayRef, Expr, Expr) {
    let (_, i) = int_var("i");
    let (_, j) = int_var("j");
    let a = int_array("mo_a", &[0, 0, 0, last]);
    let cs = vec![
        assume_range(&i, 4),
        assume_range(&j, 4),
        Expr::slt(c32(4), Expr::add(j.clone(), i.clone())),
        in_bounds(&i, 4),
        in_bounds(&j, 4),
        Expr::slt(c32(10), Expr::add(elem(&a, &j), elem(&a, &i))),
    ];
    (cs, a, i, j)
}

/// The access sizes of an `int` array.
pub fn ints(a: &ArrayRef) -> BTreeMap<ArrayRef, u32> {
    let mut g = BTreeMap::new();
    g.insert(a.clone(), 4);
    g
}
