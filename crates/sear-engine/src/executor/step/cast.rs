//! Casts: integer and pointer casts on values, floating-point conversions (symbolic nodes,
//! or concrete values after concretisation) rounded in the state's mode.

use sear_ir::{CastOp, Module, TypeId};

use super::{float_kind, scalar_of, unsupported};
use crate::executor::layout::fit_pointer;
use crate::executor::ops::{self, Scalar};
use crate::executor::Cx;
use crate::executor::{fpsym, Exec};
use crate::state::State;
use crate::value::Value;

impl Cx<'_, '_> {
    /// `op` of `v` from type `from` to type `to`; the conversions that round use the
    /// state's rounding mode. `plain`: the `uitofp` instruction, whose x86-64 lowering
    /// gives −0.0 for a 64-bit 0 to `double` when rounding down (not the constrained
    /// intrinsic's, [`fpsym::x86_uitofp`]).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn cast(
        &mut self,
        module: &Module,
        state: &mut State,
        op: CastOp,
        v: &Value,
        from: TypeId,
        to: TypeId,
        plain: bool,
    ) -> Exec<Value> {
        let (from_s, to_s) = (scalar_of(module, from), scalar_of(module, to));
        let (Some(from_s), Some(to_s)) = (from_s, to_s) else {
            // Casts between aggregates of the same layout (bitcast of vectors).
            return Ok(v.clone());
        };
        let is_float_cast = !matches!(
            op,
            CastOp::Trunc
                | CastOp::ZExt
                | CastOp::SExt
                | CastOp::PtrToInt
                | CastOp::IntToPtr
                | CastOp::BitCast
                | CastOp::AddrSpaceCast
        );
        let rm = state.rounding;
        let (fk, tk) = (float_kind(module, from), float_kind(module, to));
        let quirk = |x: &Value, r: Value| match (op, from_s) {
            (CastOp::UiToFp, Scalar::Int(w)) if plain => fpsym::x86_uitofp(rm, w, tk, x, r),
            _ => r,
        };
        if is_float_cast {
            let to_width = match to_s {
                Scalar::Int(w) => w,
                Scalar::Float(k) => ops::float_width(k),
            };
            if let Some(r) = self.fp_cast(op, fk, tk, to_width, v, rm) {
                return Ok(quirk(v, r));
            }
        }
        let v = if is_float_cast {
            self.concretize_value(state, v, "floating-point conversion")?
        } else {
            v.clone()
        };
        ops::lift1(&v, &mut |x| {
            let r = quirk(x, ops::cast(op, x, from_s, to_s, rm)?);
            // An integer wider than a 32-bit pointer is truncated to it.
            Ok(match op {
                CastOp::IntToPtr => fit_pointer(module, r),
                _ => r,
            })
        })
        .map_err(unsupported)
    }
}
