//! Finding the element reads of an expression, and recognising array terms.

use rustc_hash::FxHashSet;

use super::element::{match_element, ElementRead};
use crate::expr::{Expr, ExprKind};
use crate::visit::for_each_node;

/// The maximal element reads with a non-constant offset in `root`, in a deterministic
/// order (parents before the reads inside their offsets). A byte read that is part of a
/// recognised multi-byte chain is not listed on its own unless it also occurs elsewhere.
pub fn element_reads(root: &Expr) -> Vec<(Expr, ElementRead)> {
    let mut out = Vec::new();
    let mut seen: FxHashSet<Expr> = FxHashSet::default();
    let mut stack = vec![root.clone()];
    while let Some(e) = stack.pop() {
        if e.is_constant() || !seen.insert(e.clone()) {
            continue;
        }
        let element = match e.kind() {
            ExprKind::Read { .. } | ExprKind::Concat { .. } => match_element(&e),
            _ => None,
        };
        match element {
            Some(er) => {
                stack.push(er.base.clone());
                if !er.base.is_constant() {
                    out.push((e, er));
                }
            }
            None => stack.extend(e.children().into_iter().rev()),
        }
    }
    out
}

/// True if `e` contains a read whose index is not constant.
pub fn has_symbolic_index_read(e: &Expr) -> bool {
    let mut found = false;
    for_each_node(std::iter::once(e), |n| {
        if let ExprKind::Read { index, .. } = n.kind() {
            found |= !index.is_constant();
        }
    });
    found
}

/// True if any of `roots` needs the solver's array theory: a read at a non-constant index,
/// a read through writes, or a read of a constant array. (A constant-index read of a
/// symbolic array without writes is a plain variable.)
pub fn has_array_term<'a>(roots: impl IntoIterator<Item = &'a Expr>) -> bool {
    let mut found = false;
    for_each_node(roots, |n| {
        if let ExprKind::Read { updates, index } = n.kind() {
            found |= !index.is_constant() || !updates.is_empty() || updates.root().is_constant();
        }
    });
    found
}

/// True if `e` contains an if-then-else.
pub fn has_select(e: &Expr) -> bool {
    let mut found = false;
    for_each_node(std::iter::once(e), |n| {
        found |= matches!(n.kind(), ExprKind::Select { .. });
    });
    found
}
