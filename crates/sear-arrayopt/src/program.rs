//! Concrete evaluation of a condition once its index is fixed: the `eval` of Algorithm 2,
//! done by constant folding, never by the solver.
//!
//! A condition is compiled once into a flat list of operations (children before parents);
//! a few of its sub-expressions (the index and what it was computed from) are *inputs*. For
//! each concrete offset the inputs are set and the list is run. Reads of arrays whose
//! contents are known are looked up in their [`Cells`]; touching any symbolic byte means
//! the condition is not a function of the inputs alone, and the transformation does not
//! apply.

use std::sync::Arc;

use rustc_hash::FxHashMap;
use sear_expr::bits::{mask, sext};
use sear_expr::expr::{BinOp, CmpOp, Expr, ExprKind};
use sear_expr::fold::{fold_binary, fold_cmp, fold_concat, fold_extract, fold_not};

use crate::element::{Cells, CellsCache};

/// Programs longer than this are not compiled (the condition is left alone).
const MAX_OPS: usize = 200_000;

enum Op {
    Const(u128),
    Input(usize),
    Read {
        cells: Arc<Cells>,
        index: usize,
    },
    Select {
        c: usize,
        t: usize,
        e: usize,
    },
    Concat {
        hi: usize,
        lo: usize,
        lo_width: u32,
    },
    Extract {
        x: usize,
        offset: u32,
        width: u32,
    },
    ZExt(usize),
    SExt {
        x: usize,
        from: u32,
        to: u32,
    },
    Not {
        x: usize,
        width: u32,
    },
    Binary {
        op: BinOp,
        width: u32,
        a: usize,
        b: usize,
    },
    Cmp {
        op: CmpOp,
        width: u32,
        a: usize,
        b: usize,
    },
}

/// Why one evaluation failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EvalError {
    /// A symbolic byte was read: the condition depends on more than the inputs.
    Free,
    /// A read beyond the end of its array (impossible under the engine's path condition,
    /// which bounds every symbolic-offset access).
    OutOfBounds,
}

/// A compiled condition.
pub struct Program {
    ops: Vec<Op>,
    inputs: usize,
    root: usize,
}

impl Program {
    /// Compiles `root` with `inputs[i]` as input `i`; `None` when the condition depends on a
    /// symbolic byte at a constant index, on a list with symbolic-index writes, or is too
    /// large.
    pub fn compile(root: &Expr, inputs: &[Expr], cells: &mut CellsCache) -> Option<Program> {
        let mut slot: FxHashMap<Expr, usize> = FxHashMap::default();
        let mut ops: Vec<Op> = Vec::new();
        for (i, e) in inputs.iter().enumerate() {
            if !slot.contains_key(e) {
                slot.insert(e.clone(), ops.len());
                ops.push(Op::Input(i));
            }
        }
        let mut stack: Vec<(Expr, bool)> = vec![(root.clone(), false)];
        while let Some((e, children_done)) = stack.pop() {
            if slot.contains_key(&e) {
                continue;
            }
            if !children_done {
                stack.push((e.clone(), true));
                for child in e.children() {
                    if !slot.contains_key(&child) {
                        stack.push((child, false));
                    }
                }
                continue;
            }
            let at = |x: &Expr| slot[x];
            let op = match e.kind() {
                ExprKind::Constant(v) => Op::Const(*v),
                ExprKind::Var(_) | ExprKind::Forall { .. } => return None,
                ExprKind::Read { updates, index } => {
                    let cells = cells.get(updates)?;
                    if cells.symbolic_bytes() == cells.len() {
                        return None;
                    }
                    if let Some(j) = index.as_constant() {
                        // A constant-index symbolic byte is a free variable.
                        if j >= cells.len() as u128 || cells.byte(j as u64).is_none() {
                            return None;
                        }
                    }
                    Op::Read {
                        cells,
                        index: at(index),
                    }
                }
                ExprKind::Select {
                    cond,
                    then_expr,
                    else_expr,
                } => Op::Select {
                    c: at(cond),
                    t: at(then_expr),
                    e: at(else_expr),
                },
                ExprKind::Concat { hi, lo } => Op::Concat {
                    hi: at(hi),
                    lo: at(lo),
                    lo_width: lo.width(),
                },
                ExprKind::Extract { expr, offset } => Op::Extract {
                    x: at(expr),
                    offset: *offset,
                    width: e.width(),
                },
                ExprKind::ZExt(x) => Op::ZExt(at(x)),
                ExprKind::SExt(x) => Op::SExt {
                    x: at(x),
                    from: x.width(),
                    to: e.width(),
                },
                ExprKind::Not(x) => Op::Not {
                    x: at(x),
                    width: e.width(),
                },
                ExprKind::Binary { op, lhs, rhs } => Op::Binary {
                    op: *op,
                    width: e.width(),
                    a: at(lhs),
                    b: at(rhs),
                },
                ExprKind::Cmp { op, lhs, rhs } => Op::Cmp {
                    op: *op,
                    width: lhs.width(),
                    a: at(lhs),
                    b: at(rhs),
                },
            };
            slot.insert(e, ops.len());
            ops.push(op);
            if ops.len() > MAX_OPS {
                return None;
            }
        }
        Some(Program {
            root: slot[root],
            ops,
            inputs: inputs.len(),
        })
    }

    /// The number of operations.
    pub fn op_count(&self) -> usize {
        self.ops.len()
    }

    /// Evaluates with `inputs`; `scratch` is reused between runs.
    pub fn run(&self, inputs: &[u128], scratch: &mut Vec<u128>) -> Result<u128, EvalError> {
        debug_assert_eq!(inputs.len(), self.inputs);
        scratch.clear();
        scratch.reserve(self.ops.len());
        for op in &self.ops {
            let v = match op {
                Op::Const(v) => *v,
                Op::Input(i) => inputs[*i],
                Op::Read { cells, index } => {
                    let j = scratch[*index];
                    if j >= cells.len() as u128 {
                        return Err(EvalError::OutOfBounds);
                    }
                    cells.byte(j as u64).ok_or(EvalError::Free)? as u128
                }
                Op::Select { c, t, e } => {
                    if scratch[*c] == 1 {
                        scratch[*t]
                    } else {
                        scratch[*e]
                    }
                }
                Op::Concat { hi, lo, lo_width } => {
                    fold_concat(scratch[*hi], scratch[*lo], *lo_width)
                }
                Op::Extract { x, offset, width } => fold_extract(scratch[*x], *offset, *width),
                Op::ZExt(x) => scratch[*x],
                Op::SExt { x, from, to } => sext(scratch[*x], *from, *to),
                Op::Not { x, width } => fold_not(scratch[*x], *width),
                Op::Binary { op, width, a, b } => {
                    fold_binary(*op, *width, scratch[*a], scratch[*b])
                }
                Op::Cmp { op, width, a, b } => {
                    fold_cmp(*op, *width, scratch[*a], scratch[*b]) as u128
                }
            };
            scratch.push(v);
        }
        Ok(scratch[self.root])
    }
}

/// One step from an expression to the operand it was computed from, undone per offset.
enum Step {
    ZExt {
        from: u32,
    },
    SExt {
        from: u32,
        to: u32,
    },
    AddConst {
        c: u128,
        width: u32,
    },
    /// Multiplication that provably does not wrap: the value must be a multiple.
    MulNoWrap {
        c: u128,
    },
    /// Multiplication by an odd constant: invertible modulo 2^width.
    MulOdd {
        inverse: u128,
        width: u32,
    },
}

/// The index and the expressions it is an invertible function of: fixing the index to an
/// offset fixes all of them (e.g. `4·zext(k)` = 8 fixes `zext(k)` = 2 and `k` = 2).
pub struct Inversion {
    nodes: Vec<Expr>,
    steps: Vec<Step>,
}

impl Inversion {
    /// The chain starting at `base`.
    pub fn of(base: &Expr) -> Inversion {
        let mut nodes = vec![base.clone()];
        let mut steps = Vec::new();
        let mut cur = base.clone();
        loop {
            let w = cur.width();
            let next = match cur.kind() {
                ExprKind::ZExt(y) => Some((y.clone(), Step::ZExt { from: y.width() })),
                ExprKind::SExt(y) => Some((
                    y.clone(),
                    Step::SExt {
                        from: y.width(),
                        to: w,
                    },
                )),
                ExprKind::Binary {
                    op: BinOp::Add,
                    lhs,
                    rhs,
                } => lhs
                    .as_constant()
                    .map(|c| (rhs.clone(), Step::AddConst { c, width: w })),
                ExprKind::Binary {
                    op: BinOp::Mul,
                    lhs,
                    rhs,
                } => match lhs.as_constant() {
                    Some(c) if c % 2 == 1 => Some((
                        rhs.clone(),
                        Step::MulOdd {
                            inverse: odd_inverse(c, w),
                            width: w,
                        },
                    )),
                    Some(c)
                        if c != 0
                            && crate::ranges::max_value(rhs)
                                .checked_mul(c)
                                .is_some_and(|m| m <= mask(w)) =>
                    {
                        Some((rhs.clone(), Step::MulNoWrap { c }))
                    }
                    _ => None,
                },
                _ => None,
            };
            match next {
                Some((y, step)) if !y.is_constant() => {
                    nodes.push(y.clone());
                    steps.push(step);
                    cur = y;
                }
                _ => break,
            }
        }
        Inversion { nodes, steps }
    }

    /// The expressions fixed by the offset, the index first.
    pub fn nodes(&self) -> &[Expr] {
        &self.nodes
    }

    /// The value of every node when the index is `o`; `false` when no value of the operands
    /// yields `o` (the offset is unreachable).
    pub fn values(&self, o: u64, out: &mut Vec<u128>) -> bool {
        out.clear();
        let mut v = o as u128;
        out.push(v);
        for step in &self.steps {
            v = match *step {
                Step::ZExt { from } => {
                    if v > mask(from) {
                        return false;
                    }
                    v
                }
                Step::SExt { from, to } => {
                    let low = v & mask(from);
                    if sext(low, from, to) != v {
                        return false;
                    }
                    low
                }
                Step::AddConst { c, width } => v.wrapping_sub(c) & mask(width),
                Step::MulNoWrap { c } => {
                    if !v.is_multiple_of(c) {
                        return false;
                    }
                    v / c
                }
                Step::MulOdd { inverse, width } => v.wrapping_mul(inverse) & mask(width),
            };
            out.push(v);
        }
        true
    }
}

/// The inverse of an odd `c` modulo 2^width (Newton's iteration).
fn odd_inverse(c: u128, width: u32) -> u128 {
    let mut x = c;
    for _ in 0..7 {
        x = x.wrapping_mul(2u128.wrapping_sub(c.wrapping_mul(x)));
    }
    x & mask(width)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn odd_inverse_inverts() {
        for c in [1u128, 3, 5, 0xFFFF_FFFF, 12345677] {
            for w in [8u32, 32, 64, 128] {
                let inv = odd_inverse(c & mask(w), w);
                assert_eq!((c & mask(w)).wrapping_mul(inv) & mask(w), 1, "c={c} w={w}");
            }
        }
    }
}
