//! Unsimplified operator trees: what a test generated, before the builder simplified it.

use crate::array::{ArrayRef, UpdateList};
use crate::expr::{BinOp, Expr};

/// Comparison operators, including the derived ones the builder rewrites away.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TreeCmp {
    /// `=`.
    Eq,
    /// `distinct`.
    Ne,
    /// `bvult`.
    Ult,
    /// `bvule`.
    Ule,
    /// `bvugt`.
    Ugt,
    /// `bvuge`.
    Uge,
    /// `bvslt`.
    Slt,
    /// `bvsle`.
    Sle,
    /// `bvsgt`.
    Sgt,
    /// `bvsge`.
    Sge,
}

impl TreeCmp {
    /// Every comparison.
    pub const ALL: [TreeCmp; 10] = [
        TreeCmp::Eq,
        TreeCmp::Ne,
        TreeCmp::Ult,
        TreeCmp::Ule,
        TreeCmp::Ugt,
        TreeCmp::Uge,
        TreeCmp::Slt,
        TreeCmp::Sle,
        TreeCmp::Sgt,
        TreeCmp::Sge,
    ];
}

/// A random operator tree over the arrays of a test, with the semantics of the builder's
/// operators but no simplification: [`Tree::build`] turns it into an [`Expr`] through the
/// simplifying constructors, and a test can evaluate the tree itself independently.
#[derive(Clone, Debug)]
pub enum Tree {
    /// A constant (the value fits the width).
    Const {
        /// The value.
        value: u128,
        /// The width.
        width: u32,
    },
    /// A byte read of array number `array` after `writes` (oldest first) at `index`.
    Read {
        /// Index into the test's array list.
        array: usize,
        /// `(index, value)` writes applied to the array, oldest first.
        writes: Vec<(Tree, Tree)>,
        /// The read index (of the array's index width).
        index: Box<Tree>,
    },
    /// `bytes` consecutive bytes at `index`, little-endian (built with [`Expr::read_lsb`]).
    ReadLsb {
        /// Index into the test's array list.
        array: usize,
        /// The index of the least significant byte.
        index: Box<Tree>,
        /// How many bytes (1..=16).
        bytes: u32,
    },
    /// If-then-else.
    Select {
        /// A width-1 condition.
        cond: Box<Tree>,
        /// Value when the condition is 1.
        then_tree: Box<Tree>,
        /// Value otherwise.
        else_tree: Box<Tree>,
    },
    /// `hi` above `lo`.
    Concat {
        /// The high part.
        hi: Box<Tree>,
        /// The low part.
        lo: Box<Tree>,
    },
    /// Bits `offset .. offset + width`.
    Extract {
        /// The source.
        expr: Box<Tree>,
        /// The lowest bit.
        offset: u32,
        /// The result width.
        width: u32,
    },
    /// Zero extension to `width`.
    ZExt {
        /// The source.
        expr: Box<Tree>,
        /// The result width.
        width: u32,
    },
    /// Sign extension to `width`.
    SExt {
        /// The source.
        expr: Box<Tree>,
        /// The result width.
        width: u32,
    },
    /// Bitwise negation.
    Not(Box<Tree>),
    /// A binary operator on equal widths.
    Binary {
        /// The operator.
        op: BinOp,
        /// Left operand.
        lhs: Box<Tree>,
        /// Right operand.
        rhs: Box<Tree>,
    },
    /// A comparison (width 1).
    Cmp {
        /// The operator.
        op: TreeCmp,
        /// Left operand.
        lhs: Box<Tree>,
        /// Right operand.
        rhs: Box<Tree>,
    },
}

impl Tree {
    /// The width of the tree's value.
    pub fn width(&self) -> u32 {
        match self {
            Tree::Const { width, .. }
            | Tree::Extract { width, .. }
            | Tree::ZExt { width, .. }
            | Tree::SExt { width, .. } => *width,
            Tree::Read { .. } => 8,
            Tree::ReadLsb { bytes, .. } => 8 * bytes,
            Tree::Select { then_tree, .. } => then_tree.width(),
            Tree::Concat { hi, lo } => hi.width() + lo.width(),
            Tree::Not(e) => e.width(),
            Tree::Binary { lhs, .. } => lhs.width(),
            Tree::Cmp { .. } => 1,
        }
    }

    /// The number of nodes (shared subtrees counted each time).
    pub fn size(&self) -> usize {
        1 + match self {
            Tree::Const { .. } => 0,
            Tree::Read { writes, index, .. } => {
                index.size()
                    + writes
                        .iter()
                        .map(|(i, v)| i.size() + v.size())
                        .sum::<usize>()
            }
            Tree::ReadLsb { index, .. } => index.size(),
            Tree::Select {
                cond,
                then_tree,
                else_tree,
            } => cond.size() + then_tree.size() + else_tree.size(),
            Tree::Concat { hi: a, lo: b }
            | Tree::Binary { lhs: a, rhs: b, .. }
            | Tree::Cmp { lhs: a, rhs: b, .. } => a.size() + b.size(),
            Tree::Extract { expr, .. }
            | Tree::ZExt { expr, .. }
            | Tree::SExt { expr, .. }
            | Tree::Not(expr) => expr.size(),
        }
    }

    /// Builds the expression through the simplifying constructors; `arrays[i]` is array `i`.
    pub fn build(&self, arrays: &[ArrayRef]) -> Expr {
        match self {
            Tree::Const { value, width } => Expr::constant(*value, *width),
            Tree::Read {
                array,
                writes,
                index,
            } => {
                let mut updates = UpdateList::new(arrays[*array].clone());
                for (i, v) in writes {
                    updates = updates.write(i.build(arrays), v.build(arrays));
                }
                Expr::read(&updates, index.build(arrays))
            }
            Tree::ReadLsb {
                array,
                index,
                bytes,
            } => Expr::read_lsb(
                &UpdateList::new(arrays[*array].clone()),
                index.build(arrays),
                *bytes,
            ),
            Tree::Select {
                cond,
                then_tree,
                else_tree,
            } => Expr::select(
                cond.build(arrays),
                then_tree.build(arrays),
                else_tree.build(arrays),
            ),
            Tree::Concat { hi, lo } => Expr::concat(hi.build(arrays), lo.build(arrays)),
            Tree::Extract {
                expr,
                offset,
                width,
            } => Expr::extract(expr.build(arrays), *offset, *width),
            Tree::ZExt { expr, width } => Expr::zext(expr.build(arrays), *width),
            Tree::SExt { expr, width } => Expr::sext(expr.build(arrays), *width),
            Tree::Not(e) => Expr::not(e.build(arrays)),
            Tree::Binary { op, lhs, rhs } => {
                Expr::binary(*op, lhs.build(arrays), rhs.build(arrays))
            }
            Tree::Cmp { op, lhs, rhs } => {
                let (a, b) = (lhs.build(arrays), rhs.build(arrays));
                match op {
                    TreeCmp::Eq => Expr::eq(a, b),
                    TreeCmp::Ne => Expr::ne(a, b),
                    TreeCmp::Ult => Expr::ult(a, b),
                    TreeCmp::Ule => Expr::ule(a, b),
                    TreeCmp::Ugt => Expr::ugt(a, b),
                    TreeCmp::Uge => Expr::uge(a, b),
                    TreeCmp::Slt => Expr::slt(a, b),
                    TreeCmp::Sle => Expr::sle(a, b),
                    TreeCmp::Sgt => Expr::sgt(a, b),
                    TreeCmp::Sge => Expr::sge(a, b),
                }
            }
        }
    }
}
