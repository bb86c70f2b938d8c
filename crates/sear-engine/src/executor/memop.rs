//! Loads, stores and allocation: pointer resolution, bounds, null and use-after-free checks.
//!
//! A concrete pointer resolves by lookup. A symbolic pointer is first tried against the
//! object containing one feasible value of it; if it may point elsewhere, every object it
//! may point into is found (searching outward from that value, as KLEE does), and the path
//! forks once per object, plus once more for the out-of-bounds case, which is an error.

use std::sync::Arc;

use sear_expr::Expr;
use sear_ir::{Inst, Module, RmwOp, Slot, TypeId};

use super::layout::{self, read_value, scalar_width, store_bytes, value_to_bytes, write_value};
use super::limits::LIMIT_CHECK_BYTES;
use super::ops;
use super::{Exec, Executor};
use crate::memory::allocator::NULL_PAGE;
use crate::memory::{
    in_bounds, Lookup, MemoryObject, ObjectContents, ObjectId, ObjectKind, Oracle,
};
use crate::state::State;
use crate::termination::{ErrorKind, Termination};
use crate::value::Value;

/// Bytes past an object's end that an out-of-bounds test prefers (within ASan's red zones).
const NEAR_OVERFLOW: u64 = 16;

/// Where inside an object an access lands.
#[derive(Clone, Debug)]
pub(crate) enum Offset {
    /// A constant byte offset.
    Concrete(u64),
    /// A symbolic 32-bit byte offset, in bounds under the path condition.
    Symbolic(Expr),
}

/// A resolved access: the object's base address and the offset in it.
#[derive(Clone, Debug)]
pub(crate) struct Target {
    pub base: u64,
    pub offset: Offset,
}

/// How memory is initialised at allocation.
#[derive(Clone, Debug)]
pub(crate) enum Init {
    /// All zero (globals without initializer, `calloc`).
    Zero,
    /// KLEE's pattern for uninitialised memory (0xAB).
    Garbage,
    /// Given bytes.
    Bytes(Vec<u8>),
}

pub(crate) fn ptr_error(message: &str) -> Termination {
    Termination::error(ErrorKind::Ptr, format!("memory error: {message}"))
}

impl Executor<'_> {
    /// Allocates an object in `state`; returns its base address.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn allocate(
        &mut self,
        state: &mut State,
        size: u64,
        align: u64,
        kind: ObjectKind,
        name: String,
        init: Init,
        alloc_site: Option<sear_ir::Loc>,
    ) -> u64 {
        let address = self
            .memory_model
            .as_mut()
            .expect("memory model present")
            .place(state, size, align, kind);
        let id = ObjectId(self.next_object);
        self.next_object += 1;
        let object = Arc::new(MemoryObject {
            id,
            address,
            size,
            kind,
            name,
            alloc_site,
            read_only: false,
        });
        let contents = match init {
            Init::Zero => ObjectContents::zeroed(size as usize),
            Init::Garbage => ObjectContents::from_bytes(vec![0xAB; size as usize]),
            Init::Bytes(bytes) => ObjectContents::from_bytes(bytes),
        };
        state.memory.insert(object, contents);
        address
    }

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
        let size = match count {
            Value::Symbolic(n) => {
                let n = Expr::zext_or_trunc(n, 64);
                let bytes = Expr::mul(n, Expr::constant(elem_size as u128, 64));
                let mut allocate_other = |ex: &mut Self, st: &mut State, size: u64| {
                    ex.alloca_bytes(module, st, inst, size, align)
                };
                self.concretize_size(state, inst.dest, &bytes, true, &mut allocate_other)?
            }
            other => {
                let count = self.concretize(state, &other, "alloca size")?;
                elem_size.saturating_mul(count as u64)
            }
        };
        self.alloca_bytes(module, state, inst, size, align)
    }

    /// A stack object of `size` bytes in the current frame.
    fn alloca_bytes(
        &mut self,
        module: &Module,
        state: &mut State,
        inst: &Inst,
        size: u64,
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
        state.stack_bytes += size;
        let name = module.function(state.frame().func).name.clone();
        let address = self.allocate(
            state,
            size,
            align,
            ObjectKind::Stack,
            name,
            Init::Garbage,
            inst.loc,
        );
        state.frame_mut().allocas.push(address);
        Ok(Value::Concrete(address as u128, 64))
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
        // Fast path: concrete pointer into a live object, all bytes concrete.
        if let Value::Concrete(address, _) = ptr {
            let address = *address as u64;
            if let Lookup::Live(entry) = state.memory.lookup(address) {
                if entry.object.contains_range(address, len) {
                    let offset = address - entry.object.address;
                    let v = read_value(module, &entry.contents, offset, ty);
                    if let Some(d) = dest {
                        state.frame_mut().locals[d.0 as usize] = v;
                    }
                    return Ok(());
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
        if let Value::Concrete(address, _) = ptr {
            let address = *address as u64;
            if let Lookup::Live(entry) = state.memory.lookup(address) {
                let base = entry.object.address;
                if entry.object.contains_range(address, len) && !entry.object.read_only {
                    let contents = state.memory.contents_mut(base);
                    write_value(module, contents, address - base, ty, value);
                    return Ok(());
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
        match &target.offset {
            Offset::Concrete(o) => {
                let entry = state
                    .memory
                    .get_by_base(target.base)
                    .expect("resolved object");
                read_value(module, &entry.contents, *o, ty)
            }
            Offset::Symbolic(off) => self.read_symbolic(module, state, target.base, off, ty),
        }
    }

    fn read_symbolic(
        &mut self,
        module: &Module,
        state: &mut State,
        base: u64,
        off: &Expr,
        ty: TypeId,
    ) -> Value {
        if let Some(width) = scalar_width(module, ty) {
            let prefix = self.flush_prefix(state, base);
            let contents = state.memory.contents_mut(base);
            let e = contents.read_symbolic(off, store_bytes(width), &prefix);
            self.note_access_granularity(state, base);
            return Value::from_expr(Expr::extract(e, 0, width));
        }
        let elems = layout::aggregate_elements(module, ty).unwrap_or_default();
        let items: Vec<Value> = elems
            .iter()
            .map(|(o, t)| {
                let field_off = Expr::add(Expr::constant(*o as u128, 32), off.clone());
                self.read_symbolic(module, state, base, &field_off, *t)
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
        match &target.offset {
            Offset::Concrete(o) => {
                let contents = state.memory.contents_mut(target.base);
                write_value(module, contents, *o, ty, value);
            }
            Offset::Symbolic(off) => {
                let mut bytes = Vec::new();
                value_to_bytes(module, ty, value, 0, &mut bytes);
                let prefix = self.flush_prefix(state, target.base);
                let contents = state.memory.contents_mut(target.base);
                contents.write_symbolic(off, &bytes, &prefix);
                self.note_access_granularity(state, target.base);
            }
        }
    }

    /// Reads one byte at a resolved target.
    fn read_byte_at(&mut self, state: &mut State, target: &Target) -> Expr {
        match &target.offset {
            Offset::Concrete(o) => {
                let entry = state
                    .memory
                    .get_by_base(target.base)
                    .expect("resolved object");
                entry.contents.read_byte(*o as usize)
            }
            Offset::Symbolic(off) => {
                let prefix = self.flush_prefix(state, target.base);
                let e = state
                    .memory
                    .contents_mut(target.base)
                    .read_symbolic(off, 1, &prefix);
                self.note_access_granularity(state, target.base);
                e
            }
        }
    }

    /// Writes one byte at a resolved target.
    fn write_byte_at(&mut self, state: &mut State, target: &Target, byte: Expr) {
        match &target.offset {
            Offset::Concrete(o) => state
                .memory
                .contents_mut(target.base)
                .write_byte(*o as usize, byte),
            Offset::Symbolic(off) => {
                let prefix = self.flush_prefix(state, target.base);
                state
                    .memory
                    .contents_mut(target.base)
                    .write_symbolic(off, &[(0, byte)], &prefix);
                self.note_access_granularity(state, target.base);
            }
        }
    }

    /// Publishes the access granularity of the object at `base` (spec 001 §4: the smallest
    /// width of its symbolic-offset accesses on this path) for the array it is flushed to.
    /// The query metadata keeps, per array, the minimum over the states sharing it: a
    /// smaller size only keeps more axioms, so this stays sound.
    fn note_access_granularity(&mut self, state: &State, base: u64) {
        let Some(entry) = state.memory.get_by_base(base) else {
            return;
        };
        if let Some((root, width)) = entry.contents.access_granularity() {
            let g = self.meta.access_granularity.entry(root).or_insert(width);
            *g = (*g).min(width);
        }
    }

    /// A name prefix for arrays flushed from the object at `base`, unique in the run.
    fn flush_prefix(&self, state: &State, base: u64) -> String {
        let id = state.memory.get_by_base(base).map_or(0, |e| e.object.id.0);
        format!("mo{}_s{}", id, state.id.0)
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
        let p = match ptr {
            Value::Concrete(a, _) => {
                let target = self.resolve_concrete(state, *a as u64, len, write)?;
                return access(self, state, &target);
            }
            Value::Symbolic(e) => Expr::zext_or_trunc(e.clone(), 64),
            Value::Aggregate(_) => return Err(ptr_error("aggregate used as a pointer")),
        };
        let candidates = match derived_object(state, &p) {
            Some(object) => vec![object],
            None => self.resolve_symbolic(state, &p, len)?,
        };
        let mut conds: Vec<Expr> = Vec::with_capacity(candidates.len());
        for (base, size) in &candidates {
            conds.push(self.opt_condition(state, in_bounds(&p, *base, *size, len))?);
        }
        let none = Expr::and_all(conds.iter().map(|c| Expr::not(c.clone())));
        if candidates.is_empty() {
            return Err(self.classify_bad_pointer(state, &p));
        }
        // Forks for the second and later objects, then the out-of-bounds fork.
        for (i, (base, _)) in candidates.iter().enumerate().skip(1) {
            let mut other = self.fork_state(state);
            other.add_constraint(conds[i].clone());
            if let Some(restarted) = self.restart_call(&other) {
                self.pending.push(restarted);
                continue;
            }
            let target = self.symbolic_target(&other, &p, *base, write);
            let result = target.and_then(|t| access(self, &mut other, &t));
            match result {
                Ok(()) => self.pending.push(other),
                Err(t) => self.terminate(other, t),
            }
        }
        let may_be_out = self.may_be_true(state, &none, "resolve")?;
        if may_be_out {
            let mut bad = self.fork_state(state);
            bad.add_constraint(none);
            if let [(base, size)] = candidates[..] {
                // The test prefers an address just past the object, where ASan's red zone
                // catches the overflow natively too.
                let offset = Expr::sub(p.clone(), Expr::constant(base as u128, 64));
                let past_end = Expr::sub(offset, Expr::constant(size as u128, 64));
                let near = Expr::ult(past_end, Expr::constant(NEAR_OVERFLOW as u128, 64));
                bad.cex_preferences.push(near);
            }
            let error = self.classify_bad_pointer(&bad, &p);
            self.terminate(bad, error);
        }
        // With one object and no out-of-bounds fork, the in-bounds condition is implied: it
        // is not added (a loop of accesses would otherwise grow the path condition by one
        // redundant constraint per access).
        if candidates.len() > 1 || may_be_out {
            state.add_constraint(conds[0].clone());
        }
        let target = self.symbolic_target(state, &p, candidates[0].0, write)?;
        access(self, state, &target)
    }

    fn symbolic_target(&self, state: &State, p: &Expr, base: u64, write: bool) -> Exec<Target> {
        let entry = state.memory.get_by_base(base).expect("candidate object");
        if write && entry.object.read_only {
            return Err(Termination::error(
                ErrorKind::Custom("read_only".into()),
                "memory error: object read only",
            ));
        }
        let offset = Expr::sub(p.clone(), Expr::constant(base as u128, 64));
        let offset = Expr::trunc(offset, 32);
        Ok(Target {
            base,
            offset: match offset.as_constant() {
                Some(o) => Offset::Concrete(o as u64),
                None => Offset::Symbolic(offset),
            },
        })
    }

    fn resolve_concrete(
        &mut self,
        state: &State,
        address: u64,
        len: u64,
        write: bool,
    ) -> Exec<Target> {
        match state.memory.lookup(address) {
            Lookup::Live(entry) => {
                if !entry.object.contains_range(address, len) {
                    return Err(ptr_error("out of bound pointer"));
                }
                if write && entry.object.read_only {
                    return Err(Termination::error(
                        ErrorKind::Custom("read_only".into()),
                        "memory error: object read only",
                    ));
                }
                Ok(Target {
                    base: entry.object.address,
                    offset: Offset::Concrete(address - entry.object.address),
                })
            }
            Lookup::Freed(_) => Err(ptr_error("use after free")),
            Lookup::Nothing if address < NULL_PAGE => Err(ptr_error("null page access")),
            Lookup::Nothing => Err(ptr_error("out of bound pointer")),
        }
    }

    /// Every object `p` may point into with `len` bytes in bounds, as the memory model
    /// finds them: `(base, size)` pairs, the most likely first.
    pub(crate) fn resolve_symbolic(
        &mut self,
        state: &mut State,
        p: &Expr,
        len: u64,
    ) -> Exec<Vec<(u64, u64)>> {
        let max = self.config.max_resolutions;
        let mut model = self.memory_model.take().expect("memory model present");
        let found = model.candidates(self, state, p, len, max);
        self.memory_model = Some(model);
        found
    }

    /// The pointer error for a state where `p` points into no live object.
    fn classify_bad_pointer(&mut self, state: &State, p: &Expr) -> Termination {
        let example = match self.get_value(state, p, "resolve") {
            Ok(v) => v as u64,
            Err(t) => return t,
        };
        match state.memory.lookup(example) {
            Lookup::Freed(_) => ptr_error("use after free"),
            _ if example < NULL_PAGE => ptr_error("null page access"),
            _ => ptr_error("out of bound pointer"),
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
                bytes.push(ex.read_byte_at(st, &shifted(target, i)));
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
                    ex.write_byte_at(st, &shifted(target, i as u64), b.clone());
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
                // Concrete bytes at a concrete offset: straight into the byte cache.
                let contents = st.memory.contents_mut(target.base);
                for i in 0..n {
                    if i > 0 && i % LIMIT_CHECK_BYTES as u64 == 0 {
                        ex.check_limits_in_operation()?;
                    }
                    contents.write_concrete_byte((start + i) as usize, value as u8);
                }
                return Ok(());
            }
            for i in 0..n {
                if i > 0 && i % LIMIT_CHECK_BYTES as u64 == 0 {
                    ex.check_limits_in_operation()?;
                }
                ex.write_byte_at(st, &shifted(target, i), byte.clone());
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
        let entry = match state.memory.lookup(address) {
            Lookup::Live(e) => e.clone(),
            Lookup::Freed(_) => return Err(ptr_error("use after free")),
            Lookup::Nothing if address < NULL_PAGE => return Err(ptr_error("null page access")),
            Lookup::Nothing => return Err(ptr_error("out of bound pointer")),
        };
        let mut bytes = Vec::new();
        let mut offset = address - entry.object.address;
        loop {
            if offset >= entry.object.size {
                if offset > address - entry.object.address {
                    self.warn_once(
                        "string not terminated by \\0 passed to one of the klee_ functions",
                    );
                    break;
                }
                return Err(ptr_error("out of bound pointer"));
            }
            let b = match entry.contents.concrete_byte(offset as usize) {
                Some(b) => b,
                None => {
                    let e = entry.contents.read_byte(offset as usize);
                    self.concretize(state, &Value::from_expr(e), what)? as u8
                }
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

/// The object a symbolic pointer was derived from, when the pointer is a constant address
/// inside a live object plus a symbolic offset (`&table[x]`, as GEPs build it).
///
/// The resolution's out-of-bounds test is authoritative for that object: an offset beyond
/// it is an out-of-bounds access (as ASan reports natively), never an access to whatever
/// object lies at that address. Pointers without such a base (loaded from memory, selected
/// between objects) are resolved against every object they may point into.
fn derived_object(state: &State, p: &Expr) -> Option<(u64, u64)> {
    let sear_expr::ExprKind::Binary {
        op: sear_expr::BinOp::Add,
        lhs,
        rhs,
    } = p.kind()
    else {
        return None;
    };
    let base = lhs.as_constant().or_else(|| rhs.as_constant())? as u64;
    match state.memory.lookup(base) {
        Lookup::Live(entry) => Some((entry.object.address, entry.object.size)),
        _ => None,
    }
}

fn shifted(target: &Target, delta: u64) -> Target {
    Target {
        base: target.base,
        offset: match &target.offset {
            Offset::Concrete(o) => Offset::Concrete(o + delta),
            Offset::Symbolic(e) => {
                let s = Expr::add(Expr::constant(delta as u128, 32), e.clone());
                match s.as_constant() {
                    Some(c) => Offset::Concrete(c as u64),
                    None => Offset::Symbolic(s),
                }
            }
        },
    }
}

impl Oracle for Executor<'_> {
    fn may_be_true(&mut self, state: &State, cond: &Expr) -> Exec<bool> {
        Executor::may_be_true(self, state, cond, "resolve")
    }
    fn must_be_true(&mut self, state: &State, cond: &Expr) -> Exec<bool> {
        Executor::must_be_true(self, state, cond, "resolve")
    }
    fn get_value(&mut self, state: &State, e: &Expr) -> Exec<u128> {
        Executor::get_value(self, state, e, "resolve")
    }
}
