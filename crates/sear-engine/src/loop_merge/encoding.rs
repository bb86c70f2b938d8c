//! The encodings of merged path conditions and values for a merge group of a context:
//! Algorithm 4's (SM) and the execution tree's (SMOpt, Algorithms 5 and 6).
//!
//! Both see the members' path conditions as the context's prefix φ followed by a suffix
//! ψ_i (what the member added inside the loop). SM writes the condition `ψ_1 ∨ … ∨ ψ_n` and
//! values `ite(ψ_1, v_1, ite(ψ_2, v_2, … v_n))` (the last unguarded: the merged path
//! condition implies one ψ_i). SMOpt walks the context's execution tree.

use rustc_hash::FxHashMap;
use sear_expr::Expr;

use super::tree::{ExecTree, Leaves, NodeId};
use crate::merge::group::MergeEncoding;
use crate::state::{conjuncts, State};

/// Algorithm 4: disjunction of suffixes, `ite` chains over them.
pub struct Disjunction {
    guards: Vec<Expr>,
}

impl Disjunction {
    /// The encoding for `members`, whose path conditions extend a prefix of `prefix_len`
    /// constraints.
    pub fn new(members: &[&State], prefix_len: usize) -> Self {
        Disjunction {
            guards: members
                .iter()
                .map(|m| Expr::and_all(m.constraints.suffix(prefix_len)))
                .collect(),
        }
    }
}

impl MergeEncoding for Disjunction {
    fn condition(&mut self) -> Expr {
        Expr::or_all(self.guards.iter().cloned())
    }

    fn value(&mut self, values: &[Expr]) -> Expr {
        let (last, rest) = values.split_last().expect("a value per member");
        rest.iter()
            .zip(&self.guards)
            .rev()
            .fold(last.clone(), |acc, (v, g)| {
                Expr::select(g.clone(), v.clone(), acc)
            })
    }
}

/// Algorithms 5 and 6 over the context's execution tree.
pub struct TreeEncoding<'t> {
    tree: &'t ExecTree,
    leaves: Leaves,
    order: Vec<NodeId>,
}

impl<'t> TreeEncoding<'t> {
    /// The encoding for `members`, each at its leaf of `tree` (`leaves[i]`), whose path
    /// conditions extend a prefix of `prefix_len` constraints.
    pub fn new(
        tree: &'t ExecTree,
        members: &[&State],
        leaves: &[NodeId],
        prefix_len: usize,
    ) -> Self {
        let mut map = Leaves::default();
        for (m, &leaf) in members.iter().zip(leaves) {
            map.insert(leaf, extras(tree, m, leaf, prefix_len));
        }
        TreeEncoding {
            tree,
            leaves: map,
            order: leaves.to_vec(),
        }
    }
}

impl MergeEncoding for TreeEncoding<'_> {
    fn condition(&mut self) -> Expr {
        self.tree.merge_conditions(&self.leaves)
    }

    fn value(&mut self, values: &[Expr]) -> Expr {
        let map: FxHashMap<NodeId, Expr> = self
            .order
            .iter()
            .copied()
            .zip(values.iter().cloned())
            .collect();
        self.tree.merge_values(&map).expect("a value per member")
    }
}

/// The constraints `member` added inside the context that are not fork conditions on its
/// tree path (as a conjunction; `true` when there are none). Fork conditions are compared
/// conjunct by conjunct, as the path condition stores them.
pub fn extras(tree: &ExecTree, member: &State, leaf: NodeId, prefix_len: usize) -> Expr {
    let mut on_path: Vec<Expr> = tree
        .path_conditions(leaf)
        .iter()
        .flat_map(conjuncts)
        .collect();
    let mut extra = Vec::new();
    for c in &member.constraints.suffix(prefix_len) {
        match on_path.iter().position(|p| p == c) {
            Some(i) => {
                on_path.swap_remove(i);
            }
            None => extra.push(c.clone()),
        }
    }
    Expr::and_all(extra)
}
