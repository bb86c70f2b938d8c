//! Value and basic-block handles.
//!
//! Many C API getters are only defined for particular kinds of values (LLVM's `cast<>`s
//! are unchecked in release builds). Each method states which kinds it accepts; the
//! lowering checks the kind (opcode or `is_*`) before calling it.

use super::types::Ty;
use super::{lossy_str, take_message, walk, ModuleLife};
use llvm_sys::core::*;
use llvm_sys::prelude::*;
use llvm_sys::{
    LLVMAtomicRMWBinOp, LLVMIntPredicate, LLVMOpcode, LLVMRealPredicate, LLVMValueKind,
};
use std::marker::PhantomData;

/// A value of an [`LlvmModule`](super::LlvmModule): a constant, global, argument or
/// instruction.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub(crate) struct Val<'m> {
    raw: LLVMValueRef,
    _module: ModuleLife<'m>,
}

/// A basic block of a function of an [`LlvmModule`](super::LlvmModule).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub(crate) struct Block<'m> {
    raw: LLVMBasicBlockRef,
    _module: ModuleLife<'m>,
}

/// The file of a debug location, as two strings owned by the module's metadata.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub(crate) struct DebugFile<'m> {
    /// The file name (maybe relative).
    pub(crate) file: &'m [u8],
    /// The compilation directory.
    pub(crate) dir: &'m [u8],
}

impl<'m> Val<'m> {
    pub(super) fn new(raw: LLVMValueRef) -> Self {
        debug_assert!(!raw.is_null());
        Val {
            raw,
            _module: PhantomData,
        }
    }

    fn opt(raw: LLVMValueRef) -> Option<Self> {
        (!raw.is_null()).then(|| Val::new(raw))
    }

    /// The raw handle (used as a cache key).
    pub(crate) fn raw(self) -> LLVMValueRef {
        self.raw
    }

    // ----- any value -----

    /// The value's name (empty when unnamed).
    pub(crate) fn name(self) -> String {
        let mut len = 0usize;
        // SAFETY: live value; the name points to `len` bytes.
        unsafe { lossy_str(LLVMGetValueName2(self.raw, &mut len), len) }
    }

    /// The value's type.
    pub(crate) fn ty(self) -> Ty<'m> {
        // SAFETY: live value.
        Ty::new(unsafe { LLVMTypeOf(self.raw) })
    }

    /// The value's kind. Kinds the C API does not know are reported as instructions, so
    /// use [`Val::is_instruction`] to test for instructions.
    pub(crate) fn kind(self) -> LLVMValueKind {
        // SAFETY: live value.
        unsafe { LLVMGetValueKind(self.raw) }
    }

    /// The text of a metadata operand that is an `MDString` (`!"round.dynamic"`).
    pub(crate) fn md_string(self) -> Option<String> {
        let mut len: std::os::raw::c_uint = 0;
        // SAFETY: live value; LLVM returns null for anything but an MDString, else a
        // pointer to `len` bytes.
        let p = unsafe { LLVMGetMDString(self.raw, &mut len) };
        (!p.is_null()).then(|| unsafe { lossy_str(p, len as usize) })
    }

    /// LLVM's textual form of the value (slow; for rare constants and messages).
    pub(crate) fn print(self) -> String {
        // SAFETY: live value; the returned message is ours to free.
        unsafe { take_message(LLVMPrintValueToString(self.raw)) }
    }

    /// True for instructions.
    pub(crate) fn is_instruction(self) -> bool {
        // SAFETY: live value.
        unsafe { !LLVMIsAInstruction(self.raw).is_null() }
    }

    /// True for function arguments.
    pub(crate) fn is_argument(self) -> bool {
        // SAFETY: live value.
        unsafe { !LLVMIsAArgument(self.raw).is_null() }
    }

    /// True for functions.
    pub(crate) fn is_function(self) -> bool {
        // SAFETY: live value.
        unsafe { !LLVMIsAFunction(self.raw).is_null() }
    }

    /// True for global variables.
    pub(crate) fn is_global_variable(self) -> bool {
        // SAFETY: live value.
        unsafe { !LLVMIsAGlobalVariable(self.raw).is_null() }
    }

    /// True for global aliases.
    pub(crate) fn is_global_alias(self) -> bool {
        // SAFETY: live value.
        unsafe { !LLVMIsAGlobalAlias(self.raw).is_null() }
    }

    /// True for constants (including globals and functions).
    pub(crate) fn is_constant(self) -> bool {
        // SAFETY: live value.
        unsafe { !LLVMIsAConstant(self.raw).is_null() }
    }

    /// True for integer constants.
    pub(crate) fn is_constant_int(self) -> bool {
        // SAFETY: live value.
        unsafe { !LLVMIsAConstantInt(self.raw).is_null() }
    }

    /// True for inline assembly.
    pub(crate) fn is_inline_asm(self) -> bool {
        // SAFETY: live value.
        unsafe { !LLVMIsAInlineAsm(self.raw).is_null() }
    }

    /// The assembly text of an inline-asm value.
    pub(crate) fn inline_asm_text(self) -> String {
        debug_assert!(self.is_inline_asm());
        let mut len = 0usize;
        // SAFETY: inline-asm value; the text has the reported length.
        unsafe { lossy_str(LLVMGetInlineAsmAsmString(self.raw, &mut len), len) }
    }

    /// The constraint string of an inline-asm value.
    pub(crate) fn inline_asm_constraints(self) -> String {
        debug_assert!(self.is_inline_asm());
        let mut len = 0usize;
        // SAFETY: inline-asm value; the text has the reported length.
        unsafe { lossy_str(LLVMGetInlineAsmConstraintString(self.raw, &mut len), len) }
    }

    /// Number of operands (of a user: instruction or constant).
    pub(crate) fn num_operands(self) -> u32 {
        // SAFETY: live value; non-users have no operands and return 0 or -1.
        let n = unsafe { LLVMGetNumOperands(self.raw) };
        u32::try_from(n).unwrap_or(0)
    }

    /// Operand `i` (of a user with more than `i` operands).
    pub(crate) fn operand(self, i: u32) -> Val<'m> {
        debug_assert!(i < self.num_operands());
        // SAFETY: live user with more than `i` operands.
        Val::new(unsafe { LLVMGetOperand(self.raw, i) })
    }

    // ----- debug locations (instructions, functions, global variables) -----

    /// Source line of the debug location, 0 when there is none.
    pub(crate) fn debug_line(self) -> u32 {
        // SAFETY: callers pass instructions, functions and global variables only.
        unsafe { LLVMGetDebugLocLine(self.raw) }
    }

    /// Source column of an instruction's debug location, 0 when unknown.
    pub(crate) fn debug_column(self) -> u32 {
        // SAFETY: as above; non-instructions return 0.
        unsafe { LLVMGetDebugLocColumn(self.raw) }
    }

    /// The file of the debug location.
    pub(crate) fn debug_file(self) -> DebugFile<'m> {
        // SAFETY: as above; the strings are owned by metadata that lives as long as the
        // module, and have the returned lengths.
        unsafe {
            let mut file_len = 0u32;
            let file = LLVMGetDebugLocFilename(self.raw, &mut file_len);
            let mut dir_len = 0u32;
            let dir = LLVMGetDebugLocDirectory(self.raw, &mut dir_len);
            DebugFile {
                file: raw_bytes(file, file_len as usize),
                dir: raw_bytes(dir, dir_len as usize),
            }
        }
    }

    // ----- functions, global variables, aliases -----

    /// The value type of a global value (function type, global variable type, ...).
    pub(crate) fn value_type(self) -> Ty<'m> {
        // SAFETY: callers pass global values only.
        Ty::new(unsafe { LLVMGlobalGetValueType(self.raw) })
    }

    /// True when a global value has no definition in this module.
    pub(crate) fn is_declaration(self) -> bool {
        // SAFETY: callers pass global values only.
        unsafe { LLVMIsDeclaration(self.raw) != 0 }
    }

    /// True for a global value declared `extern_weak` (a weak reference: null when no
    /// definition is linked in).
    pub(crate) fn is_extern_weak(self) -> bool {
        // SAFETY: callers pass global values only.
        unsafe { LLVMGetLinkage(self.raw) == llvm_sys::LLVMLinkage::LLVMExternalWeakLinkage }
    }

    /// Parameters of a function.
    pub(crate) fn params(self) -> Vec<Val<'m>> {
        // SAFETY: callers pass functions only.
        unsafe {
            let n = LLVMCountParams(self.raw);
            (0..n)
                .map(|i| Val::new(LLVMGetParam(self.raw, i)))
                .collect()
        }
    }

    /// The type of the `byval` attribute of parameter `index` of a function, if it has one.
    pub(crate) fn param_byval_type(self, index: u32) -> Option<Ty<'m>> {
        // SAFETY: callers pass functions only; attribute index `index + 1` is parameter
        // `index` (0 is the return value), and the attribute handle is checked for null.
        unsafe {
            byval_type(LLVMGetEnumAttributeAtIndex(
                self.raw,
                index + 1,
                byval_kind(),
            ))
        }
    }

    /// The type of the `byval` attribute of argument `index` of a call, if it has one.
    pub(crate) fn call_byval_type(self, index: u32) -> Option<Ty<'m>> {
        // SAFETY: callers pass call instructions only; attribute index `index + 1` is
        // argument `index`, and the attribute handle is checked for null.
        unsafe {
            byval_type(LLVMGetCallSiteEnumAttribute(
                self.raw,
                index + 1,
                byval_kind(),
            ))
        }
    }

    /// The function and the block of a `blockaddress` constant.
    pub(crate) fn block_address_parts(self) -> (Val<'m>, Block<'m>) {
        // SAFETY: callers pass block address constants only.
        unsafe {
            (
                Val::new(LLVMGetBlockAddressFunction(self.raw)),
                Block::new(LLVMGetBlockAddressBasicBlock(self.raw)),
            )
        }
    }

    /// Basic blocks of a function, entry first.
    pub(crate) fn blocks(self) -> Vec<Block<'m>> {
        // SAFETY: callers pass functions only.
        let first = unsafe { LLVMGetFirstBasicBlock(self.raw) };
        walk(first, LLVMGetNextBasicBlock)
            .into_iter()
            .map(Block::new)
            .collect()
    }

    /// Initializer of a global variable.
    pub(crate) fn initializer(self) -> Option<Val<'m>> {
        // SAFETY: callers pass global variables only.
        Val::opt(unsafe { LLVMGetInitializer(self.raw) })
    }

    /// True for a `constant` global variable.
    pub(crate) fn is_global_constant(self) -> bool {
        // SAFETY: callers pass global variables only.
        unsafe { LLVMIsGlobalConstant(self.raw) != 0 }
    }

    /// Explicit alignment of a global, `alloca`, `load` or `store` (0 when unspecified).
    pub(crate) fn alignment(self) -> u64 {
        // SAFETY: callers pass global values, allocas, loads and stores only.
        u64::from(unsafe { LLVMGetAlignment(self.raw) })
    }

    /// Aliasee of a global alias.
    pub(crate) fn aliasee(self) -> Val<'m> {
        // SAFETY: callers pass global aliases only.
        Val::new(unsafe { LLVMAliasGetAliasee(self.raw) })
    }

    // ----- instructions -----

    /// Opcode of an instruction.
    pub(crate) fn opcode(self) -> LLVMOpcode {
        debug_assert!(self.is_instruction());
        // SAFETY: instruction.
        unsafe { LLVMGetInstructionOpcode(self.raw) }
    }

    /// Allocated type of an `alloca`.
    pub(crate) fn allocated_type(self) -> Ty<'m> {
        // SAFETY: callers pass allocas only.
        Ty::new(unsafe { LLVMGetAllocatedType(self.raw) })
    }

    /// Volatility of a load or store.
    pub(crate) fn is_volatile(self) -> bool {
        // SAFETY: callers pass loads and stores only.
        unsafe { LLVMGetVolatile(self.raw) != 0 }
    }

    /// Predicate of an `icmp` instruction or constant expression.
    pub(crate) fn icmp_predicate(self) -> LLVMIntPredicate {
        // SAFETY: callers pass icmp instructions and expressions only.
        unsafe { LLVMGetICmpPredicate(self.raw) }
    }

    /// Predicate of an `fcmp` instruction.
    pub(crate) fn fcmp_predicate(self) -> LLVMRealPredicate {
        // SAFETY: callers pass fcmp instructions only.
        unsafe { LLVMGetFCmpPredicate(self.raw) }
    }

    /// Number of call arguments of a call instruction.
    pub(crate) fn num_arg_operands(self) -> u32 {
        // SAFETY: callers pass call-like instructions only.
        unsafe { LLVMGetNumArgOperands(self.raw) }
    }

    /// Callee of a call instruction.
    pub(crate) fn called_value(self) -> Val<'m> {
        // SAFETY: callers pass call-like instructions only.
        Val::new(unsafe { LLVMGetCalledValue(self.raw) })
    }

    /// Incoming `(value, block)` pairs of a phi.
    pub(crate) fn incoming(self) -> Vec<(Val<'m>, Block<'m>)> {
        // SAFETY: callers pass phis only.
        unsafe {
            let n = LLVMCountIncoming(self.raw);
            (0..n)
                .map(|i| {
                    (
                        Val::new(LLVMGetIncomingValue(self.raw, i)),
                        Block::new(LLVMGetIncomingBlock(self.raw, i)),
                    )
                })
                .collect()
        }
    }

    /// Successor blocks of a terminator.
    pub(crate) fn successors(self) -> Vec<Block<'m>> {
        // SAFETY: callers pass terminators only.
        unsafe {
            let n = LLVMGetNumSuccessors(self.raw);
            (0..n)
                .map(|i| Block::new(LLVMGetSuccessor(self.raw, i)))
                .collect()
        }
    }

    /// True for a conditional `br`.
    pub(crate) fn is_conditional(self) -> bool {
        // SAFETY: callers pass branches only.
        unsafe { LLVMIsConditional(self.raw) != 0 }
    }

    /// Condition of a conditional `br`.
    pub(crate) fn condition(self) -> Val<'m> {
        // SAFETY: callers pass conditional branches only.
        Val::new(unsafe { LLVMGetCondition(self.raw) })
    }

    /// Default destination of a `switch`.
    pub(crate) fn switch_default(self) -> Block<'m> {
        // SAFETY: callers pass switches only.
        Block::new(unsafe { LLVMGetSwitchDefaultDest(self.raw) })
    }

    /// Index list of an `extractvalue` or `insertvalue` instruction.
    pub(crate) fn indices(self) -> Vec<u32> {
        // SAFETY: callers pass extractvalue/insertvalue instructions only; the index
        // array has the reported length.
        unsafe {
            let n = LLVMGetNumIndices(self.raw) as usize;
            let ptr = LLVMGetIndices(self.raw);
            if ptr.is_null() || n == 0 {
                return Vec::new();
            }
            std::slice::from_raw_parts(ptr, n).to_vec()
        }
    }

    /// Mask of a `shufflevector` instruction; `-1` for undefined elements.
    pub(crate) fn shuffle_mask(self) -> Vec<i32> {
        // SAFETY: callers pass shufflevector instructions only.
        unsafe {
            let undef = LLVMGetUndefMaskElem();
            let n = LLVMGetNumMaskElements(self.raw);
            (0..n)
                .map(|i| {
                    let m = LLVMGetMaskValue(self.raw, i);
                    if m == undef {
                        -1
                    } else {
                        m
                    }
                })
                .collect()
        }
    }

    /// Operation of an `atomicrmw` instruction.
    pub(crate) fn rmw_op(self) -> LLVMAtomicRMWBinOp {
        // SAFETY: callers pass atomicrmw instructions only.
        unsafe { LLVMGetAtomicRMWBinOp(self.raw) }
    }

    /// Source element type of a `getelementptr` instruction or constant expression.
    pub(crate) fn gep_source_type(self) -> Ty<'m> {
        // SAFETY: callers pass GEP instructions and GEP constant expressions only.
        Ty::new(unsafe { LLVMGetGEPSourceElementType(self.raw) })
    }

    // ----- constants -----

    /// Opcode of a constant expression.
    pub(crate) fn const_opcode(self) -> LLVMOpcode {
        debug_assert_eq!(self.kind(), LLVMValueKind::LLVMConstantExprValueKind);
        // SAFETY: constant expression.
        unsafe { LLVMGetConstOpcode(self.raw) }
    }

    /// Low 64 bits of an integer constant, zero-extended.
    pub(crate) fn const_zext(self) -> u64 {
        debug_assert!(self.is_constant_int());
        // SAFETY: integer constant.
        unsafe { LLVMConstIntGetZExtValue(self.raw) }
    }

    /// Value of an integer constant of at most 64 bits, sign-extended.
    pub(crate) fn const_sext(self) -> i64 {
        debug_assert!(self.is_constant_int());
        // SAFETY: integer constant.
        unsafe { LLVMConstIntGetSExtValue(self.raw) }
    }

    /// Value of a floating-point constant as a double, and whether that lost information.
    pub(crate) fn const_real(self) -> (f64, bool) {
        // SAFETY: callers pass ConstantFP values only.
        unsafe {
            let mut loses = 0;
            let value = LLVMConstRealGetDouble(self.raw, &mut loses);
            (value, loses != 0)
        }
    }

    /// Bytes of an `i8` data array constant (a C string), if this is one.
    pub(crate) fn const_string(self) -> Option<&'m [u8]> {
        // SAFETY: LLVMIsConstantString accepts any value; LLVMGetAsString is only called
        // on data sequentials and returns `len` bytes owned by the constant.
        unsafe {
            if LLVMIsAConstantDataSequential(self.raw).is_null()
                || LLVMIsConstantString(self.raw) == 0
            {
                return None;
            }
            let mut len = 0usize;
            let ptr = LLVMGetAsString(self.raw, &mut len);
            Some(raw_bytes(ptr, len))
        }
    }

    /// The number of clauses of a `landingpad`.
    pub(crate) fn num_clauses(self) -> u32 {
        // SAFETY: callers pass landingpads only.
        unsafe { LLVMGetNumClauses(self.raw) }
    }

    /// Clause `i` of a `landingpad` (a type info pointer, or an array for a filter).
    pub(crate) fn clause(self, i: u32) -> Val<'m> {
        // SAFETY: callers pass landingpads only, with i < num_clauses().
        Val::new(unsafe { LLVMGetClause(self.raw, i) })
    }

    /// True for a `landingpad` with the `cleanup` flag.
    pub(crate) fn is_cleanup(self) -> bool {
        // SAFETY: callers pass landingpads only.
        unsafe { LLVMIsCleanup(self.raw) != 0 }
    }

    /// Element `i` of an aggregate constant (struct, array, vector, data array).
    pub(crate) fn aggregate_element(self, i: u32) -> Option<Val<'m>> {
        // SAFETY: callers pass aggregate constants only; out-of-range gives null.
        Val::opt(unsafe { LLVMGetAggregateElement(self.raw, i) })
    }
}

impl<'m> Block<'m> {
    fn new(raw: LLVMBasicBlockRef) -> Self {
        debug_assert!(!raw.is_null());
        Block {
            raw,
            _module: PhantomData,
        }
    }

    /// The raw handle (used as a cache key).
    pub(crate) fn raw(self) -> LLVMBasicBlockRef {
        self.raw
    }

    /// The block's name (empty when unnamed).
    pub(crate) fn name(self) -> String {
        // SAFETY: live block; a block is a value, whose name has the reported length.
        unsafe {
            let mut len = 0usize;
            lossy_str(
                LLVMGetValueName2(LLVMBasicBlockAsValue(self.raw), &mut len),
                len,
            )
        }
    }

    /// The block's instructions in order, the terminator last.
    pub(crate) fn instructions(self) -> Vec<Val<'m>> {
        // SAFETY: live block.
        let first = unsafe { LLVMGetFirstInstruction(self.raw) };
        walk(first, LLVMGetNextInstruction)
            .into_iter()
            .map(Val::new)
            .collect()
    }
}

/// Borrows `len` bytes at `ptr` for the module's lifetime.
///
/// # Safety
/// `ptr` must be null or point to `len` bytes owned by the module.
unsafe fn raw_bytes<'m>(ptr: *const std::ffi::c_char, len: usize) -> &'m [u8] {
    if ptr.is_null() || len == 0 {
        &[]
    } else {
        std::slice::from_raw_parts(ptr as *const u8, len)
    }
}

/// The attribute kind number of `byval`.
fn byval_kind() -> u32 {
    let name = b"byval";
    // SAFETY: the name is a valid byte string of the given length.
    unsafe { LLVMGetEnumAttributeKindForName(name.as_ptr().cast(), name.len()) }
}

/// The type carried by a (possibly null) `byval` attribute.
///
/// # Safety
/// `attr` must be null or an attribute handle LLVM returned.
unsafe fn byval_type<'m>(attr: LLVMAttributeRef) -> Option<Ty<'m>> {
    if attr.is_null() {
        return None;
    }
    let ty = LLVMGetTypeAttributeValue(attr);
    (!ty.is_null()).then(|| Ty::new(ty))
}
