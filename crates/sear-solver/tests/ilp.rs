//! The exact ILP back end: small known problems and a brute-force comparison on random
//! problems (every LP answer must be consistent with enumerating the integer points).

use num_bigint::BigInt;
use sear_solver::ilp::{Bounds, IlpSolver, LinExpr, Problem, Propagation};
use sear_solver::testing::Rng;

fn lin(terms: &[(usize, i64)], c: i64) -> LinExpr {
    let mut e = LinExpr::constant(c);
    for (v, k) in terms {
        e = e.add_scaled(&LinExpr::var(*v), &BigInt::from(*k));
    }
    e
}

#[test]
fn textbook_maximum_and_integer_infeasibility() {
    // max 3x+2y s.t. x+y ≤ 4, x+3y ≤ 6, 0 ≤ x ≤ 3, 0 ≤ y ≤ 10.
    let mut p = Problem::default();
    let x = p.new_var(0, 3);
    let y = p.new_var(0, 10);
    p.le0(lin(&[(x, 1), (y, 1)], -4));
    p.le0(lin(&[(x, 1), (y, 3)], -6));
    let mut ilp = IlpSolver::default();
    assert_eq!(
        ilp.bounds(&p, &lin(&[(x, 3), (y, 2)], 0)),
        Bounds::Range(0.into(), 11.into())
    );
    // x+y = 5, x-y = 2 has the rational solution (3.5, 1.5) but no integer one.
    let mut p = Problem::default();
    let x = p.new_var(0, 10);
    let y = p.new_var(0, 10);
    p.eq0(lin(&[(x, 1), (y, 1)], -5));
    p.eq0(lin(&[(x, 1), (y, -1)], -2));
    assert_eq!(ilp.feasible(&p), Some(false));
}

#[test]
fn foo_index_intervals_and_read_infeasibility() {
    // i + j ≥ 5, 0 ≤ i, j ≤ 3: i, j ∈ [2, 3]; reads in [0, 5] cannot sum to 11.
    let mut p = Problem::default();
    let i = p.new_var(0, 3);
    let j = p.new_var(0, 3);
    p.le0(lin(&[(i, -1), (j, -1)], 5));
    let mut ilp = IlpSolver::default();
    assert_eq!(
        ilp.bounds(&p, &LinExpr::var(i)),
        Bounds::Range(2.into(), 3.into())
    );
    assert_eq!(
        ilp.bounds(&p, &lin(&[(i, 4)], 1)),
        Bounds::Range(9.into(), 13.into())
    );
    let ai = p.new_var(0, 5);
    let aj = p.new_var(0, 5);
    p.le0(lin(&[(ai, -1), (aj, -1)], 11));
    assert_eq!(ilp.feasible(&p), Some(false));
    // Same problem again: answered by the cache.
    let before = ilp.stats.cache_hits;
    assert_eq!(ilp.feasible(&p), Some(false));
    assert!(ilp.stats.cache_hits > before);
}

#[test]
fn propagation_removes_wrap_variables() {
    // z = 4i - 2^32 o, 0 ≤ z < 2^32, i ∈ [0, 3], o ∈ [0, 3]: o must be 0.
    let mut p = Problem::default();
    let i = p.new_var(0, 3);
    let o = p.new_var(0, 3);
    let z = p.new_var(0, (1u64 << 32) - 1);
    p.eq0(lin(&[(z, 1), (i, -4)], 0).add_scaled(&LinExpr::var(o), &(BigInt::from(1u64 << 32))));
    assert_eq!(p.propagate(10), Propagation::Consistent);
    assert_eq!(p.bounds[o], (0.into(), 0.into()));
    assert_eq!(p.bounds[z], (0.into(), 12.into()));
}

/// Random small problems: the solver's claims must match enumeration of all integer points.
#[test]
fn random_problems_agree_with_enumeration() {
    let cases: u64 = std::env::var("SEAR_ILP_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(400);
    let mut rng = Rng::new(7);
    for case in 0..cases {
        let nv = 1 + rng.below(3) as usize;
        let mut p = Problem::default();
        for _ in 0..nv {
            let lo = rng.below(5) as i64 - 2;
            let hi = lo + rng.below(6) as i64;
            p.new_var(lo, hi);
        }
        for _ in 0..1 + rng.below(3) {
            let mut terms: Vec<(usize, i64)> = Vec::new();
            for v in 0..nv {
                if rng.chance(70) {
                    terms.push((v, rng.below(7) as i64 - 3));
                }
            }
            let e = lin(&terms, rng.below(9) as i64 - 4);
            if rng.chance(30) {
                p.eq0(e);
            } else {
                p.le0(e);
            }
        }
        let obj = lin(&[(0, rng.below(5) as i64 - 2), (nv - 1, 1)], 0);
        // Enumerate.
        let mut points = Vec::new();
        let mut cur = vec![0i64; nv];
        fn rec(p: &Problem, v: usize, cur: &mut Vec<i64>, out: &mut Vec<Vec<BigInt>>) {
            if v == cur.len() {
                let pt: Vec<BigInt> = cur.iter().map(|x| BigInt::from(*x)).collect();
                if p.satisfied_by(&pt) {
                    out.push(pt);
                }
                return;
            }
            let (lo, hi) = &p.bounds[v];
            let (lo, hi): (i64, i64) = (lo.try_into().unwrap_or(0), hi.try_into().unwrap_or(-1));
            for x in lo..=hi {
                cur[v] = x;
                rec(p, v + 1, cur, out);
            }
        }
        rec(&p, 0, &mut cur, &mut points);
        let mut ilp = IlpSolver::default();
        let feasible = ilp.feasible(&p);
        if points.is_empty() {
            assert_ne!(feasible, Some(true), "case {case}: claimed feasible: {p:?}");
        } else {
            assert_ne!(
                feasible,
                Some(false),
                "case {case}: claimed infeasible: {p:?}"
            );
            match ilp.bounds(&p, &obj) {
                Bounds::Range(lo, hi) => {
                    for pt in &points {
                        let v = obj.eval(pt);
                        assert!(
                            lo <= v && v <= hi,
                            "case {case}: {v} outside [{lo}, {hi}]: {p:?}"
                        );
                    }
                }
                Bounds::Unknown => {}
                Bounds::Infeasible => panic!("case {case}: bounds say infeasible: {p:?}"),
            }
        }
        let mut q = p.clone();
        if q.propagate(20) == Propagation::Infeasible {
            assert!(
                points.is_empty(),
                "case {case}: propagation claimed infeasible: {p:?}"
            );
        } else {
            for pt in &points {
                assert!(
                    q.satisfied_by(pt),
                    "case {case}: propagation cut a solution: {p:?}"
                );
            }
        }
    }
}
