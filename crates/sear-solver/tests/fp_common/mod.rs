//! Helpers of the floating-point core tests (`fp_cores.rs`, `fp_rounding.rs`): a symbolic
//! float input, a satisfiability check, and the two cores.

use sear_expr::{Array, ArrayKind, Expr, UpdateList};
use sear_solver::bitwuzla::{BitwuzlaCore, BitwuzlaMode};
use sear_solver::z3core::{Z3Core, Z3Mode};
use sear_solver::{QueryMeta, SatQuery, SatResult, SatSolver};

/// A `width`-bit input: the little-endian bytes of a fresh symbolic array `name`.
pub fn var(name: &str, width: u32) -> Expr {
    let a = Array::new(name, (width / 8) as u64, ArrayKind::SymbolicInput, None);
    Expr::read_lsb(&UpdateList::new(a), Expr::constant(0, 32), width / 8)
}

/// `core`'s answer to the conjunction `cs`, with a model.
pub fn check(core: &mut dyn SatSolver, cs: &[Expr]) -> SatResult {
    let meta = QueryMeta::default();
    core.check(&SatQuery::new(cs, Expr::true_(), &meta, false, true))
        .expect("the core answers")
}

/// Z3 and Bitwuzla, incremental.
pub fn cores() -> Vec<Box<dyn SatSolver>> {
    vec![
        Box::new(Z3Core::new(Z3Mode::Incremental)),
        Box::new(BitwuzlaCore::new(BitwuzlaMode::Incremental)),
    ]
}
