//! The abstraction `C_a` of a query: writes eliminated by read-over-write, every read at a
//! symbolic index replaced by a fresh 8-bit variable, translated to Z3 bit-vectors (QF_BV).
//!
//! * A read through an update list becomes `ite(i = w₁, v₁, ite(i = w₂, v₂, … R(root, i)))`,
//!   newest write outermost, exactly the evaluator's semantics.
//! * `R(root, c)` at a constant index is exact: the byte of a constant root, a *cell*
//!   variable of a symbolic root, or 0 out of bounds.
//! * `R(root, t)` at a symbolic index is a [`ReadTerm`]: one variable per distinct
//!   `(root, t)`, constrained only by the axioms the CEGAR loop adds.
//!
//! Booleans (width 1) are Z3 `Bool`s and everything else bit-vectors, as in the Z3 core's
//! translator, whose [`Term`] type is reused.

use std::collections::BTreeMap;

use rustc_hash::FxHashMap;
use sear_expr::{ArrayRef, BinOp, CmpOp, Expr, ExprKind, UpdateList};
use z3::ast::{Bool, BV};

use crate::z3core::translate::Term;

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

    /// Translates a boolean expression.
    pub fn bool(&mut self, e: &Expr) -> Bool {
        self.term(e).to_bool()
    }

    /// Translates an expression (iteratively, children first).
    pub fn term(&mut self, e: &Expr) -> Term {
        if let Some(t) = self.exprs.get(e) {
            return t.clone();
        }
        let mut stack: Vec<(Expr, bool)> = vec![(e.clone(), false)];
        while let Some((node, ready)) = stack.pop() {
            if self.exprs.contains_key(&node) {
                continue;
            }
            if !ready {
                stack.push((node.clone(), true));
                let mut children = node.children();
                if let ExprKind::Read { updates, .. } = node.kind() {
                    for w in updates.iter() {
                        children.push(w.index().clone());
                        children.push(w.value().clone());
                    }
                }
                for c in children {
                    if !self.exprs.contains_key(&c) {
                        stack.push((c, false));
                    }
                }
                continue;
            }
            let t = self.build(&node);
            self.exprs.insert(node, t);
        }
        self.exprs[e].clone()
    }

    fn get(&self, e: &Expr) -> Term {
        self.exprs[e].clone()
    }

    fn bv(&self, e: &Expr) -> BV {
        self.exprs[e].to_bv()
    }

    fn build(&mut self, e: &Expr) -> Term {
        let w = e.width();
        let bv_result = |v: BV| {
            if w == 1 {
                Term::Bool(Term::Bv(v).to_bool())
            } else {
                Term::Bv(v)
            }
        };
        match e.kind() {
            ExprKind::Constant(v) => constant(*v, w),
            ExprKind::Read { updates, index } => Term::Bv(self.read(updates, index)),
            ExprKind::Select {
                cond,
                then_expr,
                else_expr,
            } => {
                let c = self.get(cond).to_bool();
                match (self.get(then_expr), self.get(else_expr)) {
                    (Term::Bool(t), Term::Bool(f)) => Term::Bool(c.ite(&t, &f)),
                    (t, f) => Term::Bv(c.ite(&t.to_bv(), &f.to_bv())),
                }
            }
            ExprKind::Concat { hi, lo } => Term::Bv(self.bv(hi).concat(self.bv(lo))),
            ExprKind::Extract { expr, offset } => {
                bv_result(self.bv(expr).extract(offset + w - 1, *offset))
            }
            ExprKind::ZExt(x) => match self.get(x) {
                Term::Bool(b) => Term::Bv(b.ite(&BV::from_u64(1, w), &BV::from_u64(0, w))),
                Term::Bv(v) => Term::Bv(v.zero_ext(w - x.width())),
            },
            ExprKind::SExt(x) => Term::Bv(self.bv(x).sign_ext(w - x.width())),
            ExprKind::Not(x) => match self.get(x) {
                Term::Bool(b) => Term::Bool(b.not()),
                Term::Bv(v) => Term::Bv(v.bvnot()),
            },
            ExprKind::Binary { op, lhs, rhs } => {
                if w == 1 {
                    if let (Term::Bool(a), Term::Bool(b)) = (self.get(lhs), self.get(rhs)) {
                        match op {
                            BinOp::And => return Term::Bool(Bool::and(&[&a, &b])),
                            BinOp::Or => return Term::Bool(Bool::or(&[&a, &b])),
                            BinOp::Xor | BinOp::Add | BinOp::Sub => return Term::Bool(a.xor(&b)),
                            _ => {}
                        }
                    }
                }
                bv_result(binary(*op, &self.bv(lhs), &self.bv(rhs)))
            }
            ExprKind::Cmp { op, lhs, rhs } => {
                if *op == CmpOp::Eq {
                    return Term::Bool(match (self.get(lhs), self.get(rhs)) {
                        (Term::Bool(a), Term::Bool(b)) => a.eq(&b),
                        (a, b) => a.to_bv().eq(b.to_bv()),
                    });
                }
                let (a, b) = (self.bv(lhs), self.bv(rhs));
                Term::Bool(match op {
                    CmpOp::Eq => unreachable!("handled above"),
                    CmpOp::Ult => a.bvult(&b),
                    CmpOp::Ule => a.bvule(&b),
                    CmpOp::Slt => a.bvslt(&b),
                    CmpOp::Sle => a.bvsle(&b),
                })
            }
        }
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

fn constant(v: u128, w: u32) -> Term {
    if w == 1 {
        Term::Bool(Bool::from_bool(v == 1))
    } else if w <= 64 {
        Term::Bv(BV::from_u64(v as u64, w))
    } else {
        Term::Bv(BV::from_str(w, &v.to_string()).expect("decimal numeral"))
    }
}

fn binary(op: BinOp, a: &BV, b: &BV) -> BV {
    match op {
        BinOp::Add => a.bvadd(b),
        BinOp::Sub => a.bvsub(b),
        BinOp::Mul => a.bvmul(b),
        BinOp::UDiv => a.bvudiv(b),
        BinOp::SDiv => a.bvsdiv(b),
        BinOp::URem => a.bvurem(b),
        BinOp::SRem => a.bvsrem(b),
        BinOp::And => a.bvand(b),
        BinOp::Or => a.bvor(b),
        BinOp::Xor => a.bvxor(b),
        BinOp::Shl => a.bvshl(b),
        BinOp::LShr => a.bvlshr(b),
        BinOp::AShr => a.bvashr(b),
    }
}
