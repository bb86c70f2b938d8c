//! The worked examples 6.4.1–6.4.3 of the thesis (spec 003 §5.7) as tests of each stage,
//! and the stage over real cores.

use rustc_hash::FxHashSet;
use sear_expr::{Array, ArrayKind, ArrayRef, Assignment, Expr, UpdateList};

use super::clauses::{negated_instance, Clauses};
use super::model;
use super::{QuantifiedStage, Stage};
use crate::config::{QuantifiedConfig, QuantifiedCore};
use crate::query::QueryMeta;
use crate::sat::{SatQuery, SatResult, SatSolver};
use crate::z3core::{Z3Core, Z3Mode};

struct Example {
    s: ArrayRef,
    n: ArrayRef,
    k: ArrayRef,
    constraints: Vec<Expr>,
}

fn word(a: &ArrayRef) -> Expr {
    Expr::read_lsb(&UpdateList::new(a.clone()), Expr::constant(0, 64), 8)
}

fn c(v: u128) -> Expr {
    Expr::constant(v, 64)
}

/// `φ = s[n]=0 ∧ 1≤k≤10 ∧ s[k−1]=8 ∧ ∀i. 1≤i≤k → s[i−1]≠0`.
fn example() -> Example {
    let s = Array::with_index_width("s", 8, 64, ArrayKind::SymbolicInput, None);
    let n = Array::with_index_width("n", 8, 64, ArrayKind::SymbolicInput, None);
    let k = Array::with_index_width("k", 8, 64, ArrayKind::Other, None);
    let sul = UpdateList::new(s.clone());
    let (nv, kv) = (word(&n), word(&k));
    let i = Expr::fresh_var(64);
    let body = Expr::ne(
        Expr::read(&sul, Expr::sub(i.clone(), c(1))),
        Expr::constant(0, 8),
    );
    let constraints = vec![
        Expr::eq(Expr::constant(0, 8), Expr::read(&sul, nv)),
        Expr::ule(c(1), kv.clone()),
        Expr::ule(kv.clone(), c(10)),
        Expr::eq(
            Expr::constant(8, 8),
            Expr::read(&sul, Expr::sub(kv.clone(), c(1))),
        ),
        Expr::forall(i, kv, body),
    ];
    Example {
        s,
        n,
        k,
        constraints,
    }
}

fn model_of(e: &Example, n: u8, k: u8, s: [u8; 8]) -> Assignment {
    let mut m = Assignment::new();
    m.insert(e.s.clone(), s.to_vec());
    m.insert(e.n.clone(), vec![n, 0, 0, 0, 0, 0, 0, 0]);
    m.insert(e.k.clone(), vec![k, 0, 0, 0, 0, 0, 0, 0]);
    m
}

#[test]
fn strip_adds_the_first_instance_and_the_e_matched_range() {
    let e = example();
    let clauses = Clauses::of(&e.constraints);
    assert_eq!((clauses.qf.len(), clauses.q.len()), (4, 1));
    let q = &clauses.q[0];
    // s[n] = 0 is ¬(s[i−1] ≠ 0)[n+1/i].
    let t = negated_instance(&clauses.qf[0], &q.body, &q.var).expect("e-matched");
    assert_eq!(t, Expr::add(c(1), word(&e.n)));
    let (stripped, matched) = clauses.strip();
    assert_eq!(matched, 1);
    assert!(!sear_expr::quant::contains_forall(&stripped));
    // φ ⊨ strip(φ): the thesis's first model satisfies strip but not φ.
    let m = model_of(&e, 7, 7, [1, 0, 0, 0, 0, 0, 8, 0]);
    assert!(m.satisfies(&stripped));
    assert!(!model::satisfies(&m, &clauses));
    // The range constraint excludes n + 1 ∈ [1, k].
    let bad = model_of(&e, 2, 7, [1, 1, 0, 1, 1, 1, 8, 0]);
    assert!(!bad.satisfies(&stripped));
}

#[test]
fn duplicate_and_repair_follow_examples_6_4_2_and_6_4_3() {
    let e = example();
    let clauses = Clauses::of(&e.constraints);
    let m = model_of(&e, 7, 7, [1, 0, 0, 0, 0, 0, 8, 0]);
    // Duplicate copies s[0] over s[1..=6]: s[k−1] = 8 is violated.
    let m_d = model::duplicate(&clauses, &m, &FxHashSet::default());
    assert_eq!(m_d.get(&e.s), Some(&[1, 1, 1, 1, 1, 1, 1, 0][..]));
    assert!(!model::satisfies(&m_d, &clauses));
    // Had strip found s[0] = 8, duplicate alone would succeed.
    let lucky = model_of(&e, 7, 7, [8, 0, 0, 0, 0, 0, 8, 0]);
    let dup = model::duplicate(&clauses, &lucky, &FxHashSet::default());
    assert_eq!(dup.get(&e.s), Some(&[8, 8, 8, 8, 8, 8, 8, 0][..]));
    assert!(model::satisfies(&dup, &clauses));
    // Repair: the violated clause s[k−1] = 8 reads s[6]; the instance touching it is
    // (s[i−1] ≠ 0)[7/i]; n and k are pinned.
    let conflicts = model::conflicts(&clauses, &m_d);
    assert!(conflicts.contains(&(e.s.clone(), 6)));
    let instances = model::conflict_instances(&clauses, &m_d, &conflicts);
    assert!(instances.contains(&clauses.q[0].instance(7)));
    let pins = model::pins(&clauses, &m_d, &instances);
    let strengthened: Vec<Expr> = clauses
        .strip()
        .0
        .into_iter()
        .chain(instances)
        .chain(pins)
        .collect();
    // The thesis's model of the strengthened query, duplicated around the conflicts.
    let m2 = model_of(&e, 7, 7, [1, 0, 0, 0, 0, 0, 8, 0]);
    assert!(m2.satisfies(&strengthened));
    assert!(!model_of(&e, 6, 7, [1, 0, 0, 0, 0, 0, 8, 0]).satisfies(&strengthened));
    let m_r = model::duplicate(&clauses, &m2, &conflicts);
    assert_eq!(m_r.get(&e.s), Some(&[1, 1, 1, 1, 1, 1, 8, 0][..]));
    assert!(model::satisfies(&m_r, &clauses));
}

fn stage(config: QuantifiedConfig) -> QuantifiedStage {
    QuantifiedStage::new(Box::new(Z3Core::new(Z3Mode::FreshSmt)), &config)
}

fn check(stage: &mut QuantifiedStage, constraints: &[Expr]) -> SatResult {
    let meta = QueryMeta::default();
    let q = SatQuery::new(constraints, Expr::true_(), &meta, false, true);
    stage.check(&q).expect("answered")
}

#[test]
fn the_procedure_solves_the_example_and_proves_unsat_at_strip() {
    let e = example();
    let mut st = stage(QuantifiedConfig {
        stage: true,
        validate: true,
        ..Default::default()
    });
    match check(&mut st, &e.constraints) {
        SatResult::Sat(m) => assert!(m.satisfies(&e.constraints)),
        SatResult::Unsat => panic!("the example is satisfiable"),
    }
    assert_ne!(st.last_stage(), Some(Stage::Fallback));
    // k = 3 and s[1] = 0: s[1] = 0 is the negated instance at i = 2 ≤ k: UNSAT at strip.
    let mut unsat = e.constraints.clone();
    unsat.push(Expr::eq(c(3), word(&e.k)));
    unsat.push(Expr::eq(
        Expr::constant(0, 8),
        Expr::read(&UpdateList::new(e.s.clone()), c(1)),
    ));
    assert_eq!(check(&mut st, &unsat), SatResult::Unsat);
    assert_eq!(st.last_stage(), Some(Stage::StripUnsat));
    let mut stats = Vec::new();
    st.collect_stats(&mut stats);
    assert_eq!(stats[0].counter("quantified_queries"), 2);
    assert_eq!(stats[0].counter("validated"), 2);
    assert_eq!(stats[0].counter("validation_failures"), 0);
    // A quantifier-free query passes through untouched.
    let qf = vec![Expr::eq(c(3), word(&e.k))];
    assert!(check(&mut st, &qf).is_sat());
    let mut stats = Vec::new();
    st.collect_stats(&mut stats);
    assert_eq!(stats[0].counter("quantified_queries"), 2);
}

#[test]
fn the_cores_decide_quantified_queries_alone() {
    let e = example();
    let mut unsat = e.constraints.clone();
    unsat.push(Expr::eq(c(3), word(&e.k)));
    unsat.push(Expr::eq(
        Expr::constant(0, 8),
        Expr::read(&UpdateList::new(e.s.clone()), c(1)),
    ));
    for core in [QuantifiedCore::Z3, QuantifiedCore::Bitwuzla] {
        let mut st = stage(QuantifiedConfig {
            stage: true,
            core_only: true,
            core,
            ..Default::default()
        });
        match check(&mut st, &e.constraints) {
            SatResult::Sat(m) => assert!(m.satisfies(&e.constraints), "{core:?}"),
            SatResult::Unsat => panic!("{core:?}: the example is satisfiable"),
        }
        assert_eq!(st.last_stage(), Some(Stage::Fallback));
        assert_eq!(check(&mut st, &unsat), SatResult::Unsat, "{core:?}");
    }
}

/// A string scan: `s` with its NUL written at `n − 1`, scanned from a symbolic start `p < n`
/// by `∀i. 1≤i≤k → s[p+i−1] ≠ 0`. A scan past the NUL (`p + k ≥ n`) is UNSAT, and strip
/// proves it with the instance at the write's index (`t = n − p`), without the core.
#[test]
fn strip_instantiates_at_write_indices() {
    let s = Array::with_index_width("s", 8, 64, ArrayKind::SymbolicInput, None);
    let n = Array::with_index_width("n", 8, 64, ArrayKind::SymbolicInput, None);
    let p = Array::with_index_width("p", 8, 64, ArrayKind::SymbolicInput, None);
    let k = Array::with_index_width("k", 8, 64, ArrayKind::Other, None);
    let (nv, pv, kv) = (word(&n), word(&p), word(&k));
    let nul = UpdateList::new(s).write(Expr::sub(nv.clone(), c(1)), Expr::constant(0, 8));
    let i = Expr::fresh_var(64);
    let at = Expr::add(pv.clone(), Expr::sub(i.clone(), c(1)));
    let body = Expr::ne(Expr::read(&nul, at), Expr::constant(0, 8));
    let clause = Expr::forall(i, kv.clone(), body);
    let mut constraints = vec![
        Expr::ule(c(1), nv.clone()),
        Expr::ule(nv.clone(), c(10)),
        Expr::ult(pv.clone(), nv.clone()),
        Expr::ule(kv.clone(), c(10)),
        clause,
    ];
    let clauses = Clauses::of(&constraints);
    assert!(!clauses.q[0].write_triggers().is_empty(), "the NUL's index");
    let mut st = stage(QuantifiedConfig {
        stage: true,
        validate: true,
        ..Default::default()
    });
    match check(&mut st, &constraints) {
        SatResult::Sat(m) => assert!(m.satisfies(&constraints)),
        SatResult::Unsat => panic!("a scan before the NUL is satisfiable"),
    }
    constraints.push(Expr::ule(nv, Expr::add(pv, kv)));
    assert_eq!(check(&mut st, &constraints), SatResult::Unsat);
    assert_eq!(st.last_stage(), Some(Stage::StripUnsat));
    let mut stats = Vec::new();
    st.collect_stats(&mut stats);
    assert_eq!(stats[0].counter("validation_failures"), 0);
}
