//! Evaluation of expressions under an assignment of bytes to arrays.
//!
//! This is the basis of the counterexample cache (re-evaluating stored models against new
//! queries) and of model validation. Bytes an assignment does not give are zero, both for
//! arrays it does not mention and for indices beyond the bytes it holds; constant arrays
//! always use their own contents.

use std::collections::BTreeMap;

use rustc_hash::FxHashMap;

use crate::array::{ArrayRef, UpdateList};
use crate::bits::{sext, trunc};
use crate::expr::{Expr, ExprKind};
use crate::fold::{fold_binary, fold_cmp, fold_concat, fold_extract, fold_not};

/// Concrete bytes for a set of arrays (a model).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Assignment {
    arrays: BTreeMap<ArrayRef, Vec<u8>>,
    /// Bytes of unbounded arrays beyond their dense part.
    outside: BTreeMap<ArrayRef, BTreeMap<u128, u8>>,
}

impl Assignment {
    /// An empty assignment (every byte is zero).
    pub fn new() -> Self {
        Self::default()
    }

    /// Sets the bytes of `array`.
    pub fn insert(&mut self, array: ArrayRef, bytes: Vec<u8>) {
        self.arrays.insert(array, bytes);
    }

    /// The bytes of `array`, if assigned.
    pub fn get(&self, array: &ArrayRef) -> Option<&[u8]> {
        self.arrays.get(array).map(Vec::as_slice)
    }

    /// Sets one byte of an assigned array (nothing happens for an unassigned array or an
    /// index past its assigned bytes).
    pub fn set_byte(&mut self, array: &ArrayRef, index: usize, byte: u8) {
        if let Some(b) = self.arrays.get_mut(array).and_then(|b| b.get_mut(index)) {
            *b = byte;
        }
    }

    /// The byte at `index` of `array` (zero when unassigned).
    pub fn byte(&self, array: &ArrayRef, index: u128) -> u8 {
        if let Some(contents) = array.contents() {
            return if index < contents.len() as u128 {
                contents[index as usize]
            } else {
                0
            };
        }
        match self.arrays.get(array) {
            Some(bytes) if index < bytes.len() as u128 => bytes[index as usize],
            _ => self
                .outside
                .get(array)
                .and_then(|m| m.get(&index))
                .copied()
                .unwrap_or(0),
        }
    }

    /// Sets one byte of an unbounded array beyond its dense part.
    pub fn set_outside(&mut self, array: ArrayRef, index: u128, byte: u8) {
        self.outside.entry(array).or_default().insert(index, byte);
    }

    /// Copies the bytes of `array` that `other` sets beyond its dense part.
    pub fn copy_outside_from(&mut self, other: &Assignment, array: &ArrayRef) {
        if let Some(m) = other.outside.get(array) {
            self.outside
                .entry(array.clone())
                .or_default()
                .extend(m.iter().map(|(i, b)| (*i, *b)));
        }
    }

    /// The bytes of `array` set beyond its dense part, by index.
    pub fn outside(&self, array: &ArrayRef) -> impl Iterator<Item = (u128, u8)> + '_ {
        self.outside
            .get(array)
            .into_iter()
            .flat_map(|m| m.iter().map(|(i, b)| (*i, *b)))
    }

    /// The assigned arrays in creation order.
    pub fn arrays(&self) -> impl Iterator<Item = (&ArrayRef, &[u8])> {
        self.arrays.iter().map(|(a, b)| (a, b.as_slice()))
    }

    /// The number of assigned arrays.
    pub fn len(&self) -> usize {
        self.arrays.len()
    }

    /// True when no array is assigned.
    pub fn is_empty(&self) -> bool {
        self.arrays.is_empty()
    }

    /// Adds every array of `other` (its bytes win on overlap).
    pub fn merge(&mut self, other: &Assignment) {
        for (a, b) in &other.arrays {
            self.arrays.insert(a.clone(), b.clone());
        }
        for (a, m) in &other.outside {
            self.outside.insert(a.clone(), m.clone());
        }
    }

    /// Evaluates one expression.
    pub fn evaluate(&self, expr: &Expr) -> u128 {
        Evaluator::new(self).eval(expr)
    }

    /// True if every constraint evaluates to true.
    pub fn satisfies<'a>(&self, constraints: impl IntoIterator<Item = &'a Expr>) -> bool {
        let mut evaluator = Evaluator::new(self);
        constraints.into_iter().all(|c| evaluator.eval(c) == 1)
    }
}

/// An evaluator with a memo table, for evaluating many expressions under one assignment.
///
/// Bound variables ([`ExprKind::Var`]) take the values of the evaluator's bindings (zero when
/// unbound); a quantified clause is evaluated by enumerating its range `1..=k` (giving up,
/// false, beyond [`crate::quant::MAX_ENUMERATION`] iterations).
pub struct Evaluator<'a> {
    assignment: &'a Assignment,
    memo: FxHashMap<Expr, u128>,
    bindings: FxHashMap<u32, u128>,
}

impl<'a> Evaluator<'a> {
    /// Creates an evaluator over `assignment`.
    pub fn new(assignment: &'a Assignment) -> Self {
        Evaluator {
            assignment,
            memo: FxHashMap::default(),
            bindings: FxHashMap::default(),
        }
    }

    /// An evaluator over `assignment` with the bound variables `bindings` (var id → value).
    pub fn with_bindings(assignment: &'a Assignment, bindings: FxHashMap<u32, u128>) -> Self {
        Evaluator {
            assignment,
            memo: FxHashMap::default(),
            bindings,
        }
    }

    /// An evaluator over `assignment` that takes each `known` term to have its given value
    /// without evaluating it (values that the caller computed under the same assignment, so
    /// that evaluating terms above them walks only the rest).
    pub fn with_known(
        assignment: &'a Assignment,
        known: impl IntoIterator<Item = (Expr, u128)>,
    ) -> Self {
        Evaluator {
            assignment,
            memo: known.into_iter().collect(),
            bindings: FxHashMap::default(),
        }
    }

    /// The number of distinct terms evaluated (or known) so far: a measure of the work done.
    pub fn evaluated(&self) -> usize {
        self.memo.len()
    }

    fn eval_forall(&mut self, var: &Expr, bound: &Expr, body: &Expr) -> u128 {
        let k = self.value_of(bound);
        if k > crate::quant::MAX_ENUMERATION {
            return 0;
        }
        let id = var.as_var().expect("forall binds a variable");
        for n in 1..=k {
            let mut bindings = self.bindings.clone();
            bindings.insert(id, n);
            if Evaluator::with_bindings(self.assignment, bindings).eval(body) != 1 {
                return 0;
            }
        }
        1
    }

    /// The value of `expr` (booleans are 0 or 1).
    pub fn eval(&mut self, expr: &Expr) -> u128 {
        if let Some(v) = expr.as_constant() {
            return v;
        }
        if let Some(&v) = self.memo.get(expr) {
            return v;
        }
        // Iterative post-order so deep expressions cannot overflow the stack.
        let mut stack: Vec<(Expr, bool)> = vec![(expr.clone(), false)];
        while let Some((e, children_done)) = stack.pop() {
            if self.memo.contains_key(&e) {
                continue;
            }
            if let Some(v) = e.as_constant() {
                self.memo.insert(e, v);
                continue;
            }
            if !children_done {
                stack.push((e.clone(), true));
                // A clause's body is evaluated per instance, by `eval_forall`.
                let children = match e.kind() {
                    ExprKind::Forall { bound, .. } => vec![bound.clone()],
                    _ => e.children(),
                };
                for child in children {
                    if !child.is_constant() && !self.memo.contains_key(&child) {
                        stack.push((child, false));
                    }
                }
                continue;
            }
            let value = self.eval_node(&e);
            self.memo.insert(e, value);
        }
        self.memo[expr]
    }

    fn value_of(&self, e: &Expr) -> u128 {
        e.as_constant().unwrap_or_else(|| self.memo[e])
    }

    fn eval_node(&mut self, e: &Expr) -> u128 {
        let width = e.width();
        match e.kind() {
            ExprKind::Constant(v) => *v,
            ExprKind::Read { updates, index } => {
                let i = self.value_of(index);
                self.eval_read(updates, i)
            }
            ExprKind::Select {
                cond,
                then_expr,
                else_expr,
            } => {
                if self.value_of(cond) == 1 {
                    self.value_of(then_expr)
                } else {
                    self.value_of(else_expr)
                }
            }
            ExprKind::Concat { hi, lo } => {
                fold_concat(self.value_of(hi), self.value_of(lo), lo.width())
            }
            ExprKind::Extract { expr, offset } => fold_extract(self.value_of(expr), *offset, width),
            ExprKind::ZExt(x) => self.value_of(x),
            ExprKind::SExt(x) => sext(self.value_of(x), x.width(), width),
            ExprKind::Not(x) => fold_not(self.value_of(x), width),
            ExprKind::Binary { op, lhs, rhs } => {
                fold_binary(*op, width, self.value_of(lhs), self.value_of(rhs))
            }
            ExprKind::Cmp { op, lhs, rhs } => {
                fold_cmp(*op, lhs.width(), self.value_of(lhs), self.value_of(rhs)) as u128
            }
            ExprKind::Var(id) => self.bindings.get(id).copied().unwrap_or(0),
            ExprKind::Forall { var, bound, body } => self.eval_forall(var, bound, body),
            ExprKind::Fp { op, args } => {
                let vals: Vec<(u128, u32)> =
                    args.iter().map(|a| (self.value_of(a), a.width())).collect();
                crate::fp::fold(*op, width, &vals)
            }
        }
    }

    fn eval_read(&mut self, updates: &UpdateList, index: u128) -> u128 {
        let index = trunc(index, updates.root().index_width());
        for write in updates.iter() {
            let write_index = self.eval(write.index());
            if write_index == index {
                return self.eval(write.value());
            }
        }
        self.assignment.byte(updates.root(), index) as u128
    }
}
