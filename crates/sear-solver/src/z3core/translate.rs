//! Translation of [`Expr`] into Z3 terms, with caches reused across queries.
//!
//! * Booleans (width-1 expressions) become Z3 `Bool`s; every other width a bit-vector. Width-1
//!   operators without a natural boolean form (arithmetic, shifts, ordered comparisons) go
//!   through 1-bit vectors.
//! * A symbolic array becomes a Z3 array constant `(Array (_ BitVec iw) (_ BitVec 8))`; a
//!   constant array becomes `const-array 0` with a `store` per non-zero byte; an update list
//!   becomes a `store` chain, cached per update node.
//! * Reads of an unbounded array (see `sear_expr::Array::unbounded`) are plain `select`s:
//!   the model lists the bytes read beyond its dense part.
//! * Reads outside `0..size` of a symbolic array read zero, exactly as
//!   [`sear_expr::Evaluator`] does, so models, evaluation and the caches agree: a read at an
//!   index not known to be in bounds is `ite(idx < size, select(chain, idx), select(chain0,
//!   idx))`, where `chain0` applies the same writes to an all-zero array.
//!
//! The caches hold the expressions and update nodes they are keyed by, so keys stay valid;
//! [`Translator::clear`] drops them all.

use std::sync::Arc;

use rustc_hash::FxHashMap;
use sear_expr::{ArrayRef, BinOp, CmpOp, Expr, ExprKind, UpdateList, UpdateNode};
use z3::ast::{Array, Bool, BV};
use z3::Sort;

/// A translated term: a Z3 boolean or bit-vector.
#[derive(Clone, Debug)]
pub enum Term {
    /// A width-1 expression.
    Bool(Bool),
    /// Any other width.
    Bv(BV),
}

impl Term {
    /// As a boolean (1-bit vectors compare against `#b1`).
    pub fn to_bool(&self) -> Bool {
        match self {
            Term::Bool(b) => b.clone(),
            Term::Bv(v) => v.eq(BV::from_u64(1, 1)),
        }
    }

    /// As a bit-vector (booleans become `#b1`/`#b0`).
    pub fn to_bv(&self) -> BV {
        match self {
            Term::Bool(b) => b.ite(&BV::from_u64(1, 1), &BV::from_u64(0, 1)),
            Term::Bv(v) => v.clone(),
        }
    }
}

/// Cached store chains for one update node: over the array itself and over all zeros.
struct Chains {
    _node: Arc<UpdateNode>,
    chain: Option<Array>,
    zero_chain: Option<Array>,
}

/// The translation state of one Z3 core.
#[derive(Default)]
pub struct Translator {
    exprs: FxHashMap<Expr, Term>,
    roots: FxHashMap<ArrayRef, Array>,
    /// Keyed by (root id, head node): update nodes are hash-consed without their root, so
    /// lists over different roots share nodes.
    chains: FxHashMap<(u64, usize), Chains>,
}

impl Translator {
    /// The number of cached expression translations.
    pub fn len(&self) -> usize {
        self.exprs.len()
    }

    /// True when nothing is cached.
    pub fn is_empty(&self) -> bool {
        self.exprs.is_empty()
    }

    /// Drops every cached translation.
    pub fn clear(&mut self) {
        self.exprs.clear();
        self.roots.clear();
        self.chains.clear();
    }

    /// The Z3 array constant of a root (symbolic arrays only are meaningful for models).
    pub fn root(&mut self, array: &ArrayRef) -> Array {
        if let Some(a) = self.roots.get(array) {
            return a.clone();
        }
        let domain = Sort::bitvector(array.index_width());
        let term = match array.contents() {
            Some(bytes) => {
                // The fill byte everywhere, then the bytes that differ (`read` gives the
                // cells past the array's size zero when the fill is not).
                let fill = array.fill_byte();
                let mut a = Array::const_array(&domain, &BV::from_u64(fill.into(), 8));
                for (i, &b) in bytes.iter().enumerate() {
                    if b != fill {
                        a = a.store(
                            &BV::from_u64(i as u64, array.index_width()),
                            &BV::from_u64(b as u64, 8),
                        );
                    }
                }
                a
            }
            None => Array::new_const(
                format!("{}!{}", array.name(), array.id()),
                &domain,
                &Sort::bitvector(8),
            ),
        };
        self.roots.insert(array.clone(), term.clone());
        term
    }

    /// The store chain of `updates` over the root (or over all zeros). Iterative: an update
    /// list can hold hundreds of thousands of writes (a symbolic-offset write into a large
    /// array flushes every symbolic byte), so it is walked down to the first cached chain
    /// and built up from there.
    fn chain(&mut self, updates: &UpdateList, over_zero: bool) -> Array {
        let root = updates.root().clone();
        let mut pending: Vec<Arc<UpdateNode>> = Vec::new();
        let mut below = None;
        let mut node = updates.head().cloned();
        while let Some(head) = node {
            let key = (root.id(), Arc::as_ptr(&head) as usize);
            if let Some(c) = self.chains.get(&key) {
                let cached = if over_zero { &c.zero_chain } else { &c.chain };
                if let Some(a) = cached {
                    below = Some(a.clone());
                    break;
                }
            }
            node = head.next().cloned();
            pending.push(head);
        }
        let mut below = match below {
            Some(a) => a,
            None if over_zero => {
                Array::const_array(&Sort::bitvector(root.index_width()), &BV::from_u64(0, 8))
            }
            None => self.root(&root),
        };
        for head in pending.into_iter().rev() {
            let stored = below.store(&self.bv(head.index()), &self.bv(head.value()));
            let key = (root.id(), Arc::as_ptr(&head) as usize);
            let entry = self.chains.entry(key).or_insert_with(|| Chains {
                _node: head.clone(),
                chain: None,
                zero_chain: None,
            });
            if over_zero {
                entry.zero_chain = Some(stored.clone());
            } else {
                entry.chain = Some(stored.clone());
            }
            below = stored;
        }
        below
    }
}

/// Translation of expressions into Z3 terms, iterative (children first) and cached. The Z3
/// core's [`Translator`] and the CEGAR core's abstraction
/// ([`crate::cegar::abstraction::Abstraction`]) share all of it but the encoding of reads.
pub trait ExprTranslator {
    /// The translations made so far.
    fn translated(&self) -> &FxHashMap<Expr, Term>;

    /// The translations made so far, to add to.
    fn translated_mut(&mut self) -> &mut FxHashMap<Expr, Term>;

    /// A read; its index and the indices and values of its writes are already translated.
    fn read(&mut self, updates: &UpdateList, index: &Expr) -> BV;

    /// Translates a boolean expression.
    fn bool(&mut self, e: &Expr) -> Bool {
        self.term(e).to_bool()
    }

    /// Translates an expression (iteratively, children first).
    fn term(&mut self, e: &Expr) -> Term {
        if let Some(t) = self.translated().get(e) {
            return t.clone();
        }
        let mut stack: Vec<(Expr, bool)> = vec![(e.clone(), false)];
        while let Some((node, ready)) = stack.pop() {
            if self.translated().contains_key(&node) {
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
                    if !self.translated().contains_key(&c) {
                        stack.push((c, false));
                    }
                }
                continue;
            }
            let t = self.build(&node);
            self.translated_mut().insert(node, t);
        }
        self.translated()[e].clone()
    }

    /// An expression already translated.
    fn get(&self, e: &Expr) -> Term {
        self.translated()[e].clone()
    }

    /// An expression already translated, as a bit-vector.
    fn bv(&self, e: &Expr) -> BV {
        self.translated()[e].to_bv()
    }

    /// One node, its children already translated (reads through [`ExprTranslator::read`]).
    fn build(&mut self, e: &Expr) -> Term {
        let w = e.width();
        let bv_result = |v: BV| {
            if w == 1 {
                Term::Bv(v).to_bool().into()
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
            ExprKind::Var(id) => Term::Bv(BV::new_const(format!("?i{id}"), w)),
            ExprKind::Forall { var, bound, body } => {
                // ∀v. (1 ≤ v ∧ v ≤ k) → body
                let (v, k) = (self.bv(var), self.bv(bound));
                let one = BV::from_u64(1, var.width());
                let guard = Bool::and(&[&one.bvule(&v), &v.bvule(&k)]);
                let implication = guard.implies(self.get(body).to_bool());
                Term::Bool(z3::ast::forall_const(&[&v], &[], &implication))
            }
            ExprKind::Fp { op, args } => {
                let args: Vec<(BV, u32)> = args.iter().map(|a| (self.bv(a), a.width())).collect();
                match crate::fpenc::encode(&mut super::fp::Z3Fp, *op, w, &args) {
                    Some(crate::fpenc::FpOut::Bool(b)) => Term::Bool(b),
                    Some(crate::fpenc::FpOut::Bv(v)) => bv_result(v),
                    // Shapes the builder never makes: an unconstrained value (the audit of
                    // every model would catch a wrong answer).
                    None => bv_result(BV::fresh_const("fp", w)),
                }
            }
        }
    }
}

impl ExprTranslator for Translator {
    fn translated(&self) -> &FxHashMap<Expr, Term> {
        &self.exprs
    }

    fn translated_mut(&mut self) -> &mut FxHashMap<Expr, Term> {
        &mut self.exprs
    }

    /// A read with the evaluator's semantics (out-of-bounds bytes of the root are zero).
    fn read(&mut self, updates: &UpdateList, index: &Expr) -> BV {
        let root = updates.root();
        let iw = root.index_width();
        let idx = self.bv(index);
        let in_bounds_known = index.as_constant().map(|i| i < root.size() as u128);
        // Constant roots filled with zero already read zero out of bounds; so does a root of
        // the full domain.
        let full_domain = root.is_unbounded() || (iw < 64 && root.size() >= (1u64 << iw));
        if reads_zero_past_size(root) || full_domain || in_bounds_known == Some(true) {
            return self
                .chain(updates, false)
                .select(&idx)
                .as_bv()
                .expect("byte array");
        }
        let zero = self
            .chain(updates, true)
            .select(&idx)
            .as_bv()
            .expect("byte array");
        if in_bounds_known == Some(false) || root.size() == 0 {
            return zero;
        }
        let inside = self
            .chain(updates, false)
            .select(&idx)
            .as_bv()
            .expect("byte array");
        idx.bvult(BV::from_u64(root.size(), iw)).ite(&inside, &zero)
    }
}

/// True for a constant root whose translation reads zero past its size (filled with zero).
pub(crate) fn reads_zero_past_size(root: &ArrayRef) -> bool {
    root.is_constant() && root.fill_byte() == 0
}

impl From<Bool> for Term {
    fn from(b: Bool) -> Self {
        Term::Bool(b)
    }
}

/// A `w`-bit constant (`w` ≥ 2 gives a bit-vector; any width as a bit-vector here).
pub(crate) fn constant_bv(v: u128, w: u32) -> BV {
    if w <= 64 {
        BV::from_u64(v as u64, w)
    } else {
        BV::from_str(w, &v.to_string()).expect("decimal numeral")
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
