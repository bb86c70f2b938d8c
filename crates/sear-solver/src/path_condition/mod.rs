//! A path condition that forks in O(1) and knows its independent factors.
//!
//! [`PathCondition`] is a state's list of constraints together with the partition of that
//! list into factors connected by the array bytes they read (the connections of
//! [`crate::layers::Independence`], from [`Footprint`]). Both are persistent structures
//! (`imbl`): a fork clones the path condition in O(1) and the two paths share everything
//! until one adds a constraint, which costs O(log n) plus the merge of the factors it joins
//! (the smaller factors' constraints move into the largest, so each constraint moves
//! O(log n) times over a path).
//!
//! [`PathCondition::slice_for`] gives the constraints of the factors an expression touches,
//! in list order, without looking at the others: exactly the constraints the independence
//! layer keeps for a query about that expression under the whole list. A query about a
//! branch on a fresh input therefore costs the same after 10 constraints as after 10^5.

use std::fmt;

use sear_expr::{ArrayRef, Expr};

use crate::layers::independence::Footprint;

/// A factor's identity: the position of its first constraint.
type FactorId = u32;

/// The constraints of a path, in order, with their factors (see the module docs).
#[derive(Clone, Default)]
pub struct PathCondition {
    list: imbl::Vector<Expr>,
    /// A factor merged into another points to it (union by size, no path compression:
    /// chains are at most O(log n) long); roots are absent.
    parent: imbl::HashMap<FactorId, FactorId>,
    /// Per root factor of two or more constraints: its constraints by position. A root
    /// absent here is a factor of one constraint, its own (most constraints of a path that
    /// branches on fresh inputs): not storing those halves what a constraint costs.
    members: imbl::HashMap<FactorId, imbl::OrdMap<FactorId, Expr>>,
    /// The number of factors.
    factors: usize,
    /// Per array: the first constraint reading it whole (at a symbolic index).
    whole: imbl::HashMap<ArrayRef, FactorId>,
    /// Per array and constant index: the first constraint reading that byte.
    bytes: imbl::HashMap<ArrayRef, Readers>,
    /// The terms the constraints fix, with their values ([`crate::equalities::facts_of`]):
    /// what [`PathCondition::simplify`] replaces.
    facts: imbl::HashMap<Expr, Expr>,
    /// No simplification (`--no-path-simplification`): constraints are stored and
    /// expressions asked as they are.
    plain: bool,
}

impl PathCondition {
    /// An empty path condition.
    pub fn new() -> Self {
        PathCondition::default()
    }

    /// The number of constraints.
    pub fn len(&self) -> usize {
        self.list.len()
    }

    /// True when there is no constraint.
    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// The constraints in order.
    pub fn iter(&self) -> impl Iterator<Item = &Expr> + '_ {
        self.list.iter()
    }

    /// The constraints in order, copied into a vector (O(n): for a path's end, merges).
    pub fn to_vec(&self) -> Vec<Expr> {
        self.list.iter().cloned().collect()
    }

    /// An empty path condition that simplifies nothing (`--no-path-simplification`) when
    /// `plain`.
    pub fn with_simplification(simplify: bool) -> Self {
        PathCondition {
            plain: !simplify,
            ..PathCondition::default()
        }
    }

    /// The first `n` constraints as a path condition of their own.
    pub fn prefix(&self, n: usize) -> PathCondition {
        let mut pc = PathCondition::with_simplification(!self.plain);
        pc.extend(self.list.iter().take(n).cloned());
        pc
    }

    /// The constraints after the first `n`, in order.
    pub fn suffix(&self, n: usize) -> Vec<Expr> {
        self.list.skip(n.min(self.list.len())).into_iter().collect()
    }

    /// True when both certainly share their storage (a fork's siblings before either added
    /// anything); false says nothing (small lists are stored inline).
    pub fn ptr_eq(&self, other: &PathCondition) -> bool {
        self.list.ptr_eq(&other.list)
    }

    /// The number of factors.
    pub fn factor_count(&self) -> usize {
        self.factors
    }

    /// `e` with the terms the constraints fix replaced by their values (KLEE's
    /// `ConstraintManager::simplifyExpr`): equal to `e` in every model of the path
    /// condition, often smaller, and a constant when the path decided it. A branch on a
    /// pointer the program advanced by a comparison's result (`args += r`) asks about the
    /// object the path already chose instead of an `ite` over every candidate.
    pub fn simplify(&self, e: &Expr) -> Expr {
        if self.plain || self.facts.is_empty() {
            return e.clone();
        }
        crate::equalities::simplify(e, |t| self.facts.get(t).cloned())
    }

    /// Appends one constraint (kept as it is: no splitting, no dropping of `true`).
    pub fn push(&mut self, c: Expr) {
        if !self.plain {
            for (term, value) in crate::equalities::facts_of(&c) {
                self.facts.insert(term, value);
            }
        }
        let i = self.list.len() as FactorId;
        let fp = Footprint::of(&c);
        self.list.push_back(c.clone());
        self.factors += 1;
        let mut joined: Vec<FactorId> = Vec::new();
        for a in &fp.whole {
            match self.whole.get(a) {
                Some(&w) => joined.push(w),
                None => {
                    self.whole.insert(a.clone(), i);
                    // Every earlier reader of a byte of `a` joins the first whole read.
                    if let Some(readers) = self.bytes.get(a) {
                        joined.extend(readers.values());
                    }
                }
            }
        }
        for (a, idx) in &fp.indices {
            if let Some(&w) = self.whole.get(a) {
                joined.push(w);
            }
            let mut readers = self.bytes.get(a).cloned().unwrap_or_default();
            for &b in idx {
                match readers.get(b) {
                    Some(j) => joined.push(j),
                    None => readers.insert(b, i),
                }
            }
            self.bytes.insert(a.clone(), readers);
        }
        for j in joined {
            self.union(i, j);
        }
    }

    fn find(&self, mut x: FactorId) -> FactorId {
        while let Some(&p) = self.parent.get(&x) {
            x = p;
        }
        x
    }

    /// Joins the factors of `a` and `b`: the smaller's constraints move into the larger.
    fn union(&mut self, a: FactorId, b: FactorId) {
        let (ra, rb) = (self.find(a), self.find(b));
        if ra == rb {
            return;
        }
        let size = |r| self.members.get(&r).map_or(1, imbl::OrdMap::len);
        let (small, big) = if size(ra) <= size(rb) {
            (ra, rb)
        } else {
            (rb, ra)
        };
        let moved = self
            .members
            .remove(&small)
            .unwrap_or_else(|| self.singleton(small));
        let unit = (!self.members.contains_key(&big)).then(|| self.singleton(big));
        let target = self
            .members
            .entry(big)
            .or_insert_with(|| unit.unwrap_or_default());
        for (pos, e) in moved {
            target.insert(pos, e);
        }
        self.parent.insert(small, big);
        self.factors -= 1;
    }

    /// The members of a root factor stored as none (a factor of one constraint).
    fn singleton(&self, r: FactorId) -> imbl::OrdMap<FactorId, Expr> {
        let c = self.list.get(r as usize).expect("a factor's constraint");
        imbl::OrdMap::unit(r, c.clone())
    }

    /// The root factors an expression with footprint `fp` is connected to.
    fn touched_by(&self, fp: &Footprint, out: &mut Vec<FactorId>) {
        let mut touch = |j: FactorId| {
            let r = self.find(j);
            if !out.contains(&r) {
                out.push(r);
            }
        };
        for a in &fp.whole {
            match self.whole.get(a) {
                // Every reader of a byte of `a` is in the whole read's factor.
                Some(&w) => touch(w),
                None => {
                    for j in self.bytes.get(a).into_iter().flat_map(Readers::values) {
                        touch(j);
                    }
                }
            }
        }
        for (a, idx) in &fp.indices {
            if let Some(&w) = self.whole.get(a) {
                touch(w);
                continue;
            }
            if let Some(bytes) = self.bytes.get(a) {
                for b in idx {
                    if let Some(j) = bytes.get(*b) {
                        touch(j);
                    }
                }
            }
        }
    }

    /// The constraints of the factors connected to any of `exprs`, in list order: what the
    /// independence layer passes down for a query about `exprs` under this path condition
    /// (known satisfiable, no full model needed). Costs the size of those factors, not of
    /// the path condition.
    pub fn slice_for(&self, exprs: &[&Expr]) -> Vec<Expr> {
        let mut roots = Vec::new();
        for e in exprs {
            self.touched_by(&Footprint::of(e), &mut roots);
        }
        match roots[..] {
            [] => Vec::new(),
            [r] => match self.members.get(&r) {
                Some(m) => m.values().cloned().collect(),
                None => vec![self.list[r as usize].clone()],
            },
            _ => {
                let mut tagged: Vec<(FactorId, &Expr)> = Vec::new();
                for &r in &roots {
                    match self.members.get(&r) {
                        Some(m) => tagged.extend(m.iter().map(|(p, e)| (*p, e))),
                        None => tagged.push((r, &self.list[r as usize])),
                    }
                }
                tagged.sort_unstable_by_key(|(p, _)| *p);
                tagged.into_iter().map(|(_, e)| e.clone()).collect()
            }
        }
    }
}

/// The first reader of each byte of one array read at constant indices: a short list while
/// few bytes are read (a 4-byte input: 4 entries), a persistent map beyond
/// [`FEW_READERS`]. A map per array cost a node of the hash trie per fresh input.
#[derive(Clone)]
enum Readers {
    Few(std::sync::Arc<[(u128, FactorId)]>),
    Many(std::sync::Arc<imbl::HashMap<u128, FactorId>>),
}

/// The most bytes [`Readers::Few`] holds.
const FEW_READERS: usize = 16;

impl Default for Readers {
    fn default() -> Self {
        Readers::Few(std::sync::Arc::new([]))
    }
}

impl Readers {
    fn get(&self, b: u128) -> Option<FactorId> {
        match self {
            Readers::Few(v) => v.iter().find(|(k, _)| *k == b).map(|(_, j)| *j),
            Readers::Many(m) => m.get(&b).copied(),
        }
    }

    fn values(&self) -> Box<dyn Iterator<Item = FactorId> + '_> {
        match self {
            Readers::Few(v) => Box::new(v.iter().map(|(_, j)| *j)),
            Readers::Many(m) => Box::new(m.values().copied()),
        }
    }

    /// Records `j` as the reader of byte `b`, which has none.
    fn insert(&mut self, b: u128, j: FactorId) {
        match self {
            Readers::Few(v) if v.len() < FEW_READERS => {
                let mut w = v.to_vec();
                w.push((b, j));
                *v = w.into();
            }
            Readers::Few(v) => {
                let mut m: imbl::HashMap<u128, FactorId> = v.iter().copied().collect();
                m.insert(b, j);
                *self = Readers::Many(std::sync::Arc::new(m));
            }
            Readers::Many(m) => {
                std::sync::Arc::make_mut(m).insert(b, j);
            }
        }
    }
}

impl FromIterator<Expr> for PathCondition {
    fn from_iter<I: IntoIterator<Item = Expr>>(iter: I) -> Self {
        let mut pc = PathCondition::new();
        pc.extend(iter);
        pc
    }
}

impl Extend<Expr> for PathCondition {
    fn extend<I: IntoIterator<Item = Expr>>(&mut self, iter: I) {
        for c in iter {
            self.push(c);
        }
    }
}

impl From<Vec<Expr>> for PathCondition {
    fn from(v: Vec<Expr>) -> Self {
        v.into_iter().collect()
    }
}

impl PartialEq for PathCondition {
    fn eq(&self, other: &Self) -> bool {
        self.list == other.list
    }
}

impl fmt::Debug for PathCondition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.list.iter()).finish()
    }
}

#[cfg(test)]
mod tests;
