//! `sear_expr::ac::set_enabled(false)` (`--no-ac-normalize`): the builder makes plain
//! nodes, as before the normalisation. A test binary of its own, because the switch is
//! process-wide.

use sear_expr::{Array, ArrayKind, Expr, UpdateList};

#[test]
fn without_normalisation_orders_differ() {
    sear_expr::ac::set_enabled(false);
    let x: Vec<Expr> = (0..40)
        .map(|i| {
            let a = Array::new(format!("x{i}"), 4, ArrayKind::SymbolicInput, None);
            Expr::read_lsb(&UpdateList::new(a), Expr::constant(0, 32), 4)
        })
        .collect();
    let forwards = x[1..]
        .iter()
        .fold(x[0].clone(), |acc, v| Expr::xor(acc, v.clone()));
    let backwards = x[..x.len() - 1]
        .iter()
        .rev()
        .fold(x[x.len() - 1].clone(), |acc, v| Expr::xor(acc, v.clone()));
    let before = sear_expr::ac::stats();
    assert_ne!(forwards, backwards);
    assert_eq!(sear_expr::ac::stats(), before);
    // The plain builder's own rewrites still apply.
    assert_eq!(Expr::xor(x[0].clone(), x[0].clone()), Expr::constant(0, 32));
    assert_eq!(
        Expr::add(x[0].clone(), x[0].clone()),
        Expr::shl(x[0].clone(), Expr::constant(1, 32))
    );
}
