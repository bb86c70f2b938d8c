//! The expression node and its handle.
//!
//! An [`Expr`] is an immutable, hash-consed node: structurally equal expressions are the same
//! allocation, so equality and hashing are O(1) (pointer equality, cached structural hash).
//! Booleans are bit-vectors of width 1. Nodes are only built through the simplifying
//! constructors in [`crate::build`], which keep every expression in canonical form:
//!
//! * constants are folded everywhere (the "global view" the array transformations rely on);
//! * a constant operand of a commutative operator or of `Eq` is on the left;
//! * `Ne`, `Ugt`, `Uge`, `Sgt` and `Sge` do not exist as nodes; they are built from
//!   `Not`, `Eq`, `Ult`, `Ule`, `Slt` and `Sle` with swapped operands;
//! * boolean negation is `Not` (never `Eq(false, x)`);
//! * chains of `Add`, `Mul`, `And`, `Or`, `Xor` above width 1 are normalised
//!   ([`crate::ac`]): a constant, then the other operands in creation order.

use std::fmt;
use std::hash::{Hash, Hasher};
use std::sync::{Arc, LazyLock};

use rustc_hash::FxHasher;

use crate::array::UpdateList;
use crate::fp::FpOp;
use crate::intern::{Internable, Interner};

/// Binary bit-vector operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum BinOp {
    /// Addition modulo 2^w.
    Add,
    /// Subtraction modulo 2^w.
    Sub,
    /// Multiplication modulo 2^w.
    Mul,
    /// Unsigned division (`x / 0` is all ones).
    UDiv,
    /// Signed division.
    SDiv,
    /// Unsigned remainder (`x % 0` is `x`).
    URem,
    /// Signed remainder, sign of the dividend.
    SRem,
    /// Bitwise and (logical and on booleans).
    And,
    /// Bitwise or.
    Or,
    /// Bitwise exclusive or.
    Xor,
    /// Shift left.
    Shl,
    /// Logical shift right.
    LShr,
    /// Arithmetic shift right.
    AShr,
}

impl BinOp {
    /// True for operators whose operands may be swapped.
    pub fn is_commutative(self) -> bool {
        matches!(
            self,
            BinOp::Add | BinOp::Mul | BinOp::And | BinOp::Or | BinOp::Xor
        )
    }
    /// All binary operators.
    pub const ALL: [BinOp; 13] = [
        BinOp::Add,
        BinOp::Sub,
        BinOp::Mul,
        BinOp::UDiv,
        BinOp::SDiv,
        BinOp::URem,
        BinOp::SRem,
        BinOp::And,
        BinOp::Or,
        BinOp::Xor,
        BinOp::Shl,
        BinOp::LShr,
        BinOp::AShr,
    ];
}

/// Comparison operators in canonical form; each yields a boolean (width 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum CmpOp {
    /// Equality.
    Eq,
    /// Unsigned less-than.
    Ult,
    /// Unsigned less-or-equal.
    Ule,
    /// Signed less-than.
    Slt,
    /// Signed less-or-equal.
    Sle,
}

impl CmpOp {
    /// All canonical comparison operators.
    pub const ALL: [CmpOp; 5] = [CmpOp::Eq, CmpOp::Ult, CmpOp::Ule, CmpOp::Slt, CmpOp::Sle];
}

/// The shape of an expression node.
#[derive(Clone, Debug)]
pub enum ExprKind {
    /// A constant; the value is masked to the node's width.
    Constant(u128),
    /// A byte read from an array through its update list.
    Read {
        /// The array and the writes to it.
        updates: UpdateList,
        /// The byte index, of the array's index width.
        index: Expr,
    },
    /// If-then-else.
    Select {
        /// A boolean condition.
        cond: Expr,
        /// Value when the condition holds.
        then_expr: Expr,
        /// Value otherwise.
        else_expr: Expr,
    },
    /// `hi` in the most significant bits, `lo` in the least.
    Concat {
        /// The high part.
        hi: Expr,
        /// The low part.
        lo: Expr,
    },
    /// Bits `offset .. offset + width` of `expr`.
    Extract {
        /// The source expression.
        expr: Expr,
        /// The lowest extracted bit.
        offset: u32,
    },
    /// Zero extension to the node's width.
    ZExt(Expr),
    /// Sign extension to the node's width.
    SExt(Expr),
    /// Bitwise negation (logical negation on booleans).
    Not(Expr),
    /// A binary operator.
    Binary {
        /// The operator.
        op: BinOp,
        /// Left operand.
        lhs: Expr,
        /// Right operand.
        rhs: Expr,
    },
    /// A comparison (width 1).
    Cmp {
        /// The operator.
        op: CmpOp,
        /// Left operand.
        lhs: Expr,
        /// Right operand.
        rhs: Expr,
    },
    /// A bound variable of a quantifier (see [`crate::quant`]); only meaningful inside the
    /// body of the [`ExprKind::Forall`] that binds it.
    Var(u32),
    /// `∀ var. 1 ≤ var ≤ bound → body` (unsigned comparisons at the variable's width; width 1).
    /// Built by [`Expr::forall`]; the quantified clauses of seed 003 Ch. 6.
    Forall {
        /// The bound variable (an [`ExprKind::Var`] node).
        var: Expr,
        /// The upper end of the range (the fresh bound constant `k`); free of `var`.
        bound: Expr,
        /// The quantified formula (boolean).
        body: Expr,
    },
    /// A floating-point operation on bit-vectors (see [`crate::fp`]): IEEE 754 on the bits
    /// of the operands, with x86-64's results where IEEE 754 leaves a choice.
    Fp {
        /// The operation.
        op: FpOp,
        /// The operands (one to three).
        args: Vec<Expr>,
    },
}

/// The interned node behind an [`Expr`].
#[derive(Debug)]
pub struct Node {
    kind: ExprKind,
    width: u32,
    hash: u64,
    /// The depth ([`Expr::depth`]) in the low 30 bits; the top bit set when the node
    /// contains a quantified clause ([`Expr::is_quantified`]), the next when it is an `ite`
    /// tree with constant leaves ([`Expr::is_constant_ite_tree`]).
    depth_flags: u32,
    /// The AC normalisation's bookkeeping ([`crate::ac`]): the node's operand order key
    /// ([`Expr::operand_order`]) in the low [`ORDER_BITS`] bits, the rebuild work spent on
    /// the chain above them, and in the top bit whether the node is a normalised chain.
    meta: u64,
}

/// The bits of [`Node::meta`] holding the operand order key.
const ORDER_BITS: u32 = 44;
/// The low bits of an order key that hold the array's part (its creation number's).
const ORDER_ARRAY_BITS: u32 = 24;
/// The order key of a node without array reads (constants): after every other.
const ORDER_NONE: u64 = (1 << ORDER_BITS) - 1;
/// The largest element index an order key tells apart (larger ones are equal to it).
const ORDER_INDEX_MAX: u64 = (1 << (ORDER_BITS - ORDER_ARRAY_BITS)) - 2;
/// The bit of [`Node::meta`] that marks a normalised AC chain.
const AC_SORTED: u64 = 1 << 63;
/// The largest rebuild work [`Node::meta`] records (it saturates).
pub(crate) const AC_WORK_MAX: u64 = (1 << (63 - ORDER_BITS)) - 1;

/// An order key: the element index above the array's part.
fn order_key(index: u64, array: u64) -> u64 {
    (index.min(ORDER_INDEX_MAX) << ORDER_ARRAY_BITS) | (array & ((1 << ORDER_ARRAY_BITS) - 1))
}

/// The operand order key of a node of `kind` ([`Expr::operand_order`]).
fn operand_order_of(kind: &ExprKind, children: &[Expr]) -> u64 {
    match kind {
        ExprKind::Constant(_) => ORDER_NONE,
        ExprKind::Var(id) => order_key(ORDER_INDEX_MAX, u64::from(*id)),
        ExprKind::Read { updates, index } => {
            let array = updates.root().id();
            match index.as_constant() {
                Some(i) => order_key(u64::try_from(i).unwrap_or(u64::MAX), array),
                None => index.operand_order().min(order_key(ORDER_INDEX_MAX, array)),
            }
        }
        _ => children
            .iter()
            .map(Expr::operand_order)
            .min()
            .unwrap_or(ORDER_NONE),
    }
}

/// The bit of [`Node::depth_flags`] that marks a quantified node.
const QUANTIFIED: u32 = 1 << 31;
/// The bit of [`Node::depth_flags`] that marks an `ite` tree with constant leaves.
const CONSTANT_LEAVES: u32 = 1 << 30;
/// The bits of [`Node::depth_flags`] holding the depth.
const DEPTH_MASK: u32 = CONSTANT_LEAVES - 1;

/// A shared, hash-consed, immutable expression.
#[derive(Clone)]
pub struct Expr(Arc<Node>);

static EXPR_INTERNER: LazyLock<Interner<Node>> = LazyLock::new(Interner::new);

/// The number of live or unswept expression nodes in the global table (for statistics).
pub fn interned_node_count() -> usize {
    EXPR_INTERNER.len()
}

impl Internable for Node {
    fn structural_hash(&self) -> u64 {
        self.hash
    }
    fn shallow_eq(&self, other: &Self) -> bool {
        if self.width != other.width {
            return false;
        }
        use ExprKind::*;
        match (&self.kind, &other.kind) {
            (Constant(a), Constant(b)) => a == b,
            (
                Read {
                    updates: u1,
                    index: i1,
                },
                Read {
                    updates: u2,
                    index: i2,
                },
            ) => u1 == u2 && i1 == i2,
            (
                Select {
                    cond: c1,
                    then_expr: t1,
                    else_expr: e1,
                },
                Select {
                    cond: c2,
                    then_expr: t2,
                    else_expr: e2,
                },
            ) => c1 == c2 && t1 == t2 && e1 == e2,
            (Concat { hi: h1, lo: l1 }, Concat { hi: h2, lo: l2 }) => h1 == h2 && l1 == l2,
            (
                Extract {
                    expr: e1,
                    offset: o1,
                },
                Extract {
                    expr: e2,
                    offset: o2,
                },
            ) => e1 == e2 && o1 == o2,
            (ZExt(a), ZExt(b)) | (SExt(a), SExt(b)) | (Not(a), Not(b)) => a == b,
            (
                Binary {
                    op: o1,
                    lhs: a1,
                    rhs: b1,
                },
                Binary {
                    op: o2,
                    lhs: a2,
                    rhs: b2,
                },
            ) => o1 == o2 && a1 == a2 && b1 == b2,
            (
                Cmp {
                    op: o1,
                    lhs: a1,
                    rhs: b1,
                },
                Cmp {
                    op: o2,
                    lhs: a2,
                    rhs: b2,
                },
            ) => o1 == o2 && a1 == a2 && b1 == b2,
            (Var(a), Var(b)) => a == b,
            (
                Forall {
                    var: v1,
                    bound: k1,
                    body: b1,
                },
                Forall {
                    var: v2,
                    bound: k2,
                    body: b2,
                },
            ) => v1 == v2 && k1 == k2 && b1 == b2,
            (Fp { op: o1, args: a1 }, Fp { op: o2, args: a2 }) => o1 == o2 && a1 == a2,
            _ => false,
        }
    }
}

fn hash_kind(kind: &ExprKind, width: u32) -> u64 {
    let mut h = FxHasher::default();
    width.hash(&mut h);
    std::mem::discriminant(kind).hash(&mut h);
    match kind {
        ExprKind::Constant(v) => v.hash(&mut h),
        ExprKind::Read { updates, index } => {
            updates.structural_hash().hash(&mut h);
            index.structural_hash().hash(&mut h);
        }
        ExprKind::Select {
            cond,
            then_expr,
            else_expr,
        } => {
            cond.structural_hash().hash(&mut h);
            then_expr.structural_hash().hash(&mut h);
            else_expr.structural_hash().hash(&mut h);
        }
        ExprKind::Concat { hi, lo } => {
            hi.structural_hash().hash(&mut h);
            lo.structural_hash().hash(&mut h);
        }
        ExprKind::Extract { expr, offset } => {
            expr.structural_hash().hash(&mut h);
            offset.hash(&mut h);
        }
        ExprKind::ZExt(e) | ExprKind::SExt(e) | ExprKind::Not(e) => {
            e.structural_hash().hash(&mut h)
        }
        ExprKind::Binary { op, lhs, rhs } => {
            op.hash(&mut h);
            lhs.structural_hash().hash(&mut h);
            rhs.structural_hash().hash(&mut h);
        }
        ExprKind::Cmp { op, lhs, rhs } => {
            op.hash(&mut h);
            lhs.structural_hash().hash(&mut h);
            rhs.structural_hash().hash(&mut h);
        }
        ExprKind::Var(id) => id.hash(&mut h),
        ExprKind::Forall { var, bound, body } => {
            var.structural_hash().hash(&mut h);
            bound.structural_hash().hash(&mut h);
            body.structural_hash().hash(&mut h);
        }
        ExprKind::Fp { op, args } => {
            op.hash(&mut h);
            for a in args {
                a.structural_hash().hash(&mut h);
            }
        }
    }
    h.finish()
}

impl Drop for Node {
    fn drop(&mut self) {
        // Drop deep expressions iteratively: detach the children of every node that is
        // about to die and process them from an explicit stack.
        let mut stack: Vec<Expr> = Vec::new();
        take_children(&mut self.kind, &mut stack);
        while let Some(child) = stack.pop() {
            if let Ok(mut node) = Arc::try_unwrap(child.0) {
                take_children(&mut node.kind, &mut stack);
            }
        }
    }
}

fn take_children(kind: &mut ExprKind, out: &mut Vec<Expr>) {
    let old = std::mem::replace(kind, ExprKind::Constant(0));
    match old {
        ExprKind::Constant(_) | ExprKind::Var(_) => {}
        ExprKind::Forall { var, bound, body } => {
            out.push(var);
            out.push(bound);
            out.push(body);
        }
        ExprKind::Read { index, .. } => out.push(index),
        ExprKind::Select {
            cond,
            then_expr,
            else_expr,
        } => {
            out.push(cond);
            out.push(then_expr);
            out.push(else_expr);
        }
        ExprKind::Concat { hi, lo } => {
            out.push(hi);
            out.push(lo);
        }
        ExprKind::Extract { expr, .. }
        | ExprKind::ZExt(expr)
        | ExprKind::SExt(expr)
        | ExprKind::Not(expr) => out.push(expr),
        ExprKind::Binary { lhs, rhs, .. } | ExprKind::Cmp { lhs, rhs, .. } => {
            out.push(lhs);
            out.push(rhs);
        }
        ExprKind::Fp { args, .. } => out.extend(args),
    }
}

impl Expr {
    /// Interns a node without simplification. Only the builder calls this.
    pub(crate) fn make(kind: ExprKind, width: u32) -> Expr {
        Expr::make_ac(kind, width, None)
    }

    /// Interns a node; `ac_work` is `Some(work)` for a normalised AC chain (the rebuild
    /// work spent on it, [`crate::ac`]). Only the builder calls this.
    pub(crate) fn make_ac(kind: ExprKind, width: u32, ac_work: Option<u64>) -> Expr {
        debug_assert!((1..=crate::bits::MAX_WIDTH).contains(&width));
        let hash = hash_kind(&kind, width);
        let children = children_of(&kind);
        let depth = 1 + children.iter().map(|c| c.depth()).max().unwrap_or(0);
        let quantified = match &kind {
            ExprKind::Forall { .. } => true,
            ExprKind::Read { updates, .. } => updates.is_quantified(),
            _ => false,
        } || children.iter().any(|c| c.is_quantified());
        debug_assert!(depth <= DEPTH_MASK, "expression depth overflow");
        let constant_leaves = match &kind {
            ExprKind::Select {
                then_expr,
                else_expr,
                ..
            } => [then_expr, else_expr]
                .iter()
                .all(|b| b.is_constant() || b.is_constant_ite_tree()),
            _ => false,
        };
        let depth_flags = depth
            | if quantified { QUANTIFIED } else { 0 }
            | if constant_leaves { CONSTANT_LEAVES } else { 0 };
        let order = operand_order_of(&kind, &children);
        let meta = match ac_work {
            Some(work) => order | (work.min(AC_WORK_MAX) << ORDER_BITS) | AC_SORTED,
            None => order,
        };
        Expr(EXPR_INTERNER.intern(Node {
            kind,
            width,
            hash,
            depth_flags,
            meta,
        }))
    }

    /// The node's shape.
    pub fn kind(&self) -> &ExprKind {
        &self.0.kind
    }

    /// The width in bits (1 for booleans).
    pub fn width(&self) -> u32 {
        self.0.width
    }

    /// The cached structural hash.
    pub fn structural_hash(&self) -> u64 {
        self.0.hash
    }

    /// The node's place among the operands of a normalised AC chain ([`crate::ac`]): the
    /// smallest (element index, array) of the reads of a constant index it contains, the
    /// element index first, arrays by their creation number (on one path, the order in
    /// which the path made them, in every process). A loop over one or several arrays in
    /// index order, or over inputs each in its own array, creates its operands in key
    /// order. Nodes with equal keys are ordered by their structural hash, so the order does
    /// not depend on which nodes the process built before.
    pub(crate) fn operand_order(&self) -> u64 {
        self.0.meta & ((1 << ORDER_BITS) - 1)
    }

    /// Whether the node is a normalised AC chain ([`crate::ac`]).
    pub(crate) fn ac_sorted(&self) -> bool {
        self.0.meta & AC_SORTED != 0
    }

    /// The rebuild work spent on the normalised AC chain (0 for other nodes).
    pub(crate) fn ac_work(&self) -> u64 {
        (self.0.meta & !AC_SORTED) >> ORDER_BITS
    }

    /// The length of the longest path to a leaf (a constant has depth 1).
    pub fn depth(&self) -> u32 {
        self.0.depth_flags & DEPTH_MASK
    }

    /// True when the expression contains a quantified clause ([`ExprKind::Forall`]),
    /// update lists included; kept in the node, so it costs no walk.
    pub fn is_quantified(&self) -> bool {
        self.0.depth_flags & QUANTIFIED != 0
    }

    /// True for booleans (width 1).
    pub fn is_bool(&self) -> bool {
        self.0.width == 1
    }

    /// The constant value, if this is a constant.
    pub fn as_constant(&self) -> Option<u128> {
        match self.0.kind {
            ExprKind::Constant(v) => Some(v),
            _ => None,
        }
    }

    /// True if this is a constant.
    pub fn is_constant(&self) -> bool {
        matches!(self.0.kind, ExprKind::Constant(_))
    }

    /// True if this is an `ite` whose branches are constants or `ite`s of the same kind,
    /// down to every leaf: `ite(c1, 0, ite(c2, 0, 1))` (O(1): recorded when the node is
    /// made). Such a value compared with a constant is a formula over the conditions
    /// ([`crate::ite_compare`]).
    pub fn is_constant_ite_tree(&self) -> bool {
        self.0.depth_flags & CONSTANT_LEAVES != 0
    }

    /// True if this is the boolean constant `true`.
    pub fn is_true(&self) -> bool {
        self.is_bool() && self.as_constant() == Some(1)
    }

    /// True if this is the boolean constant `false`.
    pub fn is_false(&self) -> bool {
        self.is_bool() && self.as_constant() == Some(0)
    }

    /// The direct children, in a fixed order (update-list expressions are not included).
    pub fn children(&self) -> Vec<Expr> {
        children_of(&self.0.kind)
    }

    /// A stable address usable as a map key for the lifetime of this expression.
    pub fn ptr_key(&self) -> usize {
        Arc::as_ptr(&self.0) as usize
    }
}

pub(crate) fn children_of(kind: &ExprKind) -> Vec<Expr> {
    match kind {
        ExprKind::Constant(_) | ExprKind::Var(_) => vec![],
        ExprKind::Forall { var, bound, body } => vec![var.clone(), bound.clone(), body.clone()],
        ExprKind::Read { index, .. } => vec![index.clone()],
        ExprKind::Select {
            cond,
            then_expr,
            else_expr,
        } => {
            vec![cond.clone(), then_expr.clone(), else_expr.clone()]
        }
        ExprKind::Concat { hi, lo } => vec![hi.clone(), lo.clone()],
        ExprKind::Extract { expr, .. }
        | ExprKind::ZExt(expr)
        | ExprKind::SExt(expr)
        | ExprKind::Not(expr) => vec![expr.clone()],
        ExprKind::Binary { lhs, rhs, .. } | ExprKind::Cmp { lhs, rhs, .. } => {
            vec![lhs.clone(), rhs.clone()]
        }
        ExprKind::Fp { args, .. } => args.clone(),
    }
}

impl PartialEq for Expr {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}
impl Eq for Expr {}

impl Hash for Expr {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.0.hash.hash(state)
    }
}

impl PartialOrd for Expr {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

/// A total order that is stable across runs: by structural hash, then by pointer for the
/// (practically absent) hash collisions.
impl Ord for Expr {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.0
            .hash
            .cmp(&other.0.hash)
            .then_with(|| self.ptr_key().cmp(&other.ptr_key()))
    }
}

impl fmt::Debug for Expr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", crate::smtlib::print_expr(self))
    }
}

impl fmt::Display for Expr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", crate::smtlib::print_expr(self))
    }
}
