//! The execution tree of a merging context (spec §1.2 and §4.4).
//!
//! The root stands for the state that opened the context, with condition `true`. When a
//! path of the context forks under `c`, its leaf gets two children: the new path's under
//! `c` (left) and the forking path's under `¬c` (right), so sibling conditions are
//! complementary. Leaves are the context's paths; the tree path condition of a leaf is the
//! conjunction of the conditions on the way to it.
//!
//! [`ExecTree::merge_conditions`] is Algorithm 5 (`merge-conditions-opt`): the disjunction
//! of the tree path conditions of a set of leaves, where a *complete* subtree (all of whose
//! leaves are in the set) collapses to its root's condition. [`ExecTree::merge_values`] is
//! Algorithm 6 (`merge-values-opt`): `ite(left.c, v_left, v_right)` at every node with
//! values on both sides, and the one available side passed through otherwise. Both are
//! linear in the size of the tree, independent of the order paths were explored, and
//! iterative (no recursion on deep trees).
//!
//! A leaf may carry *extra* constraints: ones its path added inside the context without a
//! fork (a concretisation, an assumption). They are conjoined to the leaf's condition, and
//! a leaf with extras is never complete, so the collapse stays exact.

use rustc_hash::FxHashMap;
use sear_expr::Expr;

use crate::state::StateId;

/// Identifies a node of an [`ExecTree`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct NodeId(pub u32);

/// One node: the condition of the fork that created it, and its children or its path.
#[derive(Clone, Debug)]
pub struct Node {
    /// The fork condition (`true` at the root).
    pub cond: Expr,
    /// The parent, except at the root.
    pub parent: Option<NodeId>,
    /// `(left, right)`: the new path's node (under `cond`) and the forking path's (`¬cond`).
    pub children: Option<(NodeId, NodeId)>,
    /// The path at a leaf.
    pub state: StateId,
    /// True when incremental merging took a region out of this node's subtree (the
    /// subtree's leaves no longer cover the node's condition): it never collapses.
    pub pruned: bool,
}

/// The execution tree of one merging context.
#[derive(Clone, Debug)]
pub struct ExecTree {
    pub(super) nodes: Vec<Node>,
}

/// Per leaf in a set: its extra constraints (none: `true`).
pub type Leaves = FxHashMap<NodeId, Expr>;

impl ExecTree {
    /// A tree whose root is the path `state`.
    pub fn new(state: StateId) -> Self {
        ExecTree {
            nodes: vec![Node {
                cond: Expr::true_(),
                parent: None,
                children: None,
                state,
                pruned: false,
            }],
        }
    }

    /// The root.
    pub fn root(&self) -> NodeId {
        NodeId(0)
    }

    /// The node `id`.
    pub fn node(&self, id: NodeId) -> &Node {
        &self.nodes[id.0 as usize]
    }

    /// Number of nodes.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Always false (the root exists).
    pub fn is_empty(&self) -> bool {
        false
    }

    /// The leaf `leaf` forks: the new path `child` under `cond` becomes its left child,
    /// the forking path `parent` (under `¬cond`) its right child. Returns both.
    pub fn split(
        &mut self,
        leaf: NodeId,
        cond: Expr,
        child: StateId,
        parent: StateId,
    ) -> (NodeId, NodeId) {
        debug_assert!(self.node(leaf).children.is_none(), "forks only at leaves");
        let left = NodeId(self.nodes.len() as u32);
        let right = NodeId(left.0 + 1);
        let negated = Expr::not(cond.clone());
        self.nodes.push(Node {
            cond,
            parent: Some(leaf),
            children: None,
            state: child,
            pruned: false,
        });
        self.nodes.push(Node {
            cond: negated,
            parent: Some(leaf),
            children: None,
            state: parent,
            pruned: false,
        });
        self.nodes[leaf.0 as usize].children = Some((left, right));
        (left, right)
    }

    /// Every fork condition of the tree.
    pub fn conditions(&self) -> impl Iterator<Item = &Expr> {
        self.nodes.iter().skip(1).map(|n| &n.cond)
    }

    /// The fork conditions from the root down to `node` (the root's `true` left out).
    pub fn path_conditions(&self, node: NodeId) -> Vec<Expr> {
        let mut out = Vec::new();
        let mut at = node;
        while let Some(parent) = self.node(at).parent {
            out.push(self.node(at).cond.clone());
            at = parent;
        }
        // Incremental merging may leave a condition at the root (`tree_merge`).
        if !self.node(at).cond.is_true() {
            out.push(self.node(at).cond.clone());
        }
        out.reverse();
        out
    }

    /// The nodes in post-order (children before their parent).
    fn post_order(&self) -> Vec<NodeId> {
        let mut out = Vec::with_capacity(self.nodes.len());
        let mut stack = vec![(self.root(), false)];
        while let Some((n, expanded)) = stack.pop() {
            match self.node(n).children {
                Some((l, r)) if !expanded => {
                    stack.push((n, true));
                    stack.push((r, false));
                    stack.push((l, false));
                }
                _ => out.push(n),
            }
        }
        out
    }

    /// Algorithm 5: the disjunction of the tree path conditions of `leaves` (each with its
    /// extras), with complete subtrees collapsed; `false` when `leaves` is empty.
    pub fn merge_conditions(&self, leaves: &Leaves) -> Expr {
        // Per node: (complete, φ), φ = None for "no leaf of the set below".
        let mut result: Vec<(bool, Option<Expr>)> = vec![(false, None); self.nodes.len()];
        for n in self.post_order() {
            let node = self.node(n);
            result[n.0 as usize] = match node.children {
                None => match leaves.get(&n) {
                    Some(extra) => (
                        extra.is_true(),
                        Some(Expr::and(node.cond.clone(), extra.clone())),
                    ),
                    None => (false, None),
                },
                Some((l, r)) => {
                    let (fl, pl) = result[l.0 as usize].clone();
                    let (fr, pr) = result[r.0 as usize].clone();
                    match (pl, pr) {
                        (None, None) => (false, None),
                        (Some(p), None) | (None, Some(p)) => {
                            (false, Some(Expr::and(node.cond.clone(), p)))
                        }
                        (Some(_), Some(_)) if fl && fr && !node.pruned => {
                            (true, Some(node.cond.clone()))
                        }
                        (Some(a), Some(b)) => {
                            (false, Some(Expr::and(node.cond.clone(), Expr::or(a, b))))
                        }
                    }
                }
            };
        }
        result[0].1.clone().unwrap_or_else(Expr::false_)
    }

    /// Algorithm 6: the merged value of the leaves in `values`: `ite(left.cond, v_l, v_r)`
    /// where both sides have one, the available side otherwise; `None` when `values` is
    /// empty.
    pub fn merge_values(&self, values: &FxHashMap<NodeId, Expr>) -> Option<Expr> {
        let mut result: Vec<Option<Expr>> = vec![None; self.nodes.len()];
        for n in self.post_order() {
            result[n.0 as usize] = match self.node(n).children {
                None => values.get(&n).cloned(),
                Some((l, r)) => match (result[l.0 as usize].take(), result[r.0 as usize].take()) {
                    (None, None) => None,
                    (Some(v), None) | (None, Some(v)) => Some(v),
                    (Some(a), Some(b)) if a == b => Some(a),
                    (Some(a), Some(b)) => Some(Expr::select(self.node(l).cond.clone(), a, b)),
                },
            };
        }
        result[0].take()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sear_expr::{Array, ArrayKind, UpdateList};

    fn var(name: &str) -> Expr {
        let a = Array::new(name, 8, ArrayKind::SymbolicInput, None);
        Expr::read_lsb(&UpdateList::new(a), Expr::constant(0, 32), 8)
    }

    /// The execution tree of Fig. 5.3 (capacity 3): forks on 0 < n, z = 0, 1 < n, z = 0,
    /// 2 < n, z = 0; leaves s1 (n ≤ 0), s3 (break), s5, s7 (n ≤ 1, n ≤ 2 after one and two
    /// iterations; their z = 0 siblings are unreachable after the first iteration's
    /// z ≠ 0, so they do not fork) and s8 (n > 2).
    fn fig_5_3() -> (ExecTree, [NodeId; 5], Expr, Expr) {
        let n = var("n");
        let z = var("z");
        let gt = |k: u128| Expr::ult(Expr::constant(k, 64), n.clone());
        let zero = Expr::eq(z.clone(), Expr::constant(0, 64));
        let mut t = ExecTree::new(StateId(0));
        // In sear, the new path is the loop's exit (the else side) and the forking path
        // continues: fork under ¬(0 < n).
        let (s1, body) = t.split(t.root(), Expr::not(gt(0)), StateId(1), StateId(0));
        let (s3, go) = t.split(body, zero.clone(), StateId(3), StateId(0));
        let (s5, body2) = t.split(go, Expr::not(gt(1)), StateId(5), StateId(0));
        let (s7, s8) = t.split(body2, Expr::not(gt(2)), StateId(7), StateId(0));
        (t, [s1, s3, s5, s7, s8], n, z)
    }

    #[test]
    fn complete_subtrees_collapse_as_in_section_4_4() {
        let (t, [s1, _s3, s5, s7, s8], n, z) = fig_5_3();
        let leaves: Leaves = [s1, s5, s7, s8]
            .into_iter()
            .map(|l| (l, Expr::true_()))
            .collect();
        let merged = t.merge_conditions(&leaves);
        // (n ≤ 0) ∨ (n > 0 ∧ z ≠ 0)
        let expected = Expr::or(
            Expr::not(Expr::ult(Expr::constant(0, 64), n.clone())),
            Expr::and(
                Expr::not(Expr::not(Expr::ult(Expr::constant(0, 64), n))),
                Expr::not(Expr::eq(z, Expr::constant(0, 64))),
            ),
        );
        assert_eq!(merged, expected);
        // Every leaf: the whole tree is complete.
        let mut all = leaves.clone();
        all.insert(_s3, Expr::true_());
        assert!(t.merge_conditions(&all).is_true());
        // A leaf with an extra constraint is not complete.
        let mut extra = all.clone();
        let x = Expr::eq(var("w"), Expr::constant(1, 64));
        extra.insert(s8, x);
        assert!(!t.merge_conditions(&extra).is_true());
    }

    #[test]
    fn values_take_the_left_condition_and_pass_single_sides() {
        let (t, [s1, s3, s5, s7, s8], n, _) = fig_5_3();
        let c = |k: u128| Expr::constant(k, 8);
        let values: FxHashMap<NodeId, Expr> = [(s1, c(1)), (s5, c(5)), (s7, c(7)), (s8, c(8))]
            .into_iter()
            .collect();
        let v = t.merge_values(&values).unwrap();
        let le = |k: u128| Expr::not(Expr::ult(Expr::constant(k, 64), n.clone()));
        // s3 is missing: the node forking on z passes its right side through.
        let expected = Expr::select(
            le(0),
            c(1),
            Expr::select(le(1), c(5), Expr::select(le(2), c(7), c(8))),
        );
        assert_eq!(v, expected);
        let only: FxHashMap<NodeId, Expr> = [(s3, c(3))].into_iter().collect();
        assert_eq!(t.merge_values(&only), Some(c(3)));
        assert!(t.merge_values(&FxHashMap::default()).is_none());
    }
}
