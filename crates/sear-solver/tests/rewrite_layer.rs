//! The rewriting layer (`layers/rewrite.rs`): what reaches the core is the rewritten query,
//! answers hold for the original, and a rewrite that is not an equivalence cannot make the
//! layer answer wrong.

use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;

use sear_expr::{Array, ArrayKind, Expr, UpdateList};
use sear_solver::layers::{ConditionRewriter, Rewriting};
use sear_solver::testing::Recorder;
use sear_solver::z3core::{Z3Core, Z3Mode};
use sear_solver::{QueryMeta, SatQuery, SatResult, SatSolver, SolverError};

/// Replaces every conjunct equal to `from` by `to`.
struct Replace {
    from: Expr,
    to: Expr,
    calls: usize,
}

impl ConditionRewriter for Replace {
    fn rewrite(&mut self, condition: &Expr, _context: &[Expr]) -> Result<Expr, SolverError> {
        self.calls += 1;
        Ok(if *condition == self.from {
            self.to.clone()
        } else {
            condition.clone()
        })
    }
}

fn input() -> Expr {
    let x = Array::new("x", 1, ArrayKind::SymbolicInput, None);
    Expr::read(&UpdateList::new(x), Expr::constant(0, 32))
}

/// `table[x] == 1` over a constant table that holds 1 at offsets 3 and 7 only.
fn table_read_is_one(x: &Expr) -> Expr {
    let mut bytes = [0u8; 16];
    bytes[3] = 1;
    bytes[7] = 1;
    let table = Array::new(
        "table",
        16,
        ArrayKind::MemoryObject,
        Some(Arc::from(&bytes[..])),
    );
    let read = Expr::read(&UpdateList::new(table), Expr::zext(x.clone(), 32));
    Expr::eq(read, Expr::constant(1, 8))
}

fn layer(from: Expr, to: Expr) -> (Rewriting, Rc<RefCell<Replace>>) {
    let core = Box::new(Z3Core::new(Z3Mode::Fresh));
    let rewriter = Rc::new(RefCell::new(Replace { from, to, calls: 0 }));
    (Rewriting::new(core, rewriter.clone()), rewriter)
}

fn stats(layer: &Rewriting) -> sear_solver::LayerStats {
    let mut out = Vec::new();
    layer.collect_stats(&mut out);
    out.remove(0)
}

#[test]
fn the_core_gets_the_rewritten_query_and_the_model_holds_for_the_original() {
    let x = input();
    let original = table_read_is_one(&x);
    // The index-based form of `table[x] == 1` (x < 16 by the query's constraint).
    let rewritten = Expr::or(
        Expr::eq(x.clone(), Expr::constant(3, 8)),
        Expr::eq(x.clone(), Expr::constant(7, 8)),
    );
    let (rec, seen) = Recorder::new(Box::new(Z3Core::new(Z3Mode::Fresh)));
    let rewriter = Rc::new(RefCell::new(Replace {
        from: original.clone(),
        to: rewritten.clone(),
        calls: 0,
    }));
    let mut layer = Rewriting::new(Box::new(rec), rewriter.clone());
    let meta = QueryMeta::default();
    let constraints = [Expr::ult(x.clone(), Expr::constant(16, 8))];
    let q = SatQuery::new(&constraints, original.clone(), &meta, true, true);
    let SatResult::Sat(model) = layer.check(&q).unwrap() else {
        panic!("table[x] == 1 is satisfiable");
    };
    assert_eq!(model.evaluate(&original), 1);
    assert!([3, 7].contains(&model.evaluate(&x)));
    {
        let asked = seen.borrow();
        assert_eq!(asked.len(), 1);
        assert_eq!(
            asked[0].expr, rewritten,
            "the core sees the rewritten condition"
        );
    }
    assert_eq!(stats(&layer).counter("rewritten"), 1);
    assert_eq!(rewriter.borrow().calls, 2, "each conjunct rewritten once");

    // UNSAT of the rewritten query is UNSAT of the original.
    let none = [
        Expr::ult(x.clone(), Expr::constant(16, 8)),
        Expr::not(Expr::eq(x.clone(), Expr::constant(3, 8))),
        Expr::not(Expr::eq(x.clone(), Expr::constant(7, 8))),
    ];
    let q = SatQuery::new(&none, original, &meta, true, true);
    assert_eq!(layer.check(&q).unwrap(), SatResult::Unsat);
}

#[test]
fn a_query_nothing_rewrites_passes_unchanged() {
    let x = input();
    let (mut layer, rewriter) = layer(Expr::constant(1, 1), Expr::constant(1, 1));
    let meta = QueryMeta::default();
    let q = SatQuery::new(&[], Expr::eq(x, Expr::constant(9, 8)), &meta, true, true);
    assert!(layer.check(&q).unwrap().is_sat());
    assert_eq!(stats(&layer).counter("rewritten"), 0);
    assert_eq!(rewriter.borrow().calls, 1);
}

#[test]
fn a_wrong_rewrite_is_caught_by_the_model_check() {
    let x = input();
    let five = Expr::eq(x.clone(), Expr::constant(5, 8));
    let six = Expr::eq(x.clone(), Expr::constant(6, 8));
    let (mut layer, _) = layer(five.clone(), six);
    let meta = QueryMeta::default();
    let q = SatQuery::new(&[], five, &meta, true, true);
    let SatResult::Sat(model) = layer.check(&q).unwrap() else {
        panic!("x == 5 is satisfiable");
    };
    assert_eq!(model.evaluate(&x), 5, "the original query was asked again");
    assert_eq!(stats(&layer).counter("model_rechecked_failed"), 1);
}
