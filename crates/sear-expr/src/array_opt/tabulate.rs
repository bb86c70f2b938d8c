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
//! condition): one conjunct `a ∈ runs ∧ b ∈ row` per distinct row, at most [`MAX_ROWS`].
//! Values at which a nested read leaves its array are don't-cares, as in [`super::index`]
//! (the path condition bounds every symbolic-offset access).

use super::compose::symbolic_bytes;
use super::element::CellsCache;
use super::program::{EvalError, Program};
use super::ranges::{runs_test, Membership, RunBuilder};
use crate::expr::Expr;

/// Evaluation work (byte values × operations) allowed for one condition.
const MAX_WORK: u64 = 60_000_000;

/// Distinct rows allowed in the two-byte form.
pub const MAX_ROWS: usize = 64;

/// `cond` as range tests over the one or two input bytes it depends on; `None` when it
/// depends on more (or on a symbolic byte it cannot evaluate), or on none.
pub fn tabulate_condition(cond: &Expr, cells: &mut CellsCache) -> Option<Expr> {
    if cond.width() != 1 || cond.is_constant() {
        return None;
    }
    let atoms = symbolic_bytes(cond, cells, 2)?;
    if atoms.is_empty() || atoms.iter().any(|a| a.width() != 8) {
        return None;
    }
    let program = Program::compile(cond, &atoms, cells)?;
    let space: u64 = 1 << (8 * atoms.len());
    if space.saturating_mul(program.op_count() as u64) > MAX_WORK {
        return None;
    }
    let mut scratch = Vec::new();
    let mut table: Vec<Membership> = Vec::with_capacity(space as usize);
    let mut inputs = vec![0u128; atoms.len()];
    for x in 0..space {
        if atoms.len() == 2 {
            inputs[0] = (x >> 8) as u128;
            inputs[1] = (x & 0xFF) as u128;
        } else {
            inputs[0] = x as u128;
        }
        table.push(match program.run(&inputs, &mut scratch) {
            Ok(1) => Membership::In,
            Ok(_) => Membership::Out,
            Err(EvalError::OutOfBounds) => Membership::DontCare,
            Err(EvalError::Free) => return None,
        });
    }
    if atoms.len() == 1 {
        return Some(byte_test(&atoms[0], &table));
    }
    // Rows: the function of the second byte for each value of the first.
    let mut row_order: Vec<&[Membership]> = Vec::new();
    for a in 0..256usize {
        let row = &table[a * 256..(a + 1) * 256];
        if row.iter().all(|m| *m != Membership::In) {
            continue; // never true: contributes nothing to the disjunction
        }
        if !row_order.contains(&row) {
            if row_order.len() == MAX_ROWS {
                return None;
            }
            row_order.push(row);
        }
    }
    // The runs of first-byte values per row, with the other rows' values as `Out`.
    let mut disjuncts = Vec::with_capacity(row_order.len());
    for row in row_order {
        let mut runs = RunBuilder::default();
        for a in 0..256usize {
            let this = &table[a * 256..(a + 1) * 256];
            let m = if this == row {
                Membership::In
            } else if this.iter().all(|m| *m == Membership::DontCare) {
                Membership::DontCare
            } else {
                Membership::Out
            };
            runs.push(a as u64, m);
        }
        let first = runs_test(&atoms[0], &runs.finish());
        disjuncts.push(Expr::and(first, byte_test(&atoms[1], row)));
    }
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
