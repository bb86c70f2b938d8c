//! The value-based transformation over the input bytes a read depends on.
//!
//! Nested lookups keyed by one input byte (`next[base[1] + ec[c]]`, `tab[ec[c]]`) are one
//! function of that byte. Evaluating the read for all 256 values of the byte (constant
//! folding, as in the index-based transformation) and encoding the result as RANGEITE over
//! the byte itself gives the solver comparisons of an 8-bit variable with constants — no
//! offsets, no arithmetic, no nested if-then-else — and only as many branches as the
//! composed function has distinct values. This extends Algorithm 1 from one read to a chain
//! of reads; it applies when the read's offset depends on at most two symbolic bytes and
//! every array read on the way is constant at the offsets reached.
//!
//! With two bytes `a` and `b` (a DFA's state after one input byte, then the next byte), the
//! 65 536 values are grouped by row: the values of `a` with the same function of `b` share
//! one RANGEITE over `b`, and a RANGEITE over `a` chooses among the distinct rows — a
//! two-level decision diagram, small when the rows repeat (a DFA has few states).

use std::collections::BTreeMap;

use sear_expr::expr::{Expr, ExprKind};
use sear_expr::visit::for_each_node;

use crate::element::CellsCache;
use crate::program::Program;
use crate::ranges::{runs_test, Membership, RunBuilder};
use crate::value::ValueLimits;

/// The symbolic bytes `e` depends on (constant-index reads of symbolic array cells), at
/// most `max`; `None` when there are more, or a read whose cells are unknown.
pub(super) fn symbolic_bytes(e: &Expr, cells: &mut CellsCache, max: usize) -> Option<Vec<Expr>> {
    let mut reads: Vec<Expr> = Vec::new();
    for_each_node(std::iter::once(e), |n| {
        if matches!(n.kind(), ExprKind::Read { .. }) {
            reads.push(n.clone());
        }
    });
    reads.sort();
    let mut atoms: Vec<Expr> = Vec::new();
    for r in reads {
        let ExprKind::Read { updates, index } = r.kind() else {
            continue;
        };
        let Some(j) = index.as_constant() else {
            continue;
        };
        if cells.get(updates)?.byte(j as u64).is_none() {
            atoms.push(r.clone());
            if atoms.len() > max {
                return None;
            }
        }
    }
    Some(atoms)
}

/// Evaluations allowed for one read (values of the bytes × operations).
const MAX_WORK: u64 = 20_000_000;

/// Distinct rows allowed in a two-byte form (here and in [`crate::tabulate`]).
pub(super) const MAX_ROWS: usize = 64;

/// `e` evaluated at every value of the one or two input bytes it depends on (the first
/// byte major): `None` at values where a read leaves its array. `None` overall when `e`
/// depends on no byte, on more than two or on a wider symbolic value, when a value needs a
/// symbolic byte of an array, or when the evaluations would cost more than `max_work`
/// operations. Also returns the bytes.
pub(super) fn evaluate_over_bytes(
    e: &Expr,
    cells: &mut CellsCache,
    max_work: u64,
) -> Option<(Vec<Expr>, Vec<Option<u128>>)> {
    let atoms = symbolic_bytes(e, cells, 2)?;
    if atoms.is_empty() || atoms.iter().any(|a| a.width() != 8) {
        return None;
    }
    let program = Program::compile(e, &atoms, cells)?;
    let space: u64 = 1 << (8 * atoms.len());
    if space.saturating_mul(program.op_count() as u64) > max_work {
        return None;
    }
    let values = program.run_over_bytes()?;
    Some((atoms, values))
}

/// The rows of a two-byte table (256 rows of 256, one per value of the first byte).
pub(super) struct Rows<'a, T> {
    /// The distinct rows, in order of first appearance.
    pub distinct: Vec<&'a [T]>,
    /// Each first-byte value's row number (`None` for skipped rows).
    pub of: Vec<Option<usize>>,
}

/// The rows of `table`, skipping those for which `skip` holds; `None` when there are more
/// than [`MAX_ROWS`] distinct ones.
pub(super) fn distinct_rows<T: PartialEq>(
    table: &[T],
    skip: impl Fn(&[T]) -> bool,
) -> Option<Rows<'_, T>> {
    let mut rows: Vec<&[T]> = Vec::new();
    let mut row_of: Vec<Option<usize>> = Vec::with_capacity(256);
    for row in table.chunks(256) {
        if skip(row) {
            row_of.push(None);
            continue;
        }
        let k = match rows.iter().position(|r| *r == row) {
            Some(k) => k,
            None => {
                if rows.len() == MAX_ROWS {
                    return None;
                }
                rows.push(row);
                rows.len() - 1
            }
        };
        row_of.push(Some(k));
    }
    Some(Rows {
        distinct: rows,
        of: row_of,
    })
}

/// `read` (a read or a chain of reads, at a symbolic offset) as RANGEITE over the one or
/// two symbolic bytes it depends on; `None` when it depends on more, when a value depends on
/// a symbolic byte of an array, or when the encoding would not be small.
pub fn compose_over_byte(
    read: &Expr,
    cells: &mut CellsCache,
    limits: &ValueLimits,
) -> Option<Expr> {
    let (atoms, values) = evaluate_over_bytes(read, cells, MAX_WORK)?;
    let width = read.width();
    if atoms.len() == 1 {
        let distinct = values
            .iter()
            .flatten()
            .collect::<std::collections::BTreeSet<_>>()
            .len();
        if distinct as f64 / 256.0 >= limits.value_ratio {
            return None;
        }
        return rangeite(&atoms[0], &values, width);
    }
    // Group the values of the first byte by their row (the function of the second byte).
    let rows = distinct_rows(&values, |row| row.iter().all(Option::is_none))?;
    let row_exprs: Vec<Expr> = rows
        .distinct
        .iter()
        .map(|r| rangeite(&atoms[1], r, width))
        .collect::<Option<_>>()?;
    // RANGEITE over the first byte whose "values" are row numbers.
    let selector: Vec<Option<u128>> = rows.of.iter().map(|k| k.map(|k| k as u128)).collect();
    let choice = rangeite_with(&atoms[0], &selector, &mut |k| row_exprs[k as usize].clone())?;
    Some(choice)
}

/// RANGEITE over `byte` of `values[byte]` (`None`: a don't-care byte value).
fn rangeite(byte: &Expr, values: &[Option<u128>], width: u32) -> Option<Expr> {
    rangeite_with(byte, values, &mut |v| Expr::constant(v, width))
}

/// RANGEITE over `byte` of `leaf(values[byte])`: one guard per distinct value, made of the
/// runs of byte values holding it (don't-cares may bridge runs); the value with the most
/// runs is the unguarded default.
fn rangeite_with(
    byte: &Expr,
    values: &[Option<u128>],
    leaf: &mut dyn FnMut(u128) -> Expr,
) -> Option<Expr> {
    let distinct: BTreeMap<u128, ()> = values.iter().flatten().map(|v| (*v, ())).collect();
    if distinct.is_empty() {
        return None;
    }
    let mut groups: Vec<(u128, Vec<(u64, u64)>)> = distinct
        .keys()
        .map(|v| {
            let mut runs = RunBuilder::default();
            for (a, x) in values.iter().enumerate() {
                let m = match x {
                    Some(x) if x == v => Membership::In,
                    Some(_) => Membership::Out,
                    None => Membership::DontCare,
                };
                runs.push(a as u64, m);
            }
            (*v, runs.finish())
        })
        .collect();
    groups.sort_by_key(|(v, runs)| (runs.len(), *v));
    let (default, _) = groups.pop().expect("a group");
    let mut e = leaf(default);
    for (v, runs) in groups.iter().rev() {
        e = Expr::select(runs_test(byte, runs), leaf(*v), e);
    }
    Some(e)
}
