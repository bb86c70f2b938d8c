//! Lowering of non-terminator instructions, and the opcode/predicate tables.

use super::constants::const_index;
use super::function::FnCtx;
use super::gep::GepIndex;
use super::Lowerer;
use crate::ir::*;
use crate::llvm::Val;
use llvm_sys::{LLVMAtomicRMWBinOp as R, LLVMIntPredicate as IP, LLVMOpcode as Op};
use llvm_sys::{LLVMRealPredicate as FP, LLVMTypeKind};

impl<'m> Lowerer<'m> {
    /// Lowers one instruction (not a phi, not a terminator); `None` for instructions that
    /// are dropped (calls to `llvm.dbg.*`).
    pub(crate) fn lower_inst(&mut self, cx: &FnCtx, inst: Val<'m>) -> Option<Inst> {
        let kind = self.inst_kind(cx, inst)?;
        Some(Inst {
            kind,
            dest: cx.slot(inst),
            ty: self.ty(inst.ty()),
            loc: self.loc(inst),
        })
    }

    fn inst_kind(&mut self, cx: &FnCtx, inst: Val<'m>) -> Option<InstKind> {
        let op = inst.opcode();
        let operand = |this: &mut Self, i: u32| this.operand(cx, inst.operand(i));
        if let Some(bin) = binary_op(op) {
            let lhs = operand(self, 0);
            let rhs = operand(self, 1);
            return Some(InstKind::Binary { op: bin, lhs, rhs });
        }
        if let Some(cast) = cast_op(op) {
            let from = self.ty(inst.operand(0).ty());
            let value = operand(self, 0);
            return Some(InstKind::Cast {
                op: cast,
                value,
                from,
            });
        }
        let kind = match op {
            Op::LLVMFNeg => InstKind::FNeg(operand(self, 0)),
            Op::LLVMICmp => InstKind::ICmp {
                pred: int_predicate(inst.icmp_predicate()),
                lhs: operand(self, 0),
                rhs: operand(self, 1),
            },
            Op::LLVMFCmp => InstKind::FCmp {
                pred: float_predicate(inst.fcmp_predicate()),
                lhs: operand(self, 0),
                rhs: operand(self, 1),
            },
            Op::LLVMSelect => InstKind::Select {
                cond: operand(self, 0),
                then_value: operand(self, 1),
                else_value: operand(self, 2),
            },
            Op::LLVMAlloca => {
                let allocated = inst.allocated_type();
                let align = match inst.alignment() {
                    0 if allocated.is_sized() => self.layout.abi_align(allocated),
                    0 => 1,
                    explicit => explicit,
                };
                InstKind::Alloca {
                    elem: self.ty(allocated),
                    count: operand(self, 0),
                    align,
                }
            }
            Op::LLVMLoad => InstKind::Load {
                ptr: operand(self, 0),
                align: self.access_align(inst, inst),
                volatile: inst.is_volatile(),
            },
            Op::LLVMStore => InstKind::Store {
                ptr: operand(self, 1),
                value: operand(self, 0),
                value_ty: self.ty(inst.operand(0).ty()),
                align: self.access_align(inst, inst.operand(0)),
            },
            Op::LLVMGetElementPtr => self.gep(cx, inst),
            Op::LLVMExtractValue => InstKind::ExtractValue {
                agg: operand(self, 0),
                indices: inst.indices(),
            },
            Op::LLVMInsertValue => InstKind::InsertValue {
                agg: operand(self, 0),
                value: operand(self, 1),
                indices: inst.indices(),
            },
            Op::LLVMExtractElement => InstKind::ExtractElement {
                vector: operand(self, 0),
                index: operand(self, 1),
            },
            Op::LLVMInsertElement => InstKind::InsertElement {
                vector: operand(self, 0),
                element: operand(self, 1),
                index: operand(self, 2),
            },
            Op::LLVMShuffleVector => InstKind::ShuffleVector {
                a: operand(self, 0),
                b: operand(self, 1),
                mask: inst.shuffle_mask(),
            },
            Op::LLVMCall | Op::LLVMInvoke => return self.call(cx, inst),
            Op::LLVMLandingPad => self.landing_pad(cx, inst),
            Op::LLVMVAArg => InstKind::VaArg {
                list: operand(self, 0),
            },
            Op::LLVMAtomicRMW => InstKind::AtomicRmw {
                op: rmw_op(inst.rmw_op()),
                ptr: operand(self, 0),
                value: operand(self, 1),
            },
            Op::LLVMAtomicCmpXchg => InstKind::CmpXchg {
                ptr: operand(self, 0),
                expected: operand(self, 1),
                replacement: operand(self, 2),
            },
            Op::LLVMFreeze => InstKind::Freeze(operand(self, 0)),
            Op::LLVMFence => InstKind::Nop,
            other => InstKind::Unsupported(opcode_name(other).to_string()),
        };
        Some(kind)
    }

    /// A `landingpad`: its cleanup flag and clauses (a filter's array of type infos is
    /// split into its elements).
    fn landing_pad(&mut self, cx: &FnCtx, inst: Val<'m>) -> InstKind {
        let clauses = (0..inst.num_clauses())
            .map(|i| {
                let clause = inst.clause(i);
                if clause.ty().kind() == LLVMTypeKind::LLVMArrayTypeKind {
                    let n = clause.ty().array_len();
                    let elements = (0..n)
                        .filter_map(|e| clause.aggregate_element(e as u32))
                        .map(|e| self.operand(cx, e))
                        .collect();
                    Clause::Filter(elements)
                } else {
                    Clause::Catch(self.operand(cx, clause))
                }
            })
            .collect();
        InstKind::LandingPad {
            cleanup: inst.is_cleanup(),
            clauses,
        }
    }

    /// Alignment of a load or store, the ABI alignment of the accessed type if unspecified.
    fn access_align(&mut self, inst: Val<'m>, accessed: Val<'m>) -> u64 {
        match inst.alignment() {
            0 if accessed.ty().is_sized() => self.layout.abi_align(accessed.ty()),
            0 => 1,
            explicit => explicit,
        }
    }

    /// A `getelementptr` instruction.
    fn gep(&mut self, cx: &FnCtx, inst: Val<'m>) -> InstKind {
        if inst.ty().kind() != LLVMTypeKind::LLVMPointerTypeKind {
            return InstKind::Unsupported("getelementptr on vectors of pointers".into());
        }
        let source = self.ty(inst.gep_source_type());
        let index_values: Vec<Val<'m>> =
            (1..inst.num_operands()).map(|i| inst.operand(i)).collect();
        let indices: Vec<GepIndex> = index_values
            .iter()
            .map(|&v| const_index(v).map_or(GepIndex::Var, GepIndex::Const))
            .collect();
        match self.gep_offsets(source, &indices) {
            Ok((offset, terms)) => {
                let base = self.operand(cx, inst.operand(0));
                let indices = terms
                    .into_iter()
                    .map(|(position, scale)| (self.operand(cx, index_values[position]), scale))
                    .collect();
                InstKind::Gep {
                    base,
                    offset,
                    indices,
                }
            }
            Err(why) => InstKind::Unsupported(format!("getelementptr: {why}")),
        }
    }

    /// A call; `None` for calls to `llvm.dbg.*`, which are dropped. An empty `asm`
    /// statement without results (a compiler barrier) is a no-op.
    fn call(&mut self, cx: &FnCtx, inst: Val<'m>) -> Option<InstKind> {
        let target = inst.called_value();
        let callee = if target.is_inline_asm() {
            let is_void = inst.ty().kind() == LLVMTypeKind::LLVMVoidTypeKind;
            if is_void && target.inline_asm_text().trim().is_empty() {
                return Some(InstKind::Nop);
            }
            let id = AsmId(self.module.inline_asm.len() as u32);
            self.module.inline_asm.push(InlineAsm {
                template: target.inline_asm_text(),
                constraints: target.inline_asm_constraints(),
            });
            Callee::InlineAsm(id)
        } else if let Some(&f) = self.func_ids.get(&target.raw()) {
            if self.module.function(f).name.starts_with("llvm.dbg.") {
                return None;
            }
            Callee::Direct(f)
        } else {
            match self.operand(cx, target) {
                Operand::Const(c) => match self.module.constant(c) {
                    Constant::FuncAddr(f) => Callee::Direct(*f),
                    _ => Callee::Indirect(Operand::Const(c)),
                },
                slot => Callee::Indirect(slot),
            }
        };
        let n = inst.num_arg_operands();
        let mut args = Vec::with_capacity(n as usize);
        let mut arg_types = Vec::with_capacity(n as usize);
        let mut byval = Vec::new();
        for i in 0..n {
            let arg = inst.operand(i);
            arg_types.push(self.ty(arg.ty()));
            args.push(self.operand(cx, arg));
            if let Some(pointee) = inst.call_byval_type(i) {
                byval.push((i, self.ty(pointee)));
            }
        }
        Some(InstKind::Call {
            callee,
            args,
            arg_types,
            byval,
        })
    }
}

/// The binary operator of an opcode, if it is one.
pub(crate) fn binary_op(op: Op) -> Option<BinaryOp> {
    Some(match op {
        Op::LLVMAdd => BinaryOp::Add,
        Op::LLVMSub => BinaryOp::Sub,
        Op::LLVMMul => BinaryOp::Mul,
        Op::LLVMUDiv => BinaryOp::UDiv,
        Op::LLVMSDiv => BinaryOp::SDiv,
        Op::LLVMURem => BinaryOp::URem,
        Op::LLVMSRem => BinaryOp::SRem,
        Op::LLVMShl => BinaryOp::Shl,
        Op::LLVMLShr => BinaryOp::LShr,
        Op::LLVMAShr => BinaryOp::AShr,
        Op::LLVMAnd => BinaryOp::And,
        Op::LLVMOr => BinaryOp::Or,
        Op::LLVMXor => BinaryOp::Xor,
        Op::LLVMFAdd => BinaryOp::FAdd,
        Op::LLVMFSub => BinaryOp::FSub,
        Op::LLVMFMul => BinaryOp::FMul,
        Op::LLVMFDiv => BinaryOp::FDiv,
        Op::LLVMFRem => BinaryOp::FRem,
        _ => return None,
    })
}

/// True for floating-point binary operators.
pub(crate) fn is_float_op(op: BinaryOp) -> bool {
    matches!(
        op,
        BinaryOp::FAdd | BinaryOp::FSub | BinaryOp::FMul | BinaryOp::FDiv | BinaryOp::FRem
    )
}

/// The cast operator of an opcode, if it is one.
pub(crate) fn cast_op(op: Op) -> Option<CastOp> {
    Some(match op {
        Op::LLVMTrunc => CastOp::Trunc,
        Op::LLVMZExt => CastOp::ZExt,
        Op::LLVMSExt => CastOp::SExt,
        Op::LLVMFPTrunc => CastOp::FpTrunc,
        Op::LLVMFPExt => CastOp::FpExt,
        Op::LLVMFPToUI => CastOp::FpToUi,
        Op::LLVMFPToSI => CastOp::FpToSi,
        Op::LLVMUIToFP => CastOp::UiToFp,
        Op::LLVMSIToFP => CastOp::SiToFp,
        Op::LLVMPtrToInt => CastOp::PtrToInt,
        Op::LLVMIntToPtr => CastOp::IntToPtr,
        Op::LLVMBitCast => CastOp::BitCast,
        Op::LLVMAddrSpaceCast => CastOp::AddrSpaceCast,
        _ => return None,
    })
}

/// sear's integer predicate for LLVM's.
pub(crate) fn int_predicate(p: IP) -> IntPredicate {
    match p {
        IP::LLVMIntEQ => IntPredicate::Eq,
        IP::LLVMIntNE => IntPredicate::Ne,
        IP::LLVMIntUGT => IntPredicate::Ugt,
        IP::LLVMIntUGE => IntPredicate::Uge,
        IP::LLVMIntULT => IntPredicate::Ult,
        IP::LLVMIntULE => IntPredicate::Ule,
        IP::LLVMIntSGT => IntPredicate::Sgt,
        IP::LLVMIntSGE => IntPredicate::Sge,
        IP::LLVMIntSLT => IntPredicate::Slt,
        IP::LLVMIntSLE => IntPredicate::Sle,
    }
}

/// sear's floating-point predicate for LLVM's.
fn float_predicate(p: FP) -> FloatPredicate {
    match p {
        FP::LLVMRealPredicateFalse => FloatPredicate::False,
        FP::LLVMRealOEQ => FloatPredicate::Oeq,
        FP::LLVMRealOGT => FloatPredicate::Ogt,
        FP::LLVMRealOGE => FloatPredicate::Oge,
        FP::LLVMRealOLT => FloatPredicate::Olt,
        FP::LLVMRealOLE => FloatPredicate::Ole,
        FP::LLVMRealONE => FloatPredicate::One,
        FP::LLVMRealORD => FloatPredicate::Ord,
        FP::LLVMRealUNO => FloatPredicate::Uno,
        FP::LLVMRealUEQ => FloatPredicate::Ueq,
        FP::LLVMRealUGT => FloatPredicate::Ugt,
        FP::LLVMRealUGE => FloatPredicate::Uge,
        FP::LLVMRealULT => FloatPredicate::Ult,
        FP::LLVMRealULE => FloatPredicate::Ule,
        FP::LLVMRealUNE => FloatPredicate::Une,
        FP::LLVMRealPredicateTrue => FloatPredicate::True,
    }
}

/// sear's `atomicrmw` operation for LLVM's.
fn rmw_op(op: R) -> RmwOp {
    match op {
        R::LLVMAtomicRMWBinOpXchg => RmwOp::Xchg,
        R::LLVMAtomicRMWBinOpAdd => RmwOp::Add,
        R::LLVMAtomicRMWBinOpSub => RmwOp::Sub,
        R::LLVMAtomicRMWBinOpAnd => RmwOp::And,
        R::LLVMAtomicRMWBinOpNand => RmwOp::Nand,
        R::LLVMAtomicRMWBinOpOr => RmwOp::Or,
        R::LLVMAtomicRMWBinOpXor => RmwOp::Xor,
        R::LLVMAtomicRMWBinOpMax => RmwOp::Max,
        R::LLVMAtomicRMWBinOpMin => RmwOp::Min,
        R::LLVMAtomicRMWBinOpUMax => RmwOp::UMax,
        R::LLVMAtomicRMWBinOpUMin => RmwOp::UMin,
        _ => RmwOp::Other,
    }
}

/// LLVM's textual name of an opcode.
pub(crate) fn opcode_name(op: Op) -> &'static str {
    match op {
        Op::LLVMRet => "ret",
        Op::LLVMBr => "br",
        Op::LLVMSwitch => "switch",
        Op::LLVMIndirectBr => "indirectbr",
        Op::LLVMInvoke => "invoke",
        Op::LLVMUnreachable => "unreachable",
        Op::LLVMCallBr => "callbr",
        Op::LLVMFNeg => "fneg",
        Op::LLVMAdd => "add",
        Op::LLVMFAdd => "fadd",
        Op::LLVMSub => "sub",
        Op::LLVMFSub => "fsub",
        Op::LLVMMul => "mul",
        Op::LLVMFMul => "fmul",
        Op::LLVMUDiv => "udiv",
        Op::LLVMSDiv => "sdiv",
        Op::LLVMFDiv => "fdiv",
        Op::LLVMURem => "urem",
        Op::LLVMSRem => "srem",
        Op::LLVMFRem => "frem",
        Op::LLVMShl => "shl",
        Op::LLVMLShr => "lshr",
        Op::LLVMAShr => "ashr",
        Op::LLVMAnd => "and",
        Op::LLVMOr => "or",
        Op::LLVMXor => "xor",
        Op::LLVMAlloca => "alloca",
        Op::LLVMLoad => "load",
        Op::LLVMStore => "store",
        Op::LLVMGetElementPtr => "getelementptr",
        Op::LLVMTrunc => "trunc",
        Op::LLVMZExt => "zext",
        Op::LLVMSExt => "sext",
        Op::LLVMFPToUI => "fptoui",
        Op::LLVMFPToSI => "fptosi",
        Op::LLVMUIToFP => "uitofp",
        Op::LLVMSIToFP => "sitofp",
        Op::LLVMFPTrunc => "fptrunc",
        Op::LLVMFPExt => "fpext",
        Op::LLVMPtrToInt => "ptrtoint",
        Op::LLVMIntToPtr => "inttoptr",
        Op::LLVMBitCast => "bitcast",
        Op::LLVMAddrSpaceCast => "addrspacecast",
        Op::LLVMICmp => "icmp",
        Op::LLVMFCmp => "fcmp",
        Op::LLVMPHI => "phi",
        Op::LLVMCall => "call",
        Op::LLVMSelect => "select",
        Op::LLVMUserOp1 => "userop1",
        Op::LLVMUserOp2 => "userop2",
        Op::LLVMVAArg => "va_arg",
        Op::LLVMExtractElement => "extractelement",
        Op::LLVMInsertElement => "insertelement",
        Op::LLVMShuffleVector => "shufflevector",
        Op::LLVMExtractValue => "extractvalue",
        Op::LLVMInsertValue => "insertvalue",
        Op::LLVMFreeze => "freeze",
        Op::LLVMFence => "fence",
        Op::LLVMAtomicCmpXchg => "cmpxchg",
        Op::LLVMAtomicRMW => "atomicrmw",
        Op::LLVMResume => "resume",
        Op::LLVMLandingPad => "landingpad",
        Op::LLVMCleanupRet => "cleanupret",
        Op::LLVMCatchRet => "catchret",
        Op::LLVMCatchPad => "catchpad",
        Op::LLVMCleanupPad => "cleanuppad",
        Op::LLVMCatchSwitch => "catchswitch",
    }
}
