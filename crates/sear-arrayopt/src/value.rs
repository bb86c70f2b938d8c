//! The value-based transformation (VALTRANS / RANGEITE, Algorithm 1, spec §3.2) and its
//! mixed-array form (§3.4).
//!
//! A read of a constant array becomes a nested if-then-else over the array's distinct
//! values, each guarded by the runs of offsets holding it; the value with the most runs is
//! the unguarded default. For a mixed array (some bytes symbolic) every concrete value is
//! guarded the same way and every element containing a symbolic byte gets its own branch
//! `base == o`, the last one unguarded: no symbolic-index read remains.
//!
//! The unguarded last branch also covers out-of-bounds offsets; that is sound because the
//! engine puts every symbolic-offset access's bounds into the path condition before the
//! read's value is used.

use std::collections::BTreeMap;

use sear_expr::congruence::congruence;
use sear_expr::expr::Expr;

use crate::distribute::{distribute, map_leaves, MAX_LEAVES};
use crate::element::{Cells, ElementRead};
use crate::ranges::{range_test, runs_test};

/// Thresholds of the value-based transformation.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
#[cfg_attr(feature = "cli", derive(clap::Args))]
pub struct ValueLimits {
    /// Value-based: apply only when distinct byte values / bytes of the array is below this
    /// ratio (0 to 1; KLEE's rule).
    // Below it for constant arrays, at most it for mixed ones, as KLEE counts; at 1 a
    // constant table whose bytes all differ is left alone.
    #[cfg_attr(feature = "cli", arg(
        id = "array-value-ratio",
        long = "array-value-ratio",
        value_name = "R",
        default_value_t = ValueLimits::default().value_ratio,
        value_parser = crate::cli::ratio,
    ))]
    pub value_ratio: f64,
    /// Value-based on mixed arrays: apply only when symbolic bytes / bytes is at most this
    /// ratio (0 to 1).
    #[cfg_attr(feature = "cli", arg(
        id = "array-value-symb-ratio",
        long = "array-value-symb-ratio",
        value_name = "R",
        default_value_t = ValueLimits::default().symbolic_ratio,
        value_parser = crate::cli::ratio,
    ))]
    pub symbolic_ratio: f64,
    /// Value-based: skip reads whose reachable elements hold more than this many distinct
    /// values (0: no limit; at most 10^6).
    // Each value becomes a branch of the if-then-else. sear's own bound, beside KLEE's
    // ratios, which pass almost every table of multi-byte elements. It was 64 while the
    // default core was the eager encoding over Z3, which solved a 256-entry CRC table's
    // 256-way if-then-else 4× slower than the table's reads; over Bitwuzla the
    // if-then-else is 4× faster than the reads (docs/benchmarks.md, "Today's defaults").
    #[cfg_attr(feature = "cli", arg(
        id = "array-value-max-values",
        long = "array-value-max-values",
        value_name = "N",
        default_value_t = ValueLimits::default().max_values,
        value_parser = clap::builder::RangedI64ValueParser::<usize>::new().range(0..=1_000_000),
    ))]
    pub max_values: usize,
}

impl Default for ValueLimits {
    fn default() -> Self {
        ValueLimits {
            value_ratio: 1.0,
            symbolic_ratio: 1.0,
            max_values: 1024,
        }
    }
}

/// Which form a successful transformation took.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValueKind {
    /// Every reachable element was constant.
    Constant,
    /// Some elements were symbolic.
    Mixed,
    /// The offset was an if-then-else tree with constant leaves: the read folded at every
    /// leaf ([`crate::distribute`]), whatever the array's contents.
    Distributed,
}

/// KLEE's thresholds (`ArrayExprOptimizer`, which works on the byte reads): over the whole
/// array, `distinct concrete byte values / bytes` must be below `value_ratio` for a constant
/// array, and at most `value_ratio` for a mixed one (symbolic bytes are not values), where
/// also `symbolic bytes / bytes` is at most `symbolic_ratio`. With the defaults (1.0), only a
/// constant array whose bytes all differ is left alone (`short a[5] = {1,2,3,-4,5}` has 7
/// distinct values in 10 bytes: transformed), and a mixed array is always transformed.
fn worth_it(er: &ElementRead, cells: &Cells, limits: &ValueLimits, constant: bool) -> bool {
    let size = er.updates.root().size();
    if size == 0 {
        return false;
    }
    let mut seen = [false; 256];
    let (mut distinct, mut symbolic) = (0u64, 0u64);
    for j in 0..size {
        match cells.byte(j) {
            Some(b) if !seen[b as usize] => {
                seen[b as usize] = true;
                distinct += 1;
            }
            Some(_) => {}
            None => symbolic += 1,
        }
    }
    let ratio = distinct as f64 / size as f64;
    if constant {
        ratio < limits.value_ratio
    } else {
        ratio <= limits.value_ratio && symbolic as f64 / size as f64 <= limits.symbolic_ratio
    }
}

/// One element of the walk: a constant value or a symbolic element at an offset.
enum Elem {
    Value(u128),
    Symbolic,
}

/// Transforms one element read over `cells` (the contents of `er.updates`); `None` when no
/// reachable element exists, the thresholds reject it, or there is nothing concrete.
pub fn value_transform(
    er: &ElementRead,
    cells: &Cells,
    limits: &ValueLimits,
) -> Option<(Expr, ValueKind)> {
    let n_off = er.offsets();
    if let Some(t) = distribute(&er.base, MAX_LEAVES) {
        return Some((fold_at_leaves(&t, er, cells, n_off), ValueKind::Distributed));
    }
    let congr = congruence(&er.base);
    let step: u64 = if congr.bits >= 64 {
        u64::MAX
    } else {
        1u64 << congr.bits
    };
    let first = congr.rem;
    if first >= n_off {
        return None;
    }
    // Segments of consecutive reachable offsets with one value: per value, its runs.
    let mut groups: BTreeMap<u128, Vec<(u64, u64)>> = BTreeMap::new();
    let mut symbolic: Vec<u64> = Vec::new();
    let mut open: Option<(u128, u64, u64)> = None;
    let mut o = first;
    while o < n_off {
        let elem = match cells.element(o, er.bytes) {
            Some(v) => Elem::Value(v),
            None => Elem::Symbolic,
        };
        match elem {
            Elem::Value(v) => match &mut open {
                Some((ov, _, hi)) if *ov == v => *hi = o,
                _ => {
                    if let Some((ov, lo, hi)) = open.take() {
                        groups.entry(ov).or_default().push((lo, hi));
                    }
                    open = Some((v, o, o));
                }
            },
            Elem::Symbolic => {
                if let Some((ov, lo, hi)) = open.take() {
                    groups.entry(ov).or_default().push((lo, hi));
                }
                symbolic.push(o);
            }
        }
        match o.checked_add(step) {
            Some(next) => o = next,
            None => break,
        }
    }
    if let Some((ov, lo, hi)) = open.take() {
        groups.entry(ov).or_default().push((lo, hi));
    }
    if groups.is_empty() {
        return None;
    }
    if !worth_it(er, cells, limits, symbolic.is_empty()) {
        return None;
    }
    if limits.max_values > 0 && groups.len() > limits.max_values {
        return None;
    }
    let width = 8 * er.bytes;
    // Deterministic order: fewer runs first, then by value.
    let mut order: Vec<(u128, Vec<(u64, u64)>)> = groups.into_iter().collect();
    order.sort_by_key(|(v, runs)| (runs.len(), *v));
    let base = &er.base;
    let (mut e, kind) = if symbolic.is_empty() {
        let (default, _) = order.pop().expect("a group");
        (Expr::constant(default, width), ValueKind::Constant)
    } else {
        let last = symbolic.pop().expect("a symbolic element");
        let mut e = cells.element_expr(last, er.bytes);
        for o in symbolic.iter().rev() {
            e = Expr::select(
                range_test(base, *o, *o),
                cells.element_expr(*o, er.bytes),
                e,
            );
        }
        (e, ValueKind::Mixed)
    };
    for (v, runs) in order.iter().rev() {
        e = Expr::select(runs_test(base, runs), Expr::constant(*v, width), e);
    }
    Some((e, kind))
}

/// The read at an offset that is an ITE tree with constant leaves: the same tree with every
/// leaf offset folded to its element (a symbolic element's expression for a mixed array; a
/// leaf beyond the array, excluded by the path condition, reads as 0).
fn fold_at_leaves(t: &Expr, er: &ElementRead, cells: &Cells, n_off: u64) -> Expr {
    let width = 8 * er.bytes;
    map_leaves(t, &mut |o| {
        if o >= n_off as u128 {
            return Expr::constant(0, width);
        }
        match cells.element(o as u64, er.bytes) {
            Some(v) => Expr::constant(v, width),
            None => cells.element_expr(o as u64, er.bytes),
        }
    })
}
