//! The index-based transformation over input bytes: a condition whose only symbolic data are
//! one or two input bytes is evaluated for every value of those bytes (constant folding,
//! never the solver) and replaced by range tests on the bytes themselves.
//!
//! Algorithm 2 fixes the offset of one constant-array read. A DFA step after two input
//! characters (`next[base[next[base[s] + ec[c0]]] + ec[c1]] > 0`, or the bounds check of
//! the next lookup) has no single such offset: its symbols sit in two nested reads. But it
//! is a function of 16 bits, so its truth table is cheap to compute, and the solver gets
//! comparisons of bytes with constants instead of nested array reads or the deep
//! if-then-else trees the value-based transformation makes of them.
//!
//! With one byte the result is the runs of values where the condition holds (or the
//! complement of the runs where it fails, when that has fewer runs). With two bytes `a` and
//! `b`, the values of `a` are grouped by their row (the set of `b` values that satisfy the
//! condition): one conjunct `a ∈ runs ∧ b ∈ row` per distinct row, at most 64.
//! Values at which a nested read leaves its array are don't-cares, as in [`crate::index`]
//! (the path condition bounds every symbolic-offset access).

use sear_expr::expr::Expr;

use crate::compose::{distinct_rows, evaluate_over_bytes};
use crate::element::CellsCache;
use crate::ranges::{runs_test, Membership, RunBuilder};

/// Evaluation work (byte values × operations) allowed for one condition.
const MAX_WORK: u64 = 60_000_000;

/// `cond` as range tests over the one or two input bytes it depends on; `None` when it
/// depends on more (or on a symbolic byte it cannot evaluate), or on none. At most
/// [`crate::compose::MAX_ROWS`] distinct rows in the two-byte form.
pub fn tabulate_condition(cond: &Expr, cells: &mut CellsCache) -> Option<Expr> {
    if cond.width() != 1 || cond.is_constant() {
        return None;
    }
    let (atoms, values) = evaluate_over_bytes(cond, cells, MAX_WORK)?;
    let table: Vec<Membership> = values
        .iter()
        .map(|v| match v {
            Some(1) => Membership::In,
            Some(_) => Membership::Out,
            None => Membership::DontCare,
        })
        .collect();
    if atoms.len() == 1 {
        return Some(byte_test(&atoms[0], &table));
    }
    // Rows (the function of the second byte for each value of the first) that are true
    // somewhere; the others contribute nothing to the disjunction.
    let rows = distinct_rows(&table, |row| !row.contains(&Membership::In))?;
    let unreachable: Vec<bool> = table
        .chunks(256)
        .map(|row| row.iter().all(|m| *m == Membership::DontCare))
        .collect();
    // Per row, the runs of first-byte values holding it, the other rows' values `Out`.
    let disjuncts = rows.distinct.iter().enumerate().map(|(k, row)| {
        let mut runs = RunBuilder::default();
        for (a, (of, unreachable)) in rows.of.iter().zip(&unreachable).enumerate() {
            let m = if *of == Some(k) {
                Membership::In
            } else if *unreachable {
                Membership::DontCare
            } else {
                Membership::Out
            };
            runs.push(a as u64, m);
        }
        let first = runs_test(&atoms[0], &runs.finish());
        Expr::and(first, byte_test(&atoms[1], row))
    });
    Some(Expr::or_all(disjuncts))
}

/// The test "`byte` is a value where `table` holds": runs of `In`, or the negated runs of
/// `Out` when those are fewer.
fn byte_test(byte: &Expr, table: &[Membership]) -> Expr {
    let runs_of = |want: Membership| {
        let mut b = RunBuilder::default();
        for (v, m) in table.iter().enumerate() {
            let m = match *m {
                Membership::DontCare => Membership::DontCare,
                m if m == want => Membership::In,
                _ => Membership::Out,
            };
            b.push(v as u64, m);
        }
        b.finish()
    };
    let holds = runs_of(Membership::In);
    let fails = runs_of(Membership::Out);
    if fails.len() < holds.len() {
        Expr::not(runs_test(byte, &fails))
    } else {
        runs_test(byte, &holds)
    }
}
