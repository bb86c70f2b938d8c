//! The read axioms of an abstraction and the reduced pool `A` (Algorithm 4 of the paper with
//! the spec's §7.2 engine-level version).
//!
//! The full family for read terms `t` (value variable `r_t`) of a root `a` of `n` bytes:
//! * cell axioms `t = j ⇒ r_t = a[j]` for `j < n` (`a[j]` a constant byte or a cell
//!   variable);
//! * bounds axioms `t ≥ n ⇒ r_t = 0` (reads out of bounds are zero in sear's semantics);
//! * pair axioms `t₁ = t₂ ⇒ r₁ = r₂` for terms of the same root.
//!
//! The pool keeps only what can matter:
//! * type: with access size `M` and `t ≡ ρ (mod M)` provable ([`crate::residue`]), only cells
//!   `j ≡ ρ`, and only pairs with equal residues (unknown residues keep everything);
//! * interval: with `t ∈ [lo, hi]` from the pre-check, only cells in it, and a bounds axiom
//!   only when `hi ≥ n`;
//! * extras (equisatisfiable, switchable): cells of a symbolic root mentioned nowhere else
//!   are vacuous; pairs with disjoint intervals or a constant non-zero difference never meet;
//!   pairs over a constant root follow from the cell axioms.
//!
//! The pool is described per term by arithmetic (a range and a stride), not enumerated, so
//! large arrays cost nothing until axioms are actually added.

use rustc_hash::FxHashSet;
use sear_expr::congruence::Congruences;
use sear_expr::{ArrayRef, Expr};

use super::abstraction::ReadTerm;
use crate::config::ArrayConfig;
use crate::intervals::IndexIntervals;
use crate::residue::access_size;

/// One axiom of the family.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Axiom {
    /// `t = j ⇒ r_t = a[j]`.
    Cell {
        /// The read term.
        term: usize,
        /// The cell.
        j: u64,
    },
    /// `t ≥ n ⇒ r_t = 0`.
    Bounds {
        /// The read term.
        term: usize,
    },
    /// `t₁ = t₂ ⇒ r₁ = r₂` (`t1 < t2`).
    Pair {
        /// The first term.
        t1: usize,
        /// The second term.
        t2: usize,
    },
}

/// The pool's description of one term.
#[derive(Clone, Debug)]
pub struct TermPool {
    /// First and last cell offsets considered (inclusive; empty when `lo > hi`).
    pub lo: u64,
    /// Last cell (already clipped to the array).
    pub hi: u64,
    /// Stride of kept cells (the access size when the residue is known, else 1).
    pub step: u64,
    /// The residue kept cells must have modulo `step`.
    pub residue: u64,
    /// True if the bounds axiom is in the pool.
    pub bounds: bool,
    /// The term's interval (for the disjointness extra).
    pub interval: (u128, u128),
    /// The residue modulo the array's access size, if known (for pairs).
    pub type_residue: Option<(u64, u64)>,
}

/// Counts of the pool by kind.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PoolCounts {
    /// Cell axioms.
    pub cells: u64,
    /// Pair axioms.
    pub pairs: u64,
    /// Bounds axioms.
    pub bounds: u64,
}

/// The reduced axiom pool of one abstraction.
pub struct Pool {
    /// Per term.
    pub terms: Vec<TermPool>,
    /// Symbolic cells mentioned by the query (for extra 1).
    mentioned: FxHashSet<(ArrayRef, u64)>,
    /// Kept pairs.
    pairs: FxHashSet<(usize, usize)>,
    extras: bool,
    /// Sizes by kind.
    pub counts: PoolCounts,
}

fn domain_max(width: u32) -> u128 {
    if width >= 128 {
        u128::MAX
    } else {
        (1u128 << width) - 1
    }
}

impl TermPool {
    /// The pool description of the read term `root[index]`.
    pub fn of(
        root: &ArrayRef,
        index: &Expr,
        granularity: &std::collections::BTreeMap<ArrayRef, u32>,
        intervals: Option<&IndexIntervals>,
        config: &ArrayConfig,
        residues: &mut Congruences,
    ) -> TermPool {
        let elim = config.axiom_elim;
        let n = root.size() as u128;
        let full = (0, domain_max(index.width()));
        let interval = if elim.by_interval() {
            intervals.and_then(|i| i.get(index)).unwrap_or(full)
        } else {
            full
        };
        let m = if elim.by_type() {
            access_size(granularity, root)
        } else {
            1
        };
        let type_residue = residues.residue(index, m).map(|r| (r, m));
        let (step, residue) = type_residue.map(|(r, m)| (m, r)).unwrap_or((1, 0));
        let lo = interval.0;
        let hi = interval.1.min(n.saturating_sub(1));
        let (lo, hi) = if n == 0 || lo > hi {
            (1, 0)
        } else {
            (lo as u64, hi as u64)
        };
        TermPool {
            lo,
            hi,
            step,
            residue,
            // Unbounded arrays have no zero region: their reads beyond the dense part are
            // free and tied together only by the pair axioms.
            bounds: interval.1 >= n && !root.is_unbounded(),
            interval,
            type_residue,
        }
    }

    /// The cells of the pool (in bounds, in the interval, with the residue).
    pub fn cells(&self) -> impl Iterator<Item = u64> + '_ {
        let first = if self.lo > self.hi {
            u64::MAX
        } else {
            self.lo + (self.residue + self.step - self.lo % self.step) % self.step
        };
        (0..)
            .map(move |k: u64| first.saturating_add(k.saturating_mul(self.step)))
            .take_while(move |j| *j <= self.hi && first != u64::MAX)
    }
}

impl Pool {
    /// Builds the pool for `terms`.
    pub fn build(
        terms: &[ReadTerm],
        mentioned: FxHashSet<(ArrayRef, u64)>,
        granularity: &std::collections::BTreeMap<ArrayRef, u32>,
        intervals: Option<&IndexIntervals>,
        config: &ArrayConfig,
    ) -> Pool {
        let mut residues = Congruences::default();
        let mut pools = Vec::with_capacity(terms.len());
        let mut counts = PoolCounts::default();
        for t in terms {
            pools.push(TermPool::of(
                &t.root,
                &t.index,
                granularity,
                intervals,
                config,
                &mut residues,
            ));
        }
        let mut pool = Pool {
            terms: pools,
            mentioned,
            pairs: FxHashSet::default(),
            extras: config.axiom_extras,
            counts,
        };
        for (i, t) in terms.iter().enumerate() {
            counts.cells += pool.cells_of(i, t).count() as u64;
            counts.bounds += pool.terms[i].bounds as u64;
        }
        for i in 0..pool.terms.len() {
            for k in i + 1..pool.terms.len() {
                if pool.pair_kept(terms, i, k) {
                    pool.pairs.insert((i, k));
                }
            }
        }
        counts.pairs = pool.pairs.len() as u64;
        pool.counts = counts;
        pool
    }

    /// The cells of term `i` in the pool.
    pub fn cells_of<'a>(&'a self, i: usize, t: &'a ReadTerm) -> impl Iterator<Item = u64> + 'a {
        let symbolic = !t.root.is_constant();
        self.terms[i].cells().filter(move |j| {
            !(self.extras && symbolic && !self.mentioned.contains(&(t.root.clone(), *j)))
        })
    }

    fn pair_kept(&self, terms: &[ReadTerm], i: usize, k: usize) -> bool {
        let (a, b) = (&terms[i], &terms[k]);
        if a.root != b.root {
            return false;
        }
        let (pa, pb) = (&self.terms[i], &self.terms[k]);
        if let (Some((ra, _)), Some((rb, _))) = (pa.type_residue, pb.type_residue) {
            if ra != rb {
                return false;
            }
        }
        if self.extras {
            if pa.interval.1 < pb.interval.0 || pb.interval.1 < pa.interval.0 {
                return false;
            }
            let diff = Expr::sub(a.index.clone(), b.index.clone());
            if diff.as_constant().is_some_and(|c| c != 0) {
                return false;
            }
            if a.root.is_constant() {
                return false;
            }
        }
        true
    }

    /// True if `axiom` is in the pool.
    pub fn contains(&self, terms: &[ReadTerm], axiom: &Axiom) -> bool {
        match *axiom {
            Axiom::Cell { term, j } => {
                let p = &self.terms[term];
                j >= p.lo
                    && j <= p.hi
                    && j % p.step == p.residue % p.step
                    && !(self.extras
                        && !terms[term].root.is_constant()
                        && !self.mentioned.contains(&(terms[term].root.clone(), j)))
            }
            Axiom::Bounds { term } => self.terms[term].bounds,
            Axiom::Pair { t1, t2 } => self.pairs.contains(&(t1, t2)),
        }
    }

    /// Every axiom of the pool involving term `i`.
    pub fn axioms_of(&self, terms: &[ReadTerm], i: usize) -> Vec<Axiom> {
        let mut out: Vec<Axiom> = self
            .cells_of(i, &terms[i])
            .map(|j| Axiom::Cell { term: i, j })
            .collect();
        if self.terms[i].bounds {
            out.push(Axiom::Bounds { term: i });
        }
        for &(a, b) in &self.pairs {
            if a == i || b == i {
                out.push(Axiom::Pair { t1: a, t2: b });
            }
        }
        out
    }

    /// Every axiom of the pool.
    pub fn all(&self, terms: &[ReadTerm]) -> Vec<Axiom> {
        let mut out = Vec::new();
        for (i, t) in terms.iter().enumerate() {
            out.extend(self.cells_of(i, t).map(|j| Axiom::Cell { term: i, j }));
            if self.terms[i].bounds {
                out.push(Axiom::Bounds { term: i });
            }
        }
        let mut pairs: Vec<_> = self.pairs.iter().copied().collect();
        pairs.sort();
        out.extend(pairs.into_iter().map(|(t1, t2)| Axiom::Pair { t1, t2 }));
        out
    }
}
