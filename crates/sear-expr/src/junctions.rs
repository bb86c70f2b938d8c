//! The parts of a conjunction or a disjunction, through negations: `a ∧ b` and `¬(a ∨ b)`
//! give conjuncts, `a ∨ b` and `¬(a ∧ b)` disjuncts, nested to any depth. Iterative, since a
//! merged loop's flag is a chain as deep as the loop (10^5). `quant::conjuncts` splits `∧`
//! alone.

use crate::{BinOp, Expr, ExprKind};

/// The conjuncts of `e` (`a ∧ b`, `¬(a ∨ b)` as `¬a`, `¬b`), left first.
pub fn conjuncts(e: &Expr) -> Vec<Expr> {
    parts(e, BinOp::And, usize::MAX)
}

/// The first `limit` disjuncts of `e` (`a ∨ b`, `¬(a ∧ b)` as `¬a`, `¬b`), left first.
pub fn disjuncts(e: &Expr, limit: usize) -> Vec<Expr> {
    parts(e, BinOp::Or, limit)
}

/// The first `limit` parts of `e` under the boolean `op` (`And` or `Or`), a negated `dual`
/// split into negated parts.
fn parts(e: &Expr, op: BinOp, limit: usize) -> Vec<Expr> {
    let dual = if op == BinOp::And {
        BinOp::Or
    } else {
        BinOp::And
    };
    let split = |x: &Expr, want: BinOp| match x.kind() {
        ExprKind::Binary { op, lhs, rhs } if *op == want && x.is_bool() => {
            Some((lhs.clone(), rhs.clone()))
        }
        _ => None,
    };
    let mut out = Vec::new();
    let mut stack = vec![e.clone()];
    while let Some(x) = stack.pop() {
        if out.len() >= limit {
            break;
        }
        if let Some((lhs, rhs)) = split(&x, op) {
            stack.push(rhs);
            stack.push(lhs);
        } else if let Some((lhs, rhs)) = match x.kind() {
            ExprKind::Not(y) => split(y, dual),
            _ => None,
        } {
            stack.push(Expr::not(rhs));
            stack.push(Expr::not(lhs));
        } else {
            out.push(x);
        }
    }
    out
}
