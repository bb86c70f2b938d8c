//! Shared test support: an independent reference interpreter for generated trees, the
//! canonical-form checker, and proptest knobs from the environment.

#![allow(dead_code)]

use sear_expr::testing::{Tree, TreeCmp};
use sear_expr::{ArrayRef, Assignment, BinOp, CmpOp, Expr, ExprKind};

/// The number of proptest cases: `SEAR_PROPTEST_CASES`, or `default`.
pub fn cases(default: u32) -> u32 {
    std::env::var("SEAR_PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn mask(width: u32) -> u128 {
    if width == 128 {
        u128::MAX
    } else {
        (1u128 << width) - 1
    }
}

/// Sign-extends a `width`-bit value to an `i128`.
fn signed(v: u128, width: u32) -> i128 {
    let shift = 128 - width;
    ((v << shift) as i128) >> shift
}

/// Evaluates a tree with SMT-LIB semantics, independently of the library's folding code.
/// Bytes come from `model` (zero when absent), constant arrays from their contents.
pub fn reference(tree: &Tree, arrays: &[ArrayRef], model: &Assignment) -> u128 {
    let byte = |array: &ArrayRef, index: u128| -> u128 {
        let bytes = array.contents().or_else(|| model.get(array)).unwrap_or(&[]);
        if index < bytes.len() as u128 {
            bytes[index as usize] as u128
        } else {
            0
        }
    };
    match tree {
        Tree::Const { value, .. } => *value,
        Tree::Read {
            array,
            writes,
            index,
        } => {
            let a = &arrays[*array];
            let iw = mask(a.index_width());
            let i = reference(index, arrays, model) & iw;
            for (wi, wv) in writes.iter().rev() {
                if reference(wi, arrays, model) & iw == i {
                    return reference(wv, arrays, model);
                }
            }
            byte(a, i)
        }
        Tree::ReadLsb {
            array,
            index,
            bytes,
        } => {
            let a = &arrays[*array];
            let base = reference(index, arrays, model);
            (0..*bytes).fold(0u128, |acc, k| {
                let i = base.wrapping_add(k as u128) & mask(a.index_width());
                acc | (byte(a, i) << (8 * k))
            })
        }
        Tree::Select {
            cond,
            then_tree,
            else_tree,
        } => {
            if reference(cond, arrays, model) == 1 {
                reference(then_tree, arrays, model)
            } else {
                reference(else_tree, arrays, model)
            }
        }
        Tree::Concat { hi, lo } => {
            (reference(hi, arrays, model) << lo.width()) | reference(lo, arrays, model)
        }
        Tree::Extract {
            expr,
            offset,
            width,
        } => (reference(expr, arrays, model) >> offset) & mask(*width),
        Tree::ZExt { expr, .. } => reference(expr, arrays, model),
        Tree::SExt { expr, width } => {
            signed(reference(expr, arrays, model), expr.width()) as u128 & mask(*width)
        }
        Tree::Not(e) => !reference(e, arrays, model) & mask(e.width()),
        Tree::Binary { op, lhs, rhs } => {
            let w = lhs.width();
            let (a, b) = (reference(lhs, arrays, model), reference(rhs, arrays, model));
            binary(*op, w, a, b)
        }
        Tree::Cmp { op, lhs, rhs } => {
            let w = lhs.width();
            let (a, b) = (reference(lhs, arrays, model), reference(rhs, arrays, model));
            let (sa, sb) = (signed(a, w), signed(b, w));
            (match op {
                TreeCmp::Eq => a == b,
                TreeCmp::Ne => a != b,
                TreeCmp::Ult => a < b,
                TreeCmp::Ule => a <= b,
                TreeCmp::Ugt => a > b,
                TreeCmp::Uge => a >= b,
                TreeCmp::Slt => sa < sb,
                TreeCmp::Sle => sa <= sb,
                TreeCmp::Sgt => sa > sb,
                TreeCmp::Sge => sa >= sb,
            }) as u128
        }
    }
}

/// A binary operator at `w` bits with SMT-LIB semantics.
pub fn binary(op: BinOp, w: u32, a: u128, b: u128) -> u128 {
    let m = mask(w);
    let (sa, sb) = (signed(a, w), signed(b, w));
    let r = match op {
        BinOp::Add => a.wrapping_add(b),
        BinOp::Sub => a.wrapping_sub(b),
        BinOp::Mul => a.wrapping_mul(b),
        BinOp::UDiv => a.checked_div(b).unwrap_or(m),
        BinOp::URem => a.checked_rem(b).unwrap_or(a),
        BinOp::SDiv => {
            if b == 0 {
                if sa < 0 {
                    1
                } else {
                    m
                }
            } else {
                sa.wrapping_div(sb) as u128
            }
        }
        BinOp::SRem => {
            if b == 0 {
                a
            } else {
                sa.wrapping_rem(sb) as u128
            }
        }
        BinOp::And => a & b,
        BinOp::Or => a | b,
        BinOp::Xor => a ^ b,
        BinOp::Shl => {
            if b >= w as u128 {
                0
            } else {
                a << b
            }
        }
        BinOp::LShr => {
            if b >= w as u128 {
                0
            } else {
                a >> b
            }
        }
        BinOp::AShr => {
            if b >= w as u128 {
                if sa < 0 {
                    m
                } else {
                    0
                }
            } else {
                (sa >> b) as u128
            }
        }
    };
    r & m
}

/// Checks the documented canonical form on every node of `e`; returns the first violation.
pub fn canonical_violation(e: &Expr) -> Option<String> {
    let mut found = None;
    sear_expr::visit::for_each_node([e], |n| {
        if found.is_some() {
            return;
        }
        let bad = |why: &str| Some(format!("{why}: {n:?}"));
        let r = match n.kind() {
            ExprKind::Binary { op, lhs, rhs } => {
                if lhs.is_constant() && rhs.is_constant() {
                    bad("unfolded binary")
                } else if op.is_commutative() && rhs.is_constant() {
                    bad("constant on the right of a commutative operator")
                } else if matches!(op, BinOp::Shl | BinOp::LShr)
                    && rhs.as_constant().is_some_and(|k| k >= lhs.width() as u128)
                {
                    bad("unfolded oversized shift")
                } else {
                    None
                }
            }
            ExprKind::Cmp { op, lhs, rhs } => {
                if lhs.is_constant() && rhs.is_constant() {
                    bad("unfolded comparison")
                } else if *op == CmpOp::Eq && rhs.is_constant() {
                    bad("constant on the right of Eq")
                } else if *op == CmpOp::Eq && lhs.is_bool() && lhs.is_constant() {
                    bad("Eq against a boolean constant")
                } else {
                    None
                }
            }
            ExprKind::Not(x) if x.is_constant() || matches!(x.kind(), ExprKind::Not(_)) => {
                bad("foldable Not")
            }
            ExprKind::Extract { expr, .. } | ExprKind::ZExt(expr) | ExprKind::SExt(expr)
                if expr.is_constant() =>
            {
                bad("unfolded extension or extract")
            }
            ExprKind::ZExt(x) if matches!(x.kind(), ExprKind::ZExt(_)) => bad("zext of zext"),
            ExprKind::SExt(x) if matches!(x.kind(), ExprKind::SExt(_)) => bad("sext of sext"),
            ExprKind::Select {
                cond,
                then_expr,
                else_expr,
            } => {
                if cond.is_constant() || then_expr == else_expr {
                    bad("foldable select")
                } else if matches!(cond.kind(), ExprKind::Not(_)) {
                    bad("select on a negated condition")
                } else {
                    None
                }
            }
            ExprKind::Concat { hi, lo } if hi.is_constant() && lo.is_constant() => {
                bad("unfolded concat")
            }
            ExprKind::Read { updates, index } => {
                let root = updates.root();
                match (updates.is_empty(), root.contents(), index.as_constant()) {
                    (true, Some(c), Some(i)) if i < c.len() as u128 => {
                        bad("unfolded constant-array read")
                    }
                    _ => None,
                }
            }
            _ => None,
        };
        found = r;
    });
    found
}

/// Rebuilds `e` over other arrays: each array is replaced by `by_name[its name]`.
pub fn remap_arrays(
    e: &Expr,
    by_name: &std::collections::HashMap<String, ArrayRef>,
    memo: &mut std::collections::HashMap<Expr, Expr>,
) -> Expr {
    if let Some(done) = memo.get(e) {
        return done.clone();
    }
    let mut go = |x: &Expr| remap_arrays(x, by_name, memo);
    let out = match e.kind() {
        ExprKind::Constant(_) => e.clone(),
        ExprKind::Read { updates, index } => {
            let root = by_name
                .get(updates.root().name())
                .unwrap_or_else(|| panic!("no array named {}", updates.root().name()));
            let writes: Vec<(Expr, Expr)> = updates
                .iter()
                .map(|w| (w.index().clone(), w.value().clone()))
                .collect();
            let mut list = sear_expr::UpdateList::new(root.clone());
            for (i, v) in writes.iter().rev() {
                list = list.write(go(i), go(v));
            }
            Expr::read(&list, go(index))
        }
        ExprKind::Select {
            cond,
            then_expr,
            else_expr,
        } => Expr::select(go(cond), go(then_expr), go(else_expr)),
        ExprKind::Concat { hi, lo } => Expr::concat(go(hi), go(lo)),
        ExprKind::Extract { expr, offset } => Expr::extract(go(expr), *offset, e.width()),
        ExprKind::ZExt(x) => Expr::zext(go(x), e.width()),
        ExprKind::SExt(x) => Expr::sext(go(x), e.width()),
        ExprKind::Not(x) => Expr::not(go(x)),
        ExprKind::Binary { op, lhs, rhs } => Expr::binary(*op, go(lhs), go(rhs)),
        ExprKind::Cmp { op, lhs, rhs } => Expr::cmp(*op, go(lhs), go(rhs)),
        ExprKind::Var(_) => e.clone(),
        ExprKind::Forall { var, bound, body } => Expr::forall(var.clone(), go(bound), go(body)),
        ExprKind::Fp { op, args } => {
            Expr::fp_rebuild(*op, e.width(), args.iter().map(go).collect())
        }
    };
    memo.insert(e.clone(), out.clone());
    out
}

/// The same bytes for the arrays of another script, matched by name.
pub fn transfer_model(model: &Assignment, to: &[ArrayRef]) -> Assignment {
    let mut out = Assignment::new();
    for (array, bytes) in model.arrays() {
        if let Some(target) = to.iter().find(|a| a.name() == array.name()) {
            out.insert(target.clone(), bytes.to_vec());
        }
    }
    out
}
