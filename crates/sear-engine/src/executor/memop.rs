//! Loads, stores and allocation: pointer resolution, bounds, null and use-after-free checks.
//!
//! A concrete pointer resolves by lookup. A symbolic pointer is first tried against the
//! object containing one feasible value of it; if it may point elsewhere, every object it
//! may point into is found (searching outward from that value, as KLEE does), and the path
//! forks once per object, plus once more for the out-of-bounds case, which is an error.
//!
//! Here: allocas, loads, stores and atomics; pointer resolution is in `memop/resolve.rs`,
//! byte-range reads, writes and fills in `memop/bulk.rs`. An access through a pointer is
//! the executor's (resolution may fork); the read or write at a resolved target is `Cx`'s.

use sear_expr::Expr;
use sear_ir::{Inst, Module, RmwOp, Slot, TypeId};

use super::layout::{self, read_value, write_value};
use super::ops;
use super::sym_alloc::SizeDecision;
use super::{Exec, Executor};
use crate::memory::{AllocRequest, Init, Lookup, ObjectKind};
use crate::state::State;
use crate::termination::{ErrorKind, Termination};
use crate::value::Value;

mod bulk;
mod resolve;

pub(crate) use resolve::object_at;

impl Executor<'_> {
    /// `alloca`: a stack object freed when the frame returns; a symbolic element count (a
    /// variable-length array) is concretised as KLEE does for allocation sizes.
    pub(crate) fn alloca(
        &mut self,
        module: &Module,
        state: &mut State,
        inst: &Inst,
        elem: TypeId,
        count: Value,
        align: u64,
    ) -> Exec<Value> {
        let elem_size = module.ty(elem).size;
        let (size, sigma) = match count {
            Value::Symbolic(n) => {
                let n = Expr::zext_or_trunc(n, 64);
                let bytes = Expr::mul(n, Expr::constant(elem_size as u128, 64));
                let mut allocate_other = |ex: &mut Self, st: &mut State, size: u64| {
                    ex.alloca_bytes(module, st, inst, size, None, align)
                };
                match self.decide_size(state, inst.dest, &bytes, true, &mut allocate_other)? {
                    SizeDecision::Concrete(n) => (n, None),
                    // On the stack a huge size overflows; no NULL comes back (alloc_size.rs).
                    SizeDecision::Null => return Err(super::step::exec("alloca of a huge size")),
                    SizeDecision::Symbolic { sigma, capacity } => (capacity, Some(sigma)),
                }
            }
            other => {
                let count = self.cx().concretize(state, &other, "alloca size")?;
                (elem_size.saturating_mul(count as u64), None)
            }
        };
        self.alloca_bytes(module, state, inst, size, sigma, align)
    }

    /// A stack object of `size` bytes in the current frame (of symbolic size `sigma` when
    /// given; `size` is then its capacity).
    fn alloca_bytes(
        &mut self,
        module: &Module,
        state: &mut State,
        inst: &Inst,
        size: u64,
        sigma: Option<Expr>,
        align: u64,
    ) -> Exec<Value> {
        let limit = self.config.max_stack_size;
        if size > limit.saturating_sub(state.stack_bytes) {
            let what = format!("{size} bytes");
            return Err(super::alloc_size::stack_overflow(
                limit,
                &what,
                state.stack_bytes,
            ));
        }
        if size > self.config.max_alloc_size {
            return Err(Termination::error(
                ErrorKind::Model,
                format!("alloca of {size} bytes exceeds the allocation limit"),
            ));
        }
        if !state.stack_alloc.fits(size, align) {
            // A 32-bit program's stack region (1.5 GiB, addresses never reused) is full.
            return Err(Termination::error(
                ErrorKind::Ptr,
                format!(
                    "memory error: stack overflow: allocation of {size} bytes does not fit in \
                     the stack region of a 32-bit program"
                ),
            ));
        }
        state.stack_bytes += size;
        let name = &module.function(state.frame().func).name;
        let mut request = AllocRequest::new(size, ObjectKind::Stack, name, Init::Garbage)
            .aligned(align)
            .at(inst.loc);
        let request_had_sigma = sigma.is_some();
        if let Some(sigma) = sigma {
            request = request.with_symbolic_size(sigma);
        }
        let pointer = self.memory.alloc(state, request).base_value();
        std::rc::Rc::make_mut(&mut state.frame_mut().allocas).push(pointer.clone());
        if self.config.nondet_uninit_locals
            && small_local(size)
            && !self.program.allocated_by_runtime(inst.loc)
            && !request_had_sigma
        {
            // SV-COMP's older tasks read uninitialised locals as nondeterministic values.
            // They are not inputs of the test: natively they hold whatever the stack holds,
            // and a replay reads the test's objects in the order of the program's own input
            // calls (`__VERIFIER_nondet_*`, `klee_make_symbolic`).
            // The list of inputs is put back as it was (not popped): paths that share it
            // keep sharing it, which merging compares in O(1).
            let inputs = state.symbolics.clone();
            self.make_symbolic(state, &pointer, size, "uninit")?;
            state.symbolics = inputs;
        }
        Ok(pointer)
    }

    /// A load of type `ty`, bound to `dest` in every resolved state.
    pub(crate) fn load(
        &mut self,
        module: &Module,
        state: &mut State,
        ptr: &Value,
        ty: TypeId,
        dest: Option<Slot>,
    ) -> Exec<()> {
        let len = module.ty(ty).size.max(1);
        let ptr = &state.settle(ptr);
        // Fast path: concrete pointer into a live object, in one segment.
        if let Value::Concrete(address, _) = ptr {
            let address = *address as u64;
            if let Lookup::Live(entry) = state.memory.lookup(address) {
                if entry.object.symbolic_size.is_none() && entry.object.contains_range(address, len)
                {
                    let offset = address - entry.object.address;
                    if let Some((segment, at)) = state.memory.segment_of(entry, offset, len) {
                        let v = read_value(module, segment, at, ty, self.config.read_policy);
                        if let Some(d) = dest {
                            state.frame_mut().locals[d.0 as usize] = v;
                        }
                        return Ok(());
                    }
                }
            }
        }
        self.resolve_access(state, ptr, len, false, &mut |ex, st, target| {
            let v = ex.cx().read_target(module, st, target, ty);
            if let Some(d) = dest {
                st.frame_mut().locals[d.0 as usize] = v;
            }
            Ok(())
        })
    }

    /// A store of `value` (of type `ty`).
    pub(crate) fn store(
        &mut self,
        module: &Module,
        state: &mut State,
        ptr: &Value,
        value: &Value,
        ty: TypeId,
    ) -> Exec<()> {
        let len = module.ty(ty).size.max(1);
        let ptr = &state.settle(ptr);
        if let Value::Concrete(address, _) = ptr {
            let address = *address as u64;
            if let Lookup::Live(entry) = state.memory.lookup(address) {
                let base = entry.object.address;
                if entry.object.symbolic_size.is_none()
                    && entry.object.contains_range(address, len)
                    && !entry.object.read_only
                {
                    if let Some((segment, at)) = state.memory.segment_mut(base, address - base, len)
                    {
                        write_value(module, segment, at, ty, value);
                        return Ok(());
                    }
                }
            }
        }
        self.resolve_access(state, ptr, len, true, &mut |ex, st, target| {
            ex.cx().write_target(module, st, target, ty, value);
            Ok(())
        })
    }

    /// `atomicrmw`: load, combine, store; the old value is the result.
    pub(crate) fn atomic_rmw(
        &mut self,
        module: &Module,
        state: &mut State,
        inst: &Inst,
        op: RmwOp,
        ptr: &Value,
        value: &Value,
    ) -> Exec<()> {
        let ty = inst.ty;
        let len = module.ty(ty).size.max(1);
        let value = value.clone();
        self.resolve_access(state, ptr, len, true, &mut |ex, st, target| {
            let old = ex.cx().read_target(module, st, target, ty);
            let new = match op {
                RmwOp::Xchg => value.clone(),
                RmwOp::Add => ops::int_binary(sear_expr::BinOp::Add, &old, &value),
                RmwOp::Sub => ops::int_binary(sear_expr::BinOp::Sub, &old, &value),
                RmwOp::And => ops::int_binary(sear_expr::BinOp::And, &old, &value),
                RmwOp::Or => ops::int_binary(sear_expr::BinOp::Or, &old, &value),
                RmwOp::Xor => ops::int_binary(sear_expr::BinOp::Xor, &old, &value),
                RmwOp::Nand => {
                    let and = ops::int_binary(sear_expr::BinOp::And, &old, &value);
                    Value::from_expr(Expr::not(and.to_expr()))
                }
                RmwOp::Max | RmwOp::Min | RmwOp::UMax | RmwOp::UMin => {
                    let pred = match op {
                        RmwOp::Max => sear_ir::IntPredicate::Sgt,
                        RmwOp::Min => sear_ir::IntPredicate::Slt,
                        RmwOp::UMax => sear_ir::IntPredicate::Ugt,
                        _ => sear_ir::IntPredicate::Ult,
                    };
                    let c = ops::icmp(pred, &old, &value);
                    super::step::select_value(&c, &old, &value)
                }
                RmwOp::Other => return Err(super::step::exec("unsupported atomicrmw operation")),
            };
            ex.cx().write_target(module, st, target, ty, &new);
            if let Some(d) = inst.dest {
                st.frame_mut().locals[d.0 as usize] = old;
            }
            Ok(())
        })
    }

    /// `cmpxchg`: yields `{old, success}`.
    pub(crate) fn cmpxchg(
        &mut self,
        module: &Module,
        state: &mut State,
        inst: &Inst,
        ptr: &Value,
        expected: &Value,
        replacement: &Value,
    ) -> Exec<()> {
        let elem_ty = layout::aggregate_elements(module, inst.ty)
            .and_then(|e| e.first().map(|(_, t)| *t))
            .ok_or_else(|| super::step::exec("cmpxchg with unexpected result type"))?;
        let len = module.ty(elem_ty).size.max(1);
        self.resolve_access(state, ptr, len, true, &mut |ex, st, target| {
            let old = ex.cx().read_target(module, st, target, elem_ty);
            let success = ops::icmp(sear_ir::IntPredicate::Eq, &old, expected);
            let new = super::step::select_value(&success, replacement, &old);
            ex.cx().write_target(module, st, target, elem_ty, &new);
            if let Some(d) = inst.dest {
                st.frame_mut().locals[d.0 as usize] =
                    Value::Aggregate(vec![old.clone(), success].into());
            }
            Ok(())
        })
    }
}

/// Locals up to this size (scalars, small structures and arrays) start nondeterministic
/// under `nondet_uninit_locals`; larger arrays keep KLEE's pattern (their bytes as one
/// symbolic array would slow every access of the arrays tasks).
const NONDET_LOCAL_MAX: u64 = 64;

fn small_local(size: u64) -> bool {
    size > 0 && size <= NONDET_LOCAL_MAX
}
