//! A complete binary tree of weight sums over slots: O(log n) to change a slot's weight
//! and to find the slot that a point in `[0, total)` falls into, the slots taken in order.
//!
//! KLEE keeps its weighted searcher's states in a balanced tree of sums
//! (`DiscretePDF`) for the same reason; here the slots are a flat array, the tree an
//! implicit heap layout. Every inner node is recomputed as the sum of its two children
//! when a leaf changes (never adjusted by a difference), so a zero leaf stays exactly zero
//! and the sums do not drift.

/// Weight sums over `capacity` slots (a power of two).
#[derive(Debug, Default)]
pub struct SumTree {
    /// `nodes[1]` is the root; the children of `k` are `2k` and `2k + 1`; the leaves are
    /// `nodes[capacity..2 * capacity]`.
    nodes: Vec<f64>,
    capacity: usize,
}

impl SumTree {
    /// An empty tree.
    pub fn new() -> Self {
        SumTree::default()
    }

    /// Rebuilds the tree over `weights` (slot `i` weighs `weights[i]`).
    pub fn rebuild(&mut self, weights: &[f64]) {
        let capacity = weights.len().max(1).next_power_of_two();
        self.capacity = capacity;
        self.nodes.clear();
        self.nodes.resize(2 * capacity, 0.0);
        self.nodes[capacity..capacity + weights.len()].copy_from_slice(weights);
        for k in (1..capacity).rev() {
            self.nodes[k] = self.nodes[2 * k] + self.nodes[2 * k + 1];
        }
    }

    /// The number of slots the tree holds without growing.
    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// Sets slot `slot`'s weight (`slot < capacity`).
    pub fn set(&mut self, slot: usize, weight: f64) {
        let mut k = self.capacity + slot;
        self.nodes[k] = weight;
        while k > 1 {
            k /= 2;
            self.nodes[k] = self.nodes[2 * k] + self.nodes[2 * k + 1];
        }
    }

    /// The sum of all weights.
    pub fn total(&self) -> f64 {
        self.nodes.get(1).copied().unwrap_or(0.0)
    }

    /// The slot whose interval of the running sums holds `point` (slots in order, slot `i`
    /// covering `[sum of weights before i, that + weight i)`); a point at or beyond the total
    /// (rounding) gives the last slot of non-zero weight. `None` when every weight is zero.
    pub fn find(&self, mut point: f64) -> Option<usize> {
        if !positive(self.total()) {
            return None;
        }
        let mut k = 1;
        while k < self.capacity {
            let (left, right) = (self.nodes[2 * k], self.nodes[2 * k + 1]);
            if point < left || !positive(right) {
                k *= 2;
            } else {
                point -= left;
                k = 2 * k + 1;
            }
        }
        Some(k - self.capacity)
    }
}

/// `x > 0` (false for NaN).
fn positive(x: f64) -> bool {
    x > 0.0
}

#[cfg(test)]
mod tests {
    use super::SumTree;

    /// The slot a linear scan of the running sums finds.
    fn linear(weights: &[f64], mut point: f64) -> Option<usize> {
        let last = weights.iter().rposition(|w| *w > 0.0)?;
        for (i, w) in weights.iter().enumerate() {
            if point < *w {
                return Some(i);
            }
            point -= w;
        }
        Some(last)
    }

    #[test]
    fn find_agrees_with_a_linear_scan_of_the_running_sums() {
        let weights = [0.5, 0.0, 0.25, 1.0, 0.0, 0.125, 2.0];
        let mut tree = SumTree::new();
        tree.rebuild(&weights);
        assert_eq!(tree.total(), 3.875);
        for k in 0..=40 {
            let point = k as f64 * 0.1;
            assert_eq!(tree.find(point), linear(&weights, point), "point {point}");
        }
        // Beyond the total: the last slot of non-zero weight, never a zero one.
        assert_eq!(tree.find(100.0), Some(6));
    }

    #[test]
    fn set_keeps_sums_exact_and_zero_slots_are_never_found() {
        let mut tree = SumTree::new();
        tree.rebuild(&[1e-8; 5]);
        for slot in 0..5 {
            tree.set(slot, 0.0);
        }
        assert_eq!(tree.total(), 0.0);
        assert_eq!(tree.find(0.0), None);
        tree.set(3, 1e-8);
        assert_eq!(tree.total(), 1e-8);
        assert_eq!(tree.find(0.0), Some(3));
        assert_eq!(tree.find(5e-9), Some(3));
        assert_eq!(tree.find(1.0), Some(3));
    }

    #[test]
    fn an_empty_tree_finds_nothing() {
        let mut tree = SumTree::new();
        assert_eq!(tree.find(0.0), None);
        tree.rebuild(&[]);
        assert_eq!(tree.capacity(), 1);
        assert_eq!(tree.find(0.0), None);
    }
}
