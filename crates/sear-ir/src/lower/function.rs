//! Lowering of function bodies: slots, blocks, phis, operands and terminators.

use super::constants::int_value;
use super::inst::opcode_name;
use super::Lowerer;
use crate::ir::*;
use crate::llvm::{self, Val};
use llvm_sys::prelude::{LLVMBasicBlockRef, LLVMValueRef};
use llvm_sys::{LLVMOpcode as Op, LLVMTypeKind, LLVMValueKind};
use rustc_hash::FxHashMap;

/// Per-function lowering state: where each SSA value lives and each block's id.
#[derive(Default)]
pub(crate) struct FnCtx {
    slots: FxHashMap<LLVMValueRef, Slot>,
    blocks: FxHashMap<LLVMBasicBlockRef, BlockId>,
}

impl FnCtx {
    /// The slot of an argument or non-void instruction.
    pub(crate) fn slot(&self, v: Val<'_>) -> Option<Slot> {
        self.slots.get(&v.raw()).copied()
    }

    /// The id of a block of the function.
    fn block(&self, b: llvm::Block<'_>) -> BlockId {
        *self
            .blocks
            .get(&b.raw())
            .expect("LLVM's verifier guarantees branch targets are blocks of the function")
    }
}

impl<'m> Lowerer<'m> {
    /// Lowers the body of the defined function `f` into `self.module.functions[id]`.
    pub(crate) fn lower_body(&mut self, f: Val<'m>, id: FuncId) {
        let params = f.params();
        let blocks = f.blocks();
        let bodies: Vec<Vec<Val<'m>>> = blocks.iter().map(|b| b.instructions()).collect();
        let mut cx = FnCtx::default();
        // LLVM numbers unnamed arguments, blocks and values in this order; the numbers
        // name unnamed blocks the way `llvm-dis` prints them.
        let mut number = 0u32;
        for (i, p) in params.iter().enumerate() {
            cx.slots.insert(p.raw(), Slot(i as u32));
            if p.name().is_empty() {
                number += 1;
            }
        }
        let mut next_slot = params.len() as u32;
        let mut names = Vec::with_capacity(blocks.len());
        for (index, (block, body)) in blocks.iter().zip(&bodies).enumerate() {
            cx.blocks.insert(block.raw(), BlockId(index as u32));
            let name = block.name();
            names.push(if name.is_empty() {
                number += 1;
                (number - 1).to_string()
            } else {
                name
            });
            for inst in body {
                if inst.ty().kind() != LLVMTypeKind::LLVMVoidTypeKind {
                    cx.slots.insert(inst.raw(), Slot(next_slot));
                    next_slot += 1;
                    if inst.name().is_empty() {
                        number += 1;
                    }
                }
            }
        }
        let lowered = bodies
            .iter()
            .zip(names)
            .map(|(body, name)| self.lower_block(&cx, name, body))
            .collect();
        let function = &mut self.module.functions[id.0 as usize];
        function.blocks = lowered;
        function.num_slots = next_slot;
    }

    fn lower_block(&mut self, cx: &FnCtx, name: String, body: &[Val<'m>]) -> Block {
        let Some((&last, rest)) = body.split_last() else {
            // LLVM's verifier rejects empty blocks; keep going anyway.
            return Block {
                name,
                phis: Vec::new(),
                insts: Vec::new(),
                term: Terminator::Unsupported("empty block".into()),
                term_loc: None,
            };
        };
        let mut phis = Vec::new();
        let mut insts = Vec::with_capacity(rest.len());
        for &inst in rest {
            if inst.opcode() == Op::LLVMPHI {
                phis.push(self.lower_phi(cx, inst));
            } else if let Some(lowered) = self.lower_inst(cx, inst) {
                insts.push(lowered);
            }
        }
        if last.is_instruction() && last.opcode() == Op::LLVMInvoke {
            // The call becomes the block's last instruction; the terminator says where it
            // returns to and where it unwinds to.
            if let Some(call) = self.lower_inst(cx, last) {
                insts.push(call);
            }
            let succ = last.successors();
            let term = match succ.as_slice() {
                [normal, unwind] => Terminator::Invoke {
                    normal: cx.block(*normal),
                    unwind: cx.block(*unwind),
                },
                _ => Terminator::Unsupported("malformed invoke".into()),
            };
            return Block {
                name,
                phis,
                insts,
                term,
                term_loc: self.loc(last),
            };
        }
        Block {
            name,
            phis,
            insts,
            term: self.lower_terminator(cx, last),
            term_loc: self.loc(last),
        }
    }

    fn lower_phi(&mut self, cx: &FnCtx, inst: Val<'m>) -> Phi {
        let incoming = inst
            .incoming()
            .into_iter()
            .map(|(value, block)| (cx.block(block), self.operand(cx, value)))
            .collect();
        Phi {
            dest: cx.slot(inst).expect("phis are never void"),
            ty: self.ty(inst.ty()),
            incoming,
        }
    }

    /// An operand: the slot of an argument or instruction, else a constant.
    pub(crate) fn operand(&mut self, cx: &FnCtx, v: Val<'m>) -> Operand {
        if let Some(slot) = cx.slot(v) {
            return Operand::Slot(slot);
        }
        if v.is_constant() {
            return Operand::Const(self.constant(v));
        }
        if v.kind() == LLVMValueKind::LLVMMetadataAsValueValueKind {
            // Metadata arguments of intrinsics (`llvm.experimental.noalias.scope.decl`,
            // the rounding mode and predicate of constrained floating point, ...).
            let text = v.md_string().unwrap_or_default();
            return Operand::Const(self.add_const(Constant::Metadata(text)));
        }
        let what = if v.is_inline_asm() {
            "inline assembly used as a value".to_string()
        } else if v.is_instruction() || v.is_argument() {
            // Void instructions have no slot; nothing valid refers to them.
            format!("value without a slot: {}", v.print())
        } else {
            format!("operand {}", v.print())
        };
        Operand::Const(self.add_const(Constant::Unsupported(what)))
    }

    fn lower_terminator(&mut self, cx: &FnCtx, t: Val<'m>) -> Terminator {
        if !t.is_instruction() {
            return Terminator::Unsupported("missing terminator".into());
        }
        match t.opcode() {
            Op::LLVMRet if t.num_operands() == 0 => Terminator::Ret(None),
            Op::LLVMRet => Terminator::Ret(Some(self.operand(cx, t.operand(0)))),
            Op::LLVMBr => {
                let succ = t.successors();
                if t.is_conditional() && succ.len() == 2 {
                    Terminator::CondBr {
                        cond: self.operand(cx, t.condition()),
                        then_block: cx.block(succ[0]),
                        else_block: cx.block(succ[1]),
                    }
                } else if succ.len() == 1 {
                    Terminator::Br(cx.block(succ[0]))
                } else {
                    Terminator::Unsupported("malformed br".into())
                }
            }
            Op::LLVMSwitch => self.switch(cx, t),
            Op::LLVMIndirectBr => Terminator::IndirectBr {
                address: self.operand(cx, t.operand(0)),
                targets: t.successors().into_iter().map(|b| cx.block(b)).collect(),
            },
            Op::LLVMUnreachable => Terminator::Unreachable,
            Op::LLVMResume => Terminator::Resume(self.operand(cx, t.operand(0))),
            other => Terminator::Unsupported(opcode_name(other).to_string()),
        }
    }

    fn switch(&mut self, cx: &FnCtx, t: Val<'m>) -> Terminator {
        let value = self.operand(cx, t.operand(0));
        let default = cx.block(t.switch_default());
        let successors = t.successors();
        let num_cases = (t.num_operands().saturating_sub(2) / 2) as usize;
        let mut cases = Vec::with_capacity(num_cases);
        for i in 0..num_cases {
            let case_value = t.operand(2 + 2 * i as u32);
            let Some((_, value)) = int_value(case_value) else {
                return Terminator::Unsupported("switch on an integer wider than 128 bits".into());
            };
            // Successor 0 is the default destination; case `i` goes to successor `i + 1`.
            cases.push((value, cx.block(successors[i + 1])));
        }
        Terminator::Switch {
            value,
            default,
            cases,
        }
    }
}
