//! sear's executable IR: LLVM IR lowered for fast interpretation.
//!
//! Differences from LLVM IR:
//! * Every SSA value of a function lives in a numbered *slot*; parameters occupy slots
//!   `0..params.len()`. Operands are either a slot or an entry of the module's constant
//!   table, so the executor never looks anything up by name.
//! * Types are interned in [`Module::types`]; each carries its size, alignment and (for
//!   structs) field offsets computed from the module's data layout (little endian; x86-64
//!   System V with 64-bit pointers, or i386 with 32-bit pointers: [`Module::data_model`]).
//! * `getelementptr` becomes a constant byte offset plus a list of `(index, scale)` terms.
//! * Phi nodes are kept per block, separately from the body, and evaluated on the edge.
//! * Every instruction carries its source location (`-g`), when there is one.
//! * Call targets are resolved once to a [`FuncId`]; intrinsics and external functions are
//!   functions without a body (`is_declaration`) that the executor dispatches by name.

use rustc_hash::FxHashMap;

/// Index of a function in [`Module::functions`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FuncId(pub u32);
/// Index of a global variable in [`Module::globals`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct GlobalId(pub u32);
/// Index of a type in [`Module::types`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TypeId(pub u32);
/// Index of a constant in [`Module::constants`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ConstId(pub u32);
/// Index of a basic block in [`Function::blocks`] (the entry block is 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BlockId(pub u32);
/// Index of a value slot in a function's frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Slot(pub u32);
/// Index of a source file name in [`Module::files`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FileId(pub u32);
/// Index of an inline-assembly statement in [`Module::inline_asm`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct AsmId(pub u32);

/// An inline-assembly statement: its template and its constraint string, as LLVM has them
/// (`+r` operands appear as an output `=r` and a tied input `0`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InlineAsm {
    /// The assembly template (AT&T syntax on x86), e.g. `"add $5, $0"`.
    pub template: String,
    /// The constraints, e.g. `"=r,0,~{dirflag},~{fpsr},~{flags}"`.
    pub constraints: String,
}

/// A source location from debug information.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Loc {
    /// The file (path as recorded by the compiler, joined with its directory when relative).
    pub file: FileId,
    /// 1-based line.
    pub line: u32,
    /// 1-based column (0 when unknown).
    pub col: u32,
}

/// Floating-point formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FloatKind {
    /// IEEE half precision.
    Half,
    /// IEEE single precision (`float`).
    Single,
    /// IEEE double precision (`double`).
    Double,
    /// x87 80-bit extended precision (`long double`), stored in 16 bytes.
    X86Fp80,
    /// IEEE quad precision.
    Fp128,
}

/// A type's shape.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum TypeKind {
    /// No value.
    Void,
    /// An integer of the given bit width.
    Int(u32),
    /// A floating-point number.
    Float(FloatKind),
    /// A pointer (opaque; 64 bits).
    Ptr,
    /// A fixed-length array.
    Array {
        /// Element type.
        elem: TypeId,
        /// Number of elements.
        len: u64,
    },
    /// A fixed-length SIMD vector.
    Vector {
        /// Element type.
        elem: TypeId,
        /// Number of elements.
        len: u64,
    },
    /// A (possibly packed) structure.
    Struct {
        /// Field types.
        fields: Vec<TypeId>,
        /// True for `<{ ... }>` structs.
        packed: bool,
    },
    /// A function type (only as the target of calls; never a value).
    Function,
    /// Labels, metadata, tokens and other non-first-class types.
    Other(String),
}

/// A type with its layout.
#[derive(Clone, Debug)]
pub struct TypeInfo {
    /// The shape.
    pub kind: TypeKind,
    /// Allocation size in bytes (`alloc size`: includes tail padding).
    pub size: u64,
    /// ABI alignment in bytes.
    pub align: u64,
    /// For structs: byte offset of each field; for arrays and vectors: empty (use the
    /// element size as stride).
    pub field_offsets: Vec<u64>,
    /// Bit width of a scalar value of this type (ints, floats, pointers); 0 otherwise.
    pub bit_width: u32,
}

/// A module-level constant. Constants referring to addresses are kept symbolic here and
/// evaluated by the executor once globals and functions have addresses.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Constant {
    /// An integer (also used for `i1`); `value` is masked to `width`.
    Int {
        /// Bit width.
        width: u32,
        /// Value bits.
        value: u128,
    },
    /// A floating-point number given by its IEEE bit pattern of `kind`'s width.
    Float {
        /// Format.
        kind: FloatKind,
        /// Bit pattern (for `X86Fp80`, the 80-bit pattern).
        bits: u128,
    },
    /// The null pointer.
    Null,
    /// `undef`/`poison` of a type; the executor uses zero.
    Undef(TypeId),
    /// `zeroinitializer` of a type.
    Zero(TypeId),
    /// The address of a global variable.
    GlobalAddr(GlobalId),
    /// The address of a function.
    FuncAddr(FuncId),
    /// `blockaddress(@f, %bb)`: the address of a basic block (a computed-goto label).
    BlockAddr(FuncId, BlockId),
    /// A struct, array or vector; `ty` says which.
    Aggregate {
        /// The aggregate type.
        ty: TypeId,
        /// One constant per element or field.
        elems: Vec<ConstId>,
    },
    /// `base + offset` for a pointer constant (a folded constant `getelementptr`).
    PtrOffset {
        /// The base pointer constant.
        base: ConstId,
        /// Byte offset (may be negative).
        offset: i64,
    },
    /// A constant cast expression.
    Cast {
        /// The cast.
        op: CastOp,
        /// The operand.
        value: ConstId,
        /// The result type.
        to: TypeId,
    },
    /// A constant binary expression (integer operators only).
    Binary {
        /// The operator.
        op: BinaryOp,
        /// Left operand.
        lhs: ConstId,
        /// Right operand.
        rhs: ConstId,
    },
    /// A constant integer or pointer comparison.
    ICmp {
        /// The predicate.
        pred: IntPredicate,
        /// Left operand.
        lhs: ConstId,
        /// Right operand.
        rhs: ConstId,
    },
    /// A constant `select`.
    Select {
        /// Condition.
        cond: ConstId,
        /// Value when true.
        then_value: ConstId,
        /// Value when false.
        else_value: ConstId,
    },
    /// A metadata argument of an intrinsic: the text of an `MDString` (a constrained
    /// intrinsic's rounding mode `"round.dynamic"` or predicate `"olt"`), empty for other
    /// metadata. Its value is 0.
    Metadata(String),
    /// A constant expression sear does not evaluate; using it is an `exec` error.
    Unsupported(String),
}

/// An instruction operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Operand {
    /// A value slot of the current frame.
    Slot(Slot),
    /// An entry of the module's constant table.
    Const(ConstId),
}

/// Binary operators (integer and floating point; vectors apply them element-wise).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum BinaryOp {
    Add,
    Sub,
    Mul,
    UDiv,
    SDiv,
    URem,
    SRem,
    Shl,
    LShr,
    AShr,
    And,
    Or,
    Xor,
    FAdd,
    FSub,
    FMul,
    FDiv,
    FRem,
}

/// Cast operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum CastOp {
    Trunc,
    ZExt,
    SExt,
    FpTrunc,
    FpExt,
    FpToUi,
    FpToSi,
    UiToFp,
    SiToFp,
    PtrToInt,
    IntToPtr,
    BitCast,
    AddrSpaceCast,
}

/// Integer comparison predicates.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum IntPredicate {
    Eq,
    Ne,
    Ugt,
    Uge,
    Ult,
    Ule,
    Sgt,
    Sge,
    Slt,
    Sle,
}

/// Floating-point comparison predicates (LLVM's, including ordered/unordered forms).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum FloatPredicate {
    False,
    Oeq,
    Ogt,
    Oge,
    Olt,
    Ole,
    One,
    Ord,
    Ueq,
    Ugt,
    Uge,
    Ult,
    Ule,
    Une,
    Uno,
    True,
}

/// Read-modify-write operations of `atomicrmw`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum RmwOp {
    Xchg,
    Add,
    Sub,
    And,
    Nand,
    Or,
    Xor,
    Max,
    Min,
    UMax,
    UMin,
    Other,
}

/// The callee of a call.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Callee {
    /// A function of the module (defined, or declared: external or intrinsic).
    Direct(FuncId),
    /// A function pointer value.
    Indirect(Operand),
    /// Inline assembly (the executor interprets a few one-instruction templates).
    InlineAsm(AsmId),
}

/// An instruction that does not end a block.
#[derive(Clone, Debug)]
pub enum InstKind {
    /// `dest = lhs op rhs` (scalars or vectors).
    Binary {
        /// Operator.
        op: BinaryOp,
        /// Left operand.
        lhs: Operand,
        /// Right operand.
        rhs: Operand,
    },
    /// Floating-point negation.
    FNeg(Operand),
    /// Integer or pointer comparison (scalars or vectors).
    ICmp {
        /// Predicate.
        pred: IntPredicate,
        /// Left operand.
        lhs: Operand,
        /// Right operand.
        rhs: Operand,
    },
    /// Floating-point comparison.
    FCmp {
        /// Predicate.
        pred: FloatPredicate,
        /// Left operand.
        lhs: Operand,
        /// Right operand.
        rhs: Operand,
    },
    /// A cast; the destination type is [`Inst::ty`], the source type `from`.
    Cast {
        /// The cast.
        op: CastOp,
        /// The operand.
        value: Operand,
        /// The operand's type.
        from: TypeId,
    },
    /// `cond ? then_value : else_value` (scalar or vector condition).
    Select {
        /// Condition.
        cond: Operand,
        /// Value when true.
        then_value: Operand,
        /// Value when false.
        else_value: Operand,
    },
    /// Stack allocation of `count` elements of `elem`.
    Alloca {
        /// Element type.
        elem: TypeId,
        /// Number of elements (usually the constant 1).
        count: Operand,
        /// Alignment in bytes.
        align: u64,
    },
    /// Load a value of type [`Inst::ty`].
    Load {
        /// Address.
        ptr: Operand,
        /// Alignment in bytes.
        align: u64,
        /// True for volatile loads.
        volatile: bool,
    },
    /// Store `value` (of type `value_ty`) to `ptr`.
    Store {
        /// Address.
        ptr: Operand,
        /// Stored value.
        value: Operand,
        /// Its type.
        value_ty: TypeId,
        /// Alignment in bytes.
        align: u64,
    },
    /// `base + offset + Σ index_i * scale_i`; indices are sign-extended (or truncated) to
    /// 64 bits before scaling.
    Gep {
        /// Base pointer.
        base: Operand,
        /// Constant part of the offset, in bytes.
        offset: i64,
        /// Variable parts: index operand and its scale in bytes.
        indices: Vec<(Operand, i64)>,
    },
    /// Extract a field/element from an aggregate value.
    ExtractValue {
        /// Aggregate operand.
        agg: Operand,
        /// Path of field/element indices.
        indices: Vec<u32>,
    },
    /// Replace a field/element of an aggregate value.
    InsertValue {
        /// Aggregate operand.
        agg: Operand,
        /// New field value.
        value: Operand,
        /// Path of field/element indices.
        indices: Vec<u32>,
    },
    /// Read one element of a vector.
    ExtractElement {
        /// The vector.
        vector: Operand,
        /// Element index.
        index: Operand,
    },
    /// Replace one element of a vector.
    InsertElement {
        /// The vector.
        vector: Operand,
        /// New element.
        element: Operand,
        /// Element index.
        index: Operand,
    },
    /// Shuffle two vectors; mask entries are indices into `a ++ b`, `-1` for undef.
    ShuffleVector {
        /// First vector.
        a: Operand,
        /// Second vector.
        b: Operand,
        /// The mask.
        mask: Vec<i32>,
    },
    /// A call; the result type is [`Inst::ty`] (`Void` when none).
    Call {
        /// What is called.
        callee: Callee,
        /// Arguments (including variadic ones).
        args: Vec<Operand>,
        /// Types of the arguments.
        arg_types: Vec<TypeId>,
        /// Arguments passed `byval` at the call site, as (index, pointee type): the callee
        /// gets a copy of the pointee (for a variadic argument, the bytes `va_arg` reads).
        byval: Vec<(u32, TypeId)>,
    },
    /// `va_arg` (rare in clang output for x86-64; usually lowered by clang already).
    VaArg {
        /// The `va_list` pointer.
        list: Operand,
    },
    /// `atomicrmw`, executed sequentially.
    AtomicRmw {
        /// Operation.
        op: RmwOp,
        /// Address.
        ptr: Operand,
        /// Operand value.
        value: Operand,
    },
    /// `cmpxchg`, executed sequentially; yields `{old, success}`.
    CmpXchg {
        /// Address.
        ptr: Operand,
        /// Expected value.
        expected: Operand,
        /// Replacement value.
        replacement: Operand,
    },
    /// `freeze`: the identity for sear.
    Freeze(Operand),
    /// `fence` and other instructions without effect in sequential execution.
    Nop,
    /// `landingpad`: yields `{ptr, i32}`, the exception object and the selector the
    /// unwinder chose (set by the engine when it enters the block).
    LandingPad {
        /// True when the pad runs cleanups (destructors) whatever the exception.
        cleanup: bool,
        /// The clauses, in order.
        clauses: Vec<Clause>,
    },
    /// An instruction sear cannot execute; reaching it is an `exec` error naming it.
    Unsupported(String),
}

impl InstKind {
    /// The operands an instruction reads (an indirect call's callee among them).
    pub fn operands(&self) -> Vec<&Operand> {
        match self {
            InstKind::Binary { lhs, rhs, .. }
            | InstKind::ICmp { lhs, rhs, .. }
            | InstKind::FCmp { lhs, rhs, .. } => vec![lhs, rhs],
            InstKind::FNeg(x) | InstKind::Freeze(x) => vec![x],
            InstKind::Cast { value, .. } => vec![value],
            InstKind::Select {
                cond,
                then_value,
                else_value,
            } => vec![cond, then_value, else_value],
            InstKind::Alloca { count, .. } => vec![count],
            InstKind::Load { ptr, .. } => vec![ptr],
            InstKind::Store { ptr, value, .. } => vec![ptr, value],
            InstKind::Gep { base, indices, .. } => std::iter::once(base)
                .chain(indices.iter().map(|(op, _)| op))
                .collect(),
            InstKind::ExtractValue { agg, .. } => vec![agg],
            InstKind::InsertValue { agg, value, .. } => vec![agg, value],
            InstKind::ExtractElement { vector, index } => vec![vector, index],
            InstKind::InsertElement {
                vector,
                element,
                index,
            } => vec![vector, element, index],
            InstKind::ShuffleVector { a, b, .. } => vec![a, b],
            InstKind::Call { callee, args, .. } => {
                let mut ops: Vec<&Operand> = args.iter().collect();
                if let Callee::Indirect(op) = callee {
                    ops.push(op);
                }
                ops
            }
            InstKind::VaArg { list } => vec![list],
            InstKind::AtomicRmw { ptr, value, .. } => vec![ptr, value],
            InstKind::CmpXchg {
                ptr,
                expected,
                replacement,
            } => vec![ptr, expected, replacement],
            InstKind::Nop | InstKind::Unsupported(_) | InstKind::LandingPad { .. } => Vec::new(),
        }
    }
}

/// A clause of a `landingpad`.
#[derive(Clone, Debug)]
pub enum Clause {
    /// `catch ptr @typeinfo` (a null pointer: `catch (...)`).
    Catch(Operand),
    /// `filter [N x ptr] [...]`: the exception specification's allowed types.
    Filter(Vec<Operand>),
}

/// One instruction.
#[derive(Clone, Debug)]
pub struct Inst {
    /// What it does.
    pub kind: InstKind,
    /// The slot receiving the result, if any.
    pub dest: Option<Slot>,
    /// The result type (`Void` when none).
    pub ty: TypeId,
    /// Source location.
    pub loc: Option<Loc>,
}

/// A phi node: on entry from `pred`, `dest` receives the matching incoming value.
#[derive(Clone, Debug)]
pub struct Phi {
    /// Receiving slot.
    pub dest: Slot,
    /// The value's type.
    pub ty: TypeId,
    /// `(predecessor block, value)` pairs.
    pub incoming: Vec<(BlockId, Operand)>,
}

/// How a block ends.
#[derive(Clone, Debug)]
pub enum Terminator {
    /// Return from the function.
    Ret(Option<Operand>),
    /// Unconditional branch.
    Br(BlockId),
    /// Two-way branch on a boolean.
    CondBr {
        /// Condition (i1).
        cond: Operand,
        /// Target when true.
        then_block: BlockId,
        /// Target when false.
        else_block: BlockId,
    },
    /// Multi-way branch.
    Switch {
        /// Scrutinee (an integer).
        value: Operand,
        /// Target when no case matches.
        default: BlockId,
        /// `(case value, target)` pairs.
        cases: Vec<(u128, BlockId)>,
    },
    /// Branch to a computed block address.
    IndirectBr {
        /// The address.
        address: Operand,
        /// Possible targets.
        targets: Vec<BlockId>,
    },
    /// `unreachable`: reaching it is an error.
    Unreachable,
    /// The end of a block lowered from `invoke`: the block's last instruction is the call;
    /// when it returns, control goes to `normal`; when an exception unwinds through it, to
    /// `unwind` (whose first instruction is a [`InstKind::LandingPad`]).
    Invoke {
        /// Where the call returns to.
        normal: BlockId,
        /// The landing pad's block.
        unwind: BlockId,
    },
    /// `resume`: continues unwinding the exception the operand (`{ptr, i32}`) carries.
    Resume(Operand),
    /// A terminator sear does not support (`cleanupret`, `catchswitch`, ...).
    Unsupported(String),
}

/// A basic block.
#[derive(Clone, Debug)]
pub struct Block {
    /// The block's name in the IR (for diagnostics).
    pub name: String,
    /// Phi nodes, evaluated together on entry.
    pub phis: Vec<Phi>,
    /// The body.
    pub insts: Vec<Inst>,
    /// The terminator.
    pub term: Terminator,
    /// The terminator's source location.
    pub term_loc: Option<Loc>,
}

/// A function (defined or only declared).
#[derive(Clone, Debug)]
pub struct Function {
    /// The symbol name.
    pub name: String,
    /// Parameter types; parameter `i` is in slot `i`.
    pub params: Vec<TypeId>,
    /// Parameter names as in the module (empty strings when unnamed, e.g. built with
    /// `-fdiscard-value-names`); stack traces print them as KLEE does.
    pub param_names: Vec<String>,
    /// Per parameter, the pointee type of a `byval` pointer parameter (`None` otherwise):
    /// the callee receives a pointer to its own copy of the caller's bytes.
    pub byval: Vec<Option<TypeId>>,
    /// Return type.
    pub ret: TypeId,
    /// True for `...` functions.
    pub is_vararg: bool,
    /// Blocks; empty for declarations.
    pub blocks: Vec<Block>,
    /// Number of value slots in a frame (parameters included).
    pub num_slots: u32,
    /// True when the function has no body (external function or intrinsic).
    pub is_declaration: bool,
    /// True for an `extern_weak` declaration: its address is null unless something
    /// defines it.
    pub is_extern_weak: bool,
    /// Location of the definition, if known.
    pub loc: Option<Loc>,
}

/// A global variable.
#[derive(Clone, Debug)]
pub struct Global {
    /// Symbol name.
    pub name: String,
    /// Value type (from the initializer, or from the declaration when there is none).
    pub ty: TypeId,
    /// Size in bytes; `None` for an `extern` global whose size is unknown.
    pub size: Option<u64>,
    /// Alignment in bytes.
    pub align: u64,
    /// Initializer; `None` for external globals.
    pub init: Option<ConstId>,
    /// True for `constant` globals (read-only).
    pub is_constant: bool,
    /// Location of the definition, if known.
    pub loc: Option<Loc>,
}

/// A lowered module.
#[derive(Clone, Debug, Default)]
pub struct Module {
    /// The module identifier (source file name).
    pub name: String,
    /// Functions, indexed by [`FuncId`].
    pub functions: Vec<Function>,
    /// Globals, indexed by [`GlobalId`].
    pub globals: Vec<Global>,
    /// Types, indexed by [`TypeId`].
    pub types: Vec<TypeInfo>,
    /// Constants, indexed by [`ConstId`].
    pub constants: Vec<Constant>,
    /// Source file names, indexed by [`FileId`].
    pub files: Vec<String>,
    /// Function lookup by name.
    pub function_index: FxHashMap<String, FuncId>,
    /// Global lookup by name.
    pub global_index: FxHashMap<String, GlobalId>,
    /// Global aliases resolved to their aliasee constant.
    pub aliases: FxHashMap<String, ConstId>,
    /// Inline-assembly statements, indexed by [`AsmId`].
    pub inline_asm: Vec<InlineAsm>,
    /// The width of pointers (and of `long`), from the data layout's pointer size.
    pub data_model: DataModel,
}

/// The data model of a module: the size of its pointers, taken from its data layout.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum DataModel {
    /// 64-bit pointers and `long` (x86-64).
    #[default]
    Lp64,
    /// 32-bit pointers, `int` and `long` (i386, SV-COMP's `ILP32`).
    Ilp32,
}

impl DataModel {
    /// The data model whose pointers are `bytes` bytes wide, if sear supports it.
    pub fn from_pointer_size(bytes: u32) -> Option<Self> {
        match bytes {
            8 => Some(DataModel::Lp64),
            4 => Some(DataModel::Ilp32),
            _ => None,
        }
    }

    /// The width of a pointer in bits.
    pub fn pointer_bits(self) -> u32 {
        match self {
            DataModel::Lp64 => 64,
            DataModel::Ilp32 => 32,
        }
    }
}

impl Module {
    /// The function with id `id`.
    pub fn function(&self, id: FuncId) -> &Function {
        &self.functions[id.0 as usize]
    }
    /// The global with id `id`.
    pub fn global(&self, id: GlobalId) -> &Global {
        &self.globals[id.0 as usize]
    }
    /// The type with id `id`.
    pub fn ty(&self, id: TypeId) -> &TypeInfo {
        &self.types[id.0 as usize]
    }
    /// The constant with id `id`.
    pub fn constant(&self, id: ConstId) -> &Constant {
        &self.constants[id.0 as usize]
    }
    /// The file name of a location.
    pub fn file_name(&self, id: FileId) -> &str {
        &self.files[id.0 as usize]
    }
    /// Looks a function up by name.
    pub fn function_by_name(&self, name: &str) -> Option<FuncId> {
        self.function_index.get(name).copied()
    }
}

impl Terminator {
    /// The blocks this terminator may jump to.
    pub fn successors(&self) -> Vec<BlockId> {
        crate::verify::successors(self)
    }
}
