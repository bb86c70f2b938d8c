//! Answers decided by a path condition's equalities, without a solver: KLEE's
//! `ConstraintManager::simplifyExpr`, which its `TimingSolver` applies to every query.
//!
//! A path condition that holds `k = X` (a constant `k`) fixes the term `X` to `k` in every
//! model; one that holds `¬X` fixes `X` to false; every constraint `c` is true. Replacing
//! those terms in a query's expression by their values and rebuilding it through the
//! simplifying constructors gives an expression equal to it in every model of the path
//! condition. When that expression is a constant, it is the query's answer for every
//! model: the path condition being satisfiable (it is a path's), `constraints ∧ e` is
//! satisfiable exactly when the constant is true.
//!
//! Programs that compare input bytes with constants one after the other (argument parsers,
//! `strcmp` against keywords) ask many such queries: after `arg[0] = '+'` the branch on
//! `arg[0] = '-'` is decided here instead of in the core.

use rustc_hash::FxHashMap;
use sear_expr::{BinOp, CmpOp, Expr, ExprKind};

/// The value `e` takes in every model of `constraints` (a satisfiable path condition), when
/// substituting the values the constraints fix makes it a constant; `None` otherwise.
pub fn decide(constraints: &[Expr], e: &Expr) -> Option<bool> {
    if constraints.is_empty() || e.is_constant() {
        return None;
    }
    let mut facts = FxHashMap::default();
    facts.reserve(constraints.len() * 2);
    for c in constraints {
        facts.extend(facts_of(c));
    }
    let simplified = simplify(e, |t| facts.get(t).cloned());
    simplified.as_constant().map(|v| v == 1)
}

/// `e` with every term `fixed` gives a value for replaced by it, rebuilt through the
/// simplifying constructors: equal to `e` in every model in which the fixed terms hold.
/// A term is looked up as it is in `e` and, when its operands changed, as rebuilt (a
/// constraint the path added after its operands were fixed names the rebuilt form).
pub fn simplify(e: &Expr, fixed: impl Fn(&Expr) -> Option<Expr>) -> Expr {
    if e.is_constant() {
        return e.clone();
    }
    sear_expr::visit::Rewriter::new(|original: &Expr, rebuilt: &Expr| {
        fixed(original).or_else(|| {
            if rebuilt == original {
                None
            } else {
                fixed(rebuilt)
            }
        })
    })
    .keeping_unchanged()
    .apply(e)
}

/// How deep [`facts_of`] looks into a constraint's conjunctions (`a ∧ b`, `¬(a ∨ b)`): at
/// most 2^this conjuncts each.
const CONJUNCT_DEPTH: u32 = 3;

/// The terms the constraint `c` fixes: `X ↦ k` for `k = X` (either side a constant),
/// `X ↦ false` for `¬X`, and `c ↦ true` for any other `c` (for those two, `c` rebuilt from
/// the fixed `X` folds to true already: one entry, not two, per constraint of a path); and
/// the same for each conjunct of a conjunction `a ∧ b` or `¬(a ∨ b)` (each is implied by
/// `c`), a few levels deep ([`CONJUNCT_DEPTH`]): a path that took the false side of
/// `a || b` fixes `a` to false, which decides a later branch on `a` alone.
pub fn facts_of(c: &Expr) -> impl Iterator<Item = (Expr, Expr)> {
    let mut out = Vec::new();
    facts_into(c, CONJUNCT_DEPTH, &mut out);
    out.into_iter()
}

fn facts_into(c: &Expr, depth: u32, out: &mut Vec<(Expr, Expr)>) {
    let fixed = match c.kind() {
        ExprKind::Cmp {
            op: CmpOp::Eq,
            lhs,
            rhs,
        } => {
            if lhs.is_constant() && !rhs.is_constant() {
                Some((rhs.clone(), lhs.clone()))
            } else if rhs.is_constant() && !lhs.is_constant() {
                Some((lhs.clone(), rhs.clone()))
            } else {
                None
            }
        }
        ExprKind::Not(x) => Some((x.clone(), Expr::false_())),
        _ => None,
    };
    out.push(fixed.unwrap_or_else(|| (c.clone(), Expr::true_())));
    if depth == 0 || c.width() != 1 {
        return;
    }
    match c.kind() {
        ExprKind::Binary {
            op: BinOp::And,
            lhs,
            rhs,
        } => {
            facts_into(lhs, depth - 1, out);
            facts_into(rhs, depth - 1, out);
        }
        ExprKind::Not(x) => {
            if let ExprKind::Binary {
                op: BinOp::Or,
                lhs,
                rhs,
            } = x.kind()
            {
                facts_into(&Expr::not(lhs.clone()), depth - 1, out);
                facts_into(&Expr::not(rhs.clone()), depth - 1, out);
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sear_expr::{Array, ArrayKind, ArrayRef, UpdateList};

    fn arg() -> ArrayRef {
        thread_local! {
            static ARG: ArrayRef = Array::new("arg", 4, ArrayKind::SymbolicInput, None);
        }
        ARG.with(ArrayRef::clone)
    }

    fn byte(i: u128) -> Expr {
        Expr::read(&UpdateList::new(arg()), Expr::constant(i, 32))
    }

    fn eq(e: Expr, k: u128) -> Expr {
        Expr::eq(Expr::constant(k, 8), e)
    }

    #[test]
    fn a_byte_the_path_fixed_decides_comparisons_with_it() {
        let path = [Expr::not(eq(byte(0), 0x2d)), eq(byte(0), 0x2b)];
        assert_eq!(decide(&path, &eq(byte(0), 0x00)), Some(false));
        assert_eq!(decide(&path, &eq(byte(0), 0x2b)), Some(true));
        assert_eq!(
            decide(&path, &Expr::ult(byte(0), Expr::constant(0x30, 8))),
            Some(true)
        );
        // Another byte is free.
        assert_eq!(decide(&path, &eq(byte(1), 0x00)), None);
    }

    #[test]
    fn negated_and_repeated_constraints_decide() {
        let c = Expr::ult(byte(1), byte(2));
        let path = [Expr::not(c.clone())];
        assert_eq!(decide(&path, &c), Some(false));
        assert_eq!(decide(&path, &Expr::not(c.clone())), Some(true));
        let path = [c.clone()];
        assert_eq!(decide(&path, &c), Some(true));
        assert_eq!(
            decide(&path, &Expr::and(c.clone(), eq(byte(3), 7))),
            None,
            "a free conjunct stays open"
        );
    }

    #[test]
    fn the_conjuncts_of_a_constraint_decide() {
        // The false side of `a || b` (¬(a ∨ b)) fixes `a` and `b` to false; a conjunction
        // fixes each conjunct (here byte 3 to 7).
        let a = Expr::ult(byte(1), byte(2));
        let b = Expr::ult(byte(2), byte(0));
        let path = [Expr::not(Expr::or(a.clone(), b.clone()))];
        assert_eq!(decide(&path, &a), Some(false));
        assert_eq!(decide(&path, &Expr::not(b.clone())), Some(true));
        let path = [Expr::and(a.clone(), eq(byte(3), 7))];
        assert_eq!(decide(&path, &a), Some(true));
        assert_eq!(decide(&path, &eq(byte(3), 8)), Some(false));
        assert_eq!(decide(&path, &b), None);
    }

    #[test]
    fn no_constraints_no_answer() {
        assert_eq!(decide(&[], &eq(byte(0), 1)), None);
        assert_eq!(decide(&[eq(byte(0), 1)], &Expr::true_()), None);
    }
}
