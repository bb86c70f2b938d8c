//! Quantified clauses: `∀i. 1 ≤ i ≤ k → ψ` (seed 003 Ch. 6, the merged path conditions of
//! pattern-based state merging).
//!
//! A clause is one expression node, [`ExprKind::Forall`], binding a variable
//! ([`ExprKind::Var`], a leaf with a process-unique id) over the range `1..=k` of a bound
//! term `k` (in practice a fresh symbolic constant) with unsigned comparisons at the
//! variable's width. Everything that walks expressions sees the body as a child, so the
//! arrays and reads of a clause are those of its body and bound; evaluation
//! ([`crate::Evaluator`]) enumerates the range; SMT-LIB prints and parses it as
//! `(forall ((i (_ BitVec w))) (=> (and (bvule #x..1 i) (bvule i k)) ψ))`.
//!
//! Ids are unique per process, so two clauses never capture each other's variable and
//! substituting into a body needs no renaming.

use std::sync::atomic::{AtomicU32, Ordering};

use rustc_hash::FxHashMap;

use crate::expr::{Expr, ExprKind};

static NEXT_VAR: AtomicU32 = AtomicU32::new(1);

/// Above this many iterations, evaluation gives up on a clause and reports it false (the
/// conservative side for a model check: "not shown to be a model").
pub const MAX_ENUMERATION: u128 = 1 << 24;

impl Expr {
    /// A bound variable with a fresh, process-unique id.
    pub fn fresh_var(width: u32) -> Expr {
        Expr::var(NEXT_VAR.fetch_add(1, Ordering::Relaxed), width)
    }

    /// The bound variable `id` of `width` bits (for parsers; prefer [`Expr::fresh_var`]).
    pub fn var(id: u32, width: u32) -> Expr {
        Expr::make(ExprKind::Var(id), width)
    }

    /// The variable's id, if this is a bound variable.
    pub fn as_var(&self) -> Option<u32> {
        match self.kind() {
            ExprKind::Var(id) => Some(*id),
            _ => None,
        }
    }

    /// `∀ var. 1 ≤ var ≤ bound → body`, simplified: `true` for a true body or a zero bound,
    /// the single instance for a bound of 1, and `bound = 0 ∨ body` when the body does not
    /// mention the variable.
    pub fn forall(var: Expr, bound: Expr, body: Expr) -> Expr {
        assert!(var.as_var().is_some(), "forall binds a variable");
        assert_eq!(var.width(), bound.width(), "forall bound width");
        assert!(body.is_bool(), "forall body must be boolean");
        assert!(
            !mentions(&bound, &var),
            "forall bound mentions its variable"
        );
        if body.is_true() || bound.as_constant() == Some(0) {
            return Expr::true_();
        }
        if bound.as_constant() == Some(1) {
            return instantiate(&body, &var, &Expr::constant(1, var.width()));
        }
        if !mentions(&body, &var) {
            return Expr::or(Expr::eq(Expr::constant(0, bound.width()), bound), body);
        }
        Expr::make(ExprKind::Forall { var, bound, body }, 1)
    }

    /// The parts `(var, bound, body)` of a quantified clause.
    pub fn as_forall(&self) -> Option<(&Expr, &Expr, &Expr)> {
        match self.kind() {
            ExprKind::Forall { var, bound, body } => Some((var, bound, body)),
            _ => None,
        }
    }
}

/// True when `var` occurs in `expr` (including inside update lists).
pub fn mentions(expr: &Expr, var: &Expr) -> bool {
    let mut found = false;
    crate::visit::for_each_node([expr], |e| found |= e == var);
    found
}

/// True when any of `roots` contains a quantified clause.
pub fn contains_forall<'a>(roots: impl IntoIterator<Item = &'a Expr>) -> bool {
    roots.into_iter().any(Expr::is_quantified)
}

/// True when any of `roots` mentions a bound variable (free or bound).
pub fn contains_var<'a>(roots: impl IntoIterator<Item = &'a Expr>) -> bool {
    let mut found = false;
    crate::visit::for_each_node(roots, |e| found |= matches!(e.kind(), ExprKind::Var(_)));
    found
}

/// `body[value/var]`, re-simplified.
pub fn instantiate(body: &Expr, var: &Expr, value: &Expr) -> Expr {
    let mut map = FxHashMap::default();
    map.insert(var.clone(), value.clone());
    crate::visit::substitute(body, &map)
}

/// The top-level conjuncts of `e` (`a ∧ b` split recursively; `true` gives none).
pub fn conjuncts(e: &Expr) -> Vec<Expr> {
    let mut out = Vec::new();
    let mut stack = vec![e.clone()];
    while let Some(x) = stack.pop() {
        match x.kind() {
            ExprKind::Binary {
                op: crate::BinOp::And,
                lhs,
                rhs,
            } if x.is_bool() => {
                stack.push(rhs.clone());
                stack.push(lhs.clone());
            }
            _ if x.is_true() => {}
            _ => out.push(x),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Array, ArrayKind, Assignment, UpdateList};

    fn byte_array(name: &str, size: u64) -> (crate::ArrayRef, UpdateList) {
        let a = Array::with_index_width(name, size, 64, ArrayKind::SymbolicInput, None);
        (a.clone(), UpdateList::new(a))
    }

    #[test]
    fn forall_simplifies_and_evaluates_by_enumeration() {
        let (s, ul) = byte_array("s", 8);
        let (k_arr, kul) = byte_array("k", 8);
        let k = Expr::read_lsb(&kul, Expr::constant(0, 64), 8);
        let i = Expr::fresh_var(64);
        // ∀i. 1 ≤ i ≤ k → s[i−1] ≠ 0
        let body = Expr::ne(
            Expr::read(&ul, Expr::sub(i.clone(), Expr::constant(1, 64))),
            Expr::constant(0, 8),
        );
        let q = Expr::forall(i.clone(), k.clone(), body.clone());
        assert!(q.as_forall().is_some());
        assert!(contains_forall([&q]) && contains_var([&q]));
        assert!(Expr::forall(i.clone(), Expr::constant(0, 64), body.clone()).is_true());
        let one = Expr::forall(i.clone(), Expr::constant(1, 64), body.clone());
        assert_eq!(
            one,
            Expr::ne(Expr::read(&ul, Expr::constant(0, 64)), Expr::constant(0, 8))
        );
        let mut m = Assignment::new();
        m.insert(s.clone(), vec![1, 2, 3, 0, 5, 0, 0, 0]);
        for (kv, expected) in [(0u8, 1), (3, 1), (4, 0), (5, 0)] {
            m.insert(k_arr.clone(), vec![kv, 0, 0, 0, 0, 0, 0, 0]);
            assert_eq!(m.evaluate(&q), expected, "k = {kv}");
        }
        // Substituting the bound leaves the variable bound.
        let q2 = instantiate(&q, &k, &Expr::constant(2, 64));
        assert_eq!(m.evaluate(&q2), 1);
        let parts = conjuncts(&Expr::and(q.clone(), body.clone()));
        assert!(parts.len() == 2 && parts.contains(&q) && parts.contains(&body));
    }

    /// The flag behind `contains_forall` is carried up from every child, update lists'
    /// indices and values included, and a walk of the nodes agrees with it.
    #[test]
    fn quantified_flag_reaches_through_operators_and_update_lists() {
        let (_, ul) = byte_array("s", 8);
        let (_, tul) = byte_array("t", 8);
        let i = Expr::fresh_var(64);
        let body = Expr::ne(Expr::read(&ul, i.clone()), Expr::constant(0, 8));
        let q = Expr::forall(i, Expr::constant(4, 64), body.clone());
        let plain = Expr::eq(
            Expr::read(&tul, Expr::constant(1, 64)),
            Expr::constant(7, 8),
        );
        assert!(!plain.is_quantified() && !body.is_quantified() && q.is_quantified());
        let above = Expr::and(plain.clone(), Expr::not(q.clone()));
        assert!(above.is_quantified() && contains_forall([&plain, &above]));
        // A written value that holds the clause, under a write that does not.
        let written = Expr::select(q.clone(), Expr::constant(1, 8), Expr::constant(2, 8));
        let ul2 = tul
            .write(Expr::constant(0, 64), written)
            .write(Expr::constant(3, 64), Expr::constant(9, 8));
        assert!(ul2.is_quantified() && !tul.is_quantified());
        // At a symbolic index, so that the read keeps both writes.
        let (_, jul) = byte_array("j", 8);
        let j = Expr::zext(Expr::read(&jul, Expr::constant(0, 64)), 64);
        let read = Expr::eq(Expr::read(&ul2, j), Expr::constant(1, 8));
        assert!(read.is_quantified());
        for e in [&plain, &body, &q, &above, &read] {
            let mut walked = false;
            crate::visit::for_each_node([e], |n| {
                walked |= matches!(n.kind(), ExprKind::Forall { .. })
            });
            assert_eq!(walked, e.is_quantified(), "{e:?}");
        }
    }
}
