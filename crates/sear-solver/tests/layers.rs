//! Each layer against a recording Z3 core: what reaches the core, and hit counts.

use sear_expr::{Array, ArrayKind, Expr, UpdateList};
use sear_solver::layers::{CexCache, Independence, QueryCache, Validating};
use sear_solver::testing::Recorder;
use sear_solver::z3core::{Z3Core, Z3Mode};
use sear_solver::{
    Query, QueryMeta, SatQuery, SatResult, SatSolver, Solver, SolverConfig, Validity,
};

fn sym(name: &str, size: u64) -> UpdateList {
    UpdateList::new(Array::new(name, size, ArrayKind::SymbolicInput, None))
}

fn c32(v: u128) -> Expr {
    Expr::constant(v, 32)
}

fn byte(a: &UpdateList, i: u128) -> Expr {
    Expr::read(a, c32(i))
}

fn lt(a: Expr, v: u128) -> Expr {
    Expr::ult(a, Expr::constant(v, 8))
}

fn core() -> Box<dyn SatSolver> {
    Box::new(Z3Core::new(Z3Mode::Fresh))
}

#[test]
fn independence_sends_only_the_relevant_factor() {
    let (a, b) = (sym("a", 4), sym("b", 4));
    let (rec, seen) = Recorder::new(core());
    let mut s = Independence::new(Box::new(rec));
    let meta = QueryMeta::default();
    let cs = [
        lt(byte(&a, 0), 10),
        lt(byte(&b, 0), 20),
        lt(byte(&a, 1), 30),
    ];
    let q = SatQuery::new(
        &cs,
        Expr::ult(Expr::constant(5, 8), byte(&b, 0)),
        &meta,
        true,
        false,
    );
    assert!(s.check(&q).unwrap().is_sat());
    let seen = seen.borrow();
    assert_eq!(seen.len(), 1);
    assert_eq!(seen[0].constraints, vec![cs[1].clone()]);
}

#[test]
fn independence_separates_bytes_but_joins_symbolic_indices() {
    let a = sym("a", 4);
    let idx = Expr::zext(byte(&sym("i", 1), 0), 32);
    let (rec, seen) = Recorder::new(core());
    let mut s = Independence::new(Box::new(rec));
    let meta = QueryMeta::default();
    // a[0] and a[1] are independent; a[i] joins all of a (and i).
    let cs = [lt(byte(&a, 0), 10), lt(byte(&a, 1), 20)];
    let q = SatQuery::new(&cs, lt(byte(&a, 1), 5), &meta, true, false);
    s.check(&q).unwrap();
    assert_eq!(
        seen.borrow().last().unwrap().constraints,
        vec![cs[1].clone()]
    );
    let q = SatQuery::new(&cs, lt(Expr::read(&a, idx), 5), &meta, true, false);
    s.check(&q).unwrap();
    assert_eq!(seen.borrow().last().unwrap().constraints.len(), 2);
}

#[test]
fn independence_merges_models_of_factors() {
    let (a, b) = (sym("a", 2), sym("b", 2));
    let (rec, seen) = Recorder::new(core());
    let mut s = Independence::new(Box::new(rec));
    let meta = QueryMeta::default();
    let cs = [
        Expr::eq(Expr::constant(3, 8), byte(&a, 0)),
        Expr::eq(Expr::constant(4, 8), byte(&b, 1)),
        Expr::eq(Expr::constant(5, 8), byte(&a, 1)),
    ];
    let SatResult::Sat(m) = s
        .check(&SatQuery::new(&cs, Expr::true_(), &meta, false, true))
        .unwrap()
    else {
        panic!("expected sat")
    };
    assert_eq!(seen.borrow().len(), 3, "one core query per factor");
    assert!(m.satisfies(&cs));
    assert_eq!(m.get(a.root()), Some(&[3u8, 5][..]));
}

#[test]
fn query_cache_hits_exact_repeats_in_any_order() {
    let a = sym("a", 4);
    let (rec, seen) = Recorder::new(core());
    let mut s = QueryCache::new(Box::new(rec));
    let meta = QueryMeta::default();
    let cs = [lt(byte(&a, 0), 10), lt(byte(&a, 1), 20)];
    let rev = [cs[1].clone(), cs[0].clone(), cs[1].clone()];
    let e = lt(byte(&a, 2), 3);
    s.check(&SatQuery::new(&cs, e.clone(), &meta, true, false))
        .unwrap();
    s.check(&SatQuery::new(&rev, e.clone(), &meta, true, false))
        .unwrap();
    assert_eq!(seen.borrow().len(), 1);
    let mut stats = Vec::new();
    s.collect_stats(&mut stats);
    assert_eq!((stats[0].queries, stats[0].hits), (2, 1));
}

#[test]
fn cex_cache_uses_unsat_subsets_and_stored_models() {
    let a = sym("a", 4);
    let (rec, seen) = Recorder::new(core());
    let mut s = CexCache::new(Box::new(rec));
    let meta = QueryMeta::default();
    let x = byte(&a, 0);
    // {x < 10, x > 20} is unsat.
    let cs = [lt(x.clone(), 10)];
    let big = Expr::ult(Expr::constant(20, 8), x.clone());
    assert_eq!(
        s.check(&SatQuery::new(&cs, big.clone(), &meta, true, false))
            .unwrap(),
        SatResult::Unsat
    );
    // A superset of it is unsat without asking the core.
    let more = [lt(x.clone(), 10), lt(byte(&a, 1), 5)];
    assert_eq!(
        s.check(&SatQuery::new(&more, big, &meta, true, false))
            .unwrap(),
        SatResult::Unsat
    );
    assert_eq!(seen.borrow().len(), 1);
    // x == 3 under x < 10: sat with a model (core).
    let three = Expr::eq(Expr::constant(3, 8), x.clone());
    let SatResult::Sat(m) = s
        .check(&SatQuery::new(&cs, three, &meta, true, false))
        .unwrap()
    else {
        panic!("expected sat")
    };
    assert_eq!(m.evaluate(&x), 3);
    assert_eq!(seen.borrow().len(), 2);
    // x < 5 under x < 10 is satisfied by the stored model x = 3, which the cache tries only
    // while the queries below are slow (by CPU time: the core's first query builds a Z3
    // context, so either may happen here); otherwise the core answers it.
    let five = lt(x.clone(), 5);
    let SatResult::Sat(m2) = s
        .check(&SatQuery::new(&cs, five.clone(), &meta, true, false))
        .unwrap()
    else {
        panic!("expected sat")
    };
    assert!(m2.satisfies([&cs[0], &five]));
    // The subset {x < 10} of a stored sat key is sat too (superset lookup).
    assert!(s
        .check(&SatQuery::new(&cs, Expr::true_(), &meta, true, false))
        .unwrap()
        .is_sat());
    let asked = seen.borrow().len();
    assert!((2..=3).contains(&asked), "{asked} core queries");
    let mut stats = Vec::new();
    s.collect_stats(&mut stats);
    assert_eq!((stats[0].queries, stats[0].hits), (5, 5 - asked as u64));
}

#[test]
fn cex_cache_decides_fresh_inputs_with_uniform_models_except_for_values() {
    let (rec, seen) = Recorder::new(core());
    let mut s = CexCache::new(Box::new(rec));
    let meta = QueryMeta::default();
    // A branch on a fresh input under an unrelated, decided constraint: `q != 0`. No model
    // is stored that assigns `q`, and zeros satisfy only `q == 0`.
    let (a, q) = (sym("a", 1), sym("q", 1));
    let cs = [lt(byte(&a, 0), 10)];
    let nonzero = Expr::not(Expr::eq(Expr::constant(0, 8), byte(&q, 0)));
    let SatResult::Sat(m) = s
        .check(&SatQuery::new(&cs, nonzero.clone(), &meta, true, false))
        .unwrap()
    else {
        panic!("expected sat")
    };
    assert!(m.satisfies([&cs[0], &nonzero]));
    assert!(seen.borrow().is_empty(), "no core query");
    // A test's inputs (a full model) may come from one too.
    let mut wanted = SatQuery::new(&cs, nonzero.clone(), &meta, true, true);
    assert!(s.check(&wanted).unwrap().is_sat());
    assert!(seen.borrow().is_empty(), "no core query");
    // A value the engine goes on with (a focus) comes from the core.
    wanted.focus = Some(byte(&q, 0));
    assert!(s.check(&wanted).unwrap().is_sat());
    assert_eq!(seen.borrow().len(), 1);
    // No uniform model satisfies `r == 77`: the core answers.
    wanted.focus = None;
    wanted.expr = Expr::eq(Expr::constant(77, 8), byte(&sym("r", 1), 0));
    assert!(s.check(&wanted).unwrap().is_sat());
    assert_eq!(seen.borrow().len(), 2);
    let mut stats = Vec::new();
    s.collect_stats(&mut stats);
    assert_eq!(stats[0].counter("uniform_models"), 2);
}

#[test]
fn validating_layer_accepts_a_correct_chain() {
    let a = sym("a", 4);
    let mut s = Validating::new(Box::new(CexCache::new(core())), core());
    let meta = QueryMeta::default();
    let cs = [lt(byte(&a, 0), 10)];
    for v in 0..20u128 {
        let e = Expr::eq(Expr::constant(v, 8), byte(&a, 0));
        let r = s.check(&SatQuery::new(&cs, e, &meta, true, true)).unwrap();
        assert_eq!(r.is_sat(), v < 10);
    }
}

/// A broken layer: claims every query is unsat.
struct Liar;
impl SatSolver for Liar {
    fn name(&self) -> &'static str {
        "liar"
    }
    fn check(&mut self, _: &SatQuery) -> Result<SatResult, sear_solver::SolverError> {
        Ok(SatResult::Unsat)
    }
    fn set_timeout(&mut self, _: Option<std::time::Duration>) {}
    fn collect_stats(&self, _: &mut Vec<sear_solver::LayerStats>) {}
}

#[test]
fn validating_layer_reports_disagreement() {
    let a = sym("a", 4);
    let mut s = Validating::new(Box::new(Liar), core());
    let meta = QueryMeta::default();
    let cs = [lt(byte(&a, 0), 10)];
    let err = s
        .check(&SatQuery::new(&cs, Expr::true_(), &meta, true, false))
        .unwrap_err();
    assert!(format!("{err}").contains("VALIDATION FAILED"), "{err}");
}

#[test]
fn facade_answers_validity_values_and_models() {
    let a = sym("a", 4);
    let x = byte(&a, 0);
    let meta = QueryMeta::default();
    let cs = [
        lt(x.clone(), 10),
        Expr::ult(Expr::constant(7, 8), x.clone()),
    ]; // x in {8, 9}
    for config in [
        SolverConfig::default(),
        SolverConfig::plain(),
        SolverConfig {
            validate: true,
            ..Default::default()
        },
    ] {
        let mut s = Solver::new(&config).unwrap();
        let q = |e: Expr| Query::new(&cs, e, &meta);
        assert_eq!(s.evaluate(&q(lt(x.clone(), 10))).unwrap(), Validity::True);
        assert_eq!(s.evaluate(&q(lt(x.clone(), 8))).unwrap(), Validity::False);
        assert_eq!(s.evaluate(&q(lt(x.clone(), 9))).unwrap(), Validity::Unknown);
        assert!(s.must_be_true(&q(Expr::true_())).unwrap());
        assert!(s
            .may_be_false(&q(Expr::eq(Expr::constant(8, 8), x.clone())))
            .unwrap());
        assert!(!s
            .may_be_true(&q(Expr::eq(Expr::constant(1, 8), x.clone())))
            .unwrap());
        let v = s.get_value(&q(Expr::zext(x.clone(), 32))).unwrap();
        assert!(v == 8 || v == 9);
        let other = sym("unused", 3);
        let m = s
            .get_initial_values(&cs, &meta, &[a.root().clone(), other.root().clone()])
            .unwrap()
            .unwrap();
        assert!(m.satisfies(&cs));
        assert_eq!(m.get(other.root()), Some(&[0u8, 0, 0][..]));
        let unsat = [lt(x.clone(), 3), Expr::ult(Expr::constant(4, 8), x.clone())];
        assert_eq!(s.check_sat(&unsat, &meta).unwrap(), None);
        let st = s.stats();
        assert_eq!(st.layers[0].name, "constant");
        // `true`, and `x < 10`, one of the constraints: the path condition's equalities
        // decide it (the constraint is true), or, without them, its negation contradicts it.
        assert_eq!(st.layers[0].hits, 2);
        assert_eq!(
            ["contradicted", "equality_implied", "equality_contradicted"]
                .iter()
                .map(|c| st.layers[0].counter(c))
                .sum::<u64>(),
            1
        );
        assert!(st.core_queries >= 1);
    }
}

#[test]
fn query_log_writes_parsable_smtlib_with_answers() {
    let dir = tempfile::tempdir().unwrap();
    let a = sym("a", 4);
    let config = SolverConfig {
        log_queries: sear_solver::QueryLog {
            dir: Some(dir.path().to_path_buf()),
            scope: sear_solver::LogScope::Core,
        },
        ..Default::default()
    };
    let mut s = Solver::new(&config).unwrap();
    let meta = QueryMeta::default();
    let cs = [lt(byte(&a, 0), 10)];
    assert_eq!(
        s.evaluate(&Query::new(&cs, lt(byte(&a, 0), 20), &meta))
            .unwrap(),
        Validity::True
    );
    let mut files: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    assert!(!files.is_empty());
    let text = std::fs::read_to_string(&files[0]).unwrap();
    assert!(text.contains("; answer: unsat"), "{text}");
    let script = sear_expr::smtlib::parse_script(&text).unwrap();
    assert_eq!(script.assertions().len(), 2);
}

#[test]
fn branch_conditions_the_path_decided_need_no_query() {
    let a = sym("a", 4);
    let x = Expr::concat_all(&[byte(&a, 3), byte(&a, 2), byte(&a, 1), byte(&a, 0)]);
    let zero = Expr::constant(0, 32);
    let meta = QueryMeta::default();
    // The path took `x >= 0` (signed): the program's later `x < 0` and `x >= 0` are decided
    // by the constraint itself, whichever way the builder wrote them.
    let nonneg = Expr::sle(zero.clone(), x.clone());
    let cs = [nonneg.clone()];
    let mut s = Solver::new(&SolverConfig::default()).unwrap();
    let q = |e: Expr| Query::new(&cs, e, &meta);
    assert_eq!(s.evaluate(&q(nonneg.clone())).unwrap(), Validity::True);
    assert_eq!(
        s.evaluate(&q(Expr::slt(x.clone(), zero.clone()))).unwrap(),
        Validity::False
    );
    assert_eq!(
        s.evaluate(&q(Expr::not(nonneg.clone()))).unwrap(),
        Validity::False
    );
    // `x >= 0` and ¬(x >= 0) are decided by the path condition's equalities (the
    // constraint is true) before any satisfiability question; `x < 0`, the other form of
    // ¬(x >= 0), by the constraint's equivalent forms: its negation is implied and itself
    // contradicted.
    let st = s.stats();
    let constant = &st.layers[0];
    assert_eq!(constant.counter("equality_implied"), 1, "{constant:?}");
    assert_eq!(constant.counter("equality_contradicted"), 1, "{constant:?}");
    assert_eq!(constant.counter("implied"), 1, "{constant:?}");
    assert_eq!(constant.counter("contradicted"), 1, "{constant:?}");
    assert_eq!(st.core_queries, 0);
    // A condition the path did not decide still goes down the chain.
    assert_eq!(
        s.evaluate(&q(Expr::slt(x.clone(), Expr::constant(5, 32))))
            .unwrap(),
        Validity::Unknown
    );
}

/// A core that computes for 25 ms of CPU time a query: slow enough for the cex cache's step 6.
struct Slow(Box<dyn SatSolver>);

impl SatSolver for Slow {
    fn name(&self) -> &'static str {
        "slow"
    }
    fn check(&mut self, query: &SatQuery) -> Result<SatResult, sear_solver::SolverError> {
        sear_solver::testing::spin(std::time::Duration::from_millis(25));
        self.0.check(query)
    }
    fn set_timeout(&mut self, timeout: Option<std::time::Duration>) {
        self.0.set_timeout(timeout);
    }
    fn collect_stats(&self, out: &mut Vec<sear_solver::LayerStats>) {
        self.0.collect_stats(out);
    }
}

#[test]
fn cex_cache_finds_neighbour_models_one_byte_away_when_the_core_is_slow() {
    let (rec, seen) = Recorder::new(Box::new(Slow(core())));
    let mut s = CexCache::new(Box::new(rec));
    let meta = QueryMeta::default();
    // A table-driven branch: class[buf[1]] == 3 over a constant 256-byte class table.
    let buf = sym("buf", 3);
    let class = UpdateList::new(Array::new(
        "class",
        256,
        ArrayKind::MemoryObject,
        Some((0..=255u8).map(|b| b % 7).collect::<Vec<_>>().into()),
    ));
    let first = Expr::eq(Expr::constant(0x61, 8), byte(&buf, 0));
    let SatResult::Sat(m) = s
        .check(&SatQuery::new(&[], first.clone(), &meta, true, false))
        .unwrap()
    else {
        panic!("expected sat")
    };
    assert!(m.satisfies([&first]));
    // The other side of the path's own branch needs buf[0] == 'b' and buf[0] == 'a': the
    // core answers unsat (the step waits for two slow queries before it runs).
    let cs = [first.clone()];
    let other = |v: u128| Expr::eq(Expr::constant(v, 8), byte(&buf, 0));
    let unsat = |s: &mut CexCache, v: u128| {
        s.check(&SatQuery::new(&cs, other(v), &meta, true, false))
            .unwrap()
    };
    assert_eq!(unsat(&mut s, 0x62), SatResult::Unsat);
    assert_eq!(seen.borrow().len(), 2);
    // The path took `buf[0] == 'a'`; both sides of the table branch on buf[1] come without
    // the core: one from the stored model or a neighbour of it, the other from a neighbour.
    let index = Expr::zext(byte(&buf, 1), 32);
    let is3 = Expr::eq(Expr::constant(3, 8), Expr::read(&class, index));
    for cond in [is3.clone(), Expr::not(is3.clone())] {
        let SatResult::Sat(m) = s
            .check(&SatQuery::new(&cs, cond.clone(), &meta, true, false))
            .unwrap()
        else {
            panic!("expected sat")
        };
        assert!(m.satisfies([&first, &cond]), "{m:?}");
    }
    assert_eq!(seen.borrow().len(), 2, "no core query");
    // No neighbour satisfies buf[0] == 'c' and buf[0] == 'a': a miss, then the core.
    assert_eq!(unsat(&mut s, 0x63), SatResult::Unsat);
    assert_eq!(seen.borrow().len(), 3);
    let mut stats = Vec::new();
    s.collect_stats(&mut stats);
    assert!(stats[0].counter("neighbour_models") >= 1, "{:?}", stats[0]);
    assert_eq!(stats[0].counter("neighbour_misses"), 1, "{:?}", stats[0]);
}

/// A core that answers at once, by a search over the bytes a query reads (exact on the
/// small queries below): fast whatever the machine's load, unlike a real core's
/// millisecond.
struct Evaluating;

impl SatSolver for Evaluating {
    fn name(&self) -> &'static str {
        "evaluating"
    }
    fn check(&mut self, query: &SatQuery) -> Result<SatResult, sear_solver::SolverError> {
        Ok(sear_solver::layers::byte_search::decide(query, 1 << 20).expect("a small query"))
    }
    fn set_timeout(&mut self, _: Option<std::time::Duration>) {}
    fn collect_stats(&self, _: &mut Vec<sear_solver::LayerStats>) {}
}

#[test]
fn cex_cache_skips_neighbour_models_when_the_core_is_fast() {
    let (rec, seen) = Recorder::new(Box::new(Evaluating));
    let mut s = CexCache::new(Box::new(rec));
    let meta = QueryMeta::default();
    // A path of branches on successive bytes, each side found by the core, which answers
    // in microseconds: well under the 10 ms that make step 6 worth its cost. (Over
    // incremental Z3, about a millisecond a query, the test failed on a loaded machine.)
    let buf = sym("buf", 6);
    let mut cs = Vec::new();
    for i in 0..6 {
        let next = Expr::eq(Expr::constant(0x61 + i, 8), byte(&buf, i));
        assert!(s
            .check(&SatQuery::new(&cs, next.clone(), &meta, true, false))
            .unwrap()
            .is_sat());
        cs.push(next);
    }
    let mut stats = Vec::new();
    s.collect_stats(&mut stats);
    assert_eq!(seen.borrow().len(), 6, "{:?}", stats[0]);
    assert_eq!(stats[0].counter("neighbour_models"), 0);
    assert_eq!(stats[0].counter("neighbour_misses"), 0);
}

#[test]
fn bounds_checks_on_table_reads_are_decided_by_intervals() {
    // `trans[12·s + cls[b]]` with classes below 12 and states below 40: the index is below
    // 480 in every model, so the engine's bounds check needs no solver.
    let buf = sym("b", 1);
    let table = |name: &str, size: usize, modulus: usize| {
        let bytes: Vec<u8> = (0..size).map(|i| (i % modulus) as u8).collect();
        UpdateList::new(Array::new(
            name,
            size as u64,
            ArrayKind::MemoryObject,
            Some(bytes.into()),
        ))
    };
    let (cls, states) = (table("cls", 256, 12), table("states", 4, 40));
    let class = Expr::zext(Expr::read(&cls, Expr::zext(byte(&buf, 0), 32)), 32);
    let b32 = Expr::zext(byte(&buf, 0), 32);
    let state = Expr::zext(Expr::read(&states, Expr::and(b32, c32(3))), 32);
    let index = Expr::add(Expr::mul(c32(12), state), class);
    let in_bounds = Expr::ult(index.clone(), c32(480));
    let meta = QueryMeta::default();
    let cs = [lt(byte(&buf, 0), 200)];
    // Without the byte search, which would answer the queries the intervals leave (a
    // table read at a symbolic index is searched whatever the core's time).
    for validate in [false, true] {
        let mut s = Solver::new(&SolverConfig {
            validate,
            byte_search: false,
            ..SolverConfig::default()
        })
        .unwrap();
        let q = Query::new(&cs, in_bounds.clone(), &meta);
        assert!(s.must_be_true(&q).unwrap());
        let st = s.stats();
        assert_eq!(st.layers[0].counter("interval_contradicted"), 1);
        // Not decided by intervals: whether the index can be 17 (it can: b = 5).
        let seventeen = Query::new(&cs, Expr::eq(index.clone(), c32(17)), &meta);
        assert!(s.may_be_true(&seventeen).unwrap());
        assert!(s.stats().core_queries >= 1);
    }
    // Switched off, the same check goes to the core.
    let mut s = Solver::new(&SolverConfig {
        interval_answers: false,
        byte_search: false,
        ..SolverConfig::default()
    })
    .unwrap();
    assert!(s.must_be_true(&Query::new(&cs, in_bounds, &meta)).unwrap());
    assert_eq!(s.stats().layers[0].counter("interval_contradicted"), 0);
    assert_eq!(s.stats().core_queries, 1);
}
