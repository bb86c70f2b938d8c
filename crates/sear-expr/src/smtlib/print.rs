//! Printing single terms.

use crate::expr::Expr;
use crate::smtlib::dag::Dag;
use crate::smtlib::names::ArrayNames;

/// Output beyond this many bytes is cut off by [`print_expr`].
const DEBUG_LIMIT: usize = 20_000;

/// Prints one expression as an SMT-LIB2 term without `let` sharing, for diagnostics
/// (`Debug` and `Display`). Very large terms are cut off with `…`.
pub fn print_expr(expr: &Expr) -> String {
    write_single(expr, false, DEBUG_LIMIT)
}

/// Prints one expression as a complete SMT-LIB2 term, binding every shared subterm with
/// `let` so that the output is linear in the size of the expression's DAG.
pub fn print_term(expr: &Expr) -> String {
    write_single(expr, true, usize::MAX)
}

fn write_single(expr: &Expr, share: bool, limit: usize) -> String {
    let mut dag = Dag::new(std::slice::from_ref(expr), share);
    let mut names = ArrayNames::default();
    for array in dag.arrays() {
        names.name(array);
    }
    dag.set_prefix(names.fresh_prefix());
    let mut out = String::new();
    dag.write_unit(0, None, &names, &mut out, limit);
    out
}
