//! Issue 37: answers a layer gives without the core are checked. A model that does not
//! satisfy its query is counted and the query goes below (under validation, a failure that
//! names the layer); under validation an UNSAT answer of a layer is cross-checked against
//! plain Z3, and a disagreement names the layer that gave it.

use std::time::Duration;

use sear_expr::{Array, ArrayKind, Assignment, Expr, UpdateList};
use sear_solver::audit::{Audit, SAT_CHECK_FAILED, UNSAT_CONFIRMED};
use sear_solver::layers::{CexCache, Validating};
use sear_solver::testing::Recorder;
use sear_solver::z3core::{Z3Core, Z3Mode};
use sear_solver::{QueryMeta, SatQuery, SatResult, SatSolver};

fn core() -> Box<dyn SatSolver> {
    Box::new(Z3Core::new(Z3Mode::Fresh))
}

/// `in[0] < 10` over a fresh one-byte input, and a model that violates it.
fn query_and_bad_model() -> (Vec<Expr>, Assignment) {
    let input = UpdateList::new(Array::new("in", 1, ArrayKind::SymbolicInput, None));
    let x = Expr::read(&input, Expr::constant(0, 32));
    let cs = vec![Expr::ult(x, Expr::constant(10, 8))];
    let mut bad = Assignment::new();
    bad.insert(input.root().clone(), vec![200]);
    (cs, bad)
}

fn validating_audit() -> std::rc::Rc<Audit> {
    Audit::validating(core(), Some(Duration::from_secs(10)))
}

/// A stored model that does not satisfy the query (offered by a layer above through
/// `learn`) is not returned: the core decides, and the event is counted.
#[test]
fn a_cached_model_that_fails_its_check_goes_to_the_core() {
    let (cs, bad) = query_and_bad_model();
    let meta = QueryMeta::default();
    let (rec, seen) = Recorder::new(core());
    let mut cache = CexCache::new(Box::new(rec));
    let q = SatQuery::new(&cs, Expr::true_(), &meta, true, true);
    cache.learn(&q, &SatResult::Sat(bad));
    let SatResult::Sat(model) = cache.check(&q).unwrap() else {
        panic!("satisfiable");
    };
    assert!(model.satisfies(&cs), "{model:?}");
    assert_eq!(seen.borrow().len(), 1, "the core decided");
    let mut stats = Vec::new();
    cache.collect_stats(&mut stats);
    assert_eq!(stats[0].counter(SAT_CHECK_FAILED), 1);
}

/// Under validation the same event is a failure naming the layer.
#[test]
fn under_validation_a_failed_model_check_names_the_layer() {
    let (cs, bad) = query_and_bad_model();
    let meta = QueryMeta::default();
    let mut cache = CexCache::new(core()).with_audit(validating_audit());
    let q = SatQuery::new(&cs, Expr::true_(), &meta, true, true);
    cache.learn(&q, &SatResult::Sat(bad));
    let err = cache.check(&q).unwrap_err().to_string();
    assert!(
        err.contains("VALIDATION FAILED") && err.contains("cex-cache"),
        "{err}"
    );
}

/// A wrong UNSAT a layer holds (here learned from above) is refuted by the oracle under
/// validation, naming the layer; a right one is confirmed.
#[test]
fn under_validation_a_layers_unsat_is_cross_checked() {
    let (cs, _) = query_and_bad_model();
    let meta = QueryMeta::default();
    let mut cache = CexCache::new(core()).with_audit(validating_audit());
    let q = SatQuery::new(&cs, Expr::true_(), &meta, true, true);
    cache.learn(&q, &SatResult::Unsat);
    let err = cache.check(&q).unwrap_err().to_string();
    assert!(
        err.contains("layer cex-cache says unsat") && err.contains("plain Z3"),
        "{err}"
    );
    // `in[0] < 10 ∧ in[0] > 20` is unsat: the core says so, the cache keeps it, and its
    // hit is confirmed.
    let input = UpdateList::new(Array::new("in2", 1, ArrayKind::SymbolicInput, None));
    let x = Expr::read(&input, Expr::constant(0, 32));
    let cs = [
        Expr::ult(x.clone(), Expr::constant(10, 8)),
        Expr::ult(Expr::constant(20, 8), x),
    ];
    let q = SatQuery::new(&cs, Expr::true_(), &meta, false, true);
    for _ in 0..2 {
        assert_eq!(cache.check(&q).unwrap(), SatResult::Unsat);
    }
    let mut stats = Vec::new();
    cache.collect_stats(&mut stats);
    assert_eq!(stats[0].counter(UNSAT_CONFIRMED), 1, "the hit");
}

/// The validating layer at the chain's top names the layer that answered when it
/// disagrees with plain Z3 (here a cache whose checks have no oracle).
#[test]
fn the_validating_layer_names_the_layer_that_answered() {
    let (cs, _) = query_and_bad_model();
    let meta = QueryMeta::default();
    let mut cache = CexCache::new(core());
    let q = SatQuery::new(&cs, Expr::true_(), &meta, true, true);
    cache.learn(&q, &SatResult::Unsat);
    let mut chain = Validating::new(Box::new(cache), core());
    let err = chain.check(&q).unwrap_err().to_string();
    assert!(err.contains("answered by cex-cache"), "{err}");
}
