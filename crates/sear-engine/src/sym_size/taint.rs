//! Taint of the atomic variables of symbolic sizes (spec §4.3, "detecting size-dependent
//! loops").
//!
//! When an object with a symbolic size σ is allocated, the input bytes σ reads (a read of a
//! symbolic input array at an index) become tainted. A condition is tainted when it reads a
//! tainted byte: at the same constant index, or where either index is symbolic
//! (conservatively, as the thesis's artifact). Reads inside update lists count too.

use std::rc::Rc;

use sear_expr::visit::for_each_node;
use sear_expr::{ArrayKind, ArrayRef, Expr, ExprKind};

/// The tainted input bytes of one path: `(array, Some(index))`, or `None` for a read at a
/// symbolic index. Shared between forked paths until one adds to it.
#[derive(Clone, Debug, Default)]
pub struct Taint {
    vars: Rc<Vec<(ArrayRef, Option<u128>)>>,
}

impl Taint {
    /// True when nothing is tainted.
    pub fn is_empty(&self) -> bool {
        self.vars.is_empty()
    }

    /// Taints the input bytes `size` reads (the atomic variables of a symbolic size, or of
    /// the conditions a merged value was built from).
    pub fn add_size(&mut self, size: &Expr) {
        let mut found: Vec<(ArrayRef, Option<u128>)> = Vec::new();
        for_each_node([size], |e| {
            if let ExprKind::Read { updates, index } = e.kind() {
                let root = updates.root();
                if root.kind() == ArrayKind::SymbolicInput {
                    found.push((root.clone(), index.as_constant()));
                }
            }
        });
        for var in found {
            if !self.vars.contains(&var) {
                Rc::make_mut(&mut self.vars).push(var);
            }
        }
    }

    /// The union of two taint sets.
    pub fn union(&self, other: &Taint) -> Taint {
        let mut out = self.clone();
        for var in other.vars.iter() {
            if !out.vars.contains(var) {
                Rc::make_mut(&mut out.vars).push(var.clone());
            }
        }
        out
    }

    /// True when `cond` reads a tainted input byte.
    pub fn taints(&self, cond: &Expr) -> bool {
        if self.vars.is_empty() {
            return false;
        }
        let mut tainted = false;
        for_each_node([cond], |e| {
            if tainted {
                return;
            }
            if let ExprKind::Read { updates, index } = e.kind() {
                let root = updates.root();
                let at = index.as_constant();
                tainted = self.vars.iter().any(|(array, i)| {
                    array == root
                        && match (i, at) {
                            (Some(i), Some(at)) => *i == at,
                            _ => true,
                        }
                });
            }
        });
        tainted
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sear_expr::{Array, UpdateList};

    fn input(name: &str) -> UpdateList {
        UpdateList::new(Array::new(name, 8, ArrayKind::SymbolicInput, None))
    }

    #[test]
    fn conditions_reading_the_size_are_tainted_and_others_are_not() {
        let n_arr = input("n");
        let n = Expr::read_lsb(&n_arr, Expr::constant(0, 32), 8);
        let z = Expr::read_lsb(&input("z"), Expr::constant(0, 32), 8);
        let mut taint = Taint::default();
        assert!(!taint.taints(&Expr::ult(Expr::constant(0, 64), n.clone())));
        taint.add_size(&n);
        assert!(taint.taints(&Expr::ult(Expr::constant(0, 64), n.clone())));
        assert!(!taint.taints(&Expr::eq(z, Expr::constant(0, 64))));
        // Another byte of the same array at a constant index is not tainted...
        let other = Array::new("m", 16, ArrayKind::SymbolicInput, None);
        let m = UpdateList::new(other);
        let mut t2 = Taint::default();
        t2.add_size(&Expr::read(&m, Expr::constant(0, 32)));
        assert!(!t2.taints(&Expr::eq(
            Expr::read(&m, Expr::constant(1, 32)),
            Expr::constant(0, 8)
        )));
        // ... but a read at a symbolic index is.
        let idx = Expr::zext_or_trunc(Expr::read(&input("i"), Expr::constant(0, 32)), 32);
        assert!(t2.taints(&Expr::eq(Expr::read(&m, idx), Expr::constant(0, 8))));
        // The union keeps both.
        assert!(t2
            .union(&taint)
            .taints(&Expr::ult(Expr::constant(0, 64), n)));
    }
}
