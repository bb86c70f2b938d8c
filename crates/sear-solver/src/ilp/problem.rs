//! Integer linear problems over bounded integer variables, with exact big-integer
//! coefficients: linear expressions, rows, bound propagation, connected components and a
//! canonical form for caching.
//!
//! Every variable is an integer with finite bounds (the bit-vector domain it models, or
//! tighter). A row is `Σ aᵢ·xᵢ + c ≤ 0` or `Σ aᵢ·xᵢ + c = 0` with integer coefficients.

use std::collections::BTreeMap;

use num_bigint::BigInt;
use num_integer::Integer;
use num_traits::{One, Signed, Zero};

/// A variable of a [`Problem`].
pub type Var = usize;

/// A linear expression `Σ coef·var + constant` with integer coefficients, kept normalised
/// (terms sorted by variable, no zero coefficients).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct LinExpr {
    /// `(variable, coefficient)`, sorted by variable, coefficients non-zero.
    pub terms: Vec<(Var, BigInt)>,
    /// The constant part.
    pub constant: BigInt,
}

impl LinExpr {
    /// The constant `c`.
    pub fn constant(c: impl Into<BigInt>) -> Self {
        LinExpr {
            terms: Vec::new(),
            constant: c.into(),
        }
    }

    /// The variable `v`.
    pub fn var(v: Var) -> Self {
        LinExpr {
            terms: vec![(v, BigInt::one())],
            constant: BigInt::zero(),
        }
    }

    /// The constant value, if there are no variables.
    pub fn as_constant(&self) -> Option<&BigInt> {
        self.terms.is_empty().then_some(&self.constant)
    }

    /// The single variable, if this is exactly `1·v + 0`.
    pub fn as_var(&self) -> Option<Var> {
        match self.terms.as_slice() {
            [(v, c)] if c.is_one() && self.constant.is_zero() => Some(*v),
            _ => None,
        }
    }

    /// `self + k·other`.
    pub fn add_scaled(&self, other: &LinExpr, k: &BigInt) -> LinExpr {
        let mut map: BTreeMap<Var, BigInt> = self.terms.iter().cloned().collect();
        for (v, c) in &other.terms {
            let e = map.entry(*v).or_insert_with(BigInt::zero);
            *e += c * k;
        }
        LinExpr {
            terms: map.into_iter().filter(|(_, c)| !c.is_zero()).collect(),
            constant: &self.constant + &other.constant * k,
        }
    }

    /// `self + other`.
    pub fn plus(&self, other: &LinExpr) -> LinExpr {
        self.add_scaled(other, &BigInt::one())
    }

    /// `self - other`.
    pub fn minus(&self, other: &LinExpr) -> LinExpr {
        self.add_scaled(other, &-BigInt::one())
    }

    /// `k·self`.
    pub fn scale(&self, k: &BigInt) -> LinExpr {
        LinExpr::default().add_scaled(self, k)
    }

    /// `self + c`.
    pub fn offset(&self, c: &BigInt) -> LinExpr {
        LinExpr {
            terms: self.terms.clone(),
            constant: &self.constant + c,
        }
    }

    /// The range of values under `bounds`.
    pub fn range(&self, bounds: &[(BigInt, BigInt)]) -> (BigInt, BigInt) {
        let mut lo = self.constant.clone();
        let mut hi = self.constant.clone();
        for (v, c) in &self.terms {
            let (l, h) = &bounds[*v];
            if c.is_positive() {
                lo += c * l;
                hi += c * h;
            } else {
                lo += c * h;
                hi += c * l;
            }
        }
        (lo, hi)
    }

    /// The value under an assignment of the variables.
    pub fn eval(&self, values: &[BigInt]) -> BigInt {
        self.terms
            .iter()
            .fold(self.constant.clone(), |acc, (v, c)| acc + c * &values[*v])
    }
}

/// How a row's expression relates to zero.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rel {
    /// `expr ≤ 0`.
    Le,
    /// `expr = 0`.
    Eq,
}

/// One constraint.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Row {
    /// The expression compared with zero.
    pub expr: LinExpr,
    /// The relation.
    pub rel: Rel,
}

/// Bounded integer variables and linear rows.
#[derive(Clone, Debug, Default)]
pub struct Problem {
    /// Inclusive bounds of every variable.
    pub bounds: Vec<(BigInt, BigInt)>,
    /// The constraints.
    pub rows: Vec<Row>,
}

/// The outcome of bound propagation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Propagation {
    /// Bounds are consistent (possibly tightened).
    Consistent,
    /// Some variable has an empty domain or some row cannot hold: no integer solution.
    Infeasible,
}

impl Problem {
    /// A fresh variable with inclusive bounds `[lo, hi]`.
    pub fn new_var(&mut self, lo: impl Into<BigInt>, hi: impl Into<BigInt>) -> Var {
        self.bounds.push((lo.into(), hi.into()));
        self.bounds.len() - 1
    }

    /// Adds `expr ≤ 0`.
    pub fn le0(&mut self, expr: LinExpr) {
        self.push(expr, Rel::Le);
    }

    /// Adds `expr = 0`.
    pub fn eq0(&mut self, expr: LinExpr) {
        self.push(expr, Rel::Eq);
    }

    fn push(&mut self, expr: LinExpr, rel: Rel) {
        // A single-variable row is a bound: apply it directly.
        if let [(v, c)] = expr.terms.as_slice() {
            let (v, c) = (*v, c.clone());
            let rhs = -&expr.constant;
            // c·x ≤ rhs (or = rhs).
            let (mut lo, mut hi) = self.bounds[v].clone();
            if rel == Rel::Eq {
                if (&rhs % &c).is_zero() {
                    let x = &rhs / &c;
                    lo = lo.max(x.clone());
                    hi = hi.min(x);
                } else {
                    hi = lo.clone() - 1;
                }
            } else if c.is_positive() {
                hi = hi.min(rhs.div_floor(&c));
            } else {
                lo = lo.max(rhs.div_ceil(&c));
            }
            self.bounds[v] = (lo, hi);
            return;
        }
        self.rows.push(Row { expr, rel });
    }

    /// True if some variable has an empty domain or some variable-free row is violated.
    pub fn trivially_infeasible(&self) -> bool {
        self.bounds.iter().any(|(l, h)| l > h)
            || self.rows.iter().any(|r| match r.expr.as_constant() {
                Some(c) => match r.rel {
                    Rel::Le => c.is_positive(),
                    Rel::Eq => !c.is_zero(),
                },
                None => false,
            })
    }

    /// Feasibility-based bound tightening with integer rounding, for at most `rounds`
    /// passes over the rows. Sound: only values no integer solution can take are removed.
    pub fn propagate(&mut self, rounds: usize) -> Propagation {
        if self.trivially_infeasible() {
            return Propagation::Infeasible;
        }
        for _ in 0..rounds {
            let mut changed = false;
            for r in 0..self.rows.len() {
                match self.propagate_row(r) {
                    None => return Propagation::Infeasible,
                    Some(c) => changed |= c,
                }
            }
            if !changed {
                break;
            }
        }
        Propagation::Consistent
    }

    /// Tightens bounds from one row; None if the row cannot hold.
    fn propagate_row(&mut self, r: usize) -> Option<bool> {
        let row = &self.rows[r];
        let (min, max) = row.expr.range(&self.bounds);
        if min.is_positive() || (row.rel == Rel::Eq && max.is_negative()) {
            return None;
        }
        let mut updates: Vec<(Var, Option<BigInt>, Option<BigInt>)> = Vec::new();
        for (v, c) in &row.expr.terms {
            let (l, h) = &self.bounds[*v];
            let (cmin, cmax) = if c.is_positive() {
                (c * l, c * h)
            } else {
                (c * h, c * l)
            };
            // c·x ≤ -(min - cmin)
            let up = -(&min - &cmin);
            let (mut new_lo, mut new_hi) = (None, None);
            if c.is_positive() {
                new_hi = Some(up.div_floor(c));
            } else {
                new_lo = Some(up.div_ceil(c));
            }
            if row.rel == Rel::Eq {
                // c·x ≥ -(max - cmax)
                let down = -(&max - &cmax);
                if c.is_positive() {
                    new_lo = Some(down.div_ceil(c));
                } else {
                    new_hi = Some(down.div_floor(c));
                }
            }
            updates.push((*v, new_lo, new_hi));
        }
        let mut changed = false;
        for (v, nl, nh) in updates {
            let b = &mut self.bounds[v];
            if let Some(nl) = nl {
                if nl > b.0 {
                    b.0 = nl;
                    changed = true;
                }
            }
            if let Some(nh) = nh {
                if nh < b.1 {
                    b.1 = nh;
                    changed = true;
                }
            }
            if b.0 > b.1 {
                return None;
            }
        }
        Some(changed)
    }

    /// The sub-problem of the rows connected (through shared variables) to `seeds`:
    /// `(problem, map from old to new variables)`. Variables not in the component keep no
    /// place in it.
    pub fn component(&self, seeds: &[Var]) -> (Problem, BTreeMap<Var, Var>) {
        let mut uf = UnionFind::new(self.bounds.len());
        for row in &self.rows {
            if let Some((first, _)) = row.expr.terms.first() {
                for (v, _) in &row.expr.terms[1..] {
                    uf.union(*first, *v);
                }
            }
        }
        let roots: Vec<Var> = seeds.iter().map(|s| uf.find(*s)).collect();
        let mut map: BTreeMap<Var, Var> = BTreeMap::new();
        let mut sub = Problem::default();
        let rename = |v: Var, sub: &mut Problem, map: &mut BTreeMap<Var, Var>| -> Var {
            *map.entry(v).or_insert_with(|| {
                let (l, h) = self.bounds[v].clone();
                sub.new_var(l, h)
            })
        };
        for s in seeds {
            rename(*s, &mut sub, &mut map);
        }
        for row in &self.rows {
            let Some((first, _)) = row.expr.terms.first() else {
                continue;
            };
            if !roots.contains(&uf.find(*first)) {
                continue;
            }
            let mut terms: Vec<(Var, BigInt)> = row
                .expr
                .terms
                .iter()
                .map(|(v, c)| (rename(*v, &mut sub, &mut map), c.clone()))
                .collect();
            terms.sort_by_key(|(v, _)| *v);
            sub.rows.push(Row {
                expr: LinExpr {
                    terms,
                    constant: row.expr.constant.clone(),
                },
                rel: row.rel,
            });
        }
        (sub, map)
    }

    /// The groups of variables connected through rows (each variable in exactly one group).
    pub fn components(&self) -> Vec<Vec<Var>> {
        let mut uf = UnionFind::new(self.bounds.len());
        for row in &self.rows {
            if let Some((first, _)) = row.expr.terms.first() {
                for (v, _) in &row.expr.terms[1..] {
                    uf.union(*first, *v);
                }
            }
        }
        let mut groups: BTreeMap<Var, Vec<Var>> = BTreeMap::new();
        for v in 0..self.bounds.len() {
            groups.entry(uf.find(v)).or_default().push(v);
        }
        groups.into_values().collect()
    }

    /// A canonical text of the problem (variables already numbered by first occurrence, as
    /// [`Problem::component`] does), for caching; `objective` is included when given.
    pub fn canonical_key(&self, objective: Option<&LinExpr>) -> String {
        use std::fmt::Write;
        let mut s = String::new();
        for (l, h) in &self.bounds {
            let _ = write!(s, "[{l},{h}]");
        }
        s.push('|');
        for row in &self.rows {
            for (v, c) in &row.expr.terms {
                let _ = write!(s, "{c}*{v}+");
            }
            let _ = write!(
                s,
                "{}{};",
                row.expr.constant,
                if row.rel == Rel::Le { "<=" } else { "=" }
            );
        }
        if let Some(o) = objective {
            s.push('|');
            for (v, c) in &o.terms {
                let _ = write!(s, "{c}*{v}+");
            }
        }
        s
    }

    /// True if the integer point satisfies every bound and row.
    pub fn satisfied_by(&self, values: &[BigInt]) -> bool {
        values.len() == self.bounds.len()
            && self
                .bounds
                .iter()
                .zip(values)
                .all(|((l, h), x)| l <= x && x <= h)
            && self.rows.iter().all(|r| {
                let v = r.expr.eval(values);
                match r.rel {
                    Rel::Le => !v.is_positive(),
                    Rel::Eq => v.is_zero(),
                }
            })
    }
}

struct UnionFind(Vec<usize>);

impl UnionFind {
    fn new(n: usize) -> Self {
        UnionFind((0..n).collect())
    }
    fn find(&mut self, mut x: usize) -> usize {
        while self.0[x] != x {
            self.0[x] = self.0[self.0[x]];
            x = self.0[x];
        }
        x
    }
    fn union(&mut self, a: usize, b: usize) {
        let (ra, rb) = (self.find(a), self.find(b));
        if ra != rb {
            self.0[ra.max(rb)] = ra.min(rb);
        }
    }
}
