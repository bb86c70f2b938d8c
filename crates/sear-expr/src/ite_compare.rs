//! Comparisons of an `ite` tree with constant leaves against a constant, built as a formula
//! over the tree's conditions.
//!
//! A variable a merged loop sets on one side only is an `ite` chain as deep as the loop: after
//! `for (i = 0; i < n; i++) if (p[i] != g[i]) result = 0;` with `result = 1` before it,
//! `result` is `ite(p[n-1] = g[n-1], ite(…ite(p[0] = g[0], 1, 0)…), 0)`. A branch on it
//! compares it with a constant, and the comparison of each leaf with the constant folds:
//!
//! ```text
//! op(ite(c, a, b), k)  =  ite(c, op(a, k), op(b, k))          (k a constant)
//! ```
//!
//! applied down to every leaf (all constants), so the branches of the rebuilt `ite` are the
//! constants `true` and `false` or formulas, and the builder's `ite` rules make it a
//! formula: `ite(c, x, false)` is `c ∧ x`, `ite(c, true, x)` is `c ∨ x`. `result != 0` above
//! is `p[n-1] = g[n-1] ∧ … ∧ p[0] = g[0]`: a path that takes its true side stores the
//! conjuncts, which decide each later `p[x] == g[x]` without a query, and its false side
//! asks for a disjunction of inequalities instead of the chain's arithmetic.
//!
//! **Soundness.** The rule is an identity over bit-vectors (whichever way `c` goes, both
//! sides are the same comparison of the same branch), applied to every node of the tree: the
//! formula equals the comparison under every assignment.
//!
//! **Bound.** The tree is walked iteratively (a chain 10^5 deep is no recursion), each
//! distinct `ite` node once, and each gives one node of the formula (and at most a negation):
//! the formula is no larger than the tree. Whether a node is such a tree is recorded when it
//! is made ([`Expr::is_constant_ite_tree`], O(1)). The rewritten nodes are kept in a
//! per-thread cache of at most [`CACHE_MAX`] entries (emptied when full), so that a chain
//! compared again after one more level costs that level, not the chain.
//!
//! A zero or sign extension of such a tree is built the same way, as the tree of the extended
//! leaves (`ext(ite(c, a, b)) = ite(c, ext(a), ext(b))`), so that a flag the program keeps
//! in a byte and widens stays a tree with constant leaves.
//!
//! The one-level cases (both branches constants) are [`crate::ite_lift`]'s second and third
//! rules; this generalises them to any depth. Switch: [`set_enabled`] (`--no-ite-compare` in the
//! CLI); counters: [`rewritten`], [`nodes`].

use std::cell::RefCell;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use rustc_hash::FxHashMap;

use crate::expr::{CmpOp, Expr, ExprKind};

static ENABLED: AtomicBool = AtomicBool::new(true);
static REWRITTEN: AtomicU64 = AtomicU64::new(0);
static NODES: AtomicU64 = AtomicU64::new(0);

/// The most rewritten nodes the per-thread cache keeps (it is emptied when a rewrite would
/// exceed it).
pub const CACHE_MAX: usize = 1 << 18;

/// What a cached rewrite did to the tree's leaves.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum Tag {
    /// Compared them with the key's constant, the tree on the left or the right.
    Cmp(CmpOp, bool),
    /// Zero-extended them to this width.
    ZExt(u32),
    /// Sign-extended them to this width.
    SExt(u32),
}

/// A cache key: the rewrite, its constant (the comparison's), the node.
type Key = (Tag, Expr, Expr);

thread_local! {
    static CACHE: RefCell<FxHashMap<Key, Expr>> = RefCell::new(FxHashMap::default());
}

/// Turns the rewrite on or off for every comparison built from now on (process-wide; on by
/// default).
pub fn set_enabled(on: bool) {
    ENABLED.store(on, Ordering::Relaxed);
}

/// Whether the builder rewrites comparisons of `ite` trees with constants.
pub fn enabled() -> bool {
    ENABLED.load(Ordering::Relaxed)
}

/// Comparisons built as a formula since the process started.
pub fn rewritten() -> u64 {
    REWRITTEN.load(Ordering::Relaxed)
}

/// `ite` nodes rewritten (not found in the cache) since the process started: the work.
pub fn nodes() -> u64 {
    NODES.load(Ordering::Relaxed)
}

/// `ext(tree)` for an `ite` tree with constant leaves: the tree with each leaf extended
/// (`ext(ite(c, a, b)) = ite(c, ext(a), ext(b))`, down to the leaves, iteratively), so that
/// it stays a tree with constant leaves; `None` when `tree` is not one or the rewrite is off.
/// `sign` picks a sign extension, else a zero extension, to `width` bits.
pub(crate) fn extend(tree: &Expr, width: u32, sign: bool) -> Option<Expr> {
    if !tree.is_constant_ite_tree() || !enabled() {
        return None;
    }
    let tag = if sign {
        Tag::SExt(width)
    } else {
        Tag::ZExt(width)
    };
    let k = Expr::constant(0, 1);
    Some(rebuild(tree, tag, &k, |leaf| {
        if sign {
            Expr::sext(leaf.clone(), width)
        } else {
            Expr::zext(leaf.clone(), width)
        }
    }))
}

/// `op(lhs, rhs)` as a formula over the conditions of an `ite` tree with constant leaves,
/// when one operand is such a tree and the other a constant; `None` otherwise.
pub(crate) fn compare(op: CmpOp, lhs: &Expr, rhs: &Expr) -> Option<Expr> {
    let (tree, k, tree_left) = if lhs.is_constant_ite_tree() && rhs.is_constant() {
        (lhs, rhs, true)
    } else if rhs.is_constant_ite_tree() && lhs.is_constant() {
        (rhs, lhs, false)
    } else {
        return None;
    };
    if !enabled() {
        return None;
    }
    let result = rebuild(tree, Tag::Cmp(op, tree_left), k, |value| {
        if tree_left {
            Expr::cmp(op, value.clone(), k.clone())
        } else {
            Expr::cmp(op, k.clone(), value.clone())
        }
    });
    REWRITTEN.fetch_add(1, Ordering::Relaxed);
    Some(result)
}

/// `tree` with every leaf `l` replaced by `leaf(l)` and rebuilt through [`Expr::select`]:
/// a post-order walk over its distinct `ite` nodes with an explicit stack, each rewritten
/// node cached under `(tag, k, node)`.
fn rebuild(tree: &Expr, tag: Tag, k: &Expr, leaf: impl Fn(&Expr) -> Expr) -> Expr {
    let key = |node: &Expr| (tag, k.clone(), node.clone());
    let cached = |node: &Expr| CACHE.with(|c| c.borrow().get(&key(node)).cloned());
    if let Some(done) = cached(tree) {
        return done;
    }
    let mut memo: FxHashMap<Expr, Expr> = FxHashMap::default();
    let mut stack: Vec<(Expr, bool)> = vec![(tree.clone(), false)];
    while let Some((node, children_done)) = stack.pop() {
        if memo.contains_key(&node) {
            continue;
        }
        let ExprKind::Select {
            cond,
            then_expr,
            else_expr,
        } = node.kind()
        else {
            unreachable!("an ite tree's inner node is an ite");
        };
        if !children_done {
            if let Some(done) = cached(&node) {
                memo.insert(node, done);
                continue;
            }
            stack.push((node.clone(), true));
            for branch in [then_expr, else_expr] {
                if !branch.is_constant() && !memo.contains_key(branch) {
                    stack.push((branch.clone(), false));
                }
            }
            continue;
        }
        let side = |branch: &Expr| {
            if branch.is_constant() {
                leaf(branch)
            } else {
                memo[branch].clone()
            }
        };
        let rebuilt = Expr::select(cond.clone(), side(then_expr), side(else_expr));
        NODES.fetch_add(1, Ordering::Relaxed);
        memo.insert(node, rebuilt);
    }
    let result = memo[tree].clone();
    CACHE.with(|c| {
        let mut cache = c.borrow_mut();
        if cache.len() + memo.len() > CACHE_MAX {
            cache.clear();
        }
        if memo.len() <= CACHE_MAX {
            for (node, rebuilt) in memo {
                cache.insert(key(&node), rebuilt);
            }
        } else {
            cache.insert(key(tree), result.clone());
        }
    });
    result
}
