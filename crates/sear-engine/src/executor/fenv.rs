//! The floating-point environment: C's `fesetround` and `fegetround` (x86-64 glibc's values:
//! `FE_TONEAREST` 0, `FE_DOWNWARD` 0x400, `FE_UPWARD` 0x800, `FE_TOWARDZERO` 0xc00). The
//! mode lives in the state ([`State::rounding`]) and every `float`/`double` operation that
//! rounds uses it, concrete or symbolic, as x86-64 code at -O0 runs `addsd` and the others
//! under MXCSR's rounding control, which `fesetround` sets.

use sear_expr::fp::RoundMode;

use super::Exec;
use crate::executor::Cx;
use crate::state::State;
use crate::value::Value;

impl Cx<'_, '_> {
    /// `fesetround(mode)`: 0 and the state's mode set for one of the four values, else
    /// non-zero (glibc's 1) with the mode unchanged. A symbolic mode is concretised (with a
    /// warning).
    pub(crate) fn call_fesetround(
        &mut self,
        state: &mut State,
        mode: &Value,
        width: u32,
    ) -> Exec<Value> {
        let v = self.concretize(state, mode, "the rounding mode of fesetround")?;
        let low = (v as u64) & 0xFFFF_FFFF;
        Ok(match RoundMode::from_fenv(low) {
            Some(m) => {
                state.rounding = m;
                Value::concrete(0, width)
            }
            None => Value::concrete(1, width),
        })
    }
}

/// `fegetround()`: the state's mode as its `FE_*` value.
pub(crate) fn call_fegetround(state: &State, width: u32) -> Value {
    Value::concrete(state.rounding.fenv() as u128, width)
}
