//! Finding the element reads of an expression.

use rustc_hash::FxHashSet;
use sear_expr::expr::{Expr, ExprKind};
use sear_expr::visit::for_each_node;

use crate::element::{match_element, ElementRead};

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

/// True if `e` contains an if-then-else.
pub fn has_select(e: &Expr) -> bool {
    let mut found = false;
    for_each_node(std::iter::once(e), |n| {
        found |= matches!(n.kind(), ExprKind::Select { .. });
    });
    found
}
