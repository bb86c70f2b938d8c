//! Type interning with layouts from the module's data layout.

use super::Lowerer;
use crate::ir::*;
use crate::llvm::Ty;
use llvm_sys::LLVMTypeKind as K;

impl<'m> Lowerer<'m> {
    /// Interns an LLVM type (and the types it contains).
    pub(crate) fn ty(&mut self, t: Ty<'m>) -> TypeId {
        if let Some(&id) = self.type_cache.get(&t.raw()) {
            return id;
        }
        let info = self.type_info(t);
        let id = self.intern_type(info);
        self.type_cache.insert(t.raw(), id);
        id
    }

    /// Interns a type by its shape; equal shapes have equal layouts.
    pub(crate) fn intern_type(&mut self, info: TypeInfo) -> TypeId {
        if let Some(&id) = self.type_index.get(&info.kind) {
            return id;
        }
        let id = TypeId(self.module.types.len() as u32);
        self.type_index.insert(info.kind.clone(), id);
        self.module.types.push(info);
        id
    }

    /// The integer type of `width` bits (at most 64), interned.
    pub(crate) fn int_type(&mut self, width: u32) -> TypeId {
        let bytes = u64::from(width.div_ceil(8)).next_power_of_two();
        self.intern_type(TypeInfo {
            kind: TypeKind::Int(width),
            size: bytes,
            align: bytes,
            field_offsets: Vec::new(),
            bit_width: width,
        })
    }

    /// The layout of an interned type.
    pub(crate) fn type_info(&mut self, t: Ty<'m>) -> TypeInfo {
        let kind = match t.kind() {
            K::LLVMVoidTypeKind => return unsized_type(TypeKind::Void),
            K::LLVMFunctionTypeKind => return unsized_type(TypeKind::Function),
            K::LLVMIntegerTypeKind => TypeKind::Int(t.int_width()),
            K::LLVMHalfTypeKind => TypeKind::Float(FloatKind::Half),
            K::LLVMFloatTypeKind => TypeKind::Float(FloatKind::Single),
            K::LLVMDoubleTypeKind => TypeKind::Float(FloatKind::Double),
            K::LLVMX86_FP80TypeKind => TypeKind::Float(FloatKind::X86Fp80),
            K::LLVMFP128TypeKind => TypeKind::Float(FloatKind::Fp128),
            K::LLVMPointerTypeKind => TypeKind::Ptr,
            K::LLVMArrayTypeKind => TypeKind::Array {
                elem: self.ty(t.element()),
                len: t.array_len(),
            },
            K::LLVMVectorTypeKind => TypeKind::Vector {
                elem: self.ty(t.element()),
                len: t.vector_len(),
            },
            K::LLVMStructTypeKind if t.is_opaque_struct() => {
                return unsized_type(TypeKind::Other(format!("opaque %{}", t.struct_name())));
            }
            K::LLVMStructTypeKind => TypeKind::Struct {
                fields: t.struct_fields().into_iter().map(|f| self.ty(f)).collect(),
                packed: t.is_packed(),
            },
            K::LLVMBFloatTypeKind => TypeKind::Other("bfloat".into()),
            K::LLVMPPC_FP128TypeKind => TypeKind::Other("ppc_fp128".into()),
            K::LLVMX86_MMXTypeKind => TypeKind::Other("x86_mmx".into()),
            K::LLVMX86_AMXTypeKind => return unsized_type(TypeKind::Other("x86_amx".into())),
            K::LLVMLabelTypeKind => return unsized_type(TypeKind::Other("label".into())),
            K::LLVMMetadataTypeKind => return unsized_type(TypeKind::Other("metadata".into())),
            K::LLVMTokenTypeKind => return unsized_type(TypeKind::Other("token".into())),
            K::LLVMScalableVectorTypeKind => {
                return unsized_type(TypeKind::Other("scalable vector".into()))
            }
            K::LLVMTargetExtTypeKind => {
                return unsized_type(TypeKind::Other("target extension type".into()))
            }
        };
        if !t.is_sized() {
            // A struct containing an opaque struct, for instance.
            return unsized_type(kind);
        }
        let bit_width = match &kind {
            TypeKind::Int(w) => *w,
            TypeKind::Float(f) => float_width(*f),
            TypeKind::Ptr => self.layout.pointer_size(t.address_space()) * 8,
            _ => 0,
        };
        let field_offsets = match &kind {
            TypeKind::Struct { fields, .. } => (0..fields.len() as u32)
                .map(|i| self.layout.field_offset(t, i))
                .collect(),
            _ => Vec::new(),
        };
        TypeInfo {
            kind,
            size: self.layout.alloc_size(t),
            align: self.layout.abi_align(t),
            field_offsets,
            bit_width,
        }
    }
}

/// Bit width of a floating-point format.
pub(crate) fn float_width(kind: FloatKind) -> u32 {
    match kind {
        FloatKind::Half => 16,
        FloatKind::Single => 32,
        FloatKind::Double => 64,
        FloatKind::X86Fp80 => 80,
        FloatKind::Fp128 => 128,
    }
}

/// A type without a size.
fn unsized_type(kind: TypeKind) -> TypeInfo {
    TypeInfo {
        kind,
        size: 0,
        align: 1,
        field_offsets: Vec::new(),
        bit_width: 0,
    }
}
