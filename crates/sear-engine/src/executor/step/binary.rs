//! Binary operations: the operands' checks (division by zero, overflowing division, oversized
//! shifts), then the operation, concrete or symbolic.

use std::rc::Rc;

use sear_expr::Expr;
use sear_ir::{BinaryOp, FloatKind, FloatPredicate, Module, TypeId};

use super::{exec, float_kind, unsupported};
use crate::executor::ops;
use crate::executor::Cx;
use crate::executor::{Exec, Executor};
use crate::state::State;
use crate::termination::{ErrorKind, Termination};
use crate::value::Value;

impl Executor<'_> {
    /// `op a, b` of type `ty`, integer or floating-point, scalars or vectors. A method of
    /// the executor, not of [`Cx`]: a symbolic divisor or shift amount is checked through
    /// [`Executor::require`], which forks the failing side.
    pub(crate) fn binary(
        &mut self,
        module: &Module,
        state: &mut State,
        op: BinaryOp,
        ty: TypeId,
        a: &Value,
        b: &Value,
    ) -> Exec<Value> {
        if let Some(int_op) = ops::int_binop(op) {
            if let (Value::Concrete(x, w), Value::Concrete(y, _)) = (a, b) {
                // Fast path: concrete scalars.
                check_concrete_operands(op, *x, *y, *w)?;
                return Ok(Value::Concrete(
                    sear_expr::fold::fold_binary(int_op, *w, *x, *y),
                    *w,
                ));
            }
            return match (a, b) {
                (Value::Aggregate(xs), Value::Aggregate(ys)) => {
                    let mut items = Vec::with_capacity(xs.len());
                    for (x, y) in xs.iter().zip(ys.iter()) {
                        self.check_operands(state, op, x, y)?;
                        items.push(ops::int_binary(int_op, x, y));
                    }
                    Ok(Value::Aggregate(Rc::from(items)))
                }
                _ => {
                    self.check_operands(state, op, a, b)?;
                    Ok(ops::int_binary(int_op, a, b))
                }
            };
        }
        let kind = float_kind(module, ty)
            .ok_or_else(|| exec("floating-point operation on non-float type"))?;
        let rm = state.rounding;
        if let Some(v) = self.cx().fp_binary(op, kind, a, b, rm) {
            return Ok(v);
        }
        let a = self
            .cx()
            .concretize_value(state, a, "floating-point arithmetic")?;
        let b = self
            .cx()
            .concretize_value(state, b, "floating-point arithmetic")?;
        ops::lift2(&a, &b, &mut |x, y| {
            ops::float_binary(
                op,
                kind,
                x.as_concrete().unwrap_or(0),
                y.as_concrete().unwrap_or(0),
                rm,
            )
            .map(|bits| Value::concrete(bits, ops::float_width(kind)))
        })
        .map_err(unsupported)
    }

    /// Division-by-zero and oversized-shift checks, forking an error path when the
    /// operand may be bad.
    pub(super) fn check_operands(
        &mut self,
        state: &mut State,
        op: BinaryOp,
        a: &Value,
        b: &Value,
    ) -> Exec<()> {
        let width = b.width();
        match op {
            BinaryOp::UDiv | BinaryOp::SDiv | BinaryOp::URem | BinaryOp::SRem => {
                if let (Some(n), Some(d)) = (a.as_concrete(), b.as_concrete()) {
                    return check_concrete_operands(op, n, d, width);
                }
                let nonzero = Expr::ne(b.to_expr(), Expr::constant(0, width));
                if !nonzero.is_true() {
                    self.require(state, nonzero, || {
                        Termination::error(ErrorKind::Div, "divide by zero")
                    })?;
                }
                if matches!(op, BinaryOp::SDiv | BinaryOp::SRem) {
                    // INT_MIN / -1 overflows: SIGFPE natively, like a division by zero.
                    let overflow = Expr::and(
                        Expr::eq(a.to_expr(), Expr::constant(signed_min(width), width)),
                        Expr::eq(b.to_expr(), Expr::constant(all_ones(width), width)),
                    );
                    if !overflow.is_false() {
                        self.require(state, Expr::not(overflow), division_overflow)?;
                    }
                }
                Ok(())
            }
            BinaryOp::Shl | BinaryOp::LShr | BinaryOp::AShr => {
                if let Some(d) = b.as_concrete() {
                    return check_concrete_operands(op, 0, d, width);
                }
                let ok = Expr::ult(b.to_expr(), Expr::constant(width as u128, width));
                self.require(state, ok, || {
                    Termination::error(ErrorKind::Overshift, "overshift error")
                })
            }
            _ => Ok(()),
        }
    }
}

impl Cx<'_, '_> {
    /// `fcmp pred a, b` on floats of `kind`: a node on symbolic operands, else concrete.
    pub(crate) fn fcmp(
        &mut self,
        state: &mut State,
        pred: FloatPredicate,
        kind: FloatKind,
        a: &Value,
        b: &Value,
    ) -> Exec<Value> {
        if let Some(v) = self.fp_cmp(pred, kind, a, b) {
            return Ok(v);
        }
        let a = self.concretize_value(state, a, "floating-point comparison")?;
        let b = self.concretize_value(state, b, "floating-point comparison")?;
        ops::lift2(&a, &b, &mut |x, y| {
            ops::float_cmp(
                pred,
                kind,
                x.as_concrete().unwrap_or(0),
                y.as_concrete().unwrap_or(0),
            )
            .map(Value::bool)
        })
        .map_err(unsupported)
    }
}

/// The division and shift checks on concrete operands: division by zero, `INT_MIN / -1`,
/// a shift by the width or more.
#[inline]
pub(super) fn check_concrete_operands(
    op: BinaryOp,
    dividend: u128,
    divisor: u128,
    width: u32,
) -> Exec<()> {
    match op {
        BinaryOp::UDiv | BinaryOp::SDiv | BinaryOp::URem | BinaryOp::SRem if divisor == 0 => {
            Err(Termination::error(ErrorKind::Div, "divide by zero"))
        }
        BinaryOp::SDiv | BinaryOp::SRem
            if dividend == signed_min(width) && divisor == all_ones(width) =>
        {
            Err(division_overflow())
        }
        BinaryOp::Shl | BinaryOp::LShr | BinaryOp::AShr if divisor >= width as u128 => {
            Err(Termination::error(ErrorKind::Overshift, "overshift error"))
        }
        _ => Ok(()),
    }
}

/// The smallest signed value of `width` bits, as its bit pattern.
pub(super) fn signed_min(width: u32) -> u128 {
    1u128 << (width - 1)
}

/// The value with all `width` bits set (-1).
pub(super) fn all_ones(width: u32) -> u128 {
    if width >= 128 {
        u128::MAX
    } else {
        (1u128 << width) - 1
    }
}

/// The error for a signed division or remainder of the smallest value by -1 (`INT_MIN / -1`),
/// which traps natively (SIGFPE) like a division by zero.
pub(super) fn division_overflow() -> Termination {
    Termination::error(ErrorKind::Div, "division overflow (INT_MIN / -1)")
}
