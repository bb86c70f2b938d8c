//! The execution-tree side of incremental merging (seed 003 §6.3): a leaf `n1` and a node
//! `n2` whose states merged are replaced by one node `n_new` under their lowest common
//! ancestor, and a node left with a single child is spliced out.
//!
//! The nodes taken out stay in the arena, unreachable from the root ([`ExecTree::alive`]
//! is false for them). A node whose subtree lost a region (the ancestors of the removed
//! node below the common ancestor) is marked `pruned`, so Algorithm 5 never collapses it
//! to its own condition; the leaves' conditions stay exact, so every encoding does.

use sear_expr::Expr;

use super::tree::{ExecTree, Node, NodeId};
use crate::state::StateId;

impl ExecTree {
    /// The parent of `n` (`None` at the root and for a node taken out).
    fn up(&self, n: NodeId) -> Option<NodeId> {
        self.node(n).parent.filter(|&p| p != REMOVED)
    }

    /// The depth of `n` (the root's is 0).
    pub fn depth(&self, n: NodeId) -> usize {
        let mut d = 0;
        let mut at = n;
        while let Some(p) = self.up(at) {
            d += 1;
            at = p;
        }
        d
    }

    /// True when `a` is `n` or one of its ancestors.
    pub fn is_ancestor(&self, a: NodeId, n: NodeId) -> bool {
        let mut at = Some(n);
        while let Some(x) = at {
            if x == a {
                return true;
            }
            at = self.up(x);
        }
        false
    }

    /// True when `n` is still in the tree (reachable from the root).
    pub fn alive(&self, n: NodeId) -> bool {
        let mut at = n;
        loop {
            match self.node(at).parent {
                None => return at == self.root(),
                Some(REMOVED) => return false,
                Some(p) => at = p,
            }
        }
    }

    /// The lowest common ancestor of `a` and `b`.
    pub fn lca(&self, a: NodeId, b: NodeId) -> NodeId {
        let mut at = a;
        loop {
            if self.is_ancestor(at, b) {
                return at;
            }
            at = self.up(at).expect("the root is an ancestor of every node");
        }
    }

    /// The nodes of the subtree of `n` (`n` included), parents before children.
    pub fn subtree(&self, n: NodeId) -> Vec<NodeId> {
        let mut out = Vec::new();
        let mut stack = vec![n];
        while let Some(x) = stack.pop() {
            out.push(x);
            if let Some((l, r)) = self.node(x).children {
                stack.push(r);
                stack.push(l);
            }
        }
        out
    }

    /// True when `n1` (a leaf) and `n2` may merge by the thesis's rules: `n1` is not
    /// reachable from `n2`, and their lowest common ancestor is the parent of one of them.
    pub fn may_merge(&self, n1: NodeId, n2: NodeId) -> bool {
        if n1 == n2 || self.is_ancestor(n2, n1) || self.is_ancestor(n1, n2) {
            return false;
        }
        let lca = self.lca(n1, n2);
        self.node(n1).parent == Some(lca) || self.node(n2).parent == Some(lca)
    }

    /// Replaces the leaf `n1` and the node `n2` (with its subtree) by one leaf `n_new`
    /// under their lowest common ancestor, of condition `cond` (`tpc(lca, n1) ∨ tpc(lca,
    /// n2)`, as the merge wrote it) and path `state`; then splices out the node left with
    /// one child. Returns `n_new`. Requires [`ExecTree::may_merge`].
    pub fn merge_nodes(&mut self, n1: NodeId, n2: NodeId, cond: Expr, state: StateId) -> NodeId {
        debug_assert!(self.may_merge(n1, n2));
        let lca = self.lca(n1, n2);
        // `near` hangs directly under the common ancestor; `far` is deeper (or a sibling).
        let (near, far) = if self.node(n2).parent == Some(lca) {
            (n2, n1)
        } else {
            (n1, n2)
        };
        let new = NodeId(self.nodes.len() as u32);
        self.nodes.push(Node {
            cond,
            parent: Some(lca),
            children: None,
            state,
            pruned: false,
        });
        self.replace_child(lca, near, new);
        self.detach(near);
        let p = self.node(far).parent.expect("below the common ancestor");
        let (l, r) = self.node(p).children.expect("a parent");
        let remaining = if l == far { r } else { l };
        self.detach(far);
        if p == lca {
            // Siblings: the common ancestor keeps `n_new` alone.
            self.splice(p, new);
            return if self.node(p).children.is_none() && p == self.root() {
                p
            } else {
                new
            };
        }
        self.splice(p, remaining);
        // The region of `far` left the subtrees between the splice and the common ancestor.
        let mut at = self.up(remaining);
        while let Some(x) = at {
            if x == lca {
                break;
            }
            self.nodes[x.0 as usize].pruned = true;
            at = self.up(x);
        }
        new
    }

    fn replace_child(&mut self, parent: NodeId, old: NodeId, new: NodeId) {
        let node = &mut self.nodes[parent.0 as usize];
        if let Some((l, r)) = node.children {
            node.children = Some(if l == old { (new, r) } else { (l, new) });
        }
        self.nodes[new.0 as usize].parent = Some(parent);
    }

    /// Marks `n` out of the tree.
    fn detach(&mut self, n: NodeId) {
        self.nodes[n.0 as usize].parent = Some(REMOVED);
    }

    /// `p` is left with the single child `n`: `n` takes its place, under `n.c ∧ p.c`. At
    /// the root (no place to take), the root takes over `n` and its condition (which
    /// [`ExecTree::path_conditions`] then includes).
    fn splice(&mut self, p: NodeId, n: NodeId) {
        let pc = self.node(p).cond.clone();
        match self.node(p).parent {
            Some(grand) => {
                let c = &mut self.nodes[n.0 as usize].cond;
                *c = Expr::and(c.clone(), pc);
                self.replace_child(grand, p, n);
                self.detach(p);
            }
            None => {
                // The root: it takes over `n` (its condition is `true`).
                let child = self.node(n).clone();
                let root = &mut self.nodes[p.0 as usize];
                root.children = child.children;
                root.state = child.state;
                root.cond = child.cond;
                if let Some((l, r)) = child.children {
                    self.nodes[l.0 as usize].parent = Some(p);
                    self.nodes[r.0 as usize].parent = Some(p);
                }
                self.detach(n);
            }
        }
    }
}

/// The parent of a node taken out of the tree.
const REMOVED: NodeId = NodeId(u32::MAX);

impl Node {
    /// True when the node was taken out of the tree.
    pub fn removed(&self) -> bool {
        self.parent == Some(REMOVED)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::loop_merge::tree::Leaves;
    use sear_expr::{Array, ArrayKind, UpdateList};

    fn is(i: u64, ch: u128) -> Expr {
        let a = Array::new("s", 3, ArrayKind::SymbolicInput, None);
        let byte = Expr::read_lsb(&UpdateList::new(a), Expr::constant(i as u128, 32), 1);
        Expr::eq(byte, Expr::constant(ch, 8))
    }

    /// Fig. 6.3: n1 forks on s[0] = 'a' (n4, left) and ¬ (n3); n4's subtree grew; n3
    /// forks on s[0] = 'b' (n2) and ¬ (n5). n2 merges with n4 under n1, n4's subtree goes,
    /// and n3 is spliced out: n5's condition becomes ¬'b' ∧ ¬'a'.
    #[test]
    fn example_6_3_1_merges_under_the_common_ancestor_and_splices() {
        let (a, b) = (is(0, 97), is(0, 98));
        let mut t = ExecTree::new(StateId(0));
        let n1 = t.root();
        let (n4, n3) = t.split(n1, a.clone(), StateId(1), StateId(0));
        let (n4a, n4b) = t.split(n4, is(1, 97), StateId(2), StateId(1));
        let (n2, n5) = t.split(n3, b.clone(), StateId(3), StateId(0));
        assert!(t.may_merge(n2, n4));
        // n2's own ancestor and a node whose common ancestor is no one's parent are refused.
        assert!(!t.may_merge(n2, n3));
        assert!(!t.may_merge(n4a, n5));
        assert_eq!(t.subtree(n4), vec![n4, n4a, n4b]);
        let cond = Expr::or(a.clone(), Expr::and(Expr::not(a.clone()), b.clone()));
        let new = t.merge_nodes(n2, n4, cond.clone(), StateId(3));
        assert_eq!(t.node(n1).children, Some((new, n5)));
        assert_eq!(t.node(new).cond, cond);
        assert_eq!(t.node(n5).cond, Expr::and(Expr::not(b), Expr::not(a)));
        assert_eq!(t.node(n5).parent, Some(n1));
        for gone in [n2, n3, n4, n4a, n4b] {
            assert!(!t.alive(gone), "{gone:?} is out of the tree");
        }
        assert!(t.alive(new) && t.alive(n5));
        // Both leaves cover the root: Algorithm 5 collapses to `true`.
        let all: Leaves = [new, n5].into_iter().map(|l| (l, Expr::true_())).collect();
        assert!(t.merge_conditions(&all).is_true());
    }

    /// When the removed leaf hangs deeper, the nodes between it and the common ancestor
    /// lost a region: they never collapse to their own condition.
    #[test]
    fn nodes_that_lost_a_region_do_not_collapse() {
        let (x, y, z) = (is(0, 1), is(1, 1), is(2, 1));
        let mut t = ExecTree::new(StateId(0));
        let (l, r) = t.split(t.root(), x.clone(), StateId(1), StateId(0));
        let (rl, rr) = t.split(r, y.clone(), StateId(2), StateId(0));
        let (rrl, rrr) = t.split(rr, z.clone(), StateId(3), StateId(0));
        // rrl (deep) merges into l (a child of the root).
        assert!(t.may_merge(rrl, l));
        let new = t.merge_nodes(rrl, l, Expr::true_(), StateId(3));
        assert_eq!(t.node(t.root()).children, Some((new, r)));
        assert!(t.node(r).pruned);
        assert_eq!(t.node(r).children, Some((rl, rrr)));
        // rl and rrr are all of r's leaves, but r's region lost rrl's: no collapse to ¬x.
        let leaves: Leaves = [rl, rrr].into_iter().map(|n| (n, Expr::true_())).collect();
        let merged = t.merge_conditions(&leaves);
        assert_ne!(merged, Expr::and(Expr::true_(), t.node(r).cond.clone()));
        assert_eq!(
            t.path_conditions(rrr),
            vec![Expr::not(x), Expr::and(Expr::not(z), Expr::not(y))]
        );
    }
}
