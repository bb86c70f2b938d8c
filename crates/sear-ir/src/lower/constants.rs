//! Lowering of LLVM constants to entries of [`Module::constants`].
//!
//! Constants are deduplicated twice: by LLVM handle (LLVM already uniques most
//! constants) and structurally (different LLVM constants can lower to the same sear
//! constant, e.g. `undef` and `poison`, or two GEPs with the same byte offset).

use super::gep::GepIndex;
use super::types::float_width;
use super::Lowerer;
use crate::ir::*;
use crate::llvm::{Ty, Val};
use llvm_sys::{LLVMOpcode as Op, LLVMTypeKind, LLVMValueKind as VK};

impl<'m> Lowerer<'m> {
    /// Lowers a constant (or global, function, alias) to a constant-table entry.
    pub(crate) fn constant(&mut self, v: Val<'m>) -> ConstId {
        if let Some(&id) = self.const_cache.get(&v.raw()) {
            return id;
        }
        let id = self.lower_constant(v);
        self.const_cache.insert(v.raw(), id);
        id
    }

    /// Adds a constant to the table, or finds its existing entry.
    ///
    /// Large aggregates (big initialized tables) are not indexed structurally, which would
    /// copy and hash them: LLVM already uniques equal aggregate constants.
    pub(crate) fn add_const(&mut self, c: Constant) -> ConstId {
        let indexed = !matches!(&c, Constant::Aggregate { elems, .. } if elems.len() > 64);
        if indexed {
            if let Some(&id) = self.const_index.get(&c) {
                return id;
            }
        }
        let id = ConstId(self.module.constants.len() as u32);
        if indexed {
            self.const_index.insert(c.clone(), id);
        }
        self.module.constants.push(c);
        id
    }

    /// An unsupported constant with a description.
    fn unsupported_const(&mut self, what: impl Into<String>) -> ConstId {
        self.add_const(Constant::Unsupported(what.into()))
    }

    fn lower_constant(&mut self, v: Val<'m>) -> ConstId {
        if v.is_function() {
            return match self.func_ids.get(&v.raw()) {
                Some(&f) => self.add_const(Constant::FuncAddr(f)),
                None => self.unsupported_const(format!("unknown function @{}", v.name())),
            };
        }
        if v.is_global_variable() {
            return match self.global_ids.get(&v.raw()) {
                Some(&g) => self.add_const(Constant::GlobalAddr(g)),
                None => self.unsupported_const(format!("unknown global @{}", v.name())),
            };
        }
        if v.is_global_alias() {
            return self.alias(v);
        }
        if !v.is_constant() {
            return self.unsupported_const(format!("non-constant value {}", v.print()));
        }
        match v.kind() {
            VK::LLVMConstantIntValueKind => match int_value(v) {
                Some((width, value)) => self.add_const(Constant::Int { width, value }),
                None => self.unsupported_const(format!("integer constant {}", v.print())),
            },
            VK::LLVMConstantFPValueKind => match float_value(v) {
                Some((kind, bits)) => self.add_const(Constant::Float { kind, bits }),
                None => self.unsupported_const(format!("floating-point constant {}", v.print())),
            },
            VK::LLVMConstantPointerNullValueKind => self.add_const(Constant::Null),
            VK::LLVMConstantAggregateZeroValueKind => {
                let ty = self.ty(v.ty());
                self.add_const(Constant::Zero(ty))
            }
            VK::LLVMUndefValueValueKind | VK::LLVMPoisonValueKind => {
                let ty = self.ty(v.ty());
                self.add_const(Constant::Undef(ty))
            }
            VK::LLVMConstantStructValueKind
            | VK::LLVMConstantArrayValueKind
            | VK::LLVMConstantVectorValueKind => {
                let ty = self.ty(v.ty());
                let elems = (0..v.num_operands())
                    .map(|i| self.constant(v.operand(i)))
                    .collect();
                self.add_const(Constant::Aggregate { ty, elems })
            }
            VK::LLVMConstantDataArrayValueKind | VK::LLVMConstantDataVectorValueKind => {
                self.data_sequential(v)
            }
            VK::LLVMConstantExprValueKind => self.constant_expr(v),
            VK::LLVMBlockAddressValueKind => self.block_address(v),
            VK::LLVMGlobalIFuncValueKind => self.unsupported_const(format!("ifunc @{}", v.name())),
            VK::LLVMConstantTokenNoneValueKind => self.unsupported_const("token none"),
            VK::LLVMConstantTargetNoneValueKind => self.unsupported_const("target none"),
            VK::LLVMConstantPtrAuthValueKind => self.unsupported_const("ptrauth"),
            _ => self.unsupported_const(format!("constant {}", v.print())),
        }
    }

    /// `blockaddress(@f, %bb)`: the function and the block's position in it (blocks are
    /// numbered in LLVM's order, as the lowering of the function numbers them).
    fn block_address(&mut self, v: Val<'m>) -> ConstId {
        let (f, bb) = v.block_address_parts();
        let Some(&id) = self.func_ids.get(&f.raw()) else {
            return self.unsupported_const("blockaddress of an unknown function");
        };
        match f.blocks().iter().position(|b| *b == bb) {
            Some(i) => self.add_const(Constant::BlockAddr(id, BlockId(i as u32))),
            None => self.unsupported_const("blockaddress of a block outside its function"),
        }
    }

    /// Resolves a global alias to its aliasee's constant.
    fn alias(&mut self, v: Val<'m>) -> ConstId {
        if !self.aliases_in_progress.insert(v.raw()) {
            return self.unsupported_const(format!("cyclic alias @{}", v.name()));
        }
        let target = self.constant(v.aliasee());
        self.aliases_in_progress.remove(&v.raw());
        target
    }

    /// A `ConstantDataArray`/`ConstantDataVector` (strings, tables of numbers).
    fn data_sequential(&mut self, v: Val<'m>) -> ConstId {
        let t = v.ty();
        let ty = self.ty(t);
        let elems = if let Some(bytes) = v.const_string() {
            bytes
                .iter()
                .map(|&b| {
                    self.add_const(Constant::Int {
                        width: 8,
                        value: u128::from(b),
                    })
                })
                .collect()
        } else {
            let len = match t.kind() {
                LLVMTypeKind::LLVMArrayTypeKind => t.array_len(),
                _ => t.vector_len(),
            };
            let mut elems = Vec::with_capacity(len as usize);
            for i in 0..len {
                let elem = u32::try_from(i).ok().and_then(|i| v.aggregate_element(i));
                match elem {
                    Some(e) => elems.push(self.constant(e)),
                    None => return self.unsupported_const("oversized data array"),
                }
            }
            elems
        };
        self.add_const(Constant::Aggregate { ty, elems })
    }

    /// A constant expression.
    fn constant_expr(&mut self, v: Val<'m>) -> ConstId {
        let op = v.const_opcode();
        if op == Op::LLVMGetElementPtr {
            return self.constant_gep(v);
        }
        if let Some(cast) = super::inst::cast_op(op) {
            let value = self.constant(v.operand(0));
            let from = v.operand(0).ty().kind();
            let to_kind = v.ty().kind();
            if matches!(cast, CastOp::BitCast | CastOp::AddrSpaceCast)
                && from == LLVMTypeKind::LLVMPointerTypeKind
                && to_kind == LLVMTypeKind::LLVMPointerTypeKind
            {
                return value;
            }
            let to = self.ty(v.ty());
            return self.add_const(Constant::Cast {
                op: cast,
                value,
                to,
            });
        }
        if let Some(bin) = super::inst::binary_op(op) {
            if super::inst::is_float_op(bin) {
                return self.unsupported_const(format!("constant expression {}", v.print()));
            }
            let lhs = self.constant(v.operand(0));
            let rhs = self.constant(v.operand(1));
            return self.add_const(Constant::Binary { op: bin, lhs, rhs });
        }
        match op {
            Op::LLVMICmp => {
                let pred = super::inst::int_predicate(v.icmp_predicate());
                let lhs = self.constant(v.operand(0));
                let rhs = self.constant(v.operand(1));
                self.add_const(Constant::ICmp { pred, lhs, rhs })
            }
            Op::LLVMSelect => {
                let cond = self.constant(v.operand(0));
                let then_value = self.constant(v.operand(1));
                let else_value = self.constant(v.operand(2));
                self.add_const(Constant::Select {
                    cond,
                    then_value,
                    else_value,
                })
            }
            _ => self.unsupported_const(format!("constant expression {}", v.print())),
        }
    }

    /// A constant `getelementptr`, folded to `base + offset`, plus `index * scale` for each
    /// index that is itself a constant expression (`&((char *)0)[(long)&a]`).
    fn constant_gep(&mut self, v: Val<'m>) -> ConstId {
        if v.ty().kind() != LLVMTypeKind::LLVMPointerTypeKind {
            return self.unsupported_const(format!("vector getelementptr {}", v.print()));
        }
        let base = self.constant(v.operand(0));
        let source = v.gep_source_type();
        let source = self.ty(source);
        let mut indices = Vec::new();
        let mut variable: Vec<(usize, ConstId, u32)> = Vec::new();
        for i in 1..v.num_operands() {
            let idx = v.operand(i);
            match const_index(idx) {
                Some(value) => indices.push(GepIndex::Const(value)),
                None if idx.ty().kind() == LLVMTypeKind::LLVMIntegerTypeKind
                    && idx.ty().int_width() <= 64 =>
                {
                    variable.push(((i - 1) as usize, self.constant(idx), idx.ty().int_width()));
                    indices.push(GepIndex::Var);
                }
                None => {
                    return self.unsupported_const(format!(
                        "getelementptr with a non-integer index {}",
                        v.print()
                    ))
                }
            }
        }
        let (offset, terms) = match self.gep_offsets(source, &indices) {
            Ok(folded) => folded,
            Err(why) => return self.unsupported_const(format!("{why} in {}", v.print())),
        };
        let mut result = if offset == 0 {
            base
        } else {
            let (base, offset) = match self.module.constants[base.0 as usize] {
                Constant::PtrOffset {
                    base: inner,
                    offset: inner_offset,
                } => (inner, inner_offset.wrapping_add(offset)),
                _ => (base, offset),
            };
            self.add_const(Constant::PtrOffset { base, offset })
        };
        for (position, scale) in terms {
            let Some(&(_, index, width)) = variable.iter().find(|(p, _, _)| *p == position) else {
                return self.unsupported_const(format!("getelementptr {}", v.print()));
            };
            let index = if width < 64 {
                let to = self.int_type(64);
                self.add_const(Constant::Cast {
                    op: CastOp::SExt,
                    value: index,
                    to,
                })
            } else {
                index
            };
            let scale = self.add_const(Constant::Int {
                width: 64,
                value: scale as u64 as u128,
            });
            let scaled = self.add_const(Constant::Binary {
                op: BinaryOp::Mul,
                lhs: index,
                rhs: scale,
            });
            result = self.add_const(Constant::Binary {
                op: BinaryOp::Add,
                lhs: result,
                rhs: scaled,
            });
        }
        result
    }
}

/// The sign-extended value of an integer constant of at most 64 bits, as a GEP index.
pub(crate) fn const_index(v: Val<'_>) -> Option<i64> {
    if !v.is_constant_int()
        || v.ty().kind() != LLVMTypeKind::LLVMIntegerTypeKind
        || v.ty().int_width() > 64
    {
        return None;
    }
    Some(v.const_sext())
}

/// Width and (masked) value of a scalar integer constant of at most 128 bits.
pub(crate) fn int_value(v: Val<'_>) -> Option<(u32, u128)> {
    // (LLVM can be configured to make vector splats ConstantInts; those are not handled.)
    if !v.is_constant_int() || v.ty().kind() != LLVMTypeKind::LLVMIntegerTypeKind {
        return None;
    }
    let width = v.ty().int_width();
    if width <= 64 {
        return Some((width, u128::from(v.const_zext())));
    }
    if width > 128 {
        return None;
    }
    // The C API only returns 64 bits; LLVM prints the full value in signed decimal.
    let text = v.print();
    let digits = text.rsplit(' ').next()?;
    let value = match digits.strip_prefix('-') {
        Some(magnitude) => magnitude.parse::<u128>().ok()?.wrapping_neg(),
        None => digits.parse::<u128>().ok()?,
    };
    Some((width, mask(value, width)))
}

/// `value` truncated to `width` bits.
pub(crate) fn mask(value: u128, width: u32) -> u128 {
    if width >= 128 {
        value
    } else {
        value & ((1u128 << width) - 1)
    }
}

/// Format and bit pattern of a floating-point constant.
fn float_value(v: Val<'_>) -> Option<(FloatKind, u128)> {
    let t: Ty<'_> = v.ty();
    let kind = match t.kind() {
        LLVMTypeKind::LLVMHalfTypeKind => FloatKind::Half,
        LLVMTypeKind::LLVMFloatTypeKind => FloatKind::Single,
        LLVMTypeKind::LLVMDoubleTypeKind => FloatKind::Double,
        LLVMTypeKind::LLVMX86_FP80TypeKind => FloatKind::X86Fp80,
        LLVMTypeKind::LLVMFP128TypeKind => FloatKind::Fp128,
        _ => return None,
    };
    let bits = match kind {
        FloatKind::Single => u128::from((v.const_real().0 as f32).to_bits()),
        FloatKind::Double => u128::from(v.const_real().0.to_bits()),
        // LLVM prints these formats in hexadecimal: 0xH (half), 0xK (x87: the 80 bits),
        // 0xL (quad: low 64 bits, then high 64 bits).
        _ => {
            let text = v.print();
            let token = text.rsplit(' ').next()?;
            let hex = token.get(3..)?;
            match (token.get(..3)?, kind) {
                ("0xH", FloatKind::Half) | ("0xK", FloatKind::X86Fp80) => {
                    u128::from_str_radix(hex, 16).ok()?
                }
                ("0xL", FloatKind::Fp128) if hex.len() == 32 => {
                    let low = u128::from_str_radix(&hex[..16], 16).ok()?;
                    let high = u128::from_str_radix(&hex[16..], 16).ok()?;
                    (high << 64) | low
                }
                _ => return None,
            }
        }
    };
    Some((kind, mask(bits, float_width(kind))))
}
