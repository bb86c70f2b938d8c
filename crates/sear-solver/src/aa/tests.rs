//! The thesis's worked example (Fig. 4.1, Table 4.1) and the renaming rules (spec 003
//! §3.7), through the cache and through the [`crate::Solver`] facade.

use std::sync::Arc;

use sear_expr::{Array, ArrayKind, ArrayRef, Expr, UpdateList};

use super::cache::AaCache;
use super::equisat::Bijection;
use crate::address::AddressBindings;
use crate::config::SolverConfig;
use crate::query::{Query, QueryMeta, SolverError};
use crate::sat::{SatQuery, SatResult};
use crate::Solver;

fn base(name: &str) -> ArrayRef {
    Array::new(name, 8, ArrayKind::SymbolicAddress, None)
}

fn read64(a: &ArrayRef) -> Expr {
    Expr::read_lsb(&UpdateList::new(a.clone()), Expr::constant(0, 32), 8)
}

fn input(name: &str) -> (ArrayRef, Expr) {
    let a = Array::new(name, 4, ArrayKind::SymbolicInput, None);
    let e = Expr::read_lsb(&UpdateList::new(a.clone()), Expr::constant(0, 32), 4);
    (a, e)
}

fn constant(name: &str, bytes: &[u8]) -> ArrayRef {
    Array::new(
        name,
        bytes.len() as u64,
        ArrayKind::MemoryObject,
        Some(Arc::from(bytes.to_vec().into_boxed_slice())),
    )
}

/// One path of Fig. 4.1 after `z > 0` was decided: the row pointers β_r0, β_r1 written
/// into a table of two 8-byte pointers, `i` and `j` below 2, rows of 2 bytes with MAGIC (7)
/// at `array[0][1]`.
struct Path {
    rows: [ArrayRef; 2],
    bindings: AddressBindings,
    /// `i < 2`, `j < 2`.
    ranges: Vec<Expr>,
    /// `p = select_8(store(store(table, 0, β_r0), 8, β_r1), i*8) + j`.
    p: Expr,
    contents: [ArrayRef; 2],
}

impl Path {
    fn new(tag: &str, addresses: [u64; 2], extents: [u64; 2]) -> Path {
        let rows = [base(&format!("beta_{tag}0")), base(&format!("beta_{tag}1"))];
        Path::with_rows(tag, rows, addresses, extents)
    }

    /// A path whose table holds the bases `rows` (possibly the same twice).
    fn with_rows(tag: &str, rows: [ArrayRef; 2], addresses: [u64; 2], extents: [u64; 2]) -> Path {
        let mut bindings = AddressBindings::default();
        for k in 0..2 {
            bindings.bind(rows[k].clone(), Expr::constant(addresses[k] as u128, 64));
            bindings.set_extent(rows[k].clone(), extents[k]);
        }
        let (_, i) = input(&format!("i_{tag}"));
        let (_, j) = input(&format!("j_{tag}"));
        let two = Expr::constant(2, 32);
        let ranges = vec![Expr::ult(i.clone(), two.clone()), Expr::ult(j.clone(), two)];
        let mut table = UpdateList::new(constant(&format!("table_{tag}"), &[0; 16]));
        for (k, row) in rows.iter().enumerate() {
            for b in 0..8 {
                let index = Expr::constant((8 * k + b) as u128, 32);
                table = table.write(index, Expr::extract(read64(row), 8 * b as u32, 8));
            }
        }
        let slot = Expr::read_lsb(&table, Expr::mul(i, Expr::constant(8, 32)), 8);
        let p = Expr::add(slot, Expr::zext(j, 64));
        let contents = [
            constant(&format!("row0_{tag}"), &[0, 7]),
            constant(&format!("row1_{tag}"), &[0, 0]),
        ];
        Path {
            rows,
            bindings,
            ranges,
            p,
            contents,
        }
    }

    /// `β_k <= p < β_k + 2`: the resolution to row `k`.
    fn guard(&self, k: usize) -> Expr {
        let offset = Expr::sub(self.p.clone(), read64(&self.rows[k]));
        Expr::ule(offset, Expr::constant(1, 64))
    }

    /// Table 4.1's query at line 17 in the state that resolved `p` to row `k`: the path
    /// condition and `select(a_k, p - β_k) = 7`.
    fn query(&self, k: usize) -> (Vec<Expr>, Expr) {
        let mut pc = self.ranges.clone();
        pc.push(self.guard(k));
        let offset = Expr::sub(self.p.clone(), read64(&self.rows[k]));
        let cell = Expr::read(
            &UpdateList::new(self.contents[k].clone()),
            Expr::extract(offset, 0, 32),
        );
        (pc, Expr::eq(cell, Expr::constant(7, 8)))
    }
}

/// Caches `q` as UNSAT.
fn put(cache: &mut AaCache, q: &(Vec<Expr>, Expr), bindings: &AddressBindings) {
    let key = cache.key(q.0.iter(), q.1.clone());
    cache.insert(key, bindings, &crate::SatResult::Unsat);
}

fn find(
    cache: &mut AaCache,
    q: &(Vec<Expr>, Expr),
    bindings: &AddressBindings,
) -> Option<super::cache::Hit> {
    let key = cache.key(q.0.iter(), q.1.clone());
    cache.lookup(&key, bindings)
}

#[test]
fn table_4_1_q7_hits_q5_and_q8_hits_q6_through_the_renaming() {
    let s1 = Path::new("a", [200, 300], [2, 2]);
    let s2 = Path::new("b", [500, 600], [2, 2]);
    let mut cache = AaCache::new();
    for k in 0..2 {
        let q = s1.query(k);
        put(&mut cache, &q, &s1.bindings);
    }
    // q7 (s5, row 0) is q5 with β2 → β5, β3 → β6 (and s2's own i and j).
    let hit = find(&mut cache, &s2.query(0), &s2.bindings).expect("q7 hits q5");
    assert!(hit.renamed);
    assert_eq!(hit.bijection.get(&s1.rows[0]), Some(&s2.rows[0]));
    assert_eq!(hit.bijection.get(&s1.rows[1]), Some(&s2.rows[1]));
    // q8 hits q6 the same way.
    let hit = find(&mut cache, &s2.query(1), &s2.bindings).expect("q8 hits q6");
    assert_eq!(hit.bijection.get(&s1.rows[1]), Some(&s2.rows[1]));
    // q6 is no renaming of q5: the guard names the other row.
    let mut fresh = AaCache::new();
    let q5 = s1.query(0);
    put(&mut fresh, &q5, &s1.bindings);
    assert!(find(&mut fresh, &s1.query(1), &s1.bindings).is_none());
}

#[test]
fn renamed_bases_need_equal_extents() {
    let s1 = Path::new("a", [200, 300], [2, 2]);
    let larger = Path::new("b", [500, 600], [2, 4]);
    let mut cache = AaCache::new();
    let q6 = s1.query(1);
    put(&mut cache, &q6, &s1.bindings);
    assert!(find(&mut cache, &larger.query(1), &larger.bindings).is_none());
}

#[test]
fn add_pair_rejects_non_injective_mappings() {
    let (b2, b3, b5) = (base("b2"), base("b3"), base("b5"));
    let mut m = Bijection::default();
    assert!(m.add_pair(&b2, &b5));
    assert!(m.add_pair(&b2, &b5));
    assert!(!m.add_pair(&b3, &b5));
    assert!(!m.add_pair(&b2, &b3));
    // Through equi-sat: a table holding β5 twice is no renaming of one holding β2 and β3.
    let s1 = Path::new("a", [200, 300], [2, 2]);
    let b = base("beta_twice");
    let twice = Path::with_rows("b", [b.clone(), b], [500, 500], [2, 2]);
    let mut cache = AaCache::new();
    let q = s1.query(0);
    put(&mut cache, &q, &s1.bindings);
    assert!(find(&mut cache, &twice.query(0), &twice.bindings).is_none());
}

fn aa_solver(validate: bool) -> Solver {
    Solver::new(&SolverConfig {
        aa_cache: true,
        validate_caching: validate,
        ..SolverConfig::default()
    })
    .unwrap()
}

#[test]
fn the_facade_answers_the_second_path_from_the_cache() {
    let s1 = Path::new("a", [200, 300], [2, 2]);
    let s2 = Path::new("b", [500, 600], [2, 2]);
    let meta = QueryMeta::default();
    let mut solver = aa_solver(true);
    let mut answers = Vec::new();
    for s in [&s1, &s2] {
        for k in 0..2 {
            let (pc, e) = s.query(k);
            let q = Query::new(&pc, e, &meta).with_addresses(&s.bindings);
            answers.push(solver.may_be_true(&q).unwrap());
        }
    }
    // Row 0 holds MAGIC at [1], row 1 has none.
    assert_eq!(answers, [true, false, true, false]);
    let stats = solver.stats().aa_cache.unwrap();
    assert_eq!(stats.hits, 2, "{stats:?}");
    assert_eq!(stats.hits_c3, 2);
    assert_eq!(stats.hits_renamed, 2);
    assert_eq!(stats.validated, 2);
    assert_eq!(stats.validation_failures, 0);
    // The exact cache alone misses the second path: its queries name other addresses.
    let mut plain = Solver::new(&SolverConfig::default()).unwrap();
    for s in [&s1, &s2] {
        for k in 0..2 {
            let (pc, e) = s.query(k);
            let q = Query::new(&pc, e, &meta).with_addresses(&s.bindings);
            plain.may_be_true(&q).unwrap();
        }
    }
    assert_eq!(plain.stats().layer("query-cache").unwrap().hits, 0);
}

#[test]
fn engine_internal_queries_are_never_served() {
    let s1 = Path::new("a", [200, 300], [2, 2]);
    let s2 = Path::new("b", [500, 600], [2, 2]);
    let mut solver = aa_solver(false);
    let internal = QueryMeta {
        internal: true,
        ..QueryMeta::default()
    };
    for s in [&s1, &s2] {
        // KLEE's early exit: must p be below β_1 + 2? (address-dependent).
        let below = Expr::ult(
            s.p.clone(),
            Expr::add(read64(&s.rows[1]), Expr::constant(2, 64)),
        );
        let q = Query::new(&s.ranges, below, &internal).with_addresses(&s.bindings);
        assert!(solver.must_be_true(&q).unwrap());
    }
    let stats = solver.stats().aa_cache.unwrap();
    assert_eq!(
        (stats.hits, stats.c2, stats.entries),
        (0, 0, 0),
        "{stats:?}"
    );
    assert_eq!(stats.internal, 2);
}

/// `p = β_r0 + j == β_r1` with `j < 200`: address-dependent (it measures the distance
/// between two objects), the thesis's failure mode.
fn distance_query(s: &Path) -> (Vec<Expr>, Expr) {
    let (_, j) = input(&format!("jd_{}", s.rows[0].name()));
    let pc = vec![Expr::ult(j.clone(), Expr::constant(200, 32))];
    let p = Expr::add(read64(&s.rows[0]), Expr::zext(j, 64));
    (pc, Expr::eq(p, read64(&s.rows[1])))
}

#[test]
fn validation_turns_a_wrong_unsat_hit_into_a_solver_failure() {
    let near = Path::new("a", [200, 300], [2, 2]);
    let far = Path::new("b", [500, 1000], [2, 2]);
    let meta = QueryMeta::default();
    let ask = |solver: &mut Solver, s: &Path| {
        let (pc, e) = distance_query(s);
        let q = Query::new(&pc, e, &meta).with_addresses(&s.bindings);
        solver.may_be_true(&q)
    };
    let mut solver = aa_solver(true);
    assert_eq!(ask(&mut solver, &far), Ok(false));
    match ask(&mut solver, &near) {
        Err(SolverError::Failure(m)) => assert!(m.contains("AA CACHE VALIDATION FAILED"), "{m}"),
        other => panic!("expected a validation failure, got {other:?}"),
    }
    assert_eq!(solver.stats().aa_cache.unwrap().validation_failures, 1);
    // A SAT hit is only used when its translated model satisfies the query.
    let mut solver = aa_solver(false);
    assert_eq!(ask(&mut solver, &near), Ok(true));
    assert_eq!(ask(&mut solver, &far), Ok(false));
    let stats = solver.stats().aa_cache.unwrap();
    assert_eq!((stats.hits, stats.sat_hits_refuted), (0, 1), "{stats:?}");
}

/// A chain that answers UNSAT and records the answers it is taught.
#[derive(Default)]
struct Recorder {
    checks: usize,
    learned: usize,
}

impl crate::sat::SatSolver for Recorder {
    fn name(&self) -> &'static str {
        "recorder"
    }
    fn check(&mut self, _query: &SatQuery) -> Result<SatResult, SolverError> {
        self.checks += 1;
        Ok(SatResult::Unsat)
    }
    fn set_timeout(&mut self, _timeout: Option<std::time::Duration>) {}
    fn collect_stats(&self, _out: &mut Vec<crate::stats::LayerStats>) {}
    fn learn(&mut self, _query: &SatQuery, _result: &SatResult) {
        self.learned += 1;
    }
}

/// `x < 2 ∧ x + 100 = 0` over the input `x`, or `x < 2 ∧ β + x = 0` with a base `β`, as
/// the layer receives it: the solver form and the agnostic form are the same expressions.
fn unsat_query(x: &str, beta: Option<&ArrayRef>) -> (Vec<Expr>, Expr) {
    let (_, x) = input(x);
    let pc = vec![Expr::ult(x.clone(), Expr::constant(2, 32))];
    let e = match beta {
        None => Expr::eq(Expr::add(x, Expr::constant(100, 32)), Expr::constant(0, 32)),
        Some(b) => Expr::eq(
            Expr::add(read64(b), Expr::zext(x, 64)),
            Expr::constant(0, 64),
        ),
    };
    (pc, e)
}

#[test]
fn only_renamed_address_free_unsat_hits_are_taught_to_the_chain() {
    let meta = QueryMeta::default();
    let (beta_a, beta_b) = (base("beta_a"), base("beta_b"));
    let extents: rustc_hash::FxHashMap<ArrayRef, u64> = [(beta_a.clone(), 2), (beta_b.clone(), 2)]
        .into_iter()
        .collect();
    let mut layer = super::layer::AaLayer::new(false);
    let mut chain = Recorder::default();
    let mut ask = |layer: &mut super::layer::AaLayer, q: &(Vec<Expr>, Expr)| {
        let sat = SatQuery::new(&q.0, q.1.clone(), &meta, true, false);
        let agnostic = super::layer::Agnostic {
            constraints: &q.0,
            expr: &q.1,
            extents: &extents,
        };
        assert_eq!(
            layer.check(&mut chain, &sat, agnostic),
            Ok(SatResult::Unsat)
        );
        (chain.checks, chain.learned)
    };
    // A miss is decided by the chain, which keeps the answer itself.
    let first = unsat_query("x", None);
    assert_eq!(ask(&mut layer, &first), (1, 0));
    // The same query again: a hit without renaming, which the chain's caches already hold.
    assert_eq!(ask(&mut layer, &first), (1, 0));
    // An address-free hit through a renaming of inputs is exact: taught to the chain.
    assert_eq!(ask(&mut layer, &unsat_query("y", None)), (1, 1));
    // An address-dependent UNSAT hit rests on the agnostic assumption: not taught.
    assert_eq!(ask(&mut layer, &unsat_query("u", Some(&beta_a))), (2, 1));
    assert_eq!(ask(&mut layer, &unsat_query("v", Some(&beta_b))), (2, 1));
    let stats = layer.stats();
    assert_eq!(
        (stats.hits, stats.hits_renamed, stats.hits_c3),
        (3, 2, 1),
        "{stats:?}"
    );
}
