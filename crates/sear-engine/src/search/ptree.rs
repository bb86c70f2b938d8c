//! The process tree: the binary tree of forks, used by the random-path searcher.
//!
//! Each fork splits a leaf into two children; states live at leaves. When a state ends,
//! its leaf and every ancestor left without live descendants are removed, so a random
//! walk from the root always ends at a live state.

use crate::state::StateId;

#[derive(Clone, Debug)]
struct Node {
    parent: Option<usize>,
    children: [Option<usize>; 2],
    state: Option<StateId>,
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
        });
        let r = self.alloc(Node {
            parent: Some(node),
            children: [None, None],
            state: Some(right),
        });
        self.nodes[node].state = None;
        self.nodes[node].children = [Some(l), Some(r)];
        (l, r)
    }

    /// Removes the leaf `node` and prunes ancestors without live descendants.
    pub fn remove(&mut self, node: usize) {
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

    /// Walks from the root choosing a random live child at each fork.
    pub fn random_walk(&self, rng: &mut fastrand::Rng) -> Option<StateId> {
        let mut current = self.root?;
        loop {
            let node = &self.nodes[current];
            if let Some(s) = node.state {
                return Some(s);
            }
            current = match node.children {
                [Some(a), Some(b)] => {
                    if rng.bool() {
                        a
                    } else {
                        b
                    }
                }
                [Some(a), None] | [None, Some(a)] => a,
                [None, None] => return None,
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
}
