//! The UNSAT pre-check on the spec's worked examples (001 §3, §11 T2/T3/T5/T10), built the
//! way the engine builds them: `int i, j` as little-endian reads of input arrays, `a[i]` as a
//! 4-byte read of the flushed constant array at offsets `4·i + k`.

mod spec001;

use std::collections::BTreeMap;

use sear_solver::ilp::IlpSolver;
use sear_solver::precheck::analyze::{precheck, Outcome};
use spec001::{foo_query, ints};

#[test]
fn t2_foo_last5_is_unsat_by_precheck() {
    let (cs, a, _, _) = foo_query(5);
    let gran = ints(&a);
    let mut ilp = IlpSolver::default();
    let outcome = precheck(&cs, &gran, &mut ilp, 10_000);
    assert!(matches!(outcome, Outcome::Unsat), "{outcome:?}");
}

/// Without the access size, byte-level read intervals mix bytes of different offsets (byte
/// 12 lies in the interval [9, 13] of `4i + 1`), the element interval is far wider than
/// [0, 5], and the pre-check cannot conclude: the type information is what makes T2 provable.
#[test]
fn t2_needs_the_access_size() {
    let (cs, _, _, _) = foo_query(5);
    let mut ilp = IlpSolver::default();
    let outcome = precheck(&cs, &BTreeMap::new(), &mut ilp, 10_000);
    assert!(matches!(outcome, Outcome::Unknown(_)), "{outcome:?}");
}

#[test]
fn t3_foo_last9_is_unknown_with_intervals() {
    let (cs, a, _, _) = foo_query(9);
    let gran = ints(&a);
    let mut ilp = IlpSolver::default();
    let Outcome::Unknown(iv) = precheck(&cs, &gran, &mut ilp, 10_000) else {
        panic!("expected unknown");
    };
    let mut found: Vec<(u128, u128)> = iv.iter().map(|(_, b)| *b).collect();
    found.sort();
    assert_eq!(
        found,
        vec![
            (8, 12),
            (8, 12),
            (9, 13),
            (9, 13),
            (10, 14),
            (10, 14),
            (11, 15),
            (11, 15)
        ],
        "4i+k and 4j+k for k = 0..3"
    );
}
