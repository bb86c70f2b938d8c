//! Algorithm 3 of the paper: the UNSAT pre-check of one query.
//!
//! 1. Find the array reads (symbolic index, or through writes). Skip the query if there are
//!    none, or if some read goes through a write at a symbolic index (spec §6.2).
//! 2. Linearise the conjuncts without array reads (`C_V`); propagate bounds. Infeasible:
//!    UNSAT.
//! 3. Innermost read first: linearise its index term, bound it by ILP min/max over `C_V`
//!    (the interval `I_v`), then compute the interval of the read's value from the array's
//!    contents at the offsets in `I_v` (congruent to the term's residue modulo the access
//!    size), and give the read a fresh variable bounded by it.
//! 4. Linearise the conjuncts with reads (`C_arr`) and check integer feasibility of
//!    everything. Infeasible: UNSAT. Otherwise: UNKNOWN with the index intervals.

use std::collections::BTreeMap;

use num_bigint::BigInt;
use num_traits::ToPrimitive;
use sear_expr::congruence::Congruences;
use sear_expr::visit::for_each_node;
use sear_expr::{ArrayRef, BinOp, Expr, ExprKind, UpdateList};

use super::linearize::Linearizer;
use crate::ilp::{Bounds, IlpSolver, Propagation};
use crate::intervals::IndexIntervals;
use crate::residue::access_size;

/// Rounds of bound propagation after each linearisation step.
const PROPAGATION_ROUNDS: usize = 24;
/// Arrays with more cells than this in an index interval get the full byte range.
const MAX_SCANNED_CELLS: u128 = 1 << 16;

/// What the pre-check concluded.
#[derive(Debug)]
pub enum Outcome {
    /// The query has no array reads: nothing to do.
    NoArrays,
    /// Skipped: a read goes through a write at a symbolic index.
    SymbolicWrite,
    /// Skipped: the linear problem exceeded the row budget.
    Budget,
    /// The query is unsatisfiable.
    Unsat,
    /// Unknown; the intervals of the index terms.
    Unknown(IndexIntervals),
}

/// The array reads of `conjuncts` (symbolic index, or through writes), innermost first;
/// None if one reads through a write at a symbolic index.
pub fn array_reads(conjuncts: &[Expr]) -> Option<Vec<Expr>> {
    let mut reads = Vec::new();
    let mut symbolic_write = false;
    for_each_node(conjuncts, |e| {
        if let ExprKind::Read { updates, index } = e.kind() {
            if !index.is_constant() || !updates.is_empty() {
                if updates.iter().any(|w| !w.index().is_constant()) {
                    symbolic_write = true;
                }
                reads.push(e.clone());
            }
        }
    });
    if symbolic_write {
        return None;
    }
    reads.sort_by_key(|r| (r.depth(), r.structural_hash()));
    Some(reads)
}

fn contains_any(e: &Expr, reads: &rustc_hash::FxHashSet<Expr>) -> bool {
    let mut found = false;
    for_each_node([e], |n| {
        if !found && reads.contains(n) {
            found = true;
        }
    });
    found
}

/// Runs the pre-check on `conjuncts`.
pub fn precheck(
    conjuncts: &[Expr],
    granularity: &BTreeMap<ArrayRef, u32>,
    ilp: &mut IlpSolver,
    max_rows: usize,
) -> Outcome {
    let Some(reads) = array_reads(conjuncts) else {
        return Outcome::SymbolicWrite;
    };
    if reads.is_empty() {
        return Outcome::NoArrays;
    }
    let read_set: rustc_hash::FxHashSet<Expr> = reads.iter().cloned().collect();
    let (c_arr, c_v): (Vec<&Expr>, Vec<&Expr>) =
        conjuncts.iter().partition(|c| contains_any(c, &read_set));
    let mut lin = Linearizer::default();
    for c in &c_v {
        lin.assert(c);
        if lin.rows() > max_rows {
            return Outcome::Budget;
        }
    }
    if lin.problem.propagate(PROPAGATION_ROUNDS) == Propagation::Infeasible {
        return Outcome::Unsat;
    }
    let mut intervals = IndexIntervals::default();
    let mut residues = Congruences::default();
    for read in &reads {
        let ExprKind::Read { updates, index } = read.kind() else {
            unreachable!("collected reads");
        };
        let (lo, hi) = match index_interval(&mut lin, ilp, index, &intervals) {
            Some(b) => b,
            None => return Outcome::Unsat,
        };
        intervals.insert(index.clone(), lo, hi);
        let m = access_size(granularity, updates.root());
        let residue = residues.residue(index, m);
        match value_interval(&mut lin, updates, lo, hi, m, residue) {
            Some((vlo, vhi)) => lin.set_read(read, vlo, vhi),
            None => return Outcome::Unsat,
        }
        if lin.rows() > max_rows {
            return Outcome::Budget;
        }
    }
    for c in &c_arr {
        lin.assert(c);
        if lin.rows() > max_rows {
            return Outcome::Budget;
        }
    }
    if lin.problem.propagate(PROPAGATION_ROUNDS) == Propagation::Infeasible {
        return Outcome::Unsat;
    }
    match ilp.feasible(&lin.problem) {
        Some(false) => Outcome::Unsat,
        _ => Outcome::Unknown(intervals),
    }
}

/// The interval of an index term: derived from an already bounded base for `k + base`,
/// else ILP min/max. None if the problem is infeasible.
fn index_interval(
    lin: &mut Linearizer,
    ilp: &mut IlpSolver,
    index: &Expr,
    known: &IndexIntervals,
) -> Option<(u128, u128)> {
    let width = index.width();
    let domain_hi = if width >= 128 {
        u128::MAX
    } else {
        (1u128 << width) - 1
    };
    if let ExprKind::Binary {
        op: BinOp::Add,
        lhs,
        rhs,
    } = index.kind()
    {
        if let (Some(k), Some((lo, hi))) = (lhs.as_constant(), known.get(rhs)) {
            if let Some(h) = hi.checked_add(k).filter(|h| *h <= domain_hi) {
                return Some((lo + k, h));
            }
        }
    }
    let l = lin.term(index);
    if lin.problem.propagate(PROPAGATION_ROUNDS) == Propagation::Infeasible {
        return None;
    }
    let (rlo, rhi) = lin.range(&l);
    let (lo, hi) = match ilp.bounds(&lin.problem, &l) {
        Bounds::Infeasible => return None,
        Bounds::Range(lo, hi) => (lo.max(rlo), hi.min(rhi)),
        Bounds::Unknown => (rlo, rhi),
    };
    let clip = |x: BigInt| x.to_u128().unwrap_or(0).min(domain_hi);
    let (lo, hi) = (clip(lo.max(BigInt::from(0))), clip(hi));
    (lo <= hi).then_some((lo, hi))
}

/// The interval of a byte read's value for indices in `[lo, hi]` with the given residue:
/// the cells' values (constant-index writes first, then the root), plus 0 when the index may
/// be out of bounds. None if no index in the interval has the residue (infeasible).
fn value_interval(
    lin: &mut Linearizer,
    updates: &UpdateList,
    lo: u128,
    hi: u128,
    m: u64,
    residue: Option<u64>,
) -> Option<(u128, u128)> {
    let root = updates.root();
    let size = root.size() as u128;
    let (step, first) = match residue {
        Some(r) => {
            let m = m as u128;
            let r = r as u128;
            let first = lo + ((r + m - lo % m) % m);
            (m, first)
        }
        None => (1, lo),
    };
    if first > hi {
        return None;
    }
    let mut acc = (255u128, 0u128);
    let include = |acc: &mut (u128, u128), a: u128, b: u128| {
        acc.0 = acc.0.min(a);
        acc.1 = acc.1.max(b);
    };
    let last_in = hi.min(size.saturating_sub(1));
    if size > 0 && first <= last_in {
        if (last_in - first) / step > MAX_SCANNED_CELLS {
            include(&mut acc, 0, 255);
        } else {
            let writes: Vec<(u128, Expr)> = updates
                .iter()
                .map(|w| {
                    (
                        w.index().as_constant().unwrap_or(u128::MAX),
                        w.value().clone(),
                    )
                })
                .collect();
            let mut j = first;
            while j <= last_in {
                match writes.iter().find(|(i, _)| *i == j) {
                    Some((_, v)) => {
                        let l = lin.term(v);
                        let (a, b) = lin.range(&l);
                        include(
                            &mut acc,
                            a.to_u128().unwrap_or(0),
                            b.to_u128().unwrap_or(255).min(255),
                        );
                    }
                    None => match root.contents() {
                        Some(bytes) => {
                            let b = bytes[j as usize] as u128;
                            include(&mut acc, b, b);
                        }
                        None => include(&mut acc, 0, 255),
                    },
                }
                if acc == (0, 255) {
                    break;
                }
                j += step;
            }
        }
    }
    if hi >= size && root.is_unbounded() {
        // Beyond the dense part of an unbounded array every byte is possible.
        include(&mut acc, 0, 255);
    } else if hi >= size {
        // Out-of-bounds reads are zero (writes there are still seen).
        include(&mut acc, 0, 0);
        for w in updates.iter() {
            if let Some(i) = w.index().as_constant() {
                if i >= size && i >= lo && i <= hi {
                    include(&mut acc, 0, 255);
                }
            }
        }
    }
    Some(acc)
}
