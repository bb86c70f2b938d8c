//! The condition hash of pattern discovery (spec 003 §5.3): the structural hash with every
//! constant mapped to one value, so `n > 0` and `n > 1` (or `s[0] = 97` and `s[1] = 97`)
//! hash alike while a condition and its negation do not; the operands of commutative
//! operators hash in any order. Path hashes are the sequences of
//! the condition hashes on the way from a context's root to a leaf.

use std::hash::{Hash, Hasher};

use rustc_hash::{FxHashMap, FxHasher};
use sear_expr::{Expr, ExprKind};

use crate::loop_merge::tree::{ExecTree, NodeId};

/// The hash every constant gets.
const CONSTANT: u64 = 0x5ea1_c0de_0000_0001;

/// The condition hash, memoised over a DAG.
#[derive(Default)]
pub struct ConditionHash {
    memo: FxHashMap<Expr, u64>,
}

impl ConditionHash {
    /// The hash of `e`.
    pub fn of(&mut self, e: &Expr) -> u64 {
        let mut stack = vec![(e.clone(), false)];
        while let Some((x, ready)) = stack.pop() {
            if self.memo.contains_key(&x) {
                continue;
            }
            let kids = children(&x);
            if !ready {
                stack.push((x, true));
                for c in kids {
                    if !self.memo.contains_key(&c) {
                        stack.push((c, false));
                    }
                }
                continue;
            }
            let mut h = FxHasher::default();
            x.width().hash(&mut h);
            std::mem::discriminant(x.kind()).hash(&mut h);
            match x.kind() {
                ExprKind::Constant(_) => CONSTANT.hash(&mut h),
                ExprKind::Read { updates, .. } => updates.root().id().hash(&mut h),
                ExprKind::Extract { offset, .. } => offset.hash(&mut h),
                ExprKind::Binary { op, .. } => op.hash(&mut h),
                ExprKind::Cmp { op, .. } => op.hash(&mut h),
                ExprKind::Var(id) => id.hash(&mut h),
                _ => {}
            }
            let mut hashes: Vec<u64> = kids.iter().map(|c| self.memo[c]).collect();
            // The builder orders the operands of commutative operators by their own hash,
            // constants included, so instances of one condition may come in either order
            // (`synth` aligns them the same way).
            if super::synth::commutative(&x) {
                hashes.sort_unstable();
            }
            hashes.hash(&mut h);
            let v = h.finish();
            self.memo.insert(x, v);
        }
        self.memo[e]
    }

    /// The path hash of `leaf` in `tree`: its fork conditions' hashes, root's left out.
    pub fn path(&mut self, tree: &ExecTree, leaf: NodeId) -> Vec<u64> {
        tree.path_conditions(leaf)
            .iter()
            .map(|c| self.of(c))
            .collect()
    }

    /// True when the sibling conditions above every node of `leaves` hash differently
    /// (the hash is *valid* for the tree: path hashes identify paths).
    pub fn valid_for(&mut self, tree: &ExecTree, leaves: &[NodeId]) -> bool {
        for &leaf in leaves {
            let mut at = leaf;
            while let Some(parent) = tree.node(at).parent {
                if let Some((l, r)) = tree.node(parent).children {
                    let (cl, cr) = (tree.node(l).cond.clone(), tree.node(r).cond.clone());
                    if self.of(&cl) == self.of(&cr) {
                        return false;
                    }
                }
                at = parent;
            }
        }
        true
    }
}

/// The children the hash covers: the expression's, and the writes of a read's update list.
fn children(e: &Expr) -> Vec<Expr> {
    let mut out = e.children();
    if let ExprKind::Read { updates, .. } = e.kind() {
        for w in updates.iter() {
            out.push(w.index().clone());
            out.push(w.value().clone());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use sear_expr::{Array, ArrayKind, UpdateList};

    #[test]
    fn constants_hash_alike_and_negation_differs() {
        let s = UpdateList::new(Array::new("s", 8, ArrayKind::SymbolicInput, None));
        let n = Expr::read_lsb(
            &UpdateList::new(Array::new("n", 4, ArrayKind::SymbolicInput, None)),
            Expr::constant(0, 32),
            4,
        );
        let mut h = ConditionHash::default();
        let g = |k: u128| Expr::ult(Expr::constant(k, 32), n.clone());
        let b = |k: u128| Expr::eq(Expr::constant(97, 8), Expr::read(&s, Expr::constant(k, 32)));
        // (0 < n is built as n ≠ 0, a condition of another shape.)
        assert_eq!(h.of(&g(1)), h.of(&g(5)));
        assert_eq!(h.of(&b(0)), h.of(&b(2)));
        assert_ne!(h.of(&g(0)), h.of(&b(0)));
        assert_ne!(h.of(&b(1)), h.of(&Expr::not(b(1))));
        assert_ne!(h.of(&g(1)), h.of(&Expr::not(g(1))));
    }
}
