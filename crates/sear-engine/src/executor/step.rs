//! The instruction dispatch: one `match` with short arms that call into the other modules.
//! Binary operations are in `step/binary.rs`, pointer arithmetic and aggregates in
//! `step/aggregate.rs`, casts in `step/cast.rs`. Operand values and jumps are `Program`'s; what
//! queries the solver without forking (casts, `fcmp`) is `Cx`'s (`cx.rs`).

use std::rc::Rc;

use sear_ir::{BlockId, CastOp, Inst, InstKind, Module, Operand, Terminator, TypeId, TypeKind};

use super::ops::{self, Scalar, Unsupported};
use super::{Exec, Executor, Program};
use crate::state::State;
use crate::termination::{ErrorKind, Termination};
use crate::value::Value;

mod aggregate;
mod binary;
mod cast;

pub(crate) use aggregate::select_value;
use aggregate::{extract_element, insert_path};

impl Executor<'_> {
    /// Executes the next instruction of `state`.
    pub(crate) fn step(&mut self, module: &Module, state: &mut State) -> Exec<()> {
        self.maybe_snapshot(state);
        self.hook_before_step(state)?;
        let frame = state.frame();
        let (func_id, block_id, index) = (frame.func, frame.block, frame.inst);
        let block = &module.function(func_id).blocks[block_id.0 as usize];
        self.run.stats.instructions += 1;
        state.instructions += 1;
        state.current_inst = index;
        if self.run.coverage.mark(func_id.0, block_id.0, index) {
            state.covered_new = true;
            state.insts_since_cov_new = 0;
        } else {
            state.insts_since_cov_new += 1;
        }
        state.trace_hash = state
            .trace_hash
            .rotate_left(5)
            .wrapping_add(((func_id.0 as u64) << 40) ^ ((block_id.0 as u64) << 20) ^ index as u64)
            .wrapping_mul(0x9E37_79B9_7F4A_7C15);
        if index < block.insts.len() {
            let inst = &block.insts[index];
            state.frame_mut().inst = index + 1;
            match self.execute(module, state, inst) {
                // The state was reset to the instruction's start (fork.rs); it runs on.
                Err(Termination::Restart) => Ok(()),
                result => result,
            }
        } else {
            self.execute_terminator(module, state, &block.term)
        }
    }

    /// Executes `inst`: each arm computes from operand values, calls a `Cx` method when
    /// it queries the solver or memory without forking, or an executor method when it may
    /// fork (checks, memory accesses, calls).
    fn execute(&mut self, module: &Module, state: &mut State, inst: &Inst) -> Exec<()> {
        match &inst.kind {
            InstKind::Binary { op, lhs, rhs } => {
                let (a, b) = (
                    self.program.operand(state, *lhs),
                    self.program.operand(state, *rhs),
                );
                let v = self.binary(module, state, *op, inst.ty, &a, &b)?;
                bind(state, inst, v);
            }
            InstKind::FNeg(x) => {
                let a = self.program.operand(state, *x);
                let kind = float_kind(module, inst.ty).ok_or_else(|| exec("fneg on non-float"))?;
                if let Some(v) = self.cx().fp_neg(kind, &a) {
                    bind(state, inst, v);
                    return Ok(());
                }
                let a = self
                    .cx()
                    .concretize_value(state, &a, "floating-point negation")?;
                let v = ops::lift1(&a, &mut |x| {
                    ops::float_neg(kind, x.as_concrete().unwrap_or(0))
                        .map(|b| Value::concrete(b, ops::float_width(kind)))
                })
                .map_err(unsupported)?;
                bind(state, inst, v);
            }
            InstKind::ICmp { pred, lhs, rhs } => {
                let (a, b) = (
                    self.program.operand(state, *lhs),
                    self.program.operand(state, *rhs),
                );
                let v = ops::lift2(&a, &b, &mut |x, y| Ok(ops::icmp(*pred, x, y)))
                    .map_err(unsupported)?;
                bind(state, inst, v);
            }
            InstKind::FCmp { pred, lhs, rhs } => {
                let (a, b) = (
                    self.program.operand(state, *lhs),
                    self.program.operand(state, *rhs),
                );
                let kind = operand_float_kind(module, state, &self.program, *lhs)
                    .ok_or_else(|| exec("fcmp on non-float operands"))?;
                let v = self.cx().fcmp(state, *pred, kind, &a, &b)?;
                bind(state, inst, v);
            }
            InstKind::Cast {
                op: CastOp::BitCast,
                value,
                from,
            } if vector_shape(module, *from) != vector_shape(module, inst.ty) => {
                // Vector <-> scalar (e.g. `<4 x i1>` to `i4`) or a change of element count.
                let v = self.program.operand(state, *value);
                let shape = vector_shape(module, inst.ty);
                bind(state, inst, ops::repack_bits(&v, shape));
            }
            InstKind::Cast { op, value, from } => {
                let v = self.program.operand(state, *value);
                let r = self
                    .cx()
                    .cast(module, state, *op, &v, *from, inst.ty, true)?;
                bind(state, inst, r);
            }
            InstKind::Select {
                cond,
                then_value,
                else_value,
            } => {
                let c = self.program.operand(state, *cond);
                let (t, e) = (
                    self.program.operand(state, *then_value),
                    self.program.operand(state, *else_value),
                );
                let v = select_value(&c, &t, &e);
                bind(state, inst, v);
            }
            InstKind::Alloca { elem, count, align } => {
                let count = self.program.operand(state, *count);
                let v = self.alloca(module, state, inst, *elem, count, *align)?;
                bind(state, inst, v);
            }
            InstKind::Load { ptr, .. } => {
                let p = self.program.operand(state, *ptr);
                self.load(module, state, &p, inst.ty, inst.dest)?;
            }
            InstKind::Store {
                ptr,
                value,
                value_ty,
                ..
            } => {
                let p = self.program.operand(state, *ptr);
                let v = self.program.operand(state, *value);
                self.store(module, state, &p, &v, *value_ty)?;
            }
            InstKind::Gep {
                base,
                offset,
                indices,
            } => {
                let v = self.program.gep(state, *base, *offset, indices);
                bind(state, inst, v);
            }
            InstKind::ExtractValue { agg, indices } => {
                let mut v = self.program.operand(state, *agg);
                for i in indices {
                    v = v.elements()[*i as usize].clone();
                }
                bind(state, inst, v);
            }
            InstKind::InsertValue {
                agg,
                value,
                indices,
            } => {
                let a = self.program.operand(state, *agg);
                let v = self.program.operand(state, *value);
                let r = insert_path(&a, indices, v);
                bind(state, inst, r);
            }
            InstKind::ExtractElement { vector, index } => {
                let vec = self.program.operand(state, *vector);
                let idx = self.program.operand(state, *index);
                let v = extract_element(&vec, &idx)?;
                bind(state, inst, v);
            }
            InstKind::InsertElement {
                vector,
                element,
                index,
            } => {
                let vec = self.program.operand(state, *vector);
                let elem = self.program.operand(state, *element);
                let idx = self.program.operand(state, *index);
                let idx = self.cx().concretize(state, &idx, "vector index")?;
                let mut items: Vec<Value> = vec.elements().to_vec();
                if (idx as usize) < items.len() {
                    items[idx as usize] = elem;
                }
                bind(state, inst, Value::Aggregate(Rc::from(items)));
            }
            InstKind::ShuffleVector { a, b, mask } => {
                let (va, vb) = (
                    self.program.operand(state, *a),
                    self.program.operand(state, *b),
                );
                let all: Vec<&Value> = va.elements().iter().chain(vb.elements().iter()).collect();
                let elem_zero = match all.first() {
                    Some(v) => Value::Concrete(0, v.width().max(1)),
                    None => Value::Concrete(0, 8),
                };
                let items: Vec<Value> = mask
                    .iter()
                    .map(|m| {
                        if *m < 0 {
                            elem_zero.clone()
                        } else {
                            all.get(*m as usize)
                                .map_or(elem_zero.clone(), |v| (*v).clone())
                        }
                    })
                    .collect();
                bind(state, inst, Value::Aggregate(Rc::from(items)));
            }
            InstKind::Call {
                callee,
                args,
                arg_types,
                ..
            } => {
                self.call_whole(module, state, inst, *callee, args, arg_types)?;
            }
            InstKind::AtomicRmw { op, ptr, value } => {
                let p = self.program.operand(state, *ptr);
                let v = self.program.operand(state, *value);
                self.atomic_rmw(module, state, inst, *op, &p, &v)?;
            }
            InstKind::CmpXchg {
                ptr,
                expected,
                replacement,
            } => {
                let p = self.program.operand(state, *ptr);
                let e = self.program.operand(state, *expected);
                let r = self.program.operand(state, *replacement);
                self.cmpxchg(module, state, inst, &p, &e, &r)?;
            }
            InstKind::Freeze(x) => {
                let v = self.program.operand(state, *x);
                bind(state, inst, v);
            }
            InstKind::VaArg { .. } => return Err(exec("unsupported instruction 'va_arg'")),
            InstKind::Nop => {}
            InstKind::LandingPad { .. } => {
                let v = super::eh::landing_pad_value(state)?;
                bind(state, inst, v);
            }
            InstKind::Unsupported(name) => {
                return Err(exec(format!("unsupported instruction '{name}'")));
            }
        }
        Ok(())
    }

    /// Executes a block's terminator: a jump, a return, or a branch (which may fork).
    fn execute_terminator(
        &mut self,
        module: &Module,
        state: &mut State,
        term: &Terminator,
    ) -> Exec<()> {
        match term {
            Terminator::Ret(value) => {
                let v = value.map(|op| self.program.operand(state, op));
                self.cx().ret(module, state, v)
            }
            Terminator::Br(target) => {
                self.jump(module, state, *target);
                Ok(())
            }
            Terminator::CondBr {
                cond,
                then_block,
                else_block,
            } => {
                let c = self.program.operand(state, *cond);
                self.cond_branch(module, state, &c, *then_block, *else_block)
            }
            Terminator::Switch {
                value,
                default,
                cases,
            } => {
                let v = self.program.operand(state, *value);
                self.switch(module, state, &v, *default, cases)
            }
            Terminator::IndirectBr { address, targets } => {
                let v = self.program.operand(state, *address);
                self.indirect_branch(module, state, &v, targets)
            }
            Terminator::Unreachable => Err(Termination::error(
                ErrorKind::Unreachable,
                "reached \"unreachable\" instruction",
            )),
            Terminator::Invoke { normal, .. } => {
                self.jump(module, state, *normal);
                Ok(())
            }
            Terminator::Resume(value) => {
                let v = self.program.operand(state, *value);
                self.eh_resume(module, state, &v)
            }
            Terminator::Unsupported(name) => Err(exec(format!("unsupported instruction '{name}'"))),
        }
    }
    /// Moves `state` to `target` ([`Program::jump`]); under
    /// `--only-output-states-covering-new`, a control-flow edge taken for the first time is
    /// new coverage (KLEE's `markBranchVisited`), so the path gets a test.
    pub(crate) fn jump(&mut self, module: &Module, state: &mut State, target: BlockId) {
        let from = state.frame().block;
        self.program.jump(module, state, target);
        if self.config.only_output_states_covering_new {
            let func = state.frame().func.0;
            if self.run.coverage.mark_edge(func, from.0, target.0) {
                state.covered_new = true;
            }
        }
    }
}

impl Program {
    /// The value of an operand in the current frame.
    #[inline]
    pub(crate) fn operand(&self, state: &State, op: Operand) -> Value {
        match op {
            Operand::Slot(s) => state.frame().locals[s.0 as usize].clone(),
            Operand::Const(c) => self.consts[c.0 as usize].clone(),
        }
    }

    /// Moves to `target`, evaluating its phis for the edge from the current block.
    pub(crate) fn jump(&self, module: &Module, state: &mut State, target: BlockId) {
        let frame = state.frame();
        let from = frame.block;
        let block = &module.function(frame.func).blocks[target.0 as usize];
        if !block.phis.is_empty() {
            let values: Vec<(u32, Value)> = block
                .phis
                .iter()
                .map(|phi| {
                    let op = phi
                        .incoming
                        .iter()
                        .find(|(b, _)| *b == from)
                        .map(|(_, op)| *op);
                    let v = match op {
                        Some(op) => self.operand(state, op),
                        None => Value::Concrete(0, 1),
                    };
                    (phi.dest.0, v)
                })
                .collect();
            let frame = state.frame_mut();
            for (slot, v) in values {
                frame.locals[slot as usize] = v;
            }
        }
        let frame = state.frame_mut();
        frame.prev_block = Some(from);
        frame.block = target;
        frame.inst = 0;
    }
}

/// Writes the result of the current instruction.
#[inline]
pub(crate) fn bind(state: &mut State, inst: &Inst, value: Value) {
    if let Some(dest) = inst.dest {
        state.frame_mut().locals[dest.0 as usize] = value;
    }
}

/// An `exec` termination with a message.
pub(crate) fn exec(message: impl Into<String>) -> Termination {
    Termination::error(ErrorKind::Exec, message)
}

pub(crate) fn unsupported(u: Unsupported) -> Termination {
    exec(format!("unsupported operation: {}", u.0))
}

/// The float kind of a scalar or vector float type.
pub(crate) fn float_kind(module: &Module, ty: TypeId) -> Option<sear_ir::FloatKind> {
    match &module.ty(ty).kind {
        TypeKind::Float(k) => Some(*k),
        TypeKind::Vector { elem, .. } => float_kind(module, *elem),
        _ => None,
    }
}

/// `Some((length, element bits))` for a vector of scalars; `None` for anything else.
fn vector_shape(module: &Module, ty: TypeId) -> Option<(u64, u32)> {
    match &module.ty(ty).kind {
        TypeKind::Vector { elem, len } => match scalar_of(module, *elem)? {
            Scalar::Int(w) => Some((*len, w)),
            Scalar::Float(k) => Some((*len, ops::float_width(k))),
        },
        _ => None,
    }
}

/// The scalar kind of a scalar or vector type.
pub(crate) fn scalar_of(module: &Module, ty: TypeId) -> Option<Scalar> {
    match &module.ty(ty).kind {
        TypeKind::Int(w) => Some(Scalar::Int(*w)),
        TypeKind::Ptr => Some(Scalar::Int(64)),
        TypeKind::Float(k) => Some(Scalar::Float(*k)),
        TypeKind::Vector { elem, .. } => scalar_of(module, *elem),
        _ => None,
    }
}

fn operand_float_kind(
    module: &Module,
    state: &State,
    program: &Program,
    op: Operand,
) -> Option<sear_ir::FloatKind> {
    // Comparisons do not record operand types; infer the format from the operand width.
    let v = program.operand(state, op);
    let width = match &v {
        Value::Aggregate(items) => items.first().map_or(0, Value::width),
        other => other.width(),
    };
    let _ = module;
    match width {
        32 => Some(sear_ir::FloatKind::Single),
        64 => Some(sear_ir::FloatKind::Double),
        80 => Some(sear_ir::FloatKind::X86Fp80),
        _ => None,
    }
}
