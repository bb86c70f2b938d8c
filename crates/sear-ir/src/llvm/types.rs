//! Type handles and the data layout.

use super::{lossy_str, ModuleLife};
use llvm_sys::core::*;
use llvm_sys::prelude::*;
use llvm_sys::target::*;
use llvm_sys::LLVMTypeKind;
use std::marker::PhantomData;

/// A type of an [`LlvmModule`](super::LlvmModule).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub(crate) struct Ty<'m> {
    raw: LLVMTypeRef,
    _module: ModuleLife<'m>,
}

impl<'m> Ty<'m> {
    pub(super) fn new(raw: LLVMTypeRef) -> Self {
        debug_assert!(!raw.is_null());
        Ty {
            raw,
            _module: PhantomData,
        }
    }

    /// The raw handle (used as a cache key).
    pub(crate) fn raw(self) -> LLVMTypeRef {
        self.raw
    }

    /// The kind of type.
    pub(crate) fn kind(self) -> LLVMTypeKind {
        // SAFETY: `raw` is a live type.
        unsafe { LLVMGetTypeKind(self.raw) }
    }

    /// Bit width of an integer type.
    pub(crate) fn int_width(self) -> u32 {
        debug_assert_eq!(self.kind(), LLVMTypeKind::LLVMIntegerTypeKind);
        // SAFETY: `raw` is an integer type.
        unsafe { LLVMGetIntTypeWidth(self.raw) }
    }

    /// Element type of an array or vector type.
    pub(crate) fn element(self) -> Ty<'m> {
        // SAFETY: `raw` is an array or vector type (callers check the kind).
        Ty::new(unsafe { LLVMGetElementType(self.raw) })
    }

    /// Length of an array type.
    pub(crate) fn array_len(self) -> u64 {
        debug_assert_eq!(self.kind(), LLVMTypeKind::LLVMArrayTypeKind);
        // SAFETY: `raw` is an array type.
        unsafe { LLVMGetArrayLength2(self.raw) }
    }

    /// Length of a fixed vector type.
    pub(crate) fn vector_len(self) -> u64 {
        debug_assert_eq!(self.kind(), LLVMTypeKind::LLVMVectorTypeKind);
        // SAFETY: `raw` is a vector type.
        u64::from(unsafe { LLVMGetVectorSize(self.raw) })
    }

    /// True for a struct type without a body.
    pub(crate) fn is_opaque_struct(self) -> bool {
        // SAFETY: `raw` is a struct type (callers check the kind).
        unsafe { LLVMIsOpaqueStruct(self.raw) != 0 }
    }

    /// True for a packed struct type.
    pub(crate) fn is_packed(self) -> bool {
        // SAFETY: `raw` is a struct type (callers check the kind).
        unsafe { LLVMIsPackedStruct(self.raw) != 0 }
    }

    /// The name of a named struct type (empty for literal structs).
    pub(crate) fn struct_name(self) -> String {
        // SAFETY: `raw` is a struct type; the name is NUL-terminated when present.
        unsafe {
            let name = LLVMGetStructName(self.raw);
            if name.is_null() {
                String::new()
            } else {
                let len = std::ffi::CStr::from_ptr(name).to_bytes().len();
                lossy_str(name, len)
            }
        }
    }

    /// Field types of a struct type with a body.
    pub(crate) fn struct_fields(self) -> Vec<Ty<'m>> {
        // SAFETY: `raw` is a non-opaque struct type; the buffer has room for every field.
        unsafe {
            let n = LLVMCountStructElementTypes(self.raw) as usize;
            let mut raw = vec![std::ptr::null_mut(); n];
            LLVMGetStructElementTypes(self.raw, raw.as_mut_ptr());
            raw.into_iter().map(Ty::new).collect()
        }
    }

    /// True when the type has a size (false for opaque structs, functions, labels, ...).
    pub(crate) fn is_sized(self) -> bool {
        // SAFETY: `raw` is a live type.
        unsafe { LLVMTypeIsSized(self.raw) != 0 }
    }

    /// Return type of a function type.
    pub(crate) fn return_type(self) -> Ty<'m> {
        debug_assert_eq!(self.kind(), LLVMTypeKind::LLVMFunctionTypeKind);
        // SAFETY: `raw` is a function type.
        Ty::new(unsafe { LLVMGetReturnType(self.raw) })
    }

    /// Parameter types of a function type.
    pub(crate) fn param_types(self) -> Vec<Ty<'m>> {
        debug_assert_eq!(self.kind(), LLVMTypeKind::LLVMFunctionTypeKind);
        // SAFETY: `raw` is a function type; the buffer has room for every parameter.
        unsafe {
            let n = LLVMCountParamTypes(self.raw) as usize;
            let mut raw = vec![std::ptr::null_mut(); n];
            LLVMGetParamTypes(self.raw, raw.as_mut_ptr());
            raw.into_iter().map(Ty::new).collect()
        }
    }

    /// True for a variadic function type.
    pub(crate) fn is_vararg(self) -> bool {
        debug_assert_eq!(self.kind(), LLVMTypeKind::LLVMFunctionTypeKind);
        // SAFETY: `raw` is a function type.
        unsafe { LLVMIsFunctionVarArg(self.raw) != 0 }
    }

    /// Address space of a pointer type.
    pub(crate) fn address_space(self) -> u32 {
        debug_assert_eq!(self.kind(), LLVMTypeKind::LLVMPointerTypeKind);
        // SAFETY: `raw` is a pointer type.
        unsafe { LLVMGetPointerAddressSpace(self.raw) }
    }
}

/// The module's data layout: sizes, alignments and field offsets as LLVM computes them.
#[derive(Clone, Copy)]
pub(crate) struct Layout<'m> {
    raw: LLVMTargetDataRef,
    _module: ModuleLife<'m>,
}

impl<'m> Layout<'m> {
    pub(super) fn new(raw: LLVMTargetDataRef) -> Self {
        Layout {
            raw,
            _module: PhantomData,
        }
    }

    /// Allocation size in bytes (including tail padding) of a sized type.
    pub(crate) fn alloc_size(self, ty: Ty<'m>) -> u64 {
        debug_assert!(ty.is_sized());
        // SAFETY: both handles are live and `ty` is sized.
        unsafe { LLVMABISizeOfType(self.raw, ty.raw) }
    }

    /// ABI alignment in bytes of a sized type.
    pub(crate) fn abi_align(self, ty: Ty<'m>) -> u64 {
        debug_assert!(ty.is_sized());
        // SAFETY: both handles are live and `ty` is sized.
        u64::from(unsafe { LLVMABIAlignmentOfType(self.raw, ty.raw) })
    }

    /// Byte offset of field `index` of a sized struct type.
    pub(crate) fn field_offset(self, ty: Ty<'m>, index: u32) -> u64 {
        // SAFETY: `ty` is a sized struct type with more than `index` fields.
        unsafe { LLVMOffsetOfElement(self.raw, ty.raw, index) }
    }

    /// True for a little-endian layout.
    pub(crate) fn is_little_endian(self) -> bool {
        // SAFETY: the layout is live.
        unsafe { LLVMByteOrder(self.raw) == LLVMByteOrdering::LLVMLittleEndian }
    }

    /// Pointer size in bytes in an address space.
    pub(crate) fn pointer_size(self, address_space: u32) -> u32 {
        // SAFETY: the layout is live.
        unsafe { LLVMPointerSizeForAS(self.raw, address_space) }
    }
}
