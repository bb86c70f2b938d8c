//! Helpers of the floating-point core tests (`fp_cores.rs`, `fp_rounding.rs`,
//! `fp_rem_zero_sign.rs`): a symbolic float input, a satisfiability check, the check that a
//! core allows exactly one result, and the two cores.

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

/// With the inputs fixed by `fixed`, `core` finds `node = expected` satisfiable (with a model
/// that satisfies it) and `node ≠ expected` unsatisfiable; `what` names the case in failures.
pub fn assert_only_result(
    core: &mut dyn SatSolver,
    fixed: &[Expr],
    node: &Expr,
    expected: &Expr,
    what: &str,
) {
    let mut same = fixed.to_vec();
    same.push(Expr::eq(expected.clone(), node.clone()));
    let SatResult::Sat(model) = check(core, &same) else {
        panic!("{what}: {} says unsat", core.name());
    };
    assert!(model.satisfies(&same), "{what}: model");
    let mut other = fixed.to_vec();
    other.push(Expr::ne(expected.clone(), node.clone()));
    assert_eq!(
        check(core, &other),
        SatResult::Unsat,
        "{what}: {} allows another result",
        core.name()
    );
}
