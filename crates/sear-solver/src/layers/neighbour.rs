//! Step 6 of the counterexample cache: a *neighbour* model, one input byte away from a
//! stored model of the path.
//!
//! The second side of a branch on input bytes (`accept[trans[s][cls[buf[4]]]] != 0` after the
//! path decided `buf[0..4]`) is usually satisfied by the path's own model with one byte of
//! the condition changed. This step takes a stored model that satisfies the query's
//! constraints (the cache offers its recent models, then those stored under the path's
//! newest constraint) and tries, for each input byte the condition reads at a constant
//! index, the byte values the condition mentions (each 8-bit constant and its neighbours)
//! and then every other value, by evaluation; a candidate that satisfies the condition is
//! returned only if it satisfies every constraint too. The answer is a model found by
//! evaluation, so it is right whatever the core would have said; only which model comes
//! back differs.
//!
//! Bounded: at most [`MAX_POSITIONS`] bytes and [`NODE_BUDGET`] node evaluations of the
//! condition per query (a query the step cannot answer, an unsatisfiable side above all,
//! costs at most that), and after [`MISSES_BEFORE_BACKOFF`] misses in a row only every
//! [`BACKOFF`]th query is tried until one succeeds.

use std::rc::Rc;

use sear_expr::visit::{collect_symbolic_arrays, for_each_node};
use sear_expr::{ArrayRef, Assignment, CmpOp, Evaluator, Expr, ExprKind};

use crate::sat::SatQuery;

/// The most input bytes tried per query.
pub const MAX_POSITIONS: usize = 16;
/// The most condition nodes evaluated per query (candidates × the condition's size).
pub const NODE_BUDGET: usize = 400_000;
/// Misses in a row after which the step backs off.
pub const MISSES_BEFORE_BACKOFF: u32 = 8;
/// While backing off, one query in this many is tried.
pub const BACKOFF: u32 = 16;

/// The neighbour search and its back-off state.
#[derive(Default)]
pub struct Neighbours {
    misses: u32,
}

/// What one search did.
pub enum Outcome {
    /// Skipped (backing off, or nothing to try).
    Skipped,
    /// Tried and found nothing.
    Missed,
    /// A model of the query.
    Found(Assignment),
}

impl Neighbours {
    /// A model of `query` one byte away from the first of `bases` that satisfies its
    /// constraints, if the search finds one within its budget.
    pub fn search(&mut self, bases: &[Rc<Assignment>], query: &SatQuery) -> Outcome {
        if self.misses >= MISSES_BEFORE_BACKOFF && !self.misses.is_multiple_of(BACKOFF) {
            self.misses += 1;
            return Outcome::Skipped;
        }
        let outcome = search(bases, query);
        match outcome {
            Outcome::Found(_) => self.misses = 0,
            Outcome::Missed => self.misses += 1,
            Outcome::Skipped => {}
        }
        outcome
    }
}

fn search(bases: &[Rc<Assignment>], query: &SatQuery) -> Outcome {
    let condition = &query.expr;
    if condition.is_constant() {
        return Outcome::Skipped;
    }
    let (positions, values, size) = candidates(condition);
    if positions.is_empty() {
        return Outcome::Skipped;
    }
    let Some(base) = bases.iter().find(|m| m.satisfies(query.constraints)) else {
        return Outcome::Skipped;
    };
    let mut model = (**base).clone();
    for a in collect_symbolic_arrays(query.conjuncts()) {
        if model.get(&a).is_none() {
            model.insert(a.clone(), vec![0; a.size() as usize]);
        }
    }
    let equalities = equality_writes(condition);
    let together = (equalities.len() > 1).then(|| equalities.concat());
    for writes in together.into_iter().chain(equalities) {
        let mut candidate = model.clone();
        for &(ref array, index, byte) in &writes {
            candidate.set_byte(array, index, byte);
        }
        let mut ev = Evaluator::new(&candidate);
        if ev.eval(condition) == 1 && query.constraints.iter().all(|c| ev.eval(c) == 1) {
            return Outcome::Found(candidate);
        }
    }
    let mut budget = NODE_BUDGET / size.max(1);
    for (array, index) in positions {
        let original = model.byte(&array, index as u128);
        let rest = ALL_BYTES.iter().filter(|v| !values.contains(v));
        for &v in values.iter().chain(rest) {
            if v == original {
                continue;
            }
            if budget == 0 {
                return Outcome::Missed;
            }
            budget -= 1;
            model.set_byte(&array, index, v);
            let mut ev = Evaluator::new(&model);
            if ev.eval(condition) == 1 && query.constraints.iter().all(|c| ev.eval(c) == 1) {
                return Outcome::Found(model);
            }
        }
        model.set_byte(&array, index, original);
    }
    Outcome::Missed
}

/// The most equalities [`equality_writes`] takes from one condition.
const MAX_EQUALITIES: usize = 16;

/// For each equality of the condition between a constant and whole input bytes (a
/// concatenation of byte reads at constant indices, most significant first, or one byte: the
/// builder splits `k == x` on a word into its bytes' equalities), the bytes that make it
/// hold: tried, all together and then one by one, before the byte-by-byte search, which
/// reaches `x == 1` on a 4-byte input only after every value of its three high bytes.
fn equality_writes(condition: &Expr) -> Vec<Vec<(ArrayRef, usize, u8)>> {
    let mut found = Vec::new();
    for_each_node([condition], |e| {
        if found.len() >= MAX_EQUALITIES {
            return;
        }
        let ExprKind::Cmp {
            op: CmpOp::Eq,
            lhs,
            rhs,
        } = e.kind()
        else {
            return;
        };
        let (c, side) = match (lhs.as_constant(), rhs.as_constant()) {
            (Some(c), None) => (c, rhs),
            (None, Some(c)) => (c, lhs),
            _ => return,
        };
        let mut bytes = Vec::new();
        if !byte_reads(side, &mut bytes)
            || bytes.len() > 16
            || bytes.len() * 8 != side.width() as usize
        {
            return;
        }
        let n = bytes.len();
        let writes = bytes
            .into_iter()
            .enumerate()
            .map(|(k, (array, index))| (array, index, (c >> (8 * (n - 1 - k))) as u8))
            .collect();
        found.push(writes);
    });
    found
}

/// Appends the input bytes `e` is a concatenation of (most significant first); false when it
/// is anything else.
fn byte_reads(e: &Expr, out: &mut Vec<(ArrayRef, usize)>) -> bool {
    match e.kind() {
        ExprKind::Concat { hi, lo } => byte_reads(hi, out) && byte_reads(lo, out),
        ExprKind::Read { updates, index } => {
            let root = updates.root();
            match index.as_constant() {
                Some(i) if updates.is_empty() && !root.is_constant() && i < root.size() as u128 => {
                    out.push((root.clone(), i as usize));
                    true
                }
                _ => false,
            }
        }
        _ => false,
    }
}

/// Every byte value, in order (the values after the condition's own).
const ALL_BYTES: [u8; 256] = {
    let mut all = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        all[i] = i as u8;
        i += 1;
    }
    all
};

/// The input bytes `condition` reads at constant indices (newest array and highest index
/// first, at most [`MAX_POSITIONS`]), the byte values it mentions (8-bit constants and their
/// neighbours), and its number of nodes.
fn candidates(condition: &Expr) -> (Vec<(ArrayRef, usize)>, Vec<u8>, usize) {
    let mut positions = Vec::new();
    let mut values = Vec::new();
    let mut size = 0usize;
    for_each_node([condition], |e| {
        size += 1;
        match e.kind() {
            ExprKind::Read { updates, index } => {
                let root = updates.root();
                if let (false, Some(i)) = (root.is_constant(), index.as_constant()) {
                    if i < root.size() as u128 {
                        positions.push((root.clone(), i as usize));
                    }
                }
            }
            ExprKind::Cmp { lhs, rhs, .. } => {
                for side in [lhs, rhs] {
                    if let (8, Some(c)) = (side.width(), side.as_constant()) {
                        let c = c as u8;
                        for v in [c, c.wrapping_add(1), c.wrapping_sub(1)] {
                            if !values.contains(&v) {
                                values.push(v);
                            }
                        }
                    }
                }
            }
            _ => {}
        }
    });
    positions.sort_by_key(|(array, index)| std::cmp::Reverse((array.id(), *index)));
    positions.dedup();
    positions.truncate(MAX_POSITIONS);
    (positions, values, size)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::query::QueryMeta;
    use crate::sat::SatQuery;
    use sear_expr::{Array, ArrayKind, UpdateList};

    #[test]
    fn an_equality_with_a_constant_is_met_by_writing_its_bytes() {
        // `x == 0x01020304` on a fresh 4-byte input: the constant's bytes, little-endian,
        // written together.
        let a = Array::new("x", 4, ArrayKind::SymbolicInput, None);
        let x = Expr::read_lsb(&UpdateList::new(a.clone()), Expr::constant(0, 32), 4);
        let cond = Expr::eq(Expr::constant(0x0102_0304, 32), x);
        let meta = QueryMeta::default();
        let query = SatQuery::new(&[], cond.clone(), &meta, true, false);
        let base = Rc::new(Assignment::new());
        match Neighbours::default().search(&[base], &query) {
            Outcome::Found(model) => {
                assert_eq!(model.evaluate(&cond), 1);
                assert_eq!(model.get(&a).map(|v| v.to_vec()), Some(vec![4, 3, 2, 1]));
            }
            _ => panic!("no model found"),
        }
        // The builder split the word's equality into its four bytes'.
        assert_eq!(equality_writes(&cond).len(), 4);
    }
}
