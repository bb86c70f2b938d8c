//! An exact rational simplex over bounded variables: feasibility by the general simplex of
//! Dutertre and de Moura (the one inside SMT solvers), optimisation by the bounded primal
//! simplex, both with Bland's rule, and a small branch-and-bound for integer feasibility.
//!
//! All arithmetic is on `BigRational`, so every answer is exact: an `Infeasible` LP
//! relaxation proves the integer problem infeasible, and `[⌈LP min⌉, ⌊LP max⌋]` contains
//! every integer solution's value. Iteration and node limits turn into `None` ("don't
//! know"), never into a claim.
//!
//! The tableau is dense: the problems the pre-check builds are sliced into small connected
//! components first.

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Signed, Zero};

use super::problem::{LinExpr, Problem, Rel};

type Q = BigRational;

/// Pivot limit of one feasibility check or optimisation.
const PIVOT_LIMIT: usize = 5_000;

/// The outcome of an LP feasibility check.
pub enum Lp {
    /// The LP relaxation has no solution (nor, therefore, the integer problem).
    Infeasible,
    /// A feasible tableau, ready for optimisation.
    Feasible(Box<Simplex>),
    /// The pivot limit was hit.
    Unknown,
}

/// A feasible (or being-made-feasible) simplex tableau.
#[derive(Clone)]
pub struct Simplex {
    /// Number of structural variables (the problem's); slacks follow.
    structural: usize,
    lo: Vec<Q>,
    hi: Vec<Q>,
    value: Vec<Q>,
    /// For each variable, the row where it is basic.
    basic_row: Vec<Option<usize>>,
    /// For each row, its basic variable.
    row_basic: Vec<usize>,
    /// Row i: `row_basic[i] = Σ_j tab[i][j]·x_j` over non-basic j.
    tab: Vec<Vec<Q>>,
}

fn q(x: &BigInt) -> Q {
    Q::from_integer(x.clone())
}

impl Simplex {
    /// Builds the tableau of `p` (slack `s_i = Σ a·x` per row, bounded by the row) and
    /// checks feasibility.
    pub fn solve(p: &Problem) -> Lp {
        if p.trivially_infeasible() {
            return Lp::Infeasible;
        }
        let n = p.bounds.len();
        let rows: Vec<_> = p.rows.iter().filter(|r| !r.expr.terms.is_empty()).collect();
        let m = rows.len();
        let total = n + m;
        let mut lo: Vec<Q> = Vec::with_capacity(total);
        let mut hi: Vec<Q> = Vec::with_capacity(total);
        for (l, h) in &p.bounds {
            lo.push(q(l));
            hi.push(q(h));
        }
        let mut tab = Vec::with_capacity(m);
        for r in &rows {
            let (min, max) = r.expr.range(&p.bounds);
            // s = expr - constant; expr ≤ 0 ⇔ s ≤ -c; expr = 0 ⇔ s = -c.
            let c = &r.expr.constant;
            let s_min = q(&(min - c));
            let s_max = q(&(max - c));
            let bound = q(&-c);
            match r.rel {
                Rel::Le => {
                    lo.push(s_min);
                    hi.push(bound.min(s_max));
                }
                Rel::Eq => {
                    lo.push(bound.clone());
                    hi.push(bound);
                }
            }
            let mut line = vec![Q::zero(); total];
            for (v, coef) in &r.expr.terms {
                line[*v] = q(coef);
            }
            tab.push(line);
        }
        let mut value: Vec<Q> = lo[..n].to_vec();
        for line in &tab {
            let v = (0..n).fold(Q::zero(), |acc, j| acc + &line[j] * &value[j]);
            value.push(v);
        }
        let mut basic_row = vec![None; total];
        for (i, b) in basic_row.iter_mut().enumerate().skip(n) {
            *b = Some(i - n);
        }
        let mut s = Simplex {
            structural: n,
            lo,
            hi,
            value,
            basic_row,
            row_basic: (n..total).collect(),
            tab,
        };
        match s.check() {
            Some(true) => Lp::Feasible(Box::new(s)),
            Some(false) => Lp::Infeasible,
            None => Lp::Unknown,
        }
    }

    /// The current value of structural variable `v`.
    pub fn value(&self, v: usize) -> &Q {
        &self.value[v]
    }

    /// The number of structural variables.
    pub fn structural(&self) -> usize {
        self.structural
    }

    /// Restores feasibility: Some(true) feasible, Some(false) infeasible, None on the limit.
    fn check(&mut self) -> Option<bool> {
        for _ in 0..PIVOT_LIMIT {
            // Bland: the violating basic variable of smallest index.
            let mut violating: Option<(usize, bool)> = None;
            for (r, &b) in self.row_basic.iter().enumerate() {
                let below = self.value[b] < self.lo[b];
                let above = self.value[b] > self.hi[b];
                if (below || above) && violating.is_none_or(|(vr, _)| b < self.row_basic[vr]) {
                    violating = Some((r, below));
                }
            }
            let Some((r, below)) = violating else {
                return Some(true);
            };
            let b = self.row_basic[r];
            let mut entering: Option<usize> = None;
            for (j, a) in self.tab[r].iter().enumerate() {
                if a.is_zero() || self.basic_row[j].is_some() {
                    continue;
                }
                let increase_ok = self.value[j] < self.hi[j];
                let decrease_ok = self.value[j] > self.lo[j];
                let ok = if below {
                    (a.is_positive() && increase_ok) || (a.is_negative() && decrease_ok)
                } else {
                    (a.is_negative() && increase_ok) || (a.is_positive() && decrease_ok)
                };
                if ok {
                    entering = Some(j);
                    break;
                }
            }
            let Some(j) = entering else {
                return Some(false);
            };
            let target = if below {
                self.lo[b].clone()
            } else {
                self.hi[b].clone()
            };
            let theta = (&target - &self.value[b]) / &self.tab[r][j];
            self.shift_nonbasic(j, &theta);
            self.value[b] = target;
            self.pivot(r, j);
        }
        None
    }

    /// Moves non-basic `j` by `delta`, updating every basic variable.
    fn shift_nonbasic(&mut self, j: usize, delta: &Q) {
        if delta.is_zero() {
            return;
        }
        self.value[j] += delta;
        for (r, &b) in self.row_basic.iter().enumerate() {
            let a = &self.tab[r][j];
            if !a.is_zero() {
                let d = a * delta;
                self.value[b] += d;
            }
        }
    }

    /// Exchanges the basic variable of row `r` with non-basic `j`.
    fn pivot(&mut self, r: usize, j: usize) {
        let b = self.row_basic[r];
        let a = self.tab[r][j].clone();
        // x_j = (b - Σ_{k≠j} a_k x_k) / a
        let mut new_row: Vec<Q> = self.tab[r].iter().map(|x| -(x / &a)).collect();
        new_row[j] = Q::zero();
        new_row[b] = Q::one() / &a;
        for i in 0..self.tab.len() {
            if i == r {
                continue;
            }
            let c = self.tab[i][j].clone();
            if c.is_zero() {
                continue;
            }
            let line = &mut self.tab[i];
            for (k, nk) in new_row.iter().enumerate() {
                if !nk.is_zero() {
                    line[k] += &c * nk;
                }
            }
            line[j] = Q::zero();
        }
        self.tab[r] = new_row;
        self.row_basic[r] = j;
        self.basic_row[j] = Some(r);
        self.basic_row[b] = None;
    }

    /// The maximum of `obj` over the feasible region (None on the pivot limit). The
    /// tableau stays feasible (at the optimum) afterwards.
    pub fn maximize(&mut self, obj: &LinExpr) -> Option<Q> {
        for _ in 0..PIVOT_LIMIT {
            // Reduced costs over non-basic variables.
            let total = self.value.len();
            let mut d = vec![Q::zero(); total];
            for (v, c) in &obj.terms {
                let c = q(c);
                match self.basic_row[*v] {
                    None => d[*v] += c,
                    Some(r) => {
                        for (k, a) in self.tab[r].iter().enumerate() {
                            if !a.is_zero() {
                                d[k] += &c * a;
                            }
                        }
                    }
                }
            }
            let entering = (0..total).find(|&j| {
                self.basic_row[j].is_none()
                    && ((d[j].is_positive() && self.value[j] < self.hi[j])
                        || (d[j].is_negative() && self.value[j] > self.lo[j]))
            });
            let Some(j) = entering else {
                return Some(self.objective(obj));
            };
            let up = d[j].is_positive();
            // The step t ≥ 0 (x_j moves by ±t): own bound first, then every basic row.
            let mut step = if up {
                &self.hi[j] - &self.value[j]
            } else {
                &self.value[j] - &self.lo[j]
            };
            let mut leaving: Option<usize> = None;
            for (r, &b) in self.row_basic.iter().enumerate() {
                let a = &self.tab[r][j];
                if a.is_zero() {
                    continue;
                }
                let rate = if up { a.clone() } else { -a.clone() };
                let limit = if rate.is_positive() {
                    (&self.hi[b] - &self.value[b]) / &rate
                } else {
                    (&self.value[b] - &self.lo[b]) / -rate
                };
                let better = match leaving {
                    None => limit < step,
                    Some(lr) => limit < step || (limit == step && b < self.row_basic[lr]),
                };
                if better {
                    step = limit;
                    leaving = Some(r);
                }
            }
            let delta = if up { step } else { -step };
            self.shift_nonbasic(j, &delta);
            if let Some(r) = leaving {
                // Snap the leaving variable exactly onto the bound it reached.
                let b = self.row_basic[r];
                if (&self.value[b] - &self.lo[b]).abs() < (&self.value[b] - &self.hi[b]).abs() {
                    self.value[b] = self.lo[b].clone();
                } else {
                    self.value[b] = self.hi[b].clone();
                }
                self.pivot(r, j);
            }
        }
        None
    }

    /// The minimum of `obj` (None on the pivot limit).
    pub fn minimize(&mut self, obj: &LinExpr) -> Option<Q> {
        let neg = obj.scale(&-BigInt::one());
        self.maximize(&neg).map(|v| -v)
    }

    fn objective(&self, obj: &LinExpr) -> Q {
        obj.terms
            .iter()
            .fold(q(&obj.constant), |acc, (v, c)| acc + q(c) * &self.value[*v])
    }

    /// Narrows the bounds of structural variable `v` and restores feasibility.
    fn restrict(&mut self, v: usize, lo: Option<Q>, hi: Option<Q>) -> Option<bool> {
        if let Some(l) = lo {
            if l > self.lo[v] {
                self.lo[v] = l;
            }
        }
        if let Some(h) = hi {
            if h < self.hi[v] {
                self.hi[v] = h;
            }
        }
        if self.lo[v] > self.hi[v] {
            return Some(false);
        }
        if self.basic_row[v].is_none() {
            let target = if self.value[v] < self.lo[v] {
                Some(self.lo[v].clone())
            } else if self.value[v] > self.hi[v] {
                Some(self.hi[v].clone())
            } else {
                None
            };
            if let Some(t) = target {
                let delta = &t - &self.value[v];
                self.shift_nonbasic(v, &delta);
            }
        }
        self.check()
    }

    /// The first structural variable with a fractional value.
    fn fractional(&self) -> Option<usize> {
        (0..self.structural).find(|&v| !self.value[v].is_integer())
    }
}

/// The outcome of an integer search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum IntOutcome {
    /// No integer solution exists (proved).
    Infeasible,
    /// An integer solution (values of the structural variables).
    Point(Vec<BigInt>),
    /// The node or pivot limit was hit.
    Unknown,
}

/// Integer feasibility by branch and bound on the LP relaxation, exploring at most `nodes`
/// nodes.
pub fn integer_search(p: &Problem, nodes: usize) -> IntOutcome {
    let root = match Simplex::solve(p) {
        Lp::Infeasible => return IntOutcome::Infeasible,
        Lp::Unknown => return IntOutcome::Unknown,
        Lp::Feasible(s) => s,
    };
    let mut stack: Vec<Box<Simplex>> = vec![root];
    let mut explored = 0;
    let mut unknown = false;
    while let Some(s) = stack.pop() {
        let Some(v) = s.fractional() else {
            let point = (0..s.structural).map(|v| s.value[v].to_integer()).collect();
            return IntOutcome::Point(point);
        };
        explored += 1;
        if explored > nodes {
            return IntOutcome::Unknown;
        }
        let x = s.value(v).clone();
        let mut down = s.clone();
        let mut up = s;
        match up.restrict(v, Some(Q::from_integer(x.ceil().to_integer())), None) {
            Some(true) => stack.push(up),
            Some(false) => {}
            None => unknown = true,
        }
        match down.restrict(v, None, Some(Q::from_integer(x.floor().to_integer()))) {
            Some(true) => stack.push(down),
            Some(false) => {}
            None => unknown = true,
        }
    }
    if unknown {
        IntOutcome::Unknown
    } else {
        IntOutcome::Infeasible
    }
}

/// Integer feasibility: Some(false) proves there is no integer solution, Some(true) found
/// one, None is "don't know".
pub fn integer_feasible(p: &Problem, nodes: usize) -> Option<bool> {
    match integer_search(p, nodes) {
        IntOutcome::Infeasible => Some(false),
        IntOutcome::Point(_) => Some(true),
        IntOutcome::Unknown => None,
    }
}
