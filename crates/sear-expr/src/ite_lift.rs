//! `ite` lifting: an operator over `ite`s on one condition becomes an `ite` of the operator
//! over their branches.
//!
//! Merged states hold `ite`s on the merge's conditions: after loop-iteration merging a cell
//! is `ite(c, k, i)` (the side that wrote `k`, the side that kept `i`), a pointer one side
//! allocated `ite(c, &obj, 0)`, and a value read from memory is a concatenation of such
//! `ite`s, one per byte. Combining them keeps the condition apart from what it selects, so
//! that what both sides agree on folds away:
//!
//! ```text
//! op(ite(c, a, b), ite(c, d, e))  =  ite(c, op(a, d), op(b, e))    (same condition c)
//! op(ite(c, a, b), k)             =  ite(c, op(a, k), op(b, k))    (a, b, k constants)
//! ```
//!
//! for every binary operator, comparison and `concat` (both operand orders), and
//! `ext(ite(c, k, x)) = ite(c, ext(k), ext(x))` for a zero or sign extension of an `ite` with
//! a constant branch, so that
//! `concat(ite(c, x3, 0), …, ite(c, x0, 0))` is `ite(c, x, 0)`, `ite(c, x, 0) != 0` is `c`
//! (with the builder's `ite` rules) and `ite(c, k, i) == ite(c, k, i*i)` with `i` a constant
//! is `¬c ∨ k == i·i`... each without a query. Both are identities over bit-vectors (the
//! operators are total), so the lifted expression equals the original under every
//! assignment.
//!
//! **Bound.** The first rule replaces two `ite`s by one and duplicates no operand; the
//! second folds both new operations. Lifting inside a lift (the branches are `ite`s on one
//! condition again) is limited to [`MAX_DEPTH`] levels, so combining two `ite` chains as
//! deep as a loop costs at most that, never the chains' length.
//!
//! Switch: [`set_enabled`] (`--no-ite-lifting` in the CLI); counter: [`lifted`].

use std::cell::Cell;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use crate::expr::{Expr, ExprKind};

static ENABLED: AtomicBool = AtomicBool::new(true);
static LIFTED: AtomicU64 = AtomicU64::new(0);

/// The most nested lifts one operation may make (a lift whose new operations lift again).
pub const MAX_DEPTH: u32 = 4;

thread_local! {
    static DEPTH: Cell<u32> = const { Cell::new(0) };
}

/// Turns the lifting on or off for every expression built from now on (process-wide; on by
/// default).
pub fn set_enabled(on: bool) {
    ENABLED.store(on, Ordering::Relaxed);
}

/// Whether the builder lifts `ite`s.
pub fn enabled() -> bool {
    ENABLED.load(Ordering::Relaxed)
}

/// Operations answered by a lift since the process started.
pub fn lifted() -> u64 {
    LIFTED.load(Ordering::Relaxed)
}

/// The branches of `e` when it is an `ite`: (condition, then, else).
fn branches(e: &Expr) -> Option<(&Expr, &Expr, &Expr)> {
    match e.kind() {
        ExprKind::Select {
            cond,
            then_expr,
            else_expr,
        } => Some((cond, then_expr, else_expr)),
        _ => None,
    }
}

/// `build(lhs, rhs)` lifted over the `ite`s of `lhs` and `rhs` (see the module
/// documentation), or `None` when no rule applies. `build` is the operator's own
/// (simplifying) constructor.
pub(crate) fn lift(lhs: &Expr, rhs: &Expr, build: impl Fn(Expr, Expr) -> Expr) -> Option<Expr> {
    if !enabled() {
        return None;
    }
    let (cond, (a, d), (b, e)) = match (branches(lhs), branches(rhs)) {
        (Some((c1, a, b)), Some((c2, d, e))) if c1 == c2 => {
            (c1, (a.clone(), d.clone()), (b.clone(), e.clone()))
        }
        (Some((c, a, b)), None) if constants(&[a, b, rhs]) => {
            (c, (a.clone(), rhs.clone()), (b.clone(), rhs.clone()))
        }
        (None, Some((c, d, e))) if constants(&[d, e, lhs]) => {
            (c, (lhs.clone(), d.clone()), (lhs.clone(), e.clone()))
        }
        _ => return None,
    };
    let depth = DEPTH.with(|d| d.get());
    if depth >= MAX_DEPTH {
        return None;
    }
    DEPTH.with(|d| d.set(depth + 1));
    let then_expr = build(a, d);
    let else_expr = build(b, e);
    DEPTH.with(|d| d.set(depth));
    LIFTED.fetch_add(1, Ordering::Relaxed);
    Some(Expr::select(cond.clone(), then_expr, else_expr))
}

/// `build(e)` for a zero or sign extension `build`, lifted over `e` when it is an `ite`
/// with a constant branch (that branch folds): `ext(ite(c, k, x)) = ite(c, ext(k), ext(x))`.
/// A value read back from merged memory is the extension of such an `ite` (its high bytes
/// agreed), and lifting it lets it meet the other operand's `ite` on `c`.
pub(crate) fn lift_unary(e: &Expr, build: impl Fn(Expr) -> Expr) -> Option<Expr> {
    if !enabled() {
        return None;
    }
    let (cond, a, b) = branches(e)?;
    if !a.is_constant() && !b.is_constant() {
        return None;
    }
    let depth = DEPTH.with(|d| d.get());
    if depth >= MAX_DEPTH {
        return None;
    }
    DEPTH.with(|d| d.set(depth + 1));
    let then_expr = build(a.clone());
    let else_expr = build(b.clone());
    DEPTH.with(|d| d.set(depth));
    LIFTED.fetch_add(1, Ordering::Relaxed);
    Some(Expr::select(cond.clone(), then_expr, else_expr))
}

fn constants(items: &[&Expr]) -> bool {
    items.iter().all(|e| e.is_constant())
}
