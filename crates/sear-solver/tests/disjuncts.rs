//! The deep-disjunction layer (`layers::Disjuncts`): a query with a disjunction at least
//! `MIN_DEPTH` deep is answered by one satisfiable disjunct, its model is one of the
//! original query, an unsatisfiable disjunct sends the original query below, and shallow
//! disjunctions pass unchanged.

use std::cell::RefCell;
use std::rc::Rc;
use std::time::Duration;

use sear_expr::junctions::disjuncts as first_disjuncts;
use sear_expr::{Array, ArrayKind, Assignment, Expr, UpdateList};
use sear_solver::layers::disjuncts::{Disjuncts, MIN_DEPTH, TRIES};
use sear_solver::{
    new_core, CoreKind, LayerStats, QueryMeta, SatQuery, SatResult, SatSolver, SolverError,
};

/// A 32-bit input, one array.
fn input(name: &str) -> Expr {
    let a = Array::new(name, 4, ArrayKind::SymbolicInput, None);
    Expr::read_lsb(&UpdateList::new(a), Expr::constant(0, 32), 4)
}

/// `p0 != g0 ∨ … ∨ p{n-1} != g{n-1}`, nested as a merged loop's flag makes it.
fn disjunction(n: usize) -> Expr {
    (0..n).fold(Expr::false_(), |acc, i| {
        Expr::or(
            acc,
            Expr::ne(input(&format!("p{i}")), input(&format!("g{i}"))),
        )
    })
}

/// The queries a [`Recorder`] got: constraints and expression.
type Seen = Rc<RefCell<Vec<(Vec<Expr>, Expr)>>>;

/// Records the queries it gets (constraints and expression) and answers by `answer`.
struct Recorder {
    seen: Seen,
    answer: fn(&SatQuery) -> SatResult,
}

impl SatSolver for Recorder {
    fn name(&self) -> &'static str {
        "recorder"
    }
    fn check(&mut self, q: &SatQuery) -> Result<SatResult, SolverError> {
        self.seen
            .borrow_mut()
            .push((q.constraints.to_vec(), q.expr.clone()));
        Ok((self.answer)(q))
    }
    fn set_timeout(&mut self, _: Option<Duration>) {}
    fn collect_stats(&self, _: &mut Vec<LayerStats>) {}
}

fn layer(answer: fn(&SatQuery) -> SatResult) -> (Disjuncts, Seen) {
    let seen: Seen = Rc::default();
    let rec = Recorder {
        seen: seen.clone(),
        answer,
    };
    (Disjuncts::new(Box::new(rec)), seen)
}

fn sat(_: &SatQuery) -> SatResult {
    SatResult::Sat(Assignment::new())
}

fn counter(layer: &Disjuncts, name: &str) -> u64 {
    let mut out = Vec::new();
    layer.collect_stats(&mut out);
    out[0].counter(name)
}

#[test]
fn a_deep_disjunction_is_answered_by_its_first_disjunct() {
    let d = disjunction(MIN_DEPTH as usize + 8);
    assert!(d.depth() >= MIN_DEPTH);
    let first = first_disjuncts(&d, 1).remove(0);
    let meta = QueryMeta::default();
    // As the asked expression.
    let (mut l, seen) = layer(sat);
    let q = SatQuery::new(&[], d.clone(), &meta, true, false);
    assert!(l.check(&q).unwrap().is_sat());
    assert_eq!(seen.borrow().len(), 1);
    assert_eq!(seen.borrow()[0].1, first);
    assert_eq!(counter(&l, "answered"), 1);
    // As a constraint (a test's model query).
    let (mut l, seen) = layer(sat);
    let cs = [Expr::ult(input("x"), Expr::constant(9, 32)), d.clone()];
    let q = SatQuery::new(&cs, Expr::true_(), &meta, false, true);
    assert!(l.check(&q).unwrap().is_sat());
    assert_eq!(seen.borrow()[0].0, vec![cs[0].clone(), first]);
    assert_eq!(counter(&l, "split"), 1);
}

#[test]
fn unsatisfiable_disjuncts_send_the_original_query_below() {
    // Every query but the deep one is unsat: the layer tries TRIES disjuncts, then asks the
    // original query, whose answer it returns.
    let (mut l, seen) = layer(|q| {
        if q.expr.depth() >= MIN_DEPTH {
            SatResult::Sat(Assignment::new())
        } else {
            SatResult::Unsat
        }
    });
    let meta = QueryMeta::default();
    let d = disjunction(MIN_DEPTH as usize + 8);
    let q = SatQuery::new(&[], d.clone(), &meta, true, false);
    assert!(l.check(&q).unwrap().is_sat());
    assert_eq!(seen.borrow().len(), TRIES + 1);
    assert_eq!(seen.borrow().last().unwrap().1, d);
    assert_eq!(counter(&l, "tries"), TRIES as u64);
    assert_eq!(counter(&l, "answered"), 0);
}

#[test]
fn shallow_disjunctions_pass_unchanged() {
    let (mut l, seen) = layer(sat);
    let meta = QueryMeta::default();
    let d = disjunction(3);
    assert!(d.depth() < MIN_DEPTH);
    let q = SatQuery::new(&[], d.clone(), &meta, true, false);
    assert!(l.check(&q).unwrap().is_sat());
    assert_eq!(seen.borrow().len(), 1);
    assert_eq!(seen.borrow()[0].1, d);
    assert_eq!(counter(&l, "split"), 0);
}

#[test]
fn the_model_of_a_disjunct_satisfies_the_whole_query() {
    // Over Z3: the constraints force p0 == g0, so the first disjunct is unsat and the second
    // answers; the model satisfies the constraints and the disjunction.
    let mut l = Disjuncts::new(new_core(CoreKind::Z3));
    let meta = QueryMeta::default();
    let d = disjunction(MIN_DEPTH as usize + 8);
    let firsts = first_disjuncts(&d, 2);
    let cs = [Expr::not(firsts[0].clone())];
    let q = SatQuery::new(&cs, d.clone(), &meta, true, true);
    let SatResult::Sat(model) = l.check(&q).unwrap() else {
        panic!("satisfiable");
    };
    assert_eq!(model.evaluate(&cs[0]), 1);
    assert_eq!(model.evaluate(&d), 1);
    let mut out = Vec::new();
    l.collect_stats(&mut out);
    assert_eq!(out[0].counter("answered"), 1);
    assert_eq!(out[0].counter("tries"), 2);
}
