//! Lengths of the memory intrinsics (`memcpy`, `memmove`, `memset`): a symbolic length is
//! checked against the room left in the objects it reaches before it is concretised, and
//! `memcpy`'s source and destination must not overlap.

use sear_expr::Expr;

use super::{Exec, Executor};
use crate::memory::ptr_error;
use crate::memory::Lookup;
use crate::state::State;
use crate::termination::{ErrorKind, Termination};
use crate::value::Value;

impl Executor<'_> {
    /// The length of a memory operation over `ptrs`, concretised as a length always was.
    ///
    /// Before that, a symbolic length that may exceed the room left in the object a
    /// (concrete) pointer points into forks an out-of-bounds error path: the access
    /// `[p, p + len)` is checked for every feasible length at once (one bounds query), so
    /// the concretisation never hides an overflow.
    pub(crate) fn memory_length(
        &mut self,
        state: &mut State,
        ptrs: &[&Value],
        len: &Value,
        what: &str,
    ) -> Exec<u64> {
        if let Value::Symbolic(e) = len {
            let len64 = Expr::zext_or_trunc(e.clone(), 64);
            for ptr in ptrs {
                let Value::Concrete(address, _) = state.settle(ptr) else {
                    continue;
                };
                let address = address as u64;
                let Lookup::Live(entry) = state.memory.lookup(address) else {
                    continue;
                };
                let offset = address - entry.object.address;
                let fits = match &entry.object.symbolic_size {
                    // Room left below σ: σ - offset, when the offset is below σ at all.
                    Some(sigma) => {
                        let at = Expr::constant(offset as u128, 64);
                        Expr::and(
                            Expr::ule(at.clone(), sigma.clone()),
                            Expr::ule(len64.clone(), Expr::sub(sigma.clone(), at)),
                        )
                    }
                    None => {
                        let room = entry.object.size.saturating_sub(offset);
                        Expr::ule(len64.clone(), Expr::constant(room as u128, 64))
                    }
                };
                self.require(state, fits, || {
                    ptr_error(&format!(
                        "out of bound pointer ({what} may exceed the object)"
                    ))
                })?;
            }
        }
        Ok(self.concretize(state, len, what)? as u64)
    }

    /// `memcpy` of `n` bytes requires disjoint ranges (equal pointers are allowed, as in
    /// LLVM's semantics and ASan's check); a possible overlap forks an `overlap` error.
    pub(crate) fn check_no_overlap(
        &mut self,
        state: &mut State,
        dst: &Value,
        src: &Value,
        n: u64,
    ) -> Exec<()> {
        if n == 0 || matches!(dst, Value::Aggregate(_)) || matches!(src, Value::Aggregate(_)) {
            return Ok(());
        }
        let d = Expr::zext_or_trunc(dst.to_expr(), 64);
        let s = Expr::zext_or_trunc(src.to_expr(), 64);
        let n = Expr::constant(n as u128, 64);
        let overlap = Expr::and(
            Expr::ne(d.clone(), s.clone()),
            Expr::and(
                Expr::ult(d.clone(), Expr::add(s.clone(), n.clone())),
                Expr::ult(s, Expr::add(d, n)),
            ),
        );
        if overlap.is_false() {
            return Ok(());
        }
        self.require(state, Expr::not(overlap), || {
            Termination::error(
                ErrorKind::Overlap,
                "memcpy with overlapping source and destination",
            )
        })
    }
}
