//! The index-based transformation (IDXTRANS, Algorithm 2 generalised to whole conditions,
//! spec §3.3).
//!
//! A boolean condition that depends on symbolic data only through the offset `b` of a read
//! of a constant array becomes a disjunction of ranges of `b`: the condition is evaluated
//! for every legal offset by constant folding ([`Program`]), never by the solver, and the
//! offsets where it holds are encoded as maximal runs (or the complement, when that has
//! fewer runs). Nested constant reads (`check[base[s] + c]`) are handled by choosing the
//! innermost read: once its offset is fixed the outer reads fold.
//!
//! Fixing the offset also fixes what it was computed from when that is invertible
//! ([`Inversion`]: `4·zext(k)` = 8 fixes `k` = 2), so conditions that also mention the index
//! variable (`A[k] + k > 5`) transform too. Offsets that no operand value produces, offsets
//! excluded by the index's congruence, and offsets where a nested read would leave its
//! array (excluded by the path condition, which bounds every symbolic-offset access) are
//! don't-cares.

use sear_expr::congruence::congruence;
use sear_expr::expr::Expr;

use crate::element::{CellsCache, ElementRead};
use crate::group::grouped_reads;
use crate::program::{EvalError, Inversion, Program};
use crate::ranges::{range_test, runs_test, Membership, RunBuilder};
use crate::scan::has_symbolic_index_read;

/// Total evaluation work (offsets × operations) allowed for one condition.
const MAX_WORK: u64 = 50_000_000;

/// The outcome of a successful index-based transformation.
#[derive(Clone, Debug)]
pub struct IndexResult {
    /// The equivalent condition over the offset.
    pub expr: Expr,
    /// The offset the condition was expressed over.
    pub base: Expr,
    /// The runs of offsets where the condition holds.
    pub runs: Vec<(u64, u64)>,
    /// True if the complement encoding was used.
    pub complement: bool,
}

/// The candidates: groups of reads of fully constant arrays whose base offset contains no
/// symbolic-index read (innermost first), one per distinct base (the group with the fewest
/// legal offsets wins).
fn candidates(cond: &Expr, cells: &mut CellsCache) -> Vec<ElementRead> {
    let mut out: Vec<ElementRead> = Vec::new();
    for group in grouped_reads(cond) {
        let er = group.element;
        if er.offsets() == 0 || has_symbolic_index_read(&er.base) {
            continue;
        }
        match cells.get(&er.updates) {
            Some(c) if c.is_constant() => {}
            _ => continue,
        }
        match out.iter_mut().find(|c| c.base == er.base) {
            Some(existing) if existing.offsets() > er.offsets() => *existing = er,
            Some(_) => {}
            None => out.push(er),
        }
    }
    out
}

/// Transforms a boolean condition; `None` if no constant-array read qualifies.
pub fn index_transform(cond: &Expr, cells: &mut CellsCache) -> Option<IndexResult> {
    if !cond.is_bool() || cond.is_constant() {
        return None;
    }
    for er in candidates(cond, cells) {
        if let Some(result) = transform_over(cond, &er, cells) {
            return Some(result);
        }
    }
    None
}

fn transform_over(cond: &Expr, er: &ElementRead, cells: &mut CellsCache) -> Option<IndexResult> {
    let inversion = Inversion::of(&er.base);
    let program = Program::compile(cond, inversion.nodes(), cells)?;
    let n_off = er.offsets();
    let congr = congruence(&er.base);
    let step: u64 = if congr.bits >= 64 {
        u64::MAX
    } else {
        1u64 << congr.bits
    };
    let first = congr.rem;
    let reachable = if first >= n_off {
        0
    } else {
        (n_off - 1 - first) / step + 1
    };
    if reachable.saturating_mul(program.op_count() as u64) > MAX_WORK {
        return None;
    }
    let mut pos = RunBuilder::default();
    let mut neg = RunBuilder::default();
    let mut inputs = Vec::new();
    let mut scratch = Vec::new();
    let mut any_true = false;
    let mut o = first;
    for _ in 0..reachable {
        let m = if !inversion.values(o, &mut inputs) {
            Membership::DontCare
        } else {
            match program.run(&inputs, &mut scratch) {
                Ok(1) => Membership::In,
                Ok(_) => Membership::Out,
                Err(EvalError::OutOfBounds) => Membership::DontCare,
                Err(EvalError::Free) => return None,
            }
        };
        any_true |= m == Membership::In;
        pos.push(o, m);
        neg.push(
            o,
            match m {
                Membership::In => Membership::Out,
                Membership::Out => Membership::In,
                Membership::DontCare => Membership::DontCare,
            },
        );
        o = o.wrapping_add(step);
    }
    let base = er.base.clone();
    if !any_true {
        return Some(IndexResult {
            expr: Expr::false_(),
            base,
            runs: Vec::new(),
            complement: false,
        });
    }
    let (pos, neg) = (pos.finish(), neg.finish());
    if neg.len() < pos.len() {
        let in_bounds = range_test(&base, 0, n_off - 1);
        let expr = Expr::and(in_bounds, Expr::not(runs_test(&base, &neg)));
        return Some(IndexResult {
            expr,
            base,
            runs: pos,
            complement: true,
        });
    }
    Some(IndexResult {
        expr: runs_test(&base, &pos),
        base,
        runs: pos,
        complement: false,
    })
}
