//! Lengths of the memory intrinsics (`memcpy`, `memmove`, `memset`): a symbolic length is
//! checked against the room left in the objects it reaches before it is concretised, and
//! `memcpy`'s source and destination must not overlap. The checks fork their failing side
//! (`require`), so they are the executor's; the extreme values of a length are `Cx`'s.
//!
//! In the symbolic-size modes (`--sym-size-mode=fork-lazy|sm|smopt`), a symbolic length
//! between concrete pointers is not concretised (that would fix the size of a symbolic-size
//! input): [`Executor::bounded_length_op`] writes every byte below the largest feasible
//! length as `ite(i < len, new, old)`.

use sear_expr::Expr;

use super::{Exec, Executor};
use crate::executor::Cx;
use crate::memory::ptr_error;
use crate::memory::Lookup;
use crate::state::State;
use crate::termination::{ErrorKind, Termination};
use crate::value::Value;

/// What a bounded-length operation writes: a copy from a pointer, or a fill byte.
pub(crate) enum Source<'a> {
    /// `memcpy`/`memmove` from this pointer.
    Copy(&'a Value),
    /// `memset` with this byte.
    Fill(Expr),
}

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
            self.check_length_fits(state, ptrs, e, what)?;
        }
        Ok(self.cx().concretize(state, len, what)? as u64)
    }

    /// Forks an out-of-bounds error path where the symbolic length `len` may exceed the room
    /// left (below the size, σ for a symbolic-size object) in an object a concrete pointer
    /// of `ptrs` points into.
    fn check_length_fits(
        &mut self,
        state: &mut State,
        ptrs: &[&Value],
        len: &Expr,
        what: &str,
    ) -> Exec<()> {
        let len64 = Expr::zext_or_trunc(len.clone(), 64);
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
        Ok(())
    }

    /// `memcpy`/`memmove` (`Source::Copy`) or `memset` (`Source::Fill`) of the symbolic
    /// length `len` at `dst`, without concretising it, in the symbolic-size modes: the
    /// length is checked against both objects, then every byte `i` below the largest
    /// feasible length becomes `ite(i < len, new, old)`. Returns false (nothing done) when
    /// this does not apply: a concrete length, another mode, a pointer that is not a
    /// constant address into a live writable (for `dst`) object.
    pub(crate) fn bounded_length_op(
        &mut self,
        state: &mut State,
        dst: &Value,
        source: Source<'_>,
        len: &Value,
        what: &str,
    ) -> Exec<bool> {
        let Value::Symbolic(len) = len else {
            return Ok(false);
        };
        if !self.config.sym_size.mode.symbolic() {
            return Ok(false);
        }
        let Some((dst_at, dst_room)) = cell_range(state, dst, true) else {
            return Ok(false);
        };
        let src_at = match &source {
            Source::Copy(src) => match cell_range(state, src, false) {
                Some(r) => Some(r),
                None => return Ok(false),
            },
            Source::Fill(_) => None,
        };
        let ptrs: Vec<&Value> = match &source {
            Source::Copy(src) => vec![dst, *src],
            Source::Fill(_) => vec![dst],
        };
        self.check_length_fits(state, &ptrs, len, what)?;
        let len64 = Expr::zext_or_trunc(len.clone(), 64);
        let room = src_at.map_or(dst_room, |(_, r)| r.min(dst_room));
        if let (Source::Copy(src), true) = (&source, what.starts_with("memcpy")) {
            self.check_no_overlap_expr(state, dst, src, &len64)?;
        }
        let upper = self
            .cx()
            .largest_value(state, &len64, room, "length bound")?;
        let (dst_obj, dst_off) = dst_at;
        let new: Vec<Expr> = match &source {
            Source::Copy(_) => {
                let (src_obj, src_off) = src_at.expect("a source").0;
                (0..upper)
                    .map(|i| self.cx().read_cell(state, src_obj, src_off + i))
                    .collect()
            }
            Source::Fill(byte) => vec![byte.clone(); upper as usize],
        };
        for (i, value) in new.into_iter().enumerate() {
            let i = i as u64;
            let old = self.cx().read_cell(state, dst_obj, dst_off + i);
            let below = Expr::ult(Expr::constant(i as u128, 64), len64.clone());
            self.cx()
                .write_cell(state, dst_obj, dst_off + i, Expr::select(below, value, old));
        }
        Ok(true)
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
        if n == 0 {
            return Ok(());
        }
        self.check_no_overlap_expr(state, dst, src, &Expr::constant(n as u128, 64))
    }

    /// [`Executor::check_no_overlap`] for a length of `n` bytes (64 bits), symbolic or not.
    fn check_no_overlap_expr(
        &mut self,
        state: &mut State,
        dst: &Value,
        src: &Value,
        n: &Expr,
    ) -> Exec<()> {
        if matches!(dst, Value::Aggregate(_)) || matches!(src, Value::Aggregate(_)) {
            return Ok(());
        }
        let d = Expr::zext_or_trunc(dst.to_expr(), 64);
        let s = Expr::zext_or_trunc(src.to_expr(), 64);
        let overlap = Expr::and(
            Expr::ne(d.clone(), s.clone()),
            Expr::and(
                Expr::ult(d.clone(), Expr::add(s.clone(), n.clone())),
                Expr::ult(s, Expr::add(d, n.clone())),
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

impl Cx<'_, '_> {
    /// The largest feasible value of `e` up to `max`, which the path condition implies
    /// (binary search: `log2(max)` queries, asked `during` what).
    pub(crate) fn largest_value(
        &mut self,
        state: &State,
        e: &Expr,
        max: u64,
        during: &str,
    ) -> Exec<u64> {
        let (mut lo, mut hi) = (0u64, max);
        // Invariant: e ≥ lo is feasible; e > hi is not.
        while lo < hi {
            let mid = lo + (hi - lo).div_ceil(2);
            let at_least = Expr::uge(e.clone(), Expr::constant(mid as u128, e.width()));
            if self.sv.may_be_true(state, &at_least, during)? {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        Ok(lo)
    }

    /// The smallest feasible value of `e`, given a feasible value `known` (binary search:
    /// `log2(known)` queries, asked `during` what).
    pub(crate) fn smallest_value(
        &mut self,
        state: &State,
        e: &Expr,
        known: u64,
        during: &str,
    ) -> Exec<u64> {
        let (mut lo, mut hi) = (0u64, known);
        // Invariant: e ≤ hi is feasible; e < lo is not.
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            let at_most = Expr::ule(e.clone(), Expr::constant(mid as u128, e.width()));
            if self.sv.may_be_true(state, &at_most, during)? {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        Ok(lo)
    }
}

/// For a pointer that is a constant address into a live object (writable when `write`):
/// `((object address, offset), cells left up to its capacity)`.
fn cell_range(state: &State, ptr: &Value, write: bool) -> Option<((u64, u64), u64)> {
    let Value::Concrete(address, _) = state.settle(ptr) else {
        return None;
    };
    let address = address as u64;
    let Lookup::Live(entry) = state.memory.lookup(address) else {
        return None;
    };
    if write && entry.object.read_only {
        return None;
    }
    let o = &entry.object;
    let offset = address - o.address;
    Some(((o.address, offset), o.size.saturating_sub(offset)))
}
