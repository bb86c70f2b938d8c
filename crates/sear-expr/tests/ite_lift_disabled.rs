//! `sear_expr::ite_lift::set_enabled(false)` (`--no-ite-lifting`): operators over `ite`s are
//! plain nodes. A test binary of its own, because the switch is process-wide.

use sear_expr::{Array, ArrayKind, Expr, ExprKind, UpdateList};

#[test]
fn without_lifting_operators_over_ites_stay_plain() {
    sear_expr::ite_lift::set_enabled(false);
    let a = Array::new("x", 4, ArrayKind::SymbolicInput, None);
    let x = Expr::read_lsb(&UpdateList::new(a), Expr::constant(0, 32), 4);
    let c = Expr::eq(Expr::constant(1, 32), x.clone());
    let l = Expr::select(c.clone(), x.clone(), Expr::constant(7, 32));
    let r = Expr::select(c, Expr::mul(x.clone(), x), Expr::constant(9, 32));
    let before = sear_expr::ite_lift::lifted();
    assert!(matches!(
        Expr::add(l.clone(), r.clone()).kind(),
        ExprKind::Binary { .. }
    ));
    assert!(matches!(Expr::eq(l, r).kind(), ExprKind::Cmp { .. }));
    assert_eq!(sear_expr::ite_lift::lifted(), before);
}
