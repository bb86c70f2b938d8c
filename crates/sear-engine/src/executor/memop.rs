//! Loads, stores and allocation: pointer resolution, bounds, null and use-after-free checks.
//!
//! A concrete pointer resolves by lookup. A symbolic pointer is first tried against the
//! object containing one feasible value of it; if it may point elsewhere, every object it
//! may point into is found (searching outward from that value, as KLEE does), and the path
//! forks once per object, plus once more for the out-of-bounds case, which is an error.

use std::sync::Arc;

use sear_expr::Expr;
use sear_ir::{Inst, Module, RmwOp, Slot, TypeId};

use super::layout::{self, read_value, store_bytes, value_to_bytes, write_value};
use super::limits::LIMIT_CHECK_BYTES;
use super::ops;
use super::sym_alloc::SizeDecision;
use super::{Exec, Executor};
use crate::memory::segment::MAX_ARRAY_SIZE;
use crate::memory::{
    bad_pointer, ptr_error, read_only_error, AllocRequest, Hit, Init, Lookup, MemoryObject,
    ObjectKind, Offset, Resolution, Segment, Target,
};
use crate::path::ForkKind;
use crate::state::State;
use crate::termination::{ErrorKind, Termination};
use crate::value::Value;

/// Bytes past an object's end that an out-of-bounds test prefers (within ASan's red zones).
const NEAR_OVERFLOW: u64 = 16;

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
                let count = self.concretize(state, &other, "alloca size")?;
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
        state.frame_mut().allocas.push(pointer.clone());
        if self.config.nondet_uninit_locals
            && small_local(size)
            && !self.allocated_by_runtime(inst.loc)
            && !request_had_sigma
        {
            // SV-COMP's older tasks read uninitialised locals as nondeterministic values.
            // They are not inputs of the test: natively they hold whatever the stack holds,
            // and a replay reads the test's objects in the order of the program's own input
            // calls (`__VERIFIER_nondet_*`, `klee_make_symbolic`).
            self.make_symbolic(state, &pointer, size, "uninit")?;
            state.symbolics.pop_back();
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
            let v = ex.read_target(module, st, target, ty);
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
            ex.write_target(module, st, target, ty, value);
            Ok(())
        })
    }

    /// Reads a value of type `ty` at a resolved target.
    pub(crate) fn read_target(
        &mut self,
        module: &Module,
        state: &mut State,
        target: &Target,
        ty: TypeId,
    ) -> Value {
        let len = module.ty(ty).size.max(1);
        let target = &located(state, target, len);
        match &target.offset {
            Offset::Concrete(o) => {
                let entry = state
                    .memory
                    .get_by_base(target.address)
                    .expect("resolved object");
                match state.memory.segment_of(entry, *o, len) {
                    Some((segment, at)) => {
                        read_value(module, segment, at, ty, self.config.read_policy)
                    }
                    // Across the chunks of a split object: byte by byte.
                    None => {
                        let bytes: Vec<Expr> = (0..len)
                            .map(|i| self.read_byte_at(state, &target.shifted(i)))
                            .collect();
                        layout::value_from_bytes(module, ty, &bytes)
                    }
                }
            }
            Offset::Symbolic(off) => self.read_symbolic(module, state, target, off, ty),
        }
    }

    fn read_symbolic(
        &mut self,
        module: &Module,
        state: &mut State,
        target: &Target,
        off: &Expr,
        ty: TypeId,
    ) -> Value {
        if let Some(width) = layout::memory_width(module, ty) {
            let reads = self.config.read_policy;
            let e = self.with_symbolic_segment(state, target, off, |segment, off, prefix| {
                segment.read_symbolic(off, store_bytes(width), prefix, reads)
            });
            return layout::from_memory(module, ty, Value::from_expr(Expr::extract(e, 0, width)));
        }
        let elems = layout::aggregate_elements(module, ty).unwrap_or_default();
        let items: Vec<Value> = elems
            .iter()
            .map(|(o, t)| {
                let field_off = Expr::add(Expr::constant(*o as u128, 32), off.clone());
                self.read_symbolic(module, state, target, &field_off, *t)
            })
            .collect();
        Value::Aggregate(items.into())
    }

    /// Writes a value of type `ty` at a resolved target.
    pub(crate) fn write_target(
        &mut self,
        module: &Module,
        state: &mut State,
        target: &Target,
        ty: TypeId,
        value: &Value,
    ) {
        let len = module.ty(ty).size.max(1);
        let target = &located(state, target, len);
        match &target.offset {
            Offset::Concrete(o) => {
                if let Some((segment, at)) = state.memory.segment_mut(target.address, *o, len) {
                    write_value(module, segment, at, ty, value);
                    return;
                }
                // Across the chunks of a split object: byte by byte.
                let mut bytes = Vec::new();
                value_to_bytes(module, ty, value, 0, &mut bytes);
                for (delta, byte) in bytes {
                    self.write_byte_at(state, &target.shifted(delta), byte);
                }
            }
            Offset::Symbolic(off) => {
                let mut bytes = Vec::new();
                value_to_bytes(module, ty, value, 0, &mut bytes);
                self.with_symbolic_segment(state, target, off, |segment, off, prefix| {
                    segment.write_symbolic(off, &bytes, prefix)
                });
            }
        }
    }

    /// Reads one byte at a resolved target.
    pub(super) fn read_byte_at(&mut self, state: &mut State, target: &Target) -> Expr {
        let target = &located(state, target, 1);
        match &target.offset {
            Offset::Concrete(o) => {
                let entry = state
                    .memory
                    .get_by_base(target.address)
                    .expect("resolved object");
                let (segment, at) = state
                    .memory
                    .segment_of(entry, *o, 1)
                    .expect("a byte is in one chunk");
                segment.read_byte(at as usize, self.config.read_policy)
            }
            Offset::Symbolic(off) => {
                let reads = self.config.read_policy;
                self.with_symbolic_segment(state, target, off, |segment, off, prefix| {
                    segment.read_symbolic(off, 1, prefix, reads)
                })
            }
        }
    }

    /// Writes one byte at a resolved target.
    pub(super) fn write_byte_at(&mut self, state: &mut State, target: &Target, byte: Expr) {
        let target = &located(state, target, 1);
        match &target.offset {
            Offset::Concrete(o) => {
                let (segment, at) = state
                    .memory
                    .segment_mut(target.address, *o, 1)
                    .expect("a byte is in one chunk");
                segment.write_byte(at as usize, byte);
            }
            Offset::Symbolic(off) => {
                self.with_symbolic_segment(state, target, off, |segment, off, prefix| {
                    segment.write_symbolic(off, &[(0, byte)], prefix)
                })
            }
        }
    }

    /// Runs `f` on the segment holding the target's object (or its chunk, for a split
    /// object), with the symbolic object offset `off` turned into a segment offset, and
    /// publishes the segment's access granularity afterwards (spec 001 §4).
    fn with_symbolic_segment<T>(
        &mut self,
        state: &mut State,
        target: &Target,
        off: &Expr,
        f: impl FnOnce(&mut Segment, &Expr, &str) -> T,
    ) -> T {
        let state_id = state.id.0;
        let (segment, delta) = state
            .memory
            .segment_for_symbolic(target.address, target.chunk)
            .expect("a symbolic-offset access into one piece of an object");
        let off = if delta == 0 {
            off.clone()
        } else {
            Expr::add(Expr::constant(delta as u128, 32), off.clone())
        };
        let prefix = format!("mo{}_s{}", segment.id().0, state_id);
        let result = f(segment, &off, &prefix);
        self.memory.note_symbolic_array(segment.size() as u64);
        // The query metadata keeps, per array, the minimum over the states sharing it: a
        // smaller size only keeps more axioms, so this stays sound.
        if let Some((root, width)) = segment.access_granularity() {
            let g = self.sv.meta.access_granularity.entry(root).or_insert(width);
            *g = (*g).min(width);
        }
        result
    }

    /// Resolves an access of `len` bytes at `ptr` and runs `access` in every state where
    /// it is valid; the current state takes the first resolution, forks take the others,
    /// and a fork where no object matches ends with a pointer error.
    pub(crate) fn resolve_access(
        &mut self,
        state: &mut State,
        ptr: &Value,
        len: u64,
        write: bool,
        access: &mut dyn FnMut(&mut Self, &mut State, &Target) -> Exec<()>,
    ) -> Exec<()> {
        let p = match &state.settle(ptr) {
            Value::Concrete(a, _) => {
                let target = resolve_concrete(state, *a as u64, len, write)?;
                self.check_symbolic_size(state, &target, len)?;
                return access(self, state, &target);
            }
            Value::Symbolic(e) => Expr::zext_or_trunc(e.clone(), 64),
            Value::Aggregate(_) => return Err(ptr_error("aggregate used as a pointer")),
        };
        let (targets, out_of_bounds) = match self.memory.resolve(&mut self.sv, state, &p, len)? {
            Resolution::Invalid => return Err(self.classify_bad_pointer(state, &p)),
            Resolution::Single(hit) => {
                let target = symbolic_target(state, &p, hit, write)?;
                return access(self, state, &target);
            }
            Resolution::Segment {
                members,
                within,
                out_of_bounds,
            } => {
                // One path for the whole segment; an access outside every member (across
                // an internal red zone too) is an error path.
                match out_of_bounds {
                    Some(none) => {
                        let sides = vec![within, none];
                        let taken =
                            self.fork(state, ForkKind::Resolution, sides, |ex, _, bad| {
                                let error = ex.classify_bad_pointer(&bad, &p);
                                ex.terminate(bad, error);
                            })?;
                        if taken == 1 {
                            return Err(self.classify_bad_pointer(state, &p));
                        }
                    }
                    None => state.add_constraint(within),
                }
                let target = symbolic_target(state, &p, Hit::object(members[0]), write)?;
                return access(self, state, &target);
            }
            Resolution::Fork {
                targets,
                out_of_bounds,
            } => (targets, out_of_bounds),
        };
        // One alternative per object, then the out-of-bounds one.
        let mut alternatives: Vec<Expr> = targets.iter().map(|(c, _)| c.clone()).collect();
        alternatives.extend(out_of_bounds);
        if let [only] = &alternatives[..] {
            state.add_constraint(only.clone());
        }
        let out_of_bounds = |ex: &mut Self, bad: &mut State| {
            if let [(_, hit)] = targets[..] {
                // The test prefers an address just past the object, where ASan's red zone
                // catches the overflow natively too.
                let object = &bad.memory.get_by_base(hit.address).expect("target").object;
                let offset = Expr::sub(p.clone(), object.base_expr());
                let past_end = Expr::sub(offset, object.size_expr());
                let near = Expr::ult(past_end, Expr::constant(NEAR_OVERFLOW as u128, 64));
                bad.cex_preferences.push(near);
            }
            ex.classify_bad_pointer(bad, &p)
        };
        let taken = self.fork(
            state,
            ForkKind::Resolution,
            alternatives,
            |ex, i, mut other| match targets.get(i) {
                Some(&(_, hit)) => ex.continue_or_restart(other, |ex, other| {
                    let target = symbolic_target(other, &p, hit, write)?;
                    access(ex, other, &target)
                }),
                None => {
                    let error = out_of_bounds(ex, &mut other);
                    ex.terminate(other, error);
                }
            },
        )?;
        match targets.get(taken) {
            Some(&(_, hit)) => {
                if taken != 0
                    && Self::follows_new_side(state)
                    && self.run.restart_snapshot.is_some()
                {
                    // Following a recorded path where a new path took this object: that
                    // path restarted the whole operation, and so does this one.
                    return Err(self.restart_current(state, "resolution"));
                }
                let target = symbolic_target(state, &p, hit, write)?;
                access(self, state, &target)
            }
            None => Err(out_of_bounds(self, state)),
        }
    }

    /// The pointer error for a state where `p` points into no live object.
    fn classify_bad_pointer(&mut self, state: &State, p: &Expr) -> Termination {
        match self.sv.get_value(state, p, "resolve") {
            Ok(v) => bad_pointer(state, v as u64),
            Err(t) => t,
        }
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
            let old = ex.read_target(module, st, target, ty);
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
            ex.write_target(module, st, target, ty, &new);
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
            let old = ex.read_target(module, st, target, elem_ty);
            let success = ops::icmp(sear_ir::IntPredicate::Eq, &old, expected);
            let new = super::step::select_value(&success, replacement, &old);
            ex.write_target(module, st, target, elem_ty, &new);
            if let Some(d) = inst.dest {
                st.frame_mut().locals[d.0 as usize] =
                    Value::Aggregate(vec![old.clone(), success].into());
            }
            Ok(())
        })
    }

    /// Reads `len` bytes at `ptr` as byte expressions (resolving, and forking, like a load).
    pub(crate) fn read_bytes(
        &mut self,
        state: &mut State,
        ptr: &Value,
        len: u64,
    ) -> Exec<Vec<Expr>> {
        if len == 0 {
            return Ok(Vec::new());
        }
        let mut out = Vec::new();
        self.resolve_access(state, ptr, len, false, &mut |ex, st, target| {
            let mut bytes = Vec::with_capacity(len as usize);
            for i in 0..len {
                if i > 0 && i % LIMIT_CHECK_BYTES as u64 == 0 {
                    ex.check_limits_in_operation()?;
                }
                bytes.push(ex.read_byte_at(st, &target.shifted(i)));
            }
            out = bytes;
            Ok(())
        })?;
        Ok(out)
    }

    /// Writes byte expressions at `ptr`.
    pub(crate) fn write_bytes(
        &mut self,
        state: &mut State,
        ptr: &Value,
        bytes: &[Expr],
    ) -> Exec<()> {
        if bytes.is_empty() {
            return Ok(());
        }
        self.resolve_access(
            state,
            ptr,
            bytes.len() as u64,
            true,
            &mut |ex, st, target| {
                for (i, b) in bytes.iter().enumerate() {
                    if i > 0 && i % LIMIT_CHECK_BYTES == 0 {
                        ex.check_limits_in_operation()?;
                    }
                    ex.write_byte_at(st, &target.shifted(i as u64), b.clone());
                }
                Ok(())
            },
        )
    }

    /// Writes `n` copies of `byte` at `ptr` (`memset`), without a vector of `n` expressions.
    pub(crate) fn fill_bytes(
        &mut self,
        state: &mut State,
        ptr: &Value,
        byte: &Expr,
        n: u64,
    ) -> Exec<()> {
        if n == 0 {
            return Ok(());
        }
        self.resolve_access(state, ptr, n, true, &mut |ex, st, target| {
            if let (Offset::Concrete(start), Some(value)) = (&target.offset, byte.as_constant()) {
                // Concrete bytes at a concrete offset: straight into the segment, a page at a
                // time (limits are checked between pieces).
                let mut done = 0u64;
                while done < n {
                    if done > 0 {
                        ex.check_limits_in_operation()?;
                    }
                    let piece = (n - done).min(LIMIT_CHECK_BYTES as u64);
                    let at = start + done;
                    match st.memory.segment_mut(target.address, at, piece) {
                        Some((segment, offset)) => {
                            segment.fill_concrete(offset as usize, piece as usize, value as u8)
                        }
                        None => {
                            for i in 0..piece {
                                let b = Expr::constant(value, 8);
                                ex.write_byte_at(st, &target.shifted(done + i), b);
                            }
                        }
                    }
                    done += piece;
                }
                return Ok(());
            }
            for i in 0..n {
                if i > 0 && i % LIMIT_CHECK_BYTES as u64 == 0 {
                    ex.check_limits_in_operation()?;
                }
                ex.write_byte_at(st, &target.shifted(i), byte.clone());
            }
            Ok(())
        })
    }

    /// A string argument of a klee.h function (names, warnings, messages) at a concrete
    /// pointer, symbolic bytes concretised: as KLEE reads them, an unterminated one ends at
    /// the end of its object instead of being an error.
    pub(crate) fn read_message_string(
        &mut self,
        state: &mut State,
        ptr: &Value,
        what: &str,
    ) -> Exec<String> {
        let address = self.concretize(state, ptr, what)? as u64;
        let object = match state.memory.lookup(address) {
            Lookup::Live(e) => e.object.clone(),
            _ => return Err(bad_pointer(state, address)),
        };
        let mut bytes = Vec::new();
        let start = address - object.address;
        let mut offset = start;
        loop {
            if offset >= object.size {
                if offset > start {
                    self.warn_once(
                        "string not terminated by \\0 passed to one of the klee_ functions",
                    );
                    break;
                }
                return Err(ptr_error("out of bound pointer"));
            }
            let target = Target {
                address: object.address,
                offset: Offset::Concrete(offset),
                chunk: None,
            };
            let e = self.read_byte_at(state, &target);
            let b = match e.as_constant() {
                Some(b) => b as u8,
                None => self.concretize(state, &Value::from_expr(e), what)? as u8,
            };
            if b == 0 {
                break;
            }
            bytes.push(b);
            offset += 1;
        }
        Ok(String::from_utf8_lossy(&bytes).into_owned())
    }

    /// The live object whose base is exactly the (concrete) pointer.
    pub(crate) fn object_at(&self, state: &State, address: u64) -> Option<Arc<MemoryObject>> {
        state.memory.get_by_base(address).map(|e| e.object.clone())
    }
}

/// `target`, or, when its constant offset runs past its object (an access through the
/// first member of a merged segment that lands in another member), the object that holds
/// those bytes and the offset in it.
fn located(state: &State, target: &Target, len: u64) -> Target {
    let Offset::Concrete(o) = target.offset else {
        return target.clone();
    };
    let Some(entry) = state.memory.get_by_base(target.address) else {
        return target.clone();
    };
    if o.saturating_add(len) <= entry.object.size {
        return target.clone();
    }
    let absolute = target.address.wrapping_add(o);
    match state.memory.lookup(absolute) {
        Lookup::Live(e) => Target {
            address: e.object.address,
            offset: Offset::Concrete(absolute - e.object.address),
            chunk: None,
        },
        _ => target.clone(),
    }
}

/// The target of an access of `len` bytes at the concrete `address`, checked.
fn resolve_concrete(state: &State, address: u64, len: u64, write: bool) -> Exec<Target> {
    match state.memory.lookup(address) {
        Lookup::Live(entry) => {
            if !entry.object.contains_range(address, len) {
                return Err(ptr_error("out of bound pointer"));
            }
            if write && entry.object.read_only {
                return Err(read_only_error());
            }
            Ok(Target {
                address: entry.object.address,
                offset: Offset::Concrete(address - entry.object.address),
                chunk: None,
            })
        }
        _ => Err(bad_pointer(state, address)),
    }
}

/// The target of an access at the symbolic pointer `p` resolved to `hit`.
fn symbolic_target(state: &State, p: &Expr, hit: Hit, write: bool) -> Exec<Target> {
    let address = hit.address;
    let entry = state.memory.get_by_base(address).expect("resolved object");
    if write && entry.object.read_only {
        return Err(read_only_error());
    }
    let offset = Expr::sub(p.clone(), entry.object.base_expr());
    if let Some(o) = offset.as_constant() {
        return Ok(Target {
            address,
            offset: Offset::Concrete(o as u64),
            chunk: hit.chunk,
        });
    }
    if entry.object.size > MAX_ARRAY_SIZE {
        return Err(Termination::error(
            ErrorKind::Exec,
            format!(
                "symbolic-offset access to an object larger than 1 GiB ({} bytes)",
                entry.object.size
            ),
        ));
    }
    let offset = Expr::trunc(offset, 32);
    Ok(Target {
        address,
        offset: match offset.as_constant() {
            Some(o) => Offset::Concrete(o as u64),
            None => Offset::Symbolic(offset),
        },
        chunk: hit.chunk,
    })
}

/// Locals up to this size (scalars, small structures and arrays) start nondeterministic
/// under `nondet_uninit_locals`; larger arrays keep KLEE's pattern (their bytes as one
/// symbolic array would slow every access of the arrays tasks).
const NONDET_LOCAL_MAX: u64 = 64;

fn small_local(size: u64) -> bool {
    size > 0 && size <= NONDET_LOCAL_MAX
}
