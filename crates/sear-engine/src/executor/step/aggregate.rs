//! Pointer arithmetic and aggregate values: `getelementptr`, vector element extraction,
//! `select` on scalars and vectors, and insertion into structures and arrays.

use std::rc::Rc;

use sear_expr::Expr;
use sear_ir::Operand;

use super::exec;
use crate::executor::layout::fit_pointer;
use crate::executor::{Exec, Program};
use crate::state::State;
use crate::value::Value;

impl Program {
    /// `getelementptr`: `base + offset + Σ index·scale`, concrete when every operand is.
    pub(super) fn gep(
        &self,
        state: &State,
        base: Operand,
        offset: i64,
        indices: &[(Operand, i64)],
    ) -> Value {
        let base = self.operand(state, base);
        if let Value::Concrete(mut address, _) = base {
            let mut all_concrete = true;
            for (op, scale) in indices {
                match self.operand(state, *op) {
                    Value::Concrete(i, w) => {
                        let i = sear_expr::bits::sext(i, w, 64);
                        address = address.wrapping_add(i.wrapping_mul(*scale as u128));
                    }
                    _ => {
                        all_concrete = false;
                        break;
                    }
                }
            }
            if all_concrete {
                let address = Value::concrete(address.wrapping_add(offset as u128), 64);
                return fit_pointer(&self.module, address);
            }
        }
        let mut e = Expr::add(base.to_expr(), Expr::constant(offset as u128, 64));
        for (op, scale) in indices {
            let i = Expr::sext_or_trunc(self.operand(state, *op).to_expr(), 64);
            e = Expr::add(e, Expr::mul(Expr::constant(*scale as u128, 64), i));
        }
        fit_pointer(&self.module, Value::from_expr(e))
    }
}

/// Element `idx` of `vec`: a selection among the elements when the index is symbolic.
pub(super) fn extract_element(vec: &Value, idx: &Value) -> Exec<Value> {
    let items = vec.elements();
    match idx {
        Value::Concrete(i, _) => Ok(items.get(*i as usize).cloned().unwrap_or(Value::Concrete(
            0,
            items.first().map_or(8, |v| v.width().max(1)),
        ))),
        _ => {
            // A symbolic index selects among the elements.
            let i = idx.to_expr();
            let mut acc = items
                .last()
                .map(Value::to_expr)
                .ok_or_else(|| exec("empty vector"))?;
            for (k, item) in items.iter().enumerate().rev().skip(1) {
                let is_k = Expr::eq(i.clone(), Expr::constant(k as u128, i.width()));
                acc = Expr::select(is_k, item.to_expr(), acc);
            }
            Ok(Value::from_expr(acc))
        }
    }
}

/// `cond ? t : e` for scalars, vectors (element-wise condition) and aggregates.
pub(crate) fn select_value(cond: &Value, t: &Value, e: &Value) -> Value {
    match cond {
        Value::Concrete(c, _) => {
            if *c == 1 {
                t.clone()
            } else {
                e.clone()
            }
        }
        Value::Aggregate(cs) => {
            let items: Vec<Value> = cs
                .iter()
                .zip(t.elements().iter().zip(e.elements().iter()))
                .map(|(c, (x, y))| select_value(c, x, y))
                .collect();
            Value::Aggregate(Rc::from(items))
        }
        Value::Symbolic(c) => match (t, e) {
            (Value::Aggregate(xs), Value::Aggregate(ys)) => {
                let items: Vec<Value> = xs
                    .iter()
                    .zip(ys.iter())
                    .map(|(x, y)| select_value(cond, x, y))
                    .collect();
                Value::Aggregate(Rc::from(items))
            }
            _ => Value::from_expr(Expr::select(c.clone(), t.to_expr(), e.to_expr())),
        },
    }
}

pub(super) fn insert_path(agg: &Value, path: &[u32], value: Value) -> Value {
    let Some((first, rest)) = path.split_first() else {
        return value;
    };
    let mut items: Vec<Value> = agg.elements().to_vec();
    let i = *first as usize;
    items[i] = insert_path(&items[i], rest, value);
    Value::Aggregate(Rc::from(items))
}
