//! Pattern-based merged states (Definition 6.2.6): the merged path condition of a regular
//! partition, and merged values as terms of the bound constant `k`.

use sear_expr::quant::instantiate;
use sear_expr::{Array, ArrayKind, Expr, UpdateList};

use super::pattern::Partition;
use super::synth::synthesize;
use crate::loop_merge::tree::{ExecTree, NodeId};
use crate::merge::group::MergeEncoding;

/// A fresh bound constant `k` (64 bits, an array of kind `Other`: not a program input).
pub fn fresh_bound(ordinal: u64) -> Expr {
    let array = Array::new(format!("pat_k{ordinal}"), 8, ArrayKind::Other, None);
    Expr::read_lsb(&UpdateList::new(array), Expr::constant(0, 32), 8)
}

/// `e` with the bound constant `k` (as [`fresh_bound`] made it) at the value `v`: every
/// byte of `k`'s array is replaced, so narrowed uses of `k` are caught too.
pub fn at_bound(e: &Expr, k: &Expr, v: u128) -> Expr {
    let Some(array) = sear_expr::visit::collect_arrays([k]).into_iter().next() else {
        return e.clone();
    };
    let ul = UpdateList::new(array);
    let map: rustc_hash::FxHashMap<Expr, Expr> = (0..8u32)
        .map(|i| {
            (
                Expr::read(&ul, Expr::constant(i as u128, 32)),
                Expr::constant((v >> (8 * i)) & 0xff, 8),
            )
        })
        .collect();
    sear_expr::visit::substitute(e, &map)
}

/// The encoding of one partition.
pub struct PatternEncoding {
    /// The bound constant.
    pub k: Expr,
    /// `k_j` of each member, in member order.
    pub points: Vec<u128>,
    /// What the merged path condition adds after the prefix.
    pub condition: Expr,
    /// The synthesis variable.
    x: Expr,
    /// Values written as terms / as `ite`s.
    pub terms: u64,
    /// Values written as `ite(k = k_j, …)`.
    pub ites: u64,
}

impl PatternEncoding {
    /// The encoding of `partition` (members at `leaves[m]` of `tree`, with `k_m`
    /// repetitions), or `None` when the conditions fit no formula pattern.
    pub fn new(tree: &ExecTree, partition: &Partition, leaves: &[NodeId], k: Expr) -> Option<Self> {
        let h = partition.pattern.head.len();
        let p = partition.pattern.body.len();
        let paths: Vec<Vec<Expr>> = leaves.iter().map(|&l| tree.path_conditions(l)).collect();
        let points: Vec<u128> = partition.members.iter().map(|m| m.1 as u128).collect();
        let longest = (0..paths.len()).max_by_key(|&i| points[i])?;
        let kmax = points[longest] as usize;
        let x = Expr::fresh_var(64);
        // φ1: the shared head.
        let phi1 = Expr::and_all(paths[longest][..h].iter().cloned());
        // φ2(x), position by position, over the iterations of the longest path.
        let mut phi2 = Vec::with_capacity(p);
        for q in 0..p {
            let instances: Vec<(u128, Expr)> = (1..=kmax)
                .map(|i| (i as u128, paths[longest][h + (i - 1) * p + q].clone()))
                .collect();
            phi2.push(if instances.is_empty() {
                Expr::true_()
            } else {
                synthesize(&instances, &x)?
            });
        }
        // φ3(x), position by position, over the members.
        let t = partition.pattern.tail.len();
        let mut phi3 = Vec::with_capacity(t);
        for q in 0..t {
            let instances: Vec<(u128, Expr)> = paths
                .iter()
                .zip(&points)
                .map(|(path, &kj)| (kj, path[h + kj as usize * p + q].clone()))
                .collect();
            phi3.push(synthesize(&instances, &x)?);
        }
        let (lo, hi) = (points[0], points[points.len() - 1]);
        let w = k.width();
        let contiguous = points.windows(2).all(|ab| ab[1] == ab[0] + 1);
        let range = if contiguous {
            Expr::and(
                Expr::ule(Expr::constant(lo, w), k.clone()),
                Expr::ule(k.clone(), Expr::constant(hi, w)),
            )
        } else {
            Expr::or_all(
                points
                    .iter()
                    .map(|&kj| Expr::eq(Expr::constant(kj, w), k.clone())),
            )
        };
        let body = Expr::and_all(phi2);
        let forall = if kmax == 0 {
            Expr::true_()
        } else {
            Expr::forall(x.clone(), k.clone(), body)
        };
        let tail = instantiate(&Expr::and_all(phi3), &x, &k);
        let condition = Expr::and_all([range, phi1, forall, tail]);
        Some(PatternEncoding {
            k,
            points,
            condition,
            x,
            terms: 0,
            ites: 0,
        })
    }
}

impl MergeEncoding for PatternEncoding {
    fn condition(&mut self) -> Expr {
        self.condition.clone()
    }

    fn value(&mut self, values: &[Expr]) -> Expr {
        let instances: Vec<(u128, Expr)> = self
            .points
            .iter()
            .copied()
            .zip(values.iter().cloned())
            .collect();
        if let Some(t) = synthesize(&instances, &self.x) {
            self.terms += 1;
            return instantiate(&t, &self.x, &self.k);
        }
        self.ites += 1;
        let w = self.k.width();
        let (last, rest) = values.split_last().expect("a value per member");
        rest.iter()
            .zip(&self.points)
            .rev()
            .fold(last.clone(), |acc, (v, &kj)| {
                Expr::select(
                    Expr::eq(Expr::constant(kj, w), self.k.clone()),
                    v.clone(),
                    acc,
                )
            })
    }
}
