//! The process tree: the binary tree of forks, used by the random-path searcher.
//!
//! Each fork splits a leaf into two children; states live at leaves. When a state ends,
//! its leaf and every ancestor left without live descendants are removed. A state waiting
//! at a merge point (`klee_close_merge`) is suspended: its leaf stays but is inactive, and
//! every node counts the active leaves below it, so a random walk from the root always ends
//! at a live, active state.

use crate::state::StateId;

#[derive(Clone, Debug)]
struct Node {
    parent: Option<usize>,
    children: [Option<usize>; 2],
    state: Option<StateId>,
    /// Leaves below (this node included) whose state may be selected: not suspended.
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

    /// Splits the leaf `node` (holding `left`) into two leaves; returns their indices.
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
        self.nodes[node].state = None;
        self.nodes[node].children = [Some(l), Some(r)];
        // The leaf was active (a running state forks); now two are.
        self.adjust(node, 1);
        (l, r)
    }

    /// Adds `delta` to the active count of `node` and its ancestors.
    fn adjust(&mut self, node: usize, delta: i32) {
        let mut current = Some(node);
        while let Some(n) = current {
            self.nodes[n].active = self.nodes[n].active.wrapping_add_signed(delta);
            current = self.nodes[n].parent;
        }
    }

    /// Makes the leaf `node` (a suspended state) unreachable to random walks.
    pub fn deactivate(&mut self, node: usize) {
        if self.nodes[node].active == 1 {
            self.adjust(node, -1);
        }
    }

    /// Makes the leaf `node` reachable again.
    pub fn activate(&mut self, node: usize) {
        if self.nodes[node].active == 0 {
            self.adjust(node, 1);
        }
    }

    /// Removes the leaf `node` and prunes ancestors without live descendants.
    pub fn remove(&mut self, node: usize) {
        if self.nodes[node].active > 0 {
            self.adjust(node, -1);
        }
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
                    if slot[0].is_some() || slot[1].is_some() {
                        return;
                    }
                    current = p;
                }
            }
        }
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
