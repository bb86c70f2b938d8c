//! Residues of index terms modulo an array's access size: the congruence facts that make
//! type-based axiom elimination sound for unaligned accesses too (spec 001 §4.4).
//!
//! `residue(t, m)` is `Some(r)` only when `t ≡ r (mod m)` follows from the syntax of `t` for
//! every assignment, with `m` a power of two. Since `m` divides `2^w` for every width `w` the
//! rules accept, wrap-around of `w`-bit arithmetic preserves residues. Anything else is
//! `None`, and a term without a residue keeps all of its axioms.

use std::collections::BTreeMap;

use rustc_hash::FxHashMap;
use sear_expr::{ArrayRef, BinOp, Expr, ExprKind};

/// The access size used for `array`: the largest power of two dividing the granularity the
/// engine reported (1 when it reported none).
pub fn access_size(granularity: &BTreeMap<ArrayRef, u32>, array: &ArrayRef) -> u64 {
    match granularity.get(array) {
        Some(&g) if g > 0 => 1u64 << g.trailing_zeros().min(32),
        _ => 1,
    }
}

/// Computes residues with a memo (one per modulus).
#[derive(Default)]
pub struct Residues {
    memo: FxHashMap<(Expr, u64), Option<u64>>,
}

impl Residues {
    /// The residue of `t` modulo `m` (a power of two), if it follows from the syntax.
    pub fn of(&mut self, t: &Expr, m: u64) -> Option<u64> {
        debug_assert!(m.is_power_of_two());
        if m == 1 {
            return Some(0);
        }
        if let Some(c) = t.as_constant() {
            return Some((c % m as u128) as u64);
        }
        if let Some(r) = self.memo.get(&(t.clone(), m)) {
            return *r;
        }
        // Iterative post-order over the nodes the rules look into.
        let mut stack = vec![(t.clone(), false)];
        while let Some((e, ready)) = stack.pop() {
            if e.is_constant() || self.memo.contains_key(&(e.clone(), m)) {
                continue;
            }
            if !ready {
                stack.push((e.clone(), true));
                for c in operands(&e) {
                    stack.push((c, false));
                }
                continue;
            }
            let r = self.node(&e, m);
            self.memo.insert((e, m), r);
        }
        self.memo[&(t.clone(), m)]
    }

    fn get(&self, e: &Expr, m: u64) -> Option<u64> {
        match e.as_constant() {
            Some(c) => Some((c % m as u128) as u64),
            None => self.memo.get(&(e.clone(), m)).copied().flatten(),
        }
    }

    fn node(&self, e: &Expr, m: u64) -> Option<u64> {
        // The rules need m | 2^width for the node itself.
        if e.width() < 64 && (1u64 << e.width()) < m {
            return None;
        }
        let mask = m - 1;
        match e.kind() {
            ExprKind::Binary { op, lhs, rhs } => {
                let (a, b) = (self.get(lhs, m), self.get(rhs, m));
                match op {
                    BinOp::Add => Some((a? + b?) & mask),
                    BinOp::Sub => Some(a?.wrapping_sub(b?) & mask),
                    BinOp::Mul => match (a, b) {
                        (Some(0), _) | (_, Some(0)) => Some(0),
                        (Some(x), Some(y)) => Some(x.wrapping_mul(y) & mask),
                        _ => None,
                    },
                    BinOp::Shl => {
                        let s = rhs.as_constant()?;
                        if s >= e.width() as u128
                            || s >= 64
                            || (1u128 << s).is_multiple_of(m as u128)
                        {
                            Some(0)
                        } else {
                            Some((a? << s) & mask)
                        }
                    }
                    BinOp::And => match (a, b) {
                        (Some(x), Some(y)) => Some(x & y),
                        (Some(0), _) | (_, Some(0)) => Some(0),
                        _ => None,
                    },
                    BinOp::Or => Some(a? | b?),
                    BinOp::Xor => Some(a? ^ b?),
                    _ => None,
                }
            }
            ExprKind::ZExt(x) | ExprKind::SExt(x) => self.get(x, m),
            ExprKind::Extract { expr, offset: 0 } => self.get(expr, m),
            ExprKind::Select {
                then_expr,
                else_expr,
                ..
            } => {
                let (a, b) = (self.get(then_expr, m)?, self.get(else_expr, m)?);
                (a == b).then_some(a)
            }
            _ => None,
        }
    }
}

/// The children the rules look into (constants excluded).
fn operands(e: &Expr) -> Vec<Expr> {
    let v = match e.kind() {
        ExprKind::Binary { lhs, rhs, .. } => vec![lhs.clone(), rhs.clone()],
        ExprKind::ZExt(x) | ExprKind::SExt(x) => vec![x.clone()],
        ExprKind::Extract { expr, offset: 0 } => vec![expr.clone()],
        ExprKind::Select {
            then_expr,
            else_expr,
            ..
        } => vec![then_expr.clone(), else_expr.clone()],
        _ => vec![],
    };
    v.into_iter().filter(|c| !c.is_constant()).collect()
}
