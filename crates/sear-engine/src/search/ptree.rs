//! The process tree: the binary tree of forks, used by the random-path searcher.
//!
//! Each fork splits a leaf into two children; states live at leaves. When a state ends,
//! its leaf and every ancestor left without live descendants are removed. A state waiting
//! at a merge point (`klee_close_merge`) is suspended: its leaf stays but is inactive, and
//! every inner node counts its children with an active leaf below them, so a random walk
//! from the root always ends at a live, active state.

use crate::state::StateId;

#[derive(Clone, Debug)]
struct Node {
    parent: Option<usize>,
    children: [Option<usize>; 2],
    state: Option<StateId>,
    /// For a leaf, 1 if its state may be selected (not suspended), else 0; for an inner
    /// node, how many of its children have an active leaf below them (0 to 2).
    active: u32,
}

/// The process tree.
#[derive(Debug, Default)]
pub struct ProcessTree {
    nodes: Vec<Node>,
    free: Vec<usize>,
    root: Option<usize>,
}

impl ProcessTree {
    fn alloc(&mut self, node: Node) -> usize {
        if let Some(i) = self.free.pop() {
            self.nodes[i] = node;
            i
        } else {
            self.nodes.push(node);
            self.nodes.len() - 1
        }
    }

    /// Creates the root leaf for the initial state.
    pub fn set_root(&mut self, state: StateId) -> usize {
        let root = self.alloc(Node {
            parent: None,
            children: [None, None],
            state: Some(state),
            active: 1,
        });
        self.root = Some(root);
        root
    }

    /// Splits the leaf `node` (holding `left`) into two active leaves; returns their
    /// indices.
    pub fn split(&mut self, node: usize, left: StateId, right: StateId) -> (usize, usize) {
        let l = self.alloc(Node {
            parent: Some(node),
            children: [None, None],
            state: Some(left),
            active: 1,
        });
        let r = self.alloc(Node {
            parent: Some(node),
            children: [None, None],
            state: Some(right),
            active: 1,
        });
        let was_active = self.nodes[node].active > 0;
        self.nodes[node].state = None;
        self.nodes[node].children = [Some(l), Some(r)];
        self.nodes[node].active = 2;
        if !was_active {
            self.propagate(node, 1);
        }
        (l, r)
    }

    /// `node` became active (`delta` 1) or inactive (`delta` -1): updates its ancestors'
    /// counts of active children, up to the first whose own activity does not change. A
    /// fork below an active node changes nothing above it, so a fork costs O(1) however deep
    /// the path (a count of active leaves would walk to the root at every fork).
    fn propagate(&mut self, node: usize, delta: i32) {
        let mut current = node;
        while let Some(p) = self.nodes[current].parent {
            let count = self.nodes[p].active.wrapping_add_signed(delta);
            self.nodes[p].active = count;
            let changed = if delta > 0 { count == 1 } else { count == 0 };
            if !changed {
                return;
            }
            current = p;
        }
    }

    /// Makes the leaf `node` (a suspended state) unreachable to random walks.
    pub fn deactivate(&mut self, node: usize) {
        if self.nodes[node].active == 1 {
            self.nodes[node].active = 0;
            self.propagate(node, -1);
        }
    }

    /// Makes the leaf `node` reachable again.
    pub fn activate(&mut self, node: usize) {
        if self.nodes[node].active == 0 {
            self.nodes[node].active = 1;
            self.propagate(node, 1);
        }
    }

    /// Removes the leaf `node` and every ancestor left without children.
    pub fn remove(&mut self, node: usize) {
        self.deactivate(node);
        let mut current = node;
        loop {
            let parent = self.nodes[current].parent;
            self.nodes[current].state = None;
            self.nodes[current].children = [None, None];
            self.free.push(current);
            match parent {
                None => {
                    self.root = None;
                    return;
                }
                Some(p) => {
                    let slot = &mut self.nodes[p].children;
                    if slot[0] == Some(current) {
                        slot[0] = None;
                    } else if slot[1] == Some(current) {
                        slot[1] = None;
                    }
                    match *slot {
                        [Some(only), None] | [None, Some(only)] => {
                            self.splice(p, only);
                            return;
                        }
                        [Some(_), Some(_)] => return,
                        [None, None] => current = p,
                    }
                }
            }
        }
    }

    /// Replaces the inner node `p`, left with the one child `only`, by that child: a chain
    /// of one-child nodes would make every walk and every activity change as long as the
    /// path (a loop whose iterations fork and merge again leaves one per iteration). A walk
    /// through `p` took `only` without a random choice, and `p` had an active leaf below it
    /// exactly when `only` has, so neither the walks nor the counts above change.
    fn splice(&mut self, p: usize, only: usize) {
        let grandparent = self.nodes[p].parent;
        self.nodes[only].parent = grandparent;
        match grandparent {
            None => self.root = Some(only),
            Some(g) => {
                for c in self.nodes[g].children.iter_mut() {
                    if *c == Some(p) {
                        *c = Some(only);
                    }
                }
            }
        }
        self.nodes[p].parent = None;
        self.nodes[p].state = None;
        self.nodes[p].children = [None, None];
        self.free.push(p);
    }

    /// Walks from the root choosing a random active child at each fork.
    pub fn random_walk(&self, rng: &mut fastrand::Rng) -> Option<StateId> {
        let mut current = self.root?;
        if self.nodes[current].active == 0 {
            return None;
        }
        loop {
            let node = &self.nodes[current];
            if let Some(s) = node.state {
                return Some(s);
            }
            let active = |c: Option<usize>| c.filter(|&i| self.nodes[i].active > 0);
            current = match (active(node.children[0]), active(node.children[1])) {
                (Some(a), Some(b)) => {
                    if rng.bool() {
                        a
                    } else {
                        b
                    }
                }
                (Some(a), None) | (None, Some(a)) => a,
                (None, None) => return None,
            };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn removing_leaves_prunes_to_live_states() {
        let mut t = ProcessTree::default();
        let root = t.set_root(StateId(0));
        let (a, b) = t.split(root, StateId(0), StateId(1));
        let (_c, d) = t.split(a, StateId(0), StateId(2));
        t.remove(b);
        t.remove(d);
        let mut rng = fastrand::Rng::with_seed(3);
        for _ in 0..20 {
            assert_eq!(t.random_walk(&mut rng), Some(StateId(0)));
        }
    }

    /// Whether an active leaf lies below `n`, checking every node's count on the way.
    fn check_counts(t: &ProcessTree, n: usize) -> bool {
        let node = &t.nodes[n];
        if node.state.is_some() {
            return node.active == 1;
        }
        let below = node
            .children
            .iter()
            .flatten()
            .filter(|&&c| check_counts(t, c))
            .count() as u32;
        assert_eq!(node.active, below, "count of node {n}");
        below > 0
    }

    #[test]
    fn counts_stay_exact_under_random_forks_suspensions_and_ends() {
        let mut rng = fastrand::Rng::with_seed(11);
        let mut t = ProcessTree::default();
        let mut leaves = vec![(t.set_root(StateId(0)), StateId(0))];
        let mut next = 1;
        for _ in 0..2_000 {
            let i = rng.usize(..leaves.len());
            let (node, id) = leaves[i];
            match rng.u8(..4) {
                0 | 1 => {
                    t.activate(node);
                    let (l, r) = t.split(node, id, StateId(next));
                    leaves[i] = (l, id);
                    leaves.push((r, StateId(next)));
                    next += 1;
                }
                2 => t.deactivate(node),
                _ if leaves.len() > 1 => {
                    t.remove(node);
                    leaves.swap_remove(i);
                }
                _ => t.activate(node),
            }
            check_counts(&t, t.root.expect("a leaf is left"));
        }
    }

    #[test]
    fn suspended_leaves_are_not_walked_to() {
        let mut t = ProcessTree::default();
        let root = t.set_root(StateId(0));
        let (a, b) = t.split(root, StateId(0), StateId(1));
        t.deactivate(a);
        let mut rng = fastrand::Rng::with_seed(5);
        for _ in 0..20 {
            assert_eq!(t.random_walk(&mut rng), Some(StateId(1)));
        }
        t.deactivate(b);
        assert_eq!(t.random_walk(&mut rng), None);
        t.activate(a);
        assert_eq!(t.random_walk(&mut rng), Some(StateId(0)));
        // Removing a suspended leaf keeps the counts right.
        t.remove(b);
        assert_eq!(t.random_walk(&mut rng), Some(StateId(0)));
    }
}
