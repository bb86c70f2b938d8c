//! Calls, returns, function pointers and variadic arguments.
//!
//! Calls are the executor's (a symbolic function pointer forks, a call's arguments are
//! written through pointer resolution); a return is `Cx`'s (`ret`), since it only pops the
//! frame and fixes a symbolic exit status.

use sear_expr::Expr;
use sear_ir::{Callee, FuncId, Inst, Module, Operand, TypeId};

use super::layout::{scalar_width, write_value};
use super::step::exec;
use super::{Exec, Executor, Handler, SpecialFn};
use crate::executor::Cx;
use crate::memory::allocator::FUNCTION_BASE;
use crate::memory::{AllocRequest, Init, ObjectKind};
use crate::path::ForkKind;
use crate::state::{Frame, State};
use crate::termination::{ErrorKind, Termination};
use crate::value::Value;

/// The pseudo-address of a function.
pub(crate) fn function_address(f: FuncId) -> u64 {
    FUNCTION_BASE + 16 * f.0 as u64
}

/// The pseudo-address of block `b` of function `f` (`blockaddress`): distinct for every
/// block of the module, never the address of an object.
pub(crate) fn block_address(module: &Module, f: FuncId, b: sear_ir::BlockId) -> u64 {
    let before: usize = module.functions[..f.0 as usize]
        .iter()
        .map(|g| g.blocks.len())
        .sum();
    crate::memory::allocator::BLOCK_BASE + (before + b.0 as usize) as u64
}

/// The function at a pseudo-address, if any.
pub(crate) fn function_at(module: &Module, address: u64) -> Option<FuncId> {
    if address < FUNCTION_BASE || !(address - FUNCTION_BASE).is_multiple_of(16) {
        return None;
    }
    let index = (address - FUNCTION_BASE) / 16;
    (index < module.functions.len() as u64).then_some(FuncId(index as u32))
}

impl Executor<'_> {
    /// Executes a call instruction.
    pub(crate) fn call(
        &mut self,
        module: &Module,
        state: &mut State,
        inst: &Inst,
        callee: Callee,
        args: &[Operand],
        arg_types: &[TypeId],
    ) -> Exec<()> {
        let values: Vec<Value> = args
            .iter()
            .map(|a| self.program.operand(state, *a))
            .collect();
        match callee {
            Callee::Direct(f) => self.call_function(module, state, inst, f, values, arg_types),
            Callee::InlineAsm(id) => {
                let asm = module.inline_asm[id.0 as usize].clone();
                super::asm::inline_asm(module, state, inst, &asm, &values)
            }
            Callee::Indirect(op) => {
                let target = self.program.operand(state, op);
                self.call_pointer(module, state, inst, &target, values, arg_types)
            }
        }
    }

    /// Executes a call instruction so that every state forked inside it runs the whole call.
    ///
    /// A call with a symbolic argument may resolve memory at a symbolic address part-way
    /// through (the source of `memcpy`, `va_copy`, a `byval` copy) and fork there; the rest
    /// of the operation (the write, the result) would then run only in the current state.
    /// So such calls are whole operations (`fork.rs`): a path forked inside restarts the
    /// call from the state before it, under its own path condition.
    pub(crate) fn call_whole(
        &mut self,
        module: &Module,
        state: &mut State,
        inst: &Inst,
        callee: Callee,
        args: &[Operand],
        arg_types: &[TypeId],
    ) -> Exec<()> {
        let symbolic = |op: &Operand| self.program.operand(state, *op).is_symbolic();
        // Indexify's table calls read string indices from memory behind concrete pointers
        // and may fork per row there (`indexify/lookup.rs`), whatever their arguments.
        let indexify = matches!(callee, Callee::Direct(f)
            if matches!(self.program.handlers[f.0 as usize], Handler::Special(SpecialFn::Indexify)));
        let may_fork_inside = indexify
            || args.iter().any(symbolic)
            || matches!(callee, Callee::Indirect(op) if symbolic(&op));
        if !may_fork_inside {
            return self.call(module, state, inst, callee, args, arg_types);
        }
        self.whole(state, |ex, st| {
            ex.call(module, st, inst, callee, args, arg_types)
        })
    }

    /// Calls through a function pointer; a symbolic pointer forks once per target.
    fn call_pointer(
        &mut self,
        module: &Module,
        state: &mut State,
        inst: &Inst,
        target: &Value,
        args: Vec<Value>,
        arg_types: &[TypeId],
    ) -> Exec<()> {
        let p = match target {
            Value::Concrete(a, _) => {
                let f = function_at(module, *a as u64).ok_or_else(invalid_function_pointer)?;
                return self.call_function(module, state, inst, f, args, arg_types);
            }
            other => other.to_expr(),
        };
        // Enumerate the feasible targets on a scratch copy of the path condition.
        let mut probe = state.clone();
        let mut targets: Vec<u64> = Vec::new();
        loop {
            let v = self.sv.get_value(&probe, &p, "function pointer")? as u64;
            targets.push(v);
            let other = Expr::ne(p.clone(), Expr::constant(v as u128, p.width()));
            let other = self.sv.opt_condition(&probe, other)?;
            if targets.len() > module.functions.len()
                || !self.sv.may_be_true(&probe, &other, "function pointer")?
            {
                break;
            }
            probe.add_constraint(other);
        }
        drop(probe);
        // In address order, not the models' order: a path's record names the target by its
        // position, and a worker rebuilding the path (whose caches give other models) must
        // find the same target there.
        targets.sort_unstable();
        let is = |v: u64| Expr::eq(Expr::constant(v as u128, p.width()), p.clone());
        let conds = targets
            .iter()
            .map(|v| self.sv.opt_condition(state, is(*v)))
            .collect::<Exec<Vec<Expr>>>()?;
        let taken = self.fork(
            state,
            ForkKind::FunctionPointer,
            conds,
            |ex, i, mut other| {
                let result = match function_at(module, targets[i]) {
                    Some(f) => {
                        ex.call_function(module, &mut other, inst, f, args.clone(), arg_types)
                    }
                    None => Err(invalid_function_pointer()),
                };
                match result {
                    Ok(()) => ex.spawn(other),
                    Err(t) => ex.terminate(other, t),
                }
            },
        )?;
        let f = function_at(module, targets[taken]).ok_or_else(invalid_function_pointer)?;
        self.call_function(module, state, inst, f, args, arg_types)
    }

    /// Calls a known function: interprets its body or runs the engine's implementation.
    pub(crate) fn call_function(
        &mut self,
        module: &Module,
        state: &mut State,
        inst: &Inst,
        f: FuncId,
        args: Vec<Value>,
        arg_types: &[TypeId],
    ) -> Exec<()> {
        let byval = match &inst.kind {
            sear_ir::InstKind::Call { byval, .. } => byval.as_slice(),
            _ => &[],
        };
        let dest = inst.dest;
        let callee = match self.program.handlers[f.0 as usize] {
            Handler::Defined => f,
            Handler::Alias(g) => g,
            Handler::Special(special) => {
                return self.call_special(module, state, inst, special, &args, arg_types)
            }
            Handler::Missing => {
                let name = super::cxx::demangle(&module.function(f).name);
                return Err(exec(match super::cxx::unsupported_feature(&name) {
                    Some(feature) => {
                        format!("external function '{name}' is not supported: {feature}")
                    }
                    None => format!("external function '{name}' is not supported"),
                }));
            }
        };
        self.push_frame(module, state, callee, args, arg_types, byval, dest)?;
        // A call through a mismatched function type (a C89 implicit declaration): the value
        // returned is fitted to the width the call site expects.
        let want = scalar_width(module, inst.ty);
        let have = scalar_width(module, module.function(callee).ret);
        if want.is_some() && have.is_some() && want != have {
            state.frame_mut().ret_width = want;
        }
        Ok(())
    }

    /// Enters a defined function; `byval` lists the call's `byval` arguments.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn push_frame(
        &mut self,
        module: &Module,
        state: &mut State,
        f: FuncId,
        args: Vec<Value>,
        arg_types: &[TypeId],
        byval: &[(u32, TypeId)],
        ret_dest: Option<sear_ir::Slot>,
    ) -> Exec<()> {
        if state.stack.len() >= self.config.max_stack_frames {
            return Err(Termination::Early("max-stack-frames exceeded".into()));
        }
        let function = module.function(f);
        let mut locals = vec![Value::default(); function.num_slots as usize];
        let fixed = function.params.len();
        if args.len() < fixed {
            return Err(Termination::error(
                ErrorKind::Exec,
                format!("call to '{}' with too few arguments", function.name),
            ));
        }
        for (i, v) in args.iter().take(fixed).enumerate() {
            // Arguments of a call through a mismatched function type take the parameter's
            // width, as KLEE does: truncated, or zero-extended.
            locals[i] = match scalar_width(module, function.params[i]) {
                Some(w) if !matches!(v, Value::Aggregate(_)) && v.width() != w => fit(v, w),
                _ => v.clone(),
            };
        }
        // `byval` parameters point to the callee's own copy of the caller's bytes.
        let mut allocas = Vec::new();
        for (i, byval) in function.byval.iter().enumerate() {
            let Some(ty) = byval else { continue };
            let (size, align) = (module.ty(*ty).size, module.ty(*ty).align);
            let bytes = self.read_bytes(state, &args[i], size)?;
            let request = AllocRequest::new(size, ObjectKind::Stack, &function.name, Init::Garbage)
                .aligned(align);
            let copy = self.memory.alloc(state, request).base_value();
            self.write_bytes(state, &copy, &bytes)?;
            locals[i] = copy.clone();
            allocas.push(copy);
        }
        let varargs = if function.is_vararg {
            Some(self.varargs_area(module, state, &args, arg_types, fixed, byval)?)
        } else {
            None
        };
        state.stack.push(Frame {
            func: f,
            block: sear_ir::BlockId(0),
            inst: 0,
            prev_block: None,
            locals: locals.into(),
            allocas: std::rc::Rc::new(allocas),
            varargs,
            ret_dest,
            ret_width: None,
        });
        Ok(())
    }

    /// Lays the variadic arguments (`args[fixed..]`) out in memory as `va_arg` reads them
    /// from the x86-64 overflow area: each in a slot of a multiple of 8 bytes, aligned to
    /// its type's alignment (8 or 16); a `byval` argument is stored as its pointee's bytes.
    fn varargs_area(
        &mut self,
        module: &Module,
        state: &mut State,
        args: &[Value],
        types: &[TypeId],
        fixed: usize,
        byval: &[(u32, TypeId)],
    ) -> Exec<Value> {
        // i386's stack arguments are in 4-byte slots, aligned to 4 (clang's `va_arg`).
        let (slot, max_align) = match module.data_model {
            sear_ir::DataModel::Lp64 => (8, 16),
            sear_ir::DataModel::Ilp32 => (4, 4),
        };
        let mut layout = Vec::new();
        let mut size = 0u64;
        for i in fixed..args.len() {
            let pointee = byval
                .iter()
                .find(|(b, _)| *b as usize == i)
                .map(|(_, t)| *t);
            let ty = pointee.or_else(|| types.get(i).copied());
            let bytes = ty.map_or(slot, |t| module.ty(t).size.max(1));
            let align = ty.map_or(slot, |t| module.ty(t).align.clamp(slot, max_align));
            size = size.div_ceil(align) * align;
            layout.push((i, size, ty, pointee.is_some()));
            size += bytes.div_ceil(slot) * slot;
        }
        let request = AllocRequest::new(size, ObjectKind::Environment, "varargs", Init::Zero);
        let area = self.memory.alloc(state, request);
        for (i, offset, ty, is_byval) in layout {
            let Some(ty) = ty else { continue };
            if is_byval {
                let bytes = self.read_bytes(state, &args[i], module.ty(ty).size)?;
                let at = super::ops::ptr_add(&area.base_value(), offset);
                self.write_bytes(state, &at, &bytes)?;
            } else {
                let len = module.ty(ty).size;
                let (segment, at) = state
                    .memory
                    .segment_mut(area.address, offset, len)
                    .expect("varargs area");
                write_value(module, segment, at, ty, &args[i]);
            }
        }
        Ok(area.base_value())
    }

    /// `llvm.va_start`: fills the x86-64 `va_list` so that every argument is read from the
    /// overflow area (gp_offset = 48, fp_offset = 304: all registers "used"); i386's is
    /// the address of the area.
    pub(crate) fn va_start(&mut self, state: &mut State, list: &Value) -> Exec<()> {
        let area = state
            .frame()
            .varargs
            .clone()
            .ok_or_else(|| exec("va_start in a function without variadic arguments"))?;
        if module_is_32bit(&self.program.module) {
            // i386's va_list is a pointer to the next argument.
            let area = area.to_expr();
            let bytes: Vec<Expr> = (0..4)
                .map(|i| Expr::extract(area.clone(), 8 * i, 8))
                .collect();
            return self.write_bytes(state, list, &bytes);
        }
        let constant = |bytes: &[u8]| -> Vec<Expr> {
            bytes
                .iter()
                .map(|b| Expr::constant(*b as u128, 8))
                .collect()
        };
        let mut bytes = constant(&48u32.to_le_bytes());
        bytes.extend(constant(&304u32.to_le_bytes()));
        let area = area.to_expr();
        bytes.extend((0..8).map(|i| Expr::extract(area.clone(), 8 * i, 8)));
        bytes.extend(constant(&0u64.to_le_bytes()));
        self.write_bytes(state, list, &bytes)
    }
}

impl Cx<'_, '_> {
    /// Returns from the current function.
    pub(crate) fn ret(
        &mut self,
        _module: &Module,
        state: &mut State,
        value: Option<Value>,
    ) -> Exec<()> {
        let frame = state.stack.pop().expect("frame to return from");
        for pointer in frame.allocas.iter() {
            let Some(address) = state.address_of(pointer) else {
                continue;
            };
            if let Some(entry) = state.memory.get_by_base(address) {
                state.stack_bytes = state.stack_bytes.saturating_sub(entry.object.size);
            }
            state.memory.free(address);
        }
        if let Some(address) = frame.varargs.as_ref().and_then(|p| state.address_of(p)) {
            state.memory.free(address);
        }
        if state.stack.is_empty() {
            let code = match value {
                Some(Value::Concrete(v, w)) => sear_expr::bits::to_signed(v, w) as i32,
                Some(Value::Symbolic(e)) => {
                    // The exit status is fixed to one feasible value, silently: the test
                    // generated for this path replays with that status.
                    let e = self.sv.opt_value(state, e)?;
                    let c = self.fix_exit_status(state, &e)?;
                    sear_expr::bits::to_signed(c, e.width()) as i32
                }
                _ => 0,
            };
            return Err(Termination::Exit(code));
        }
        if let (Some(dest), Some(v)) = (frame.ret_dest, value) {
            let v = match frame.ret_width {
                Some(w) if !matches!(v, Value::Aggregate(_)) => fit(&v, w),
                _ => v,
            };
            state.frame_mut().locals[dest.0 as usize] = v;
        }
        Ok(())
    }

    /// Fixes a symbolic exit status to one feasible value, chosen under the path's feasible
    /// `klee_prefer_cex` preferences so that the test can still have the preferred values.
    pub(crate) fn fix_exit_status(&mut self, state: &mut State, e: &Expr) -> Exec<u128> {
        let mut probe = state.clone();
        for preference in &state.cex_preferences {
            if self.sv.may_be_true(&probe, preference, "exit status")? {
                probe.add_constraint(preference.clone());
            }
        }
        let c = self.sv.get_value(&probe, e, "exit status")?;
        state.add_constraint(Expr::eq(Expr::constant(c, e.width()), e.clone()));
        Ok(c)
    }
}

/// Bit width of a type's scalar value, for special functions returning values.
pub(crate) fn return_width(module: &Module, inst: &Inst) -> u32 {
    scalar_width(module, inst.ty).unwrap_or(32)
}

fn module_is_32bit(module: &Module) -> bool {
    module.data_model == sear_ir::DataModel::Ilp32
}

/// A scalar value truncated or zero-extended to `width` bits.
fn fit(v: &Value, width: u32) -> Value {
    match v {
        Value::Concrete(bits, _) => Value::concrete(*bits, width),
        _ => Value::from_expr(Expr::zext_or_trunc(v.to_expr(), width)),
    }
}

fn invalid_function_pointer() -> Termination {
    Termination::error(ErrorKind::Ptr, "invalid function pointer")
}
