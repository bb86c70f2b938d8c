//! Exact integer linear programming for the UNSAT pre-check.
//!
//! * [`problem`]: bounded integer variables and linear rows, bound propagation, slicing into
//!   connected components, canonical keys.
//! * [`simplex`]: an exact rational simplex (feasibility, min/max, branch and bound).
//! * [`IlpSolver`] (this module): answers feasibility and bound questions component by
//!   component, with a cache of canonicalised problems and a cache of feasible points.
//!
//! Why not `good_lp` + `microlp`: microlp computes in `f64`. The pre-check's coefficients go
//! up to 2^32 and 2^64 (wrap-around of 32- and 64-bit arithmetic), beyond the 2^53 that
//! doubles hold exactly, and a wrong "infeasible" silently drops feasible paths. Exact
//! rationals make every UNSAT claim and every interval sound by construction; the problems
//! are small after slicing, so the cost stays low (see docs/techniques/type-interval-solving.md).

pub mod problem;
pub mod simplex;

use num_bigint::BigInt;
use rustc_hash::FxHashMap;

pub use problem::{LinExpr, Problem, Propagation, Rel, Row, Var};
pub use simplex::{integer_feasible, integer_search, IntOutcome, Lp, Simplex};

/// Bounds of an objective over a problem.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Bounds {
    /// The problem has no integer solution.
    Infeasible,
    /// Every integer solution gives the objective a value in `[lo, hi]`.
    Range(BigInt, BigInt),
    /// The solver gave up (limits): no information.
    Unknown,
}

/// Counters of an [`IlpSolver`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct IlpStats {
    /// LP problems solved (feasibility or optimisation of one component).
    pub lp_solves: u64,
    /// Problems answered from the cache of canonical problems.
    pub cache_hits: u64,
    /// Feasibility problems answered by a cached feasible point.
    pub point_hits: u64,
}

#[derive(Clone, Debug)]
enum Cached {
    Feasible(Option<bool>),
    Bounds(Bounds),
}

/// Most feasible points kept for reuse.
const POINT_CACHE: usize = 32;
/// Most cached problems before the cache is cleared.
const CACHE_LIMIT: usize = 100_000;

/// Feasibility and optimisation over components, with caches.
pub struct IlpSolver {
    cache: FxHashMap<String, Cached>,
    points: Vec<Vec<BigInt>>,
    /// Branch-and-bound node limit of feasibility checks.
    pub bb_nodes: usize,
    /// Counters.
    pub stats: IlpStats,
}

impl Default for IlpSolver {
    fn default() -> Self {
        IlpSolver {
            cache: FxHashMap::default(),
            points: Vec::new(),
            bb_nodes: 32,
            stats: IlpStats::default(),
        }
    }
}

impl IlpSolver {
    fn remember(&mut self, key: String, value: Cached) {
        if self.cache.len() >= CACHE_LIMIT {
            self.cache.clear();
        }
        self.cache.insert(key, value);
    }

    /// Integer feasibility of `p`: Some(false) is a proof of infeasibility, Some(true) a
    /// found solution, None "don't know". Each connected component is decided separately.
    pub fn feasible(&mut self, p: &Problem) -> Option<bool> {
        if p.trivially_infeasible() {
            return Some(false);
        }
        let mut unknown = false;
        for group in p.components() {
            let (sub, _) = p.component(&group[..1]);
            if sub.rows.is_empty() {
                continue;
            }
            match self.feasible_component(&sub) {
                Some(false) => return Some(false),
                Some(true) => {}
                None => unknown = true,
            }
        }
        if unknown {
            None
        } else {
            Some(true)
        }
    }

    fn feasible_component(&mut self, sub: &Problem) -> Option<bool> {
        let key = sub.canonical_key(None);
        if let Some(Cached::Feasible(r)) = self.cache.get(&key) {
            self.stats.cache_hits += 1;
            return *r;
        }
        if self.points.iter().any(|pt| sub.satisfied_by(pt)) {
            self.stats.point_hits += 1;
            return Some(true);
        }
        self.stats.lp_solves += 1;
        let answer = match integer_search(sub, self.bb_nodes) {
            IntOutcome::Infeasible => Some(false),
            IntOutcome::Point(pt) => {
                if self.points.len() >= POINT_CACHE {
                    self.points.remove(0);
                }
                self.points.push(pt);
                Some(true)
            }
            IntOutcome::Unknown => None,
        };
        self.remember(key, Cached::Feasible(answer));
        answer
    }

    /// Integer bounds of `obj` over the component of `p` its variables belong to.
    pub fn bounds(&mut self, p: &Problem, obj: &LinExpr) -> Bounds {
        if p.trivially_infeasible() {
            return Bounds::Infeasible;
        }
        if obj.terms.is_empty() {
            return Bounds::Range(obj.constant.clone(), obj.constant.clone());
        }
        let seeds: Vec<Var> = obj.terms.iter().map(|(v, _)| *v).collect();
        let (sub, map) = p.component(&seeds);
        let sub_obj = LinExpr {
            terms: obj.terms.iter().map(|(v, c)| (map[v], c.clone())).collect(),
            constant: BigInt::default(),
        };
        let key = sub.canonical_key(Some(&sub_obj));
        let found = match self.cache.get(&key) {
            Some(Cached::Bounds(b)) => {
                self.stats.cache_hits += 1;
                b.clone()
            }
            _ => {
                self.stats.lp_solves += 1;
                let b = optimise(&sub, &sub_obj);
                self.remember(key, Cached::Bounds(b.clone()));
                b
            }
        };
        match found {
            Bounds::Range(lo, hi) => Bounds::Range(lo + &obj.constant, hi + &obj.constant),
            other => other,
        }
    }
}

fn optimise(p: &Problem, obj: &LinExpr) -> Bounds {
    let mut s = match Simplex::solve(p) {
        Lp::Infeasible => return Bounds::Infeasible,
        Lp::Unknown => return Bounds::Unknown,
        Lp::Feasible(s) => s,
    };
    let (Some(max), Some(min)) = (s.maximize(obj), s.minimize(obj)) else {
        return Bounds::Unknown;
    };
    let lo = min.ceil().to_integer();
    let hi = max.floor().to_integer();
    if lo > hi {
        return Bounds::Infeasible;
    }
    Bounds::Range(lo, hi)
}
