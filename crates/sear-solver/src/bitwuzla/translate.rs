//! Translation of [`Expr`] into Bitwuzla terms, with caches reused across queries.
//!
//! The encoding is the Z3 core's ([`crate::z3core::translate`]), so both cores decide the
//! same formulas and their models agree with [`sear_expr::Evaluator`]:
//!
//! * width-1 expressions become Booleans where they have a natural Boolean form, 1-bit
//!   vectors otherwise;
//! * a symbolic array is an array constant `(Array (_ BitVec iw) (_ BitVec 8))`, a constant
//!   array a constant array of 0 (`const-array`) with one `store` per non-zero byte, and an
//!   update list a `store` chain cached per update node;
//! * a read outside `0..size` of a symbolic array reads zero: a read at an index not known
//!   to be in bounds is `ite(idx < size, select(chain, idx), select(chain0, idx))`, where
//!   `chain0` applies the same writes to an all-zero array; reads of unbounded arrays are
//!   plain `select`s.

use std::sync::Arc;

use bitwuzla_sys as sys;
use rustc_hash::FxHashMap;
use sear_expr::{ArrayRef, BinOp, CmpOp, Expr, ExprKind, UpdateList, UpdateNode};

use super::api::{Term as BTerm, TermManager};

/// A translated expression: a Bitwuzla Boolean or bit-vector term.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Term {
    /// A width-1 expression with a Boolean form.
    Bool(BTerm),
    /// A bit-vector.
    Bv(BTerm),
}

/// Cached store chains for one update node: over the array itself and over all zeros.
struct Chains {
    _node: Arc<UpdateNode>,
    chain: Option<BTerm>,
    zero_chain: Option<BTerm>,
}

/// The translation state of one Bitwuzla core: the term manager and the caches of the terms
/// it made (which die with it).
#[derive(Default)]
pub struct Translator {
    tm: TermManager,
    exprs: FxHashMap<Expr, Term>,
    roots: FxHashMap<ArrayRef, BTerm>,
    /// Keyed by (root id, head node), as in the Z3 translator.
    chains: FxHashMap<(u64, usize), Chains>,
    /// The side conditions of translated floating-point nodes (see [`super::fp`]).
    fp_defs: FxHashMap<Expr, Vec<BTerm>>,
    /// Fresh constants made for the bits of floats.
    fp_fresh: u64,
}

impl Translator {
    /// The term manager of every term this translator made.
    pub fn tm(&self) -> &TermManager {
        &self.tm
    }

    /// The term manager, mutably (for new sorts and values).
    pub fn tm_mut(&mut self) -> &mut TermManager {
        &mut self.tm
    }

    /// The side conditions of the floating-point nodes in `roots` (translated already): to
    /// be asserted with any query over them. Empty, without a walk, when no floating-point
    /// node was ever translated.
    pub fn side_conditions<'a>(&self, roots: impl IntoIterator<Item = &'a Expr>) -> Vec<BTerm> {
        if self.fp_defs.is_empty() {
            return Vec::new();
        }
        let mut out = Vec::new();
        sear_expr::visit::for_each_node(roots, |e| {
            if let Some(defs) = self.fp_defs.get(e) {
                out.extend_from_slice(defs);
            }
        });
        out
    }

    /// The number of cached expression translations.
    pub fn len(&self) -> usize {
        self.exprs.len()
    }

    /// True when nothing is cached.
    pub fn is_empty(&self) -> bool {
        self.exprs.is_empty()
    }

    /// A Boolean as a 1-bit vector.
    fn bv_term(&mut self, t: Term) -> BTerm {
        match t {
            Term::Bv(v) => v,
            Term::Bool(b) => {
                let one = self.tm.bv_value(1, 1);
                let zero = self.tm.bv_value(1, 0);
                self.tm.op3(sys::BITWUZLA_KIND_ITE, b, one, zero)
            }
        }
    }

    /// A 1-bit vector as a Boolean (`= #b1`).
    fn bool_term(&mut self, t: Term) -> BTerm {
        match t {
            Term::Bool(b) => b,
            Term::Bv(v) => {
                let one = self.tm.bv_value(1, 1);
                self.tm.op2(sys::BITWUZLA_KIND_EQUAL, v, one)
            }
        }
    }

    /// Translates a Boolean expression.
    pub fn bool(&mut self, e: &Expr) -> BTerm {
        let t = self.term(e);
        self.bool_term(t)
    }

    /// Translates an expression as a bit-vector.
    pub fn bv(&mut self, e: &Expr) -> BTerm {
        let t = self.term(e);
        self.bv_term(t)
    }

    /// The array term of a root: an array constant, or the constant contents.
    pub fn root(&mut self, array: &ArrayRef) -> BTerm {
        if let Some(&a) = self.roots.get(array) {
            return a;
        }
        let iw = array.index_width();
        let sort = self.tm.byte_array_sort(iw);
        let term = match array.contents() {
            Some(bytes) => {
                // As the Z3 core's: the fill byte everywhere, then the bytes that differ.
                let fill = array.fill_byte();
                let fill_term = self.tm.bv_value(8, fill.into());
                let mut a = self.tm.const_array(sort, fill_term);
                for (i, &b) in bytes.iter().enumerate() {
                    if b != fill {
                        let index = self.tm.bv_value(iw, i as u128);
                        let value = self.tm.bv_value(8, b as u128);
                        a = self.tm.op3(sys::BITWUZLA_KIND_ARRAY_STORE, a, index, value);
                    }
                }
                a
            }
            None => self
                .tm
                .constant(sort, &format!("{}!{}", array.name(), array.id())),
        };
        self.roots.insert(array.clone(), term);
        term
    }

    /// The store chain of `updates` over the root (or over all zeros). Iterative, as the Z3
    /// core's: update lists can be hundreds of thousands of writes long.
    fn chain(&mut self, updates: &UpdateList, over_zero: bool) -> BTerm {
        let root = updates.root().clone();
        let mut pending: Vec<Arc<UpdateNode>> = Vec::new();
        let mut below = None;
        let mut node = updates.head().cloned();
        while let Some(head) = node {
            let key = (root.id(), Arc::as_ptr(&head) as usize);
            if let Some(c) = self.chains.get(&key) {
                if let Some(a) = if over_zero { c.zero_chain } else { c.chain } {
                    below = Some(a);
                    break;
                }
            }
            node = head.next().cloned();
            pending.push(head);
        }
        let mut below = match below {
            Some(a) => a,
            None if over_zero => {
                let sort = self.tm.byte_array_sort(root.index_width());
                let zero = self.tm.bv_value(8, 0);
                self.tm.const_array(sort, zero)
            }
            None => self.root(&root),
        };
        for head in pending.into_iter().rev() {
            let index = self.bv_of(head.index());
            let value = self.bv_of(head.value());
            let stored = self
                .tm
                .op3(sys::BITWUZLA_KIND_ARRAY_STORE, below, index, value);
            let key = (root.id(), Arc::as_ptr(&head) as usize);
            let entry = self.chains.entry(key).or_insert_with(|| Chains {
                _node: head.clone(),
                chain: None,
                zero_chain: None,
            });
            if over_zero {
                entry.zero_chain = Some(stored);
            } else {
                entry.chain = Some(stored);
            }
            below = stored;
        }
        below
    }

    /// An expression already translated, as a bit-vector.
    fn bv_of(&mut self, e: &Expr) -> BTerm {
        let t = self.exprs[e];
        self.bv_term(t)
    }

    /// An expression already translated, as a Boolean.
    fn bool_of(&mut self, e: &Expr) -> BTerm {
        let t = self.exprs[e];
        self.bool_term(t)
    }

    /// Translates an expression (iteratively, children first).
    pub fn term(&mut self, e: &Expr) -> Term {
        if let Some(&t) = self.exprs.get(e) {
            return t;
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
        self.exprs[e]
    }

    /// A read with the evaluator's semantics (out-of-bounds bytes of the root are zero).
    fn read(&mut self, updates: &UpdateList, index: &Expr) -> BTerm {
        let root = updates.root();
        let iw = root.index_width();
        let idx = self.bv_of(index);
        let in_bounds_known = index.as_constant().map(|i| i < root.size() as u128);
        let full_domain = root.is_unbounded() || (iw < 64 && root.size() >= (1u64 << iw));
        let select = |tr: &mut Self, over_zero| {
            let chain = tr.chain(updates, over_zero);
            tr.tm.op2(sys::BITWUZLA_KIND_ARRAY_SELECT, chain, idx)
        };
        if crate::z3core::translate::reads_zero_past_size(root)
            || full_domain
            || in_bounds_known == Some(true)
        {
            return select(self, false);
        }
        let zero = select(self, true);
        if in_bounds_known == Some(false) || root.size() == 0 {
            return zero;
        }
        let inside = select(self, false);
        let size = self.tm.bv_value(iw, root.size() as u128);
        let in_bounds = self.tm.op2(sys::BITWUZLA_KIND_BV_ULT, idx, size);
        self.tm.op3(sys::BITWUZLA_KIND_ITE, in_bounds, inside, zero)
    }

    /// A bit-vector result of width `w`: a Boolean when `w` is 1.
    fn bv_result(&mut self, w: u32, v: BTerm) -> Term {
        if w == 1 {
            Term::Bool(self.bool_term(Term::Bv(v)))
        } else {
            Term::Bv(v)
        }
    }

    /// One node, its children already translated.
    fn build(&mut self, e: &Expr) -> Term {
        let w = e.width();
        match e.kind() {
            ExprKind::Constant(v) => {
                if w == 1 {
                    Term::Bool(self.tm.bool_value(*v == 1))
                } else {
                    Term::Bv(self.tm.bv_value(w, *v))
                }
            }
            ExprKind::Read { updates, index } => Term::Bv(self.read(updates, index)),
            ExprKind::Select {
                cond,
                then_expr,
                else_expr,
            } => {
                let c = self.bool_of(cond);
                match (self.exprs[then_expr], self.exprs[else_expr]) {
                    (Term::Bool(t), Term::Bool(f)) => {
                        Term::Bool(self.tm.op3(sys::BITWUZLA_KIND_ITE, c, t, f))
                    }
                    (t, f) => {
                        let (t, f) = (self.bv_term(t), self.bv_term(f));
                        Term::Bv(self.tm.op3(sys::BITWUZLA_KIND_ITE, c, t, f))
                    }
                }
            }
            ExprKind::Concat { hi, lo } => {
                let (h, l) = (self.bv_of(hi), self.bv_of(lo));
                Term::Bv(self.tm.op2(sys::BITWUZLA_KIND_BV_CONCAT, h, l))
            }
            ExprKind::Extract { expr, offset } => {
                let x = self.bv_of(expr);
                let v = self.tm.op1_indexed2(
                    sys::BITWUZLA_KIND_BV_EXTRACT,
                    x,
                    (offset + w - 1) as u64,
                    *offset as u64,
                );
                self.bv_result(w, v)
            }
            ExprKind::ZExt(x) => match self.exprs[x] {
                Term::Bool(b) => {
                    let one = self.tm.bv_value(w, 1);
                    let zero = self.tm.bv_value(w, 0);
                    Term::Bv(self.tm.op3(sys::BITWUZLA_KIND_ITE, b, one, zero))
                }
                Term::Bv(v) => Term::Bv(self.tm.op1_indexed1(
                    sys::BITWUZLA_KIND_BV_ZERO_EXTEND,
                    v,
                    (w - x.width()) as u64,
                )),
            },
            ExprKind::SExt(x) => {
                let v = self.bv_of(x);
                Term::Bv(self.tm.op1_indexed1(
                    sys::BITWUZLA_KIND_BV_SIGN_EXTEND,
                    v,
                    (w - x.width()) as u64,
                ))
            }
            ExprKind::Not(x) => match self.exprs[x] {
                Term::Bool(b) => Term::Bool(self.tm.op1(sys::BITWUZLA_KIND_NOT, b)),
                Term::Bv(v) => Term::Bv(self.tm.op1(sys::BITWUZLA_KIND_BV_NOT, v)),
            },
            ExprKind::Binary { op, lhs, rhs } => {
                if w == 1 {
                    if let (Term::Bool(a), Term::Bool(b)) = (self.exprs[lhs], self.exprs[rhs]) {
                        let kind = match op {
                            BinOp::And => Some(sys::BITWUZLA_KIND_AND),
                            BinOp::Or => Some(sys::BITWUZLA_KIND_OR),
                            BinOp::Xor | BinOp::Add | BinOp::Sub => Some(sys::BITWUZLA_KIND_XOR),
                            _ => None,
                        };
                        if let Some(kind) = kind {
                            return Term::Bool(self.tm.op2(kind, a, b));
                        }
                    }
                }
                let (a, b) = (self.bv_of(lhs), self.bv_of(rhs));
                let v = self.tm.op2(binary_kind(*op), a, b);
                self.bv_result(w, v)
            }
            ExprKind::Cmp { op, lhs, rhs } => {
                if *op == CmpOp::Eq {
                    return Term::Bool(match (self.exprs[lhs], self.exprs[rhs]) {
                        (Term::Bool(a), Term::Bool(b)) => {
                            self.tm.op2(sys::BITWUZLA_KIND_EQUAL, a, b)
                        }
                        (a, b) => {
                            let (a, b) = (self.bv_term(a), self.bv_term(b));
                            self.tm.op2(sys::BITWUZLA_KIND_EQUAL, a, b)
                        }
                    });
                }
                let (a, b) = (self.bv_of(lhs), self.bv_of(rhs));
                let kind = match op {
                    CmpOp::Eq => unreachable!("handled above"),
                    CmpOp::Ult => sys::BITWUZLA_KIND_BV_ULT,
                    CmpOp::Ule => sys::BITWUZLA_KIND_BV_ULE,
                    CmpOp::Slt => sys::BITWUZLA_KIND_BV_SLT,
                    CmpOp::Sle => sys::BITWUZLA_KIND_BV_SLE,
                };
                Term::Bool(self.tm.op2(kind, a, b))
            }
            ExprKind::Var(id) => {
                let sort = self.tm.bv_sort(w);
                Term::Bv(self.tm.variable(sort, &format!("?i{id}")))
            }
            ExprKind::Forall { var, bound, body } => {
                // ∀v. (1 ≤ v ∧ v ≤ k) → body
                let (v, k) = (self.bv_of(var), self.bv_of(bound));
                let one = self.tm.bv_value(var.width(), 1);
                let low = self.tm.op2(sys::BITWUZLA_KIND_BV_ULE, one, v);
                let high = self.tm.op2(sys::BITWUZLA_KIND_BV_ULE, v, k);
                let guard = self.tm.op2(sys::BITWUZLA_KIND_AND, low, high);
                let b = self.bool_of(body);
                let implication = self.tm.op2(sys::BITWUZLA_KIND_IMPLIES, guard, b);
                Term::Bool(self.tm.op2(sys::BITWUZLA_KIND_FORALL, v, implication))
            }
            ExprKind::Fp { op, args } => {
                let args: Vec<(BTerm, u32)> =
                    args.iter().map(|a| (self.bv_of(a), a.width())).collect();
                let mut enc = super::fp::BzFp {
                    tm: &mut self.tm,
                    defs: Vec::new(),
                    fresh: &mut self.fp_fresh,
                };
                let out = crate::fpenc::encode(&mut enc, *op, w, &args);
                let defs = enc.defs;
                if !defs.is_empty() {
                    self.fp_defs.insert(e.clone(), defs);
                }
                match out {
                    Some(crate::fpenc::FpOut::Bool(b)) => Term::Bool(b),
                    Some(crate::fpenc::FpOut::Bv(v)) => self.bv_result(w, v),
                    // Shapes the builder never makes: an unconstrained value (the audit of
                    // every model would catch a wrong answer).
                    None => {
                        self.fp_fresh += 1;
                        let sort = self.tm.bv_sort(w);
                        let v = self.tm.constant(sort, &format!("fpbad{}", self.fp_fresh));
                        self.bv_result(w, v)
                    }
                }
            }
        }
    }
}

/// Bitwuzla's operator for a binary bit-vector operation (SMT-LIB semantics, as in Z3 and
/// the evaluator: division by zero gives all ones, remainder by zero the dividend).
fn binary_kind(op: BinOp) -> sys::BitwuzlaKind {
    match op {
        BinOp::Add => sys::BITWUZLA_KIND_BV_ADD,
        BinOp::Sub => sys::BITWUZLA_KIND_BV_SUB,
        BinOp::Mul => sys::BITWUZLA_KIND_BV_MUL,
        BinOp::UDiv => sys::BITWUZLA_KIND_BV_UDIV,
        BinOp::SDiv => sys::BITWUZLA_KIND_BV_SDIV,
        BinOp::URem => sys::BITWUZLA_KIND_BV_UREM,
        BinOp::SRem => sys::BITWUZLA_KIND_BV_SREM,
        BinOp::And => sys::BITWUZLA_KIND_BV_AND,
        BinOp::Or => sys::BITWUZLA_KIND_BV_OR,
        BinOp::Xor => sys::BITWUZLA_KIND_BV_XOR,
        BinOp::Shl => sys::BITWUZLA_KIND_BV_SHL,
        BinOp::LShr => sys::BITWUZLA_KIND_BV_SHR,
        BinOp::AShr => sys::BITWUZLA_KIND_BV_ASHR,
    }
}
