//! Runtime values held in frame slots.
//!
//! Concrete scalars are kept unboxed (`Value::Concrete`), so concrete code never allocates
//! or touches the expression interner; symbolic scalars are expressions; structs, arrays
//! and vectors in registers are aggregates of values.

use std::rc::Rc;

use sear_expr::bits::trunc;
use sear_expr::Expr;

/// A value in a slot.
#[derive(Clone, Debug)]
pub enum Value {
    /// A concrete scalar: bits (masked to the width) and width.
    Concrete(u128, u32),
    /// A symbolic scalar.
    Symbolic(Expr),
    /// A struct, array or vector value: one value per field or element.
    Aggregate(Rc<[Value]>),
}

impl Value {
    /// A concrete value, truncated to `width`.
    #[inline]
    pub fn concrete(bits: u128, width: u32) -> Value {
        Value::Concrete(trunc(bits, width), width)
    }

    /// A boolean.
    #[inline]
    pub fn bool(b: bool) -> Value {
        Value::Concrete(b as u128, 1)
    }

    /// Wraps an expression, unboxing constants.
    #[inline]
    pub fn from_expr(e: Expr) -> Value {
        match e.as_constant() {
            Some(v) => Value::Concrete(v, e.width()),
            None => Value::Symbolic(e),
        }
    }

    /// The scalar as an expression. Panics on aggregates (an executor bug).
    pub fn to_expr(&self) -> Expr {
        match self {
            Value::Concrete(v, w) => Expr::constant(*v, *w),
            Value::Symbolic(e) => e.clone(),
            Value::Aggregate(_) => panic!("aggregate used as a scalar"),
        }
    }

    /// The concrete bits, if this is a concrete scalar.
    #[inline]
    pub fn as_concrete(&self) -> Option<u128> {
        match self {
            Value::Concrete(v, _) => Some(*v),
            _ => None,
        }
    }

    /// True for concrete scalars.
    #[inline]
    pub fn is_concrete(&self) -> bool {
        matches!(self, Value::Concrete(..))
    }

    /// The width of a scalar (0 for aggregates).
    pub fn width(&self) -> u32 {
        match self {
            Value::Concrete(_, w) => *w,
            Value::Symbolic(e) => e.width(),
            Value::Aggregate(_) => 0,
        }
    }

    /// The elements of an aggregate. Panics on scalars (an executor bug).
    pub fn elements(&self) -> &[Value] {
        match self {
            Value::Aggregate(items) => items,
            _ => panic!("scalar used as an aggregate"),
        }
    }

    /// True if this value (or any element) is symbolic.
    pub fn is_symbolic(&self) -> bool {
        match self {
            Value::Concrete(..) => false,
            Value::Symbolic(_) => true,
            Value::Aggregate(items) => items.iter().any(Value::is_symbolic),
        }
    }
}

impl Default for Value {
    fn default() -> Self {
        Value::Concrete(0, 1)
    }
}
