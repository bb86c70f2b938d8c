//! Formula-pattern synthesis (spec 003 §5.5): given instances `ψ_ℓ` at points `d_ℓ`, a
//! formula `φ(x)` with `φ[d_ℓ/x] ≐ ψ_ℓ` for every ℓ.
//!
//! The instances must be syntactically identical up to numeric constants (the template
//! θ(y)); each position where the constants differ gets a linear term `a·x + b`, fitted by
//! exact arithmetic modulo the position's width from two points and checked on all of
//! them (no solver). A position with one point keeps its constant. The result is checked
//! by instantiating it at every point, so a synthesised formula is exact or absent.

use sear_expr::bits::{mask, trunc};
use sear_expr::quant::instantiate;
use sear_expr::{Expr, ExprKind};

use super::hash::ConditionHash;

/// `φ(x)` with `φ[d/x] ≐ ψ` for every `(d, ψ)` of `instances` (`x` a bound variable);
/// `None` when the instances differ in more than linear constants.
pub fn synthesize(instances: &[(u128, Expr)], x: &Expr) -> Option<Expr> {
    let (first, rest) = instances.split_first()?;
    if rest.iter().all(|(_, e)| *e == first.1) {
        return Some(first.1.clone());
    }
    let points: Vec<u128> = instances.iter().map(|(d, _)| *d).collect();
    let nodes: Vec<Expr> = instances.iter().map(|(_, e)| e.clone()).collect();
    let phi = zip(&nodes, &points, x, &mut ConditionHash::default())?;
    let w = x.width();
    instances
        .iter()
        .all(|(d, e)| instantiate(&phi, x, &Expr::constant(*d, w)) == *e)
        .then_some(phi)
}

/// The template of `nodes` (one per point), recursively. The operands of commutative
/// operators are aligned by shape first (the builder orders them by hash, which differs
/// between instances).
fn zip(nodes: &[Expr], points: &[u128], x: &Expr, shapes: &mut ConditionHash) -> Option<Expr> {
    let first = &nodes[0];
    if nodes.iter().all(|n| n == first) {
        return Some(first.clone());
    }
    if nodes.iter().any(|n| n.width() != first.width()) {
        return None;
    }
    if nodes.iter().all(Expr::is_constant) {
        let values: Vec<u128> = nodes.iter().map(|n| n.as_constant().unwrap()).collect();
        return linear(&values, points, first.width(), x);
    }
    let mut kids: Vec<Vec<Expr>> = nodes.iter().map(Expr::children).collect();
    let arity = kids[0].len();
    if kids.iter().any(|k| k.len() != arity) || !same_head(nodes) {
        return None;
    }
    if commutative(first) {
        let want = (shapes.of(&kids[0][0]), shapes.of(&kids[0][1]));
        for k in kids.iter_mut().skip(1) {
            if (shapes.of(&k[0]), shapes.of(&k[1])) != want
                && (shapes.of(&k[1]), shapes.of(&k[0])) == want
            {
                k.swap(0, 1);
            }
        }
    }
    let mut zipped = Vec::with_capacity(arity);
    for i in 0..arity {
        let column: Vec<Expr> = kids.iter().map(|k| k[i].clone()).collect();
        zipped.push(zip(&column, points, x, shapes)?);
    }
    rebuild(first, &zipped)
}

/// True for the operators whose operands the builder may swap.
pub(crate) fn commutative(e: &Expr) -> bool {
    match e.kind() {
        ExprKind::Binary { op, .. } => op.is_commutative(),
        ExprKind::Cmp { op, .. } => *op == sear_expr::CmpOp::Eq,
        _ => false,
    }
}

/// True when the nodes have the same kind and operator (and read the same update list).
fn same_head(nodes: &[Expr]) -> bool {
    let first = &nodes[0];
    nodes.iter().all(|n| {
        std::mem::discriminant(n.kind()) == std::mem::discriminant(first.kind())
            && match (n.kind(), first.kind()) {
                (ExprKind::Read { updates: a, .. }, ExprKind::Read { updates: b, .. }) => a == b,
                (ExprKind::Extract { offset: a, .. }, ExprKind::Extract { offset: b, .. }) => {
                    a == b
                }
                (ExprKind::Binary { op: a, .. }, ExprKind::Binary { op: b, .. }) => a == b,
                (ExprKind::Cmp { op: a, .. }, ExprKind::Cmp { op: b, .. }) => a == b,
                (ExprKind::Var(a), ExprKind::Var(b)) => a == b,
                (ExprKind::Forall { .. }, _) => false,
                _ => true,
            }
    })
}

/// `like` rebuilt over new children.
fn rebuild(like: &Expr, c: &[Expr]) -> Option<Expr> {
    let w = like.width();
    Some(match like.kind() {
        ExprKind::Read { updates, .. } => Expr::read(updates, c[0].clone()),
        ExprKind::Select { .. } => Expr::select(c[0].clone(), c[1].clone(), c[2].clone()),
        ExprKind::Concat { .. } => Expr::concat(c[0].clone(), c[1].clone()),
        ExprKind::Extract { offset, .. } => Expr::extract(c[0].clone(), *offset, w),
        ExprKind::ZExt(_) => Expr::zext(c[0].clone(), w),
        ExprKind::SExt(_) => Expr::sext(c[0].clone(), w),
        ExprKind::Not(_) => Expr::not(c[0].clone()),
        ExprKind::Binary { op, .. } => Expr::binary(*op, c[0].clone(), c[1].clone()),
        ExprKind::Cmp { op, .. } => Expr::cmp(*op, c[0].clone(), c[1].clone()),
        ExprKind::Fp { op, .. } => Expr::fp_rebuild(*op, w, c.to_vec()),
        ExprKind::Constant(_) | ExprKind::Var(_) | ExprKind::Forall { .. } => return None,
    })
}

/// `a·x + b` (at `w` bits) through `values[ℓ]` at `points[ℓ]`, exactly.
fn linear(values: &[u128], points: &[u128], w: u32, x: &Expr) -> Option<Expr> {
    let m = mask(w);
    // Two distinct points fix the line.
    let (i, j) = (0, (1..points.len()).find(|&j| points[j] != points[0])?);
    let dd = points[j] as i128 - points[i] as i128;
    let dv = signed(values[j].wrapping_sub(values[i]) & m, w);
    if dv % dd != 0 {
        return None;
    }
    let a = (dv / dd) as u128 & m;
    let b = values[i].wrapping_sub(a.wrapping_mul(points[i])) & m;
    let fits = values
        .iter()
        .zip(points)
        .all(|(&v, &d)| a.wrapping_mul(d).wrapping_add(b) & m == v);
    if !fits {
        return None;
    }
    // Built at the variable's width, then cut to w.
    let xw = x.width();
    let wide = xw.max(w);
    let xe = Expr::zext(x.clone(), wide);
    let term = Expr::add(
        Expr::constant(trunc(b, wide), wide),
        Expr::mul(Expr::constant(trunc(a, wide), wide), xe),
    );
    Some(Expr::extract(term, 0, w))
}

/// `v` (w bits) as a signed number.
fn signed(v: u128, w: u32) -> i128 {
    if w < 128 && (v >> (w - 1)) & 1 == 1 {
        v as i128 - (1i128 << w)
    } else {
        v as i128
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sear_expr::{Array, ArrayKind, UpdateList};

    /// Example 6.2.3: φ2[1] ≐ n>0 ∧ s[0]=97 and φ2[2] ≐ n>1 ∧ s[1]=97 give
    /// φ2(x) = n > x−1 ∧ s[x−1]=97. (sear builds 0 < n as n ≠ 0, so the instances used are
    /// those of iterations 2 and 3.)
    #[test]
    fn example_6_2_3() {
        let s = UpdateList::new(Array::with_index_width(
            "s",
            8,
            64,
            ArrayKind::SymbolicInput,
            None,
        ));
        let n = Expr::read_lsb(
            &UpdateList::new(Array::with_index_width(
                "n",
                8,
                64,
                ArrayKind::SymbolicInput,
                None,
            )),
            Expr::constant(0, 64),
            8,
        );
        let inst = |y: u128| {
            Expr::and(
                Expr::ult(Expr::constant(y, 64), n.clone()),
                Expr::eq(Expr::constant(97, 8), Expr::read(&s, Expr::constant(y, 64))),
            )
        };
        let x = Expr::fresh_var(64);
        let phi2 = synthesize(&[(2, inst(1)), (3, inst(2))], &x).expect("linear");
        let xm1 = Expr::sub(x.clone(), Expr::constant(1, 64));
        let expected = Expr::and(
            Expr::ult(xm1.clone(), n.clone()),
            Expr::eq(Expr::constant(97, 8), Expr::read(&s, xm1)),
        );
        assert_eq!(phi2, expected);
        // φ3(x) = n > x ∧ ¬s[x] = 97 from three points.
        let exit = |y: u128| {
            Expr::and(
                Expr::ult(Expr::constant(y, 64), n.clone()),
                Expr::ne(Expr::constant(97, 8), Expr::read(&s, Expr::constant(y, 64))),
            )
        };
        let phi3 = synthesize(&[(1, exit(1)), (2, exit(2)), (3, exit(3))], &x).unwrap();
        assert_eq!(instantiate(&phi3, &x, &Expr::constant(7, 64)), exit(7));
        // Count ↦ k: a 32-bit value 0, 1, 2 at k = 0, 1, 2.
        let count = synthesize(
            &[
                (0, Expr::constant(0, 32)),
                (1, Expr::constant(1, 32)),
                (2, Expr::constant(2, 32)),
            ],
            &x,
        )
        .unwrap();
        assert_eq!(count, Expr::extract(x.clone(), 0, 32));
        // Not linear, or not one template: nothing.
        let sq = [
            (1, Expr::constant(1, 32)),
            (2, Expr::constant(4, 32)),
            (3, Expr::constant(9, 32)),
        ];
        assert!(synthesize(&sq, &x).is_none());
        assert!(synthesize(&[(1, inst(1)), (2, exit(2))], &x).is_none());
    }
}
