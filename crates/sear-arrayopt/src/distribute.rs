//! Offsets that take few values: constant folding through if-then-else.
//!
//! After an inner read was rewritten by the value-based transformation, the offset of an
//! outer read is often an if-then-else tree with constant leaves (`next[base + T]` with `T`
//! the class table's ITE), possibly under arithmetic with constants or combined with another
//! such tree. Guarding the outer table's values with range tests on that arithmetic gives the
//! solver multiplications and comparisons of nested ITEs. Instead, [`distribute`] rewrites
//! the offset into one ITE tree with constant leaves (the same guards, arithmetic folded at
//! every leaf), and the outer read becomes that tree with each leaf offset folded to its
//! element: a read at a constant offset is just constant folding.

use rustc_hash::{FxHashMap, FxHashSet};
use sear_expr::expr::{Expr, ExprKind};
use sear_expr::fold::{fold_binary, fold_cmp, fold_concat, fold_extract, fold_not};

/// The most leaves a distributed tree may have.
pub const MAX_LEAVES: usize = 1024;

/// The deepest offset expression considered (the recursion below follows its depth).
const MAX_DEPTH: u32 = 1500;

/// An ITE tree with constant leaves equal to `e`, or `None` when `e` is not built from
/// if-then-else, constants and operators over them, or the tree would exceed `max_leaves`
/// leaves. A plain constant is not a tree (nothing to distribute).
pub fn distribute(e: &Expr, max_leaves: usize) -> Option<Expr> {
    if e.depth() > MAX_DEPTH || !has_select_only_leaves(e) {
        return None;
    }
    let mut memo: FxHashMap<Expr, (Expr, usize)> = FxHashMap::default();
    Some(tree(e, max_leaves, &mut memo)?.0)
}

/// Maps every leaf of the constant-leaf tree `t` through `f`.
///
/// A boolean (width-1) tree with two different leaves is not kept as a tree: the builder
/// folds `ite(c, 1, 0)` into `c` (and mixed arms into `and`/`or`). Such a node takes the
/// values 1 and 0 only, so it maps to `ite(node, f(1), f(0))`.
pub fn map_leaves(t: &Expr, f: &mut dyn FnMut(u128) -> Expr) -> Expr {
    let mut memo: FxHashMap<Expr, Expr> = FxHashMap::default();
    map_rec(t, f, &mut memo)
}

fn map_rec(t: &Expr, f: &mut dyn FnMut(u128) -> Expr, memo: &mut FxHashMap<Expr, Expr>) -> Expr {
    if let Some(r) = memo.get(t) {
        return r.clone();
    }
    let r = match t.kind() {
        ExprKind::Constant(c) => f(*c),
        ExprKind::Select {
            cond,
            then_expr,
            else_expr,
        } => {
            let a = map_rec(then_expr, f, memo);
            let b = map_rec(else_expr, f, memo);
            Expr::select(cond.clone(), a, b)
        }
        _ if t.is_bool() => {
            let (a, b) = (f(1), f(0));
            Expr::select(t.clone(), a, b)
        }
        _ => unreachable!("map_leaves on a non-tree"),
    };
    memo.insert(t.clone(), r.clone());
    r
}

/// True if `e` contains an if-then-else and, outside the conditions of its if-then-else
/// nodes, no read (so its values come from constants only).
fn has_select_only_leaves(e: &Expr) -> bool {
    let mut seen: FxHashSet<Expr> = FxHashSet::default();
    let mut stack = vec![e.clone()];
    let mut select = false;
    while let Some(x) = stack.pop() {
        if x.is_constant() || !seen.insert(x.clone()) {
            continue;
        }
        match x.kind() {
            ExprKind::Read { .. } => return false,
            ExprKind::Select {
                then_expr,
                else_expr,
                ..
            } => {
                select = true;
                stack.push(then_expr.clone());
                stack.push(else_expr.clone());
            }
            _ => stack.extend(x.children()),
        }
    }
    select
}

/// The number of leaves of the tree (shared subtrees counted once per use; a boolean
/// folded out of a tree, see [`map_leaves`], has two).
fn leaves(t: &Expr) -> usize {
    fn count(t: &Expr, memo: &mut FxHashMap<Expr, usize>) -> usize {
        if let ExprKind::Select {
            then_expr,
            else_expr,
            ..
        } = t.kind()
        {
            if let Some(n) = memo.get(t) {
                return *n;
            }
            let n = count(then_expr, memo).saturating_add(count(else_expr, memo));
            memo.insert(t.clone(), n);
            n
        } else if t.is_bool() && !t.is_constant() {
            2
        } else {
            1
        }
    }
    count(t, &mut FxHashMap::default())
}

/// `e` as a tree with its leaf count.
fn tree(e: &Expr, max: usize, memo: &mut FxHashMap<Expr, (Expr, usize)>) -> Option<(Expr, usize)> {
    if let Some(r) = memo.get(e) {
        return Some(r.clone());
    }
    let w = e.width();
    let r = match e.kind() {
        ExprKind::Constant(_) => (e.clone(), 1),
        ExprKind::Select {
            cond,
            then_expr,
            else_expr,
        } => {
            let (a, na) = tree(then_expr, max, memo)?;
            let (b, nb) = tree(else_expr, max, memo)?;
            if na + nb > max {
                return None;
            }
            let t = Expr::select(cond.clone(), a, b);
            let n = leaves(&t);
            (t, n)
        }
        ExprKind::ZExt(x) => unary(x, w, max, memo, &|c| c)?,
        ExprKind::SExt(x) => {
            let from = x.width();
            unary(x, w, max, memo, &|c| sear_expr::bits::sext(c, from, w))?
        }
        ExprKind::Not(x) => unary(x, w, max, memo, &|c| fold_not(c, w))?,
        ExprKind::Extract { expr, offset } => {
            let o = *offset;
            unary(expr, w, max, memo, &|c| fold_extract(c, o, w))?
        }
        ExprKind::Binary { op, lhs, rhs } => {
            let op = *op;
            binary(lhs, rhs, w, max, memo, &|a, b| fold_binary(op, w, a, b))?
        }
        ExprKind::Cmp { op, lhs, rhs } => {
            let (op, lw) = (*op, lhs.width());
            binary(lhs, rhs, w, max, memo, &|a, b| {
                fold_cmp(op, lw, a, b) as u128
            })?
        }
        ExprKind::Concat { hi, lo } => {
            let lw = lo.width();
            binary(hi, lo, w, max, memo, &|a, b| fold_concat(a, b, lw))?
        }
        ExprKind::Read { .. }
        | ExprKind::Var(_)
        | ExprKind::Forall { .. }
        | ExprKind::Fp { .. } => return None,
    };
    memo.insert(e.clone(), r.clone());
    Some(r)
}

/// `f` applied at every leaf of `x`'s tree, giving `w`-bit constants.
fn unary(
    x: &Expr,
    w: u32,
    max: usize,
    memo: &mut FxHashMap<Expr, (Expr, usize)>,
    f: &dyn Fn(u128) -> u128,
) -> Option<(Expr, usize)> {
    let (t, _) = tree(x, max, memo)?;
    let t = map_leaves(&t, &mut |c| Expr::constant(f(c), w));
    let n = leaves(&t);
    Some((t, n))
}

/// `f` applied at every pair of leaves of the trees of `a` and `b` (the tree of `b` hangs
/// under every leaf of the tree of `a`).
fn binary(
    a: &Expr,
    b: &Expr,
    w: u32,
    max: usize,
    memo: &mut FxHashMap<Expr, (Expr, usize)>,
    f: &dyn Fn(u128, u128) -> u128,
) -> Option<(Expr, usize)> {
    let (ta, na) = tree(a, max, memo)?;
    let (tb, nb) = tree(b, max, memo)?;
    if na.saturating_mul(nb) > max {
        return None;
    }
    let t = map_leaves(&ta, &mut |ca| {
        map_leaves(&tb, &mut |cb| Expr::constant(f(ca, cb), w))
    });
    let n = leaves(&t);
    Some((t, n))
}
