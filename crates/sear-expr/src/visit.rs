//! Traversals: collecting the arrays and reads an expression depends on, and rewriting.
//!
//! All traversals use explicit worklists and visit each shared node once, so they are
//! linear in the size of the DAG and safe on expressions thousands of levels deep.

use std::collections::BTreeSet;

use rustc_hash::{FxHashMap, FxHashSet};

use crate::array::{ArrayRef, UpdateList};
use crate::expr::{Expr, ExprKind};
use crate::reads::ReadPolicy;

/// Visits every distinct node of `roots` (including the expressions inside update lists)
/// once, in no particular order.
pub fn for_each_node<'a>(roots: impl IntoIterator<Item = &'a Expr>, mut f: impl FnMut(&Expr)) {
    let mut seen: FxHashSet<Expr> = FxHashSet::default();
    let mut seen_updates: FxHashSet<usize> = FxHashSet::default();
    let mut stack: Vec<Expr> = roots.into_iter().cloned().collect();
    while let Some(e) = stack.pop() {
        if e.is_constant() || !seen.insert(e.clone()) {
            continue;
        }
        f(&e);
        if let ExprKind::Read { updates, .. } = e.kind() {
            for write in updates.iter() {
                if !seen_updates.insert(write as *const _ as usize) {
                    break;
                }
                stack.push(write.index().clone());
                stack.push(write.value().clone());
            }
        }
        stack.extend(e.children());
    }
}

/// The arrays read anywhere in `roots`, in creation order.
pub fn collect_arrays<'a>(roots: impl IntoIterator<Item = &'a Expr>) -> BTreeSet<ArrayRef> {
    let mut arrays = BTreeSet::new();
    for_each_node(roots, |e| {
        if let ExprKind::Read { updates, .. } = e.kind() {
            arrays.insert(updates.root().clone());
        }
    });
    arrays
}

/// The symbolic (non-constant) arrays read anywhere in `roots`, in creation order.
pub fn collect_symbolic_arrays<'a>(
    roots: impl IntoIterator<Item = &'a Expr>,
) -> BTreeSet<ArrayRef> {
    collect_arrays(roots)
        .into_iter()
        .filter(|a| !a.is_constant())
        .collect()
}

/// Every distinct `Read` node in `roots`.
pub fn collect_reads<'a>(roots: impl IntoIterator<Item = &'a Expr>) -> Vec<Expr> {
    let mut reads = Vec::new();
    for_each_node(roots, |e| {
        if matches!(e.kind(), ExprKind::Read { .. }) {
            reads.push(e.clone());
        }
    });
    reads
}

/// True if any read in `roots` has a non-constant index (or reads through a write at a
/// non-constant index).
pub fn has_symbolic_index_read<'a>(roots: impl IntoIterator<Item = &'a Expr>) -> bool {
    let mut found = false;
    for_each_node(roots, |e| {
        if let ExprKind::Read { updates, index } = e.kind() {
            if !index.is_constant() || updates.iter().any(|w| !w.index().is_constant()) {
                found = true;
            }
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

/// A bottom-up rewriter: `rewrite(original, rebuilt)` is offered every node after its
/// children were rebuilt and may return a replacement. Nodes are rebuilt through the
/// simplifying constructors, so constants fold again after a substitution; reads are
/// rebuilt under the rewriter's [`ReadPolicy`] (folding unless
/// [`Rewriter::with_read_policy`] says otherwise).
pub struct Rewriter<F: FnMut(&Expr, &Expr) -> Option<Expr>> {
    rewrite: F,
    memo: FxHashMap<Expr, Expr>,
    reads: ReadPolicy,
    keep_unchanged: bool,
}

impl<F: FnMut(&Expr, &Expr) -> Option<Expr>> Rewriter<F> {
    /// Creates a rewriter around `rewrite`.
    pub fn new(rewrite: F) -> Self {
        Rewriter {
            rewrite,
            memo: FxHashMap::default(),
            reads: ReadPolicy::Fold,
            keep_unchanged: false,
        }
    }

    /// The rewriter offering a node whose children all stayed the same as its own
    /// `rebuilt` form, without building it again (an equal value either way; the rebuilt
    /// form may differ where the node was not made by today's constructors). A rewrite that
    /// replaces a few terms of a large expression then costs a lookup per node instead of a
    /// construction per node. Reads through writes are still rebuilt.
    pub fn keeping_unchanged(mut self) -> Self {
        self.keep_unchanged = true;
        self
    }

    /// The rewriter rebuilding reads under `reads`.
    pub fn with_read_policy(mut self, reads: ReadPolicy) -> Self {
        self.reads = reads;
        self
    }

    /// Rewrites `expr` bottom-up.
    pub fn apply(&mut self, expr: &Expr) -> Expr {
        let mut stack: Vec<(Expr, bool)> = vec![(expr.clone(), false)];
        while let Some((e, children_done)) = stack.pop() {
            if self.memo.contains_key(&e) {
                continue;
            }
            if !children_done {
                stack.push((e.clone(), true));
                for child in e.children() {
                    if !self.memo.contains_key(&child) {
                        stack.push((child, false));
                    }
                }
                continue;
            }
            let rebuilt = if self.keep_unchanged && self.children_unchanged(&e) {
                e.clone()
            } else {
                self.rebuild(&e)
            };
            let result = (self.rewrite)(&e, &rebuilt).unwrap_or(rebuilt);
            self.memo.insert(e, result);
        }
        self.memo[expr].clone()
    }

    fn get(&self, e: &Expr) -> Expr {
        self.memo[e].clone()
    }

    /// Whether every child of `e` was rewritten to itself (a read through writes counts as
    /// changed: its update list is rewritten only by `rebuild`).
    fn children_unchanged(&self, e: &Expr) -> bool {
        if let ExprKind::Read { updates, .. } = e.kind() {
            if !updates.is_empty() {
                return false;
            }
        }
        e.children().iter().all(|c| self.memo[c] == *c)
    }

    fn rebuild_updates(&mut self, updates: &UpdateList) -> UpdateList {
        let writes: Vec<(Expr, Expr)> = updates
            .iter()
            .map(|w| (w.index().clone(), w.value().clone()))
            .collect();
        let mut changed = false;
        let mut new_writes = Vec::with_capacity(writes.len());
        for (i, v) in &writes {
            let (ni, nv) = (self.apply(i), self.apply(v));
            changed |= ni != *i || nv != *v;
            new_writes.push((ni, nv));
        }
        if !changed {
            return updates.clone();
        }
        let mut list = UpdateList::new(updates.root().clone());
        for (i, v) in new_writes.into_iter().rev() {
            list = list.write(i, v);
        }
        list
    }

    fn rebuild(&mut self, e: &Expr) -> Expr {
        match e.kind() {
            ExprKind::Constant(_) => e.clone(),
            ExprKind::Read { updates, index } => {
                let updates = self.rebuild_updates(updates);
                self.reads.read(&updates, self.get(index))
            }
            ExprKind::Select {
                cond,
                then_expr,
                else_expr,
            } => Expr::select(self.get(cond), self.get(then_expr), self.get(else_expr)),
            ExprKind::Concat { hi, lo } => Expr::concat(self.get(hi), self.get(lo)),
            ExprKind::Extract { expr, offset } => Expr::extract(self.get(expr), *offset, e.width()),
            ExprKind::ZExt(x) => Expr::zext(self.get(x), e.width()),
            ExprKind::SExt(x) => Expr::sext(self.get(x), e.width()),
            ExprKind::Not(x) => Expr::not(self.get(x)),
            ExprKind::Binary { op, lhs, rhs } => Expr::binary(*op, self.get(lhs), self.get(rhs)),
            ExprKind::Cmp { op, lhs, rhs } => Expr::cmp(*op, self.get(lhs), self.get(rhs)),
            ExprKind::Var(_) => e.clone(),
            // A rewrite never replaces the variable a clause binds (ids are unique, so only
            // a caller substituting for it on purpose could): the binder keeps it.
            ExprKind::Forall { var, bound, body } => {
                let v = self.get(var);
                let v = if v.as_var().is_some() { v } else { var.clone() };
                Expr::forall(v, self.get(bound), self.get(body))
            }
            ExprKind::Fp { op, args } => {
                let args: Vec<Expr> = args.iter().map(|a| self.get(a)).collect();
                Expr::fp_rebuild(*op, e.width(), args)
            }
        }
    }
}

/// Replaces every occurrence of each key of `map` in `expr` by its value, rebuilding (and
/// re-simplifying) the nodes above.
pub fn substitute(expr: &Expr, map: &FxHashMap<Expr, Expr>) -> Expr {
    substitute_with(expr, map, ReadPolicy::Fold)
}

/// [`substitute`] rebuilding reads under `reads`.
pub fn substitute_with(expr: &Expr, map: &FxHashMap<Expr, Expr>, reads: ReadPolicy) -> Expr {
    Rewriter::new(|original: &Expr, _: &Expr| map.get(original).cloned())
        .with_read_policy(reads)
        .apply(expr)
}
