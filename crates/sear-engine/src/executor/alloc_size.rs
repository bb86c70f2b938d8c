//! KLEE's concretisation of a symbolic allocation size (`malloc` and friends, and `alloca`
//! of a variable-length array). The executor's: it forks one path per size tried.

use sear_expr::Expr;
use sear_ir::Slot;

use super::{Exec, Executor};
use crate::path::ForkKind;
use crate::state::State;
use crate::termination::{ErrorKind, Termination};

/// The error for a stack allocation that does not fit the stack limit (`--max-stack-size`):
/// natively a stack overflow, so a pointer error.
pub(crate) fn stack_overflow(limit: u64, what: &str, in_use: u64) -> Termination {
    Termination::error(
        ErrorKind::Ptr,
        format!(
            "memory error: stack overflow: allocation of {what} with {in_use} bytes of stack \
             in use exceeds the stack limit of {limit} bytes (--max-stack-size)"
        ),
    )
}
use crate::value::Value;

/// The largest size tried first for a symbolic allocation size, as KLEE's halving stops at.
const SMALL_SIZE: u64 = 128;

impl Executor<'_> {
    /// Fixes a symbolic allocation size as KLEE does and returns the size to allocate on
    /// this path: the smallest power-of-two halving of a feasible value. If exactly one
    /// other size is feasible, a fork allocates it with `allocate_other` (which returns the
    /// pointer bound to `dest`); otherwise the other sizes fork a path where the allocation
    /// yields NULL for huge sizes (above 2^31) — a stack overflow for a stack allocation
    /// (`on_stack`), which never yields NULL, when no huge size fits the stack left, else
    /// unexplored — and the rest ends early with a warning: sear did not explore those
    /// sizes, which is no error of the program.
    pub(crate) fn concretize_size(
        &mut self,
        state: &mut State,
        dest: Option<Slot>,
        size: &Expr,
        on_stack: bool,
        allocate_other: &mut dyn FnMut(&mut Self, &mut State, u64) -> Exec<Value>,
    ) -> Exec<Option<u64>> {
        let w = size.width();
        // KLEE takes a model's value and halves it while feasible, down to at most 128. The
        // size tried here is canonical instead — the largest feasible size up to 128, else
        // the smallest feasible one — since a path's record says only which side of
        // `size == example` it took, and a worker rebuilding the path (whose caches give
        // other models) must fork on the same size.
        let small = Expr::ule(size.clone(), Expr::constant(SMALL_SIZE as u128, w));
        let example = if self.sv.may_be_true(state, &small, "allocation size")? {
            let (mut lo, mut hi) = (0u64, SMALL_SIZE);
            // Invariant: a size in [lo, SMALL_SIZE] is feasible; none in (hi, SMALL_SIZE].
            while lo < hi {
                let mid = lo + (hi - lo).div_ceil(2);
                let at_least = Expr::and(
                    small.clone(),
                    Expr::uge(size.clone(), Expr::constant(mid as u128, w)),
                );
                if self.sv.may_be_true(state, &at_least, "allocation size")? {
                    lo = mid;
                } else {
                    hi = mid - 1;
                }
            }
            lo as u128
        } else {
            let known = self.sv.get_value(state, size, "allocation size")? as u64;
            self.cx()
                .smallest_value(state, size, known, "allocation size")? as u128
        };
        let fixed = Expr::eq(Expr::constant(example, w), size.clone());
        if self.sv.must_be_true(state, &fixed, "allocation size")? {
            return Ok(Some(example as u64));
        }
        let sizes = vec![fixed.clone(), Expr::not(fixed)];
        let example = example as u64;
        let taken = self.fork(state, ForkKind::Size, sizes, |ex, _, mut other| {
            match ex.other_sizes(&mut other, dest, size, on_stack, example, allocate_other) {
                Ok(OtherSizes::Size(n)) => ex.allocate_on(other, dest, n, allocate_other),
                Ok(OtherSizes::Null) => {
                    if let Some(dest) = dest {
                        other.frame_mut().locals[dest.0 as usize] = Value::Concrete(0, 64);
                    }
                    ex.spawn(other);
                }
                Ok(OtherSizes::End(t)) | Err(t) => ex.terminate(other, t),
            }
        })?;
        if taken == 0 {
            return Ok(Some(example));
        }
        // Policy had this path follow the other sizes (fork.rs).
        match self.other_sizes(state, dest, size, on_stack, example, allocate_other)? {
            OtherSizes::Size(n) => Ok(Some(n)),
            OtherSizes::Null => Ok(None),
            OtherSizes::End(t) => Err(t),
        }
    }

    /// The path of the sizes other than `example` (`state`, whose path condition excludes
    /// it): the one size left, if only one is; else NULL for the huge sizes (a stack
    /// overflow on the stack), and an early end for the sizes not explored.
    fn other_sizes(
        &mut self,
        state: &mut State,
        dest: Option<Slot>,
        size: &Expr,
        on_stack: bool,
        example: u64,
        allocate_other: &mut dyn FnMut(&mut Self, &mut State, u64) -> Exec<Value>,
    ) -> Exec<OtherSizes> {
        let w = size.width();
        let second = self.sv.get_value(state, size, "allocation size")?;
        let only = Expr::eq(Expr::constant(second, w), size.clone());
        let huge = Expr::ult(Expr::constant(1u128 << 31, w), size.clone());
        let unexplored = |ex: &mut Self| {
            ex.report.warn_once(&format!(
                "concretized symbolic size (tried {example}); the other sizes are not explored"
            ));
            Termination::Early(format!("concretized symbolic size (tried {example})"))
        };
        if self.sv.must_be_true(state, &only, "allocation size")? {
            return Ok(OtherSizes::Size(second as u64));
        }
        if !self.sv.may_be_true(state, &huge, "allocation size")? {
            if self.config.sv_comp {
                if let Some(lo) = self.smallest_size_on(state, dest, size, allocate_other)? {
                    return Ok(OtherSizes::Size(lo));
                }
            }
            return Ok(OtherSizes::End(unexplored(self)));
        }
        if self
            .sv
            .may_be_true(state, &Expr::not(huge.clone()), "allocation size")?
        {
            let sides = vec![huge.clone(), Expr::not(huge)];
            let taken = self.fork(state, ForkKind::Size, sides, |ex, _, mut rest| {
                if ex.config.sv_comp {
                    match ex.smallest_size_on(&mut rest, dest, size, allocate_other) {
                        Ok(None) => {}
                        Ok(Some(lo)) => return ex.allocate_on(rest, dest, lo, allocate_other),
                        Err(t) => return ex.terminate(rest, t),
                    }
                }
                let early = unexplored(ex);
                ex.terminate(rest, early);
            })?;
            if taken == 1 {
                if self.config.sv_comp {
                    if let Some(lo) = self.smallest_size_on(state, dest, size, allocate_other)? {
                        return Ok(OtherSizes::Size(lo));
                    }
                }
                return Ok(OtherSizes::End(unexplored(self)));
            }
        } else {
            state.add_constraint(huge);
        }
        if on_stack {
            // Every huge size overflows the stack when the room left is at most 2^31;
            // with a larger stack (--sv-comp) some fit, and they are not explored.
            let limit = self.config.max_stack_size;
            let room = limit.saturating_sub(state.stack_bytes);
            let end = if room <= 1 << 31 {
                stack_overflow(limit, "a huge size", 0)
            } else {
                unexplored(self)
            };
            return Ok(OtherSizes::End(end));
        }
        Ok(OtherSizes::Null)
    }

    /// Allocates `bytes` on `state` (a fork of the allocating path) with `allocate_other`,
    /// binds the pointer to `dest`, and schedules the state (or ends it, if the allocation
    /// fails).
    pub(crate) fn allocate_on(
        &mut self,
        mut state: State,
        dest: Option<Slot>,
        bytes: u64,
        allocate_other: &mut dyn FnMut(&mut Self, &mut State, u64) -> Exec<Value>,
    ) {
        match allocate_other(self, &mut state, bytes) {
            Ok(pointer) => {
                if let Some(dest) = dest {
                    state.frame_mut().locals[dest.0 as usize] = pointer;
                }
                self.spawn(state);
            }
            Err(t) => self.terminate(state, t),
        }
    }

    /// Under `--sv-comp`, the smallest size `state` allows gets a path of its own (the
    /// allocation at that size) before the other sizes end unexplored: SV-COMP's errors sit
    /// at the boundaries (`array-fpi/modsf`: only one element fails), which the size
    /// concretised to at most 128 bytes misses. `state` (of at least two sizes on entry)
    /// keeps the sizes left; `Some(size)` when policy had it take the smallest instead.
    fn smallest_size_on(
        &mut self,
        state: &mut State,
        dest: Option<Slot>,
        size: &Expr,
        allocate_other: &mut dyn FnMut(&mut Self, &mut State, u64) -> Exec<Value>,
    ) -> Exec<Option<u64>> {
        let known = self.sv.get_value(state, size, "allocation size")? as u64;
        let lo = self
            .cx()
            .smallest_value(state, size, known, "allocation size")?;
        let least = Expr::eq(Expr::constant(lo as u128, size.width()), size.clone());
        let sides = vec![Expr::not(least.clone()), least];
        let taken = self.fork(state, ForkKind::Size, sides, |ex, _, smallest| {
            ex.allocate_on(smallest, dest, lo, allocate_other);
        })?;
        Ok((taken == 1).then_some(lo))
    }
}

/// What the path of the other sizes of a concretised allocation does.
enum OtherSizes {
    /// Allocates this size (the only one left).
    Size(u64),
    /// The allocation yields NULL (a huge size).
    Null,
    /// The path ends.
    End(Termination),
}
