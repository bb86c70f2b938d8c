//! The abstraction `C_a` of a query: writes eliminated by read-over-write, every read at a
//! symbolic index replaced by a fresh 8-bit variable, translated to Z3 bit-vectors (QF_BV).
//!
//! * A read through an update list becomes `ite(i = w₁, v₁, ite(i = w₂, v₂, … R(root, i)))`,
//!   newest write outermost, exactly the evaluator's semantics.
//! * `R(root, c)` at a constant index is exact: the byte of a constant root, a *cell*
//!   variable of a symbolic root, or 0 out of bounds (beyond an unbounded root's dense
//!   part it is a read term like a symbolic index).
//! * `R(root, t)` at a symbolic index is a [`ReadTerm`]: one variable per distinct
//!   `(root, t)`, constrained only by the axioms the CEGAR loop adds.
//!
//! Everything but reads is translated by the walk the Z3 core's translator uses
//! ([`ExprTranslator`]): booleans (width 1) are Z3 `Bool`s and everything else bit-vectors.

use std::collections::BTreeMap;

use rustc_hash::FxHashMap;
use sear_expr::{ArrayRef, Expr, UpdateList};
use z3::ast::BV;

use crate::z3core::translate::{ExprTranslator, Term};

/// A read at a symbolic index of a root array, abstracted to a variable.
#[derive(Clone, Debug)]
pub struct ReadTerm {
    /// The root array.
    pub root: ArrayRef,
    /// The index expression.
    pub index: Expr,
    /// The index in Z3.
    pub index_bv: BV,
    /// The fresh 8-bit variable standing for the read.
    pub var: BV,
}

/// The abstraction of one query.
pub struct Abstraction {
    exprs: FxHashMap<Expr, Term>,
    /// Every abstracted read, in creation order.
    pub terms: Vec<ReadTerm>,
    term_of: FxHashMap<(ArrayRef, Expr), usize>,
    /// Cells of symbolic roots read at constant in-bounds indices.
    pub cells: BTreeMap<(ArrayRef, u64), BV>,
    tag: u64,
}

impl Abstraction {
    /// An empty abstraction; `tag` makes its variable names unique.
    pub fn new(tag: u64) -> Self {
        Abstraction {
            exprs: FxHashMap::default(),
            terms: Vec::new(),
            term_of: FxHashMap::default(),
            cells: BTreeMap::new(),
            tag,
        }
    }

    /// The cell variable of `root[j]` (created on first use).
    pub fn cell(&mut self, root: &ArrayRef, j: u64) -> BV {
        let tag = self.tag;
        self.cells
            .entry((root.clone(), j))
            .or_insert_with(|| {
                BV::new_const(format!("c{tag}!{}!{}[{j}]", root.name(), root.id()), 8)
            })
            .clone()
    }

    fn root_read(&mut self, root: &ArrayRef, index: &Expr, idx: &BV) -> BV {
        match index.as_constant() {
            Some(c) if c < root.size() as u128 => {
                return match root.contents() {
                    Some(bytes) => BV::from_u64(bytes[c as usize] as u64, 8),
                    None => self.cell(root, c as u64),
                };
            }
            Some(c) if root.reads_zero_at(c) => return BV::from_u64(0, 8),
            _ => {}
        }
        // Symbolic indices, and constant ones beyond an unbounded array's dense part (free
        // bytes, kept consistent with other reads by the pair axioms), become read terms.
        let key = (root.clone(), index.clone());
        if let Some(&t) = self.term_of.get(&key) {
            return self.terms[t].var.clone();
        }
        let n = self.terms.len();
        let var = BV::new_const(format!("r{}!{n}", self.tag), 8);
        self.terms.push(ReadTerm {
            root: root.clone(),
            index: index.clone(),
            index_bv: idx.clone(),
            var: var.clone(),
        });
        self.term_of.insert(key, n);
        var
    }
}

impl ExprTranslator for Abstraction {
    fn translated(&self) -> &FxHashMap<Expr, Term> {
        &self.exprs
    }

    fn translated_mut(&mut self) -> &mut FxHashMap<Expr, Term> {
        &mut self.exprs
    }

    /// Write elimination: newest write outermost, the root read innermost.
    fn read(&mut self, updates: &UpdateList, index: &Expr) -> BV {
        let idx = self.bv(index);
        let mut value = self.root_read(updates.root(), index, &idx);
        let writes: Vec<_> = updates.iter().collect();
        for w in writes.into_iter().rev() {
            let hit = idx.eq(self.bv(w.index()));
            value = hit.ite(&self.bv(w.value()), &value);
        }
        value
    }
}
