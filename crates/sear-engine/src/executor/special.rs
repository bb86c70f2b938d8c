//! Functions the engine implements itself: the klee.h API, SV-COMP's `__VERIFIER_*`,
//! process exit, assertion failure and the heap (`malloc` and friends). One table maps
//! names to handlers; `llvm.*` intrinsics are in `intrinsics`.

use sear_expr::{Expr, UpdateList};
use sear_ir::{Inst, Module, TypeId};

use super::cxx::AllocFamily;
use super::intrinsics::Intrinsic as Intr;
use super::step::exec;
use super::sym_alloc::SizeDecision;
use super::{Exec, Executor, Handler};
use crate::memory::segment::MAX_ARRAY_SIZE;
use crate::memory::{bad_free, AllocRequest, Init, Lookup, ObjectKind};
use crate::path::ForkKind;
use crate::state::{State, Symbolic};
use crate::termination::{ErrorKind, Termination};
use crate::value::Value;

/// An engine-implemented function.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum SpecialFn {
    MakeSymbolic,
    MarkGlobal,
    DefineFixedObject,
    SetForking,
    Assume,
    Range,
    Int,
    Choose,
    IsSymbolic,
    GetValue,
    PreferCex,
    SilentExit,
    Abort,
    ReportError,
    Warning,
    WarningOnce,
    PrintExpr,
    PrintRange,
    OpenMerge,
    CloseMerge,
    ReturnZero,
    GetObjSize,
    CheckMemoryAccess,
    StackTrace,
    AssertFail,
    Exit,
    Malloc,
    Calloc,
    Realloc,
    Free,
    AlignedAlloc,
    PosixMemalign,
    NondetValue,
    ReachError,
    /// `__sear_write(fd, buf, len)`: the C runtime's output to stdout/stderr.
    CaptureOutput,
    /// A helper of an indexified module (`__indexify_*`, executor/indexify).
    Indexify,
    Intrinsic(Intr),
    /// A C math library function (`sin`, `powf`, `logl`, ...).
    Math(super::libm::MathFn),
    /// `remainder`, `remainderf`, `remainderl`: IEEE remainder, exact and symbolic (libm.rs).
    Remainder,
    /// `operator new` / `operator new[]` (every overload).
    CxxNew(AllocFamily),
    /// `operator delete` / `operator delete[]` (every overload).
    CxxDelete(AllocFamily),
    /// `__sear_eh_raise(object, typeinfo)`: the C++ runtime's `__cxa_throw` and
    /// `__cxa_rethrow` hand an exception to the engine's unwinder (executor/eh.rs).
    EhRaise,
    /// `llvm.eh.typeid.for`: the selector value of a type info.
    EhTypeidFor,
}

/// The handler for a function name, if the engine implements it.
fn lookup(name: &str) -> Option<SpecialFn> {
    use SpecialFn::*;
    Some(match name {
        "klee_make_symbolic" => MakeSymbolic,
        "klee_assume" | "__VERIFIER_assume" => Assume,
        "klee_range" => Range,
        "klee_int" => Int,
        "klee_choose" => Choose,
        "klee_is_symbolic" => IsSymbolic,
        "klee_get_value_i32" | "klee_get_value_i64" | "klee_get_valuel" | "klee_get_valuell"
        | "klee_get_valuef" | "klee_get_valued" => GetValue,
        "klee_prefer_cex" | "klee_posix_prefer_cex" => PreferCex,
        "klee_silent_exit" => SilentExit,
        "klee_abort" | "abort" => Abort,
        "klee_report_error" => ReportError,
        "klee_warning" => Warning,
        "klee_warning_once" => WarningOnce,
        "klee_print_expr" => PrintExpr,
        "klee_print_range" => PrintRange,
        "klee_open_merge" => OpenMerge,
        "klee_close_merge" => CloseMerge,
        "klee_set_forking" => SetForking,
        "klee_define_fixed_object" => DefineFixedObject,
        "klee_mark_global" => MarkGlobal,
        "klee_is_replay" | "klee_get_errno" => ReturnZero,
        "klee_get_obj_size" => GetObjSize,
        "klee_check_memory_access" => CheckMemoryAccess,
        "klee_stack_trace" => StackTrace,
        "__assert_fail" | "__assert_rtn" | "__assert" | "klee_assert_fail" => AssertFail,
        "exit" | "_exit" | "_Exit" => Exit,
        "malloc" | "valloc" => Malloc,
        "calloc" => Calloc,
        "realloc" => Realloc,
        "free" => Free,
        "aligned_alloc" | "memalign" => AlignedAlloc,
        "posix_memalign" => PosixMemalign,
        "reach_error" | "__VERIFIER_error" => ReachError,
        "__sear_write" => CaptureOutput,
        "memcpy" => Intrinsic(Intr::MemCpy),
        "memmove" => Intrinsic(Intr::MemMove),
        "memset" => Intrinsic(Intr::MemSet),
        "__sear_eh_raise" => EhRaise,
        "remainder" | "remainderf" | "remainderl" => Remainder,
        _ if name.starts_with("llvm.eh.typeid.for") => EhTypeidFor,
        _ if AllocFamily::of_operator(name).is_some() => {
            match AllocFamily::of_operator(name).expect("just found") {
                (family, true) => CxxNew(family),
                (family, false) => CxxDelete(family),
            }
        }
        _ if name.starts_with("__VERIFIER_nondet_") => NondetValue,
        _ if super::libm::MathFn::lookup(name).is_some() => {
            Math(super::libm::MathFn::lookup(name).expect("just found"))
        }
        _ => return Intr::lookup(name).map(SpecialFn::Intrinsic),
    })
}

/// The C runtime's name for the program's `main` (called by its entry, `__sear_start`).
const USER_MAIN_ALIAS: &str = "__sear_user_main";

/// How each function of the module is executed. With `sv_comp`, SV-COMP's error functions
/// are the engine's even where the program defines them (as a failing assertion, usually).
pub(crate) fn resolve_handlers(module: &Module, sv_comp: bool) -> Vec<Handler> {
    let main = module
        .function_by_name("main")
        .filter(|f| !module.function(*f).is_declaration);
    module
        .functions
        .iter()
        .map(|f| {
            if sv_comp && lookup(&f.name) == Some(SpecialFn::ReachError) {
                Handler::Special(SpecialFn::ReachError)
            } else if !f.is_declaration {
                Handler::Defined
            } else if f.name == USER_MAIN_ALIAS {
                main.map_or(Handler::Missing, Handler::Alias)
            } else {
                lookup(&f.name).map_or(Handler::Missing, Handler::Special)
            }
        })
        .collect()
}

fn user_error(message: impl Into<String>) -> Termination {
    Termination::error(ErrorKind::User, message)
}

/// The i-th argument; a klee.h function called with too few (a C89 call without the
/// prototype) is a user error, as in KLEE.
fn arg(args: &[Value], i: usize) -> Exec<&Value> {
    args.get(i).ok_or_else(|| {
        user_error(format!(
            "incorrect number of arguments to a special function ({} needed)",
            i + 1
        ))
    })
}

/// Objects made symbolic whole above this size (bytes) get no expression per byte.
const LAZY_SYMBOLIC_OBJECT: u64 = 1 << 16;

impl Executor<'_> {
    /// Runs an engine-implemented function.
    pub(crate) fn call_special(
        &mut self,
        module: &Module,
        state: &mut State,
        inst: &Inst,
        special: SpecialFn,
        args: &[Value],
        arg_types: &[TypeId],
    ) -> Exec<()> {
        use SpecialFn::*;
        let width = Self::return_width(module, inst);
        let result: Option<Value> = match special {
            MakeSymbolic => {
                let mut name = self.optional_string(state, arg(args, 2)?)?;
                if name.is_empty() {
                    name = "unnamed".into();
                    self.warn_once("klee_make_symbolic: renamed empty name to \"unnamed\"");
                }
                let size = self.make_symbolic_size(state, arg(args, 0)?, arg(args, 1)?)?;
                self.make_symbolic(state, arg(args, 0)?, size, &name)?;
                None
            }
            Assume => {
                self.assume(state, arg(args, 0)?)?;
                None
            }
            MarkGlobal => {
                // The object no longer counts as the heap's: free of it is "free of global"
                // (KLEE's POSIX runtime marks the argv it builds this way).
                let address = self.concretize(state, arg(args, 0)?, "klee_mark_global")?;
                if !state.memory.set_kind(address as u64, ObjectKind::Global) {
                    return Err(user_error("klee_mark_global: not the start of an object"));
                }
                None
            }
            DefineFixedObject => {
                let address = self.concretize(state, arg(args, 0)?, "klee_define_fixed_object")?;
                let size = self.concretize(state, arg(args, 1)?, "klee_define_fixed_object")?;
                self.define_fixed_object(state, address as u64, size as u64)?;
                None
            }
            SetForking => {
                let on = self.concretize(state, arg(args, 0)?, "klee_set_forking")?;
                state.forking_disabled = on == 0;
                None
            }
            Range => Some(self.range(state, args)?),
            Int => {
                let name = self.optional_string(state, arg(args, 0)?)?;
                Some(self.fresh_symbolic(state, &name, 32))
            }
            Choose => {
                let n = self.concretize(state, arg(args, 0)?, "klee_choose")?;
                if n == 0 {
                    return Err(user_error("klee_choose of zero values"));
                }
                let x = self.fresh_symbolic(state, "klee_choose", width).to_expr();
                state.add_constraint(Expr::ult(x.clone(), Expr::constant(n, width)));
                Some(Value::from_expr(x))
            }
            IsSymbolic => Some(Value::concrete(arg(args, 0)?.is_symbolic() as u128, width)),
            GetValue => {
                let v = arg(args, 0)?;
                Some(match v {
                    Value::Symbolic(e) => {
                        Value::concrete(self.sv.get_value(state, e, "klee_get_value")?, width)
                    }
                    other => other.clone(),
                })
            }
            PreferCex => {
                let cond = arg(args, 1)?;
                if let Value::Symbolic(e) = cond {
                    let c = Expr::ne(e.clone(), Expr::constant(0, e.width()));
                    state.cex_preferences.push(c);
                }
                None
            }
            SilentExit => return Err(Termination::Silent),
            Abort => return Err(Termination::error(ErrorKind::Abort, "abort failure")),
            ReportError => return Err(self.klee_report_error(state, args)?),
            Warning | WarningOnce => {
                let text = self.optional_string(state, arg(args, 0)?)?;
                let function = module.function(state.frame().func).name.clone();
                let message = format!("{function}: {text}");
                if special == WarningOnce {
                    self.warn_once(&message);
                } else {
                    self.report.output.warning(&message);
                    self.report.observer.warning(&message);
                }
                None
            }
            PrintExpr | PrintRange => {
                let text = self.optional_string(state, arg(args, 0)?)?;
                let value = arg(args, 1)?;
                // A constant prints as KLEE prints one: its value (true/false for a bit).
                let shown = match value {
                    Value::Concrete(v, 1) => (if *v & 1 == 1 { "true" } else { "false" }).into(),
                    Value::Concrete(v, w) => (v & super::ops::width_mask(*w)).to_string(),
                    Value::Symbolic(e) => format!("{e}"),
                    Value::Aggregate(_) => "<aggregate>".to_string(),
                };
                let message = format!("{text}:{shown}");
                self.report.output.message(&message);
                // stderr may be a closed pipe: a failed write must not end the run.
                let _ = std::io::Write::write_all(
                    &mut std::io::stderr(),
                    format!("{message}\n").as_bytes(),
                );
                None
            }
            OpenMerge => {
                self.open_merge(state);
                None
            }
            CloseMerge => match self.close_merge_group(state) {
                Some(group) => return Err(Termination::Suspend(group)),
                None => None,
            },
            ReturnZero => Some(Value::Concrete(0, width)),
            GetObjSize => {
                let address = self.concretize(state, arg(args, 0)?, "klee_get_obj_size")? as u64;
                match state.memory.lookup(address) {
                    Lookup::Live(e) => Some(match &e.object.symbolic_size {
                        Some(sigma) => Value::from_expr(Expr::zext_or_trunc(sigma.clone(), width)),
                        None => Value::concrete(e.object.size as u128, width),
                    }),
                    _ => {
                        return Err(user_error(
                            "klee_get_obj_size: pointer does not point to an object",
                        ))
                    }
                }
            }
            CheckMemoryAccess => {
                let size = self.concretize(state, arg(args, 1)?, "klee_check_memory_access")?;
                self.read_bytes(state, arg(args, 0)?, size as u64)?;
                None
            }
            StackTrace => {
                let stack = self.format_stack(state).join("\n");
                self.report.output.message(&stack);
                None
            }
            AssertFail => {
                let text = self.optional_string(state, arg(args, 0)?)?;
                return Err(Termination::error(
                    ErrorKind::Assert,
                    format!("ASSERTION FAIL: {text}"),
                ));
            }
            Exit => {
                let code = match arg(args, 0)? {
                    Value::Symbolic(e) => {
                        self.warn_once("concretizing symbolic value for exit status");
                        self.fix_exit_status(state, e)?
                    }
                    other => self.concretize(state, other, "exit status")?,
                };
                return Err(Termination::Exit(code as u32 as i32));
            }
            Malloc => self.malloc(module, state, inst, arg(args, 0)?, Init::Garbage)?,
            Calloc => {
                let n = self.concretize(state, arg(args, 0)?, "calloc count")?;
                let m = self.concretize(state, arg(args, 1)?, "calloc size")?;
                let size = Value::Concrete(n.saturating_mul(m) & u64::MAX as u128, 64);
                self.malloc(module, state, inst, &size, Init::Zero)?
            }
            Realloc => Some(self.realloc(module, state, inst, arg(args, 0)?, arg(args, 1)?)?),
            Free => {
                self.free(state, arg(args, 0)?, AllocFamily::Malloc)?;
                None
            }
            CxxNew(family) => self.cxx_new(module, state, inst, arg(args, 0)?, family)?,
            CxxDelete(family) => {
                self.free(state, arg(args, 0)?, family)?;
                None
            }
            EhRaise => {
                let object = self.concretize(state, arg(args, 0)?, "exception object")? as u64;
                let info = self.concretize(state, arg(args, 1)?, "exception type")? as u64;
                return self.raise(module, state, object, info);
            }
            EhTypeidFor => {
                let info = self.concretize(state, arg(args, 0)?, "llvm.eh.typeid.for")? as u64;
                Some(Value::concrete(super::eh::selector(info) as u128, width))
            }
            AlignedAlloc => self.malloc(module, state, inst, arg(args, 1)?, Init::Garbage)?,
            PosixMemalign => {
                let out = arg(args, 0)?.clone();
                let p = self.malloc(module, state, inst, arg(args, 2)?, Init::Garbage)?;
                if let Some(p) = p {
                    let n = module.data_model.pointer_bits() / 8;
                    let bytes: Vec<Expr> = (0..n)
                        .map(|i| Expr::extract(p.to_expr(), 8 * i, 8))
                        .collect();
                    self.write_bytes(state, &out, &bytes)?;
                }
                Some(Value::Concrete(0, width))
            }
            NondetValue => {
                let name = module.function(self.callee_of(module, inst)).name.clone();
                Some(self.nondet(state, &name, width))
            }
            ReachError => return Err(Termination::error(ErrorKind::Reach, "reach_error() called")),
            CaptureOutput => {
                let stream = self.concretize(state, arg(args, 0)?, "__sear_write stream")?;
                let len = self.concretize(state, arg(args, 2)?, "__sear_write length")?;
                let bytes = self.read_bytes(state, arg(args, 1)?, len as u64)?;
                state.output.append(stream as u8, bytes);
                None
            }
            Math(f) => Some(self.call_math(module, state, inst, f, args)?),
            Remainder => Some(self.call_remainder(module, state, inst, args)?),
            Indexify => return self.call_indexify(module, state, inst, args, arg_types),
            Intrinsic(intrinsic) => {
                self.call_intrinsic(module, state, inst, intrinsic, args, arg_types)?
            }
        };
        if let (Some(dest), Some(v)) = (inst.dest, result) {
            state.frame_mut().locals[dest.0 as usize] = v;
        }
        Ok(())
    }

    fn callee_of(&self, _module: &Module, inst: &Inst) -> sear_ir::FuncId {
        match &inst.kind {
            sear_ir::InstKind::Call {
                callee: sear_ir::Callee::Direct(f),
                ..
            } => *f,
            _ => sear_ir::FuncId(0),
        }
    }

    /// A string argument, or `"unnamed"` for a null pointer. As in KLEE, a pointer with more
    /// than one feasible value, or one into no object, is a user error.
    pub(crate) fn optional_string(&mut self, state: &mut State, ptr: &Value) -> Exec<String> {
        if ptr.as_concrete() == Some(0) {
            return Ok("unnamed".into());
        }
        let ptr = match ptr {
            Value::Symbolic(e) => {
                let v = self.sv.get_value(state, e, "klee string argument")?;
                let unique = Expr::eq(e.clone(), Expr::constant(v, e.width()));
                if !self
                    .sv
                    .must_be_true(state, &unique, "klee string argument")?
                {
                    return Err(user_error(
                        "symbolic string pointer passed to one of the klee_ functions",
                    ));
                }
                Value::Concrete(v, e.width())
            }
            other => other.clone(),
        };
        self.read_message_string(state, &ptr, "string argument")
            .map_err(|t| match t {
                Termination::Error {
                    kind: ErrorKind::Ptr,
                    ..
                } => user_error("invalid string pointer passed to one of the klee_ functions"),
                other => other,
            })
    }

    /// `klee_make_symbolic(ptr, size, name)`: the bytes become a fresh input array.
    pub(crate) fn make_symbolic(
        &mut self,
        state: &mut State,
        ptr: &Value,
        size: u64,
        name: &str,
    ) -> Exec<()> {
        let address = self.concretize(state, ptr, "klee_make_symbolic address")? as u64;
        let entry = match state.memory.lookup(address) {
            Lookup::Live(e) => e.clone(),
            _ => return Err(user_error("klee_make_symbolic: invalid pointer")),
        };
        // As KLEE: the whole object, from its start (a part of an object, or a size that is
        // not the object's, is the caller's mistake).
        if address != entry.object.address || size != entry.object.size {
            return Err(user_error(format!(
                "wrong size given to klee_make_symbolic: {size} bytes at offset {} of a {}-byte object",
                address - entry.object.address,
                entry.object.size
            )));
        }
        if entry.object.read_only {
            return Err(user_error("cannot make a read-only object symbolic"));
        }
        if size > MAX_ARRAY_SIZE {
            return Err(user_error(format!(
                "symbolic objects larger than 1 GiB are not supported ({size} bytes)"
            )));
        }
        let array = self.input_array(state, name, size);
        let updates = UpdateList::new(array.clone());
        let base = entry.object.address;
        let own = matches!(entry.storage, crate::memory::Storage::Own(_));
        if own && size > LAZY_SYMBOLIC_OBJECT {
            // A large object (a big symbolic file): its bytes are read from the array on
            // demand, instead of one expression per byte up front.
            let (segment, _) = state.memory.whole_segment_mut(base).expect("live object");
            segment.replace_with(updates);
        } else {
            for i in 0..size {
                let byte = Expr::read(&updates, Expr::constant(i as u128, 32));
                let (segment, at) = state.memory.segment_mut(base, i, 1).expect("live object");
                segment.write_byte(at as usize, byte);
            }
        }
        state.symbolics.push_back(Symbolic {
            object: Some(entry.object.id),
            array,
            name: name.to_string(),
            size: entry.object.symbolic_size.clone(),
            deindex: None,
        });
        self.bind_seeds(state);
        Ok(())
    }

    /// The size of a `klee_make_symbolic` request: the capacity of a symbolic-size object
    /// when the requested size must equal its σ (the whole object becomes symbolic; its test
    /// holds σ's value of bytes), otherwise the size concretised.
    fn make_symbolic_size(&mut self, state: &mut State, ptr: &Value, size: &Value) -> Exec<u64> {
        if let (Value::Concrete(address, _), Value::Symbolic(e)) = (state.settle(ptr), size) {
            let sigma = match state.memory.get_by_base(address as u64) {
                Some(entry) => entry
                    .object
                    .symbolic_size
                    .clone()
                    .map(|s| (s, entry.object.size)),
                None => None,
            };
            if let Some((sigma, capacity)) = sigma {
                let same = Expr::eq(Expr::zext_or_trunc(e.clone(), 64), sigma);
                if self
                    .sv
                    .must_be_true(state, &same, "klee_make_symbolic size")?
                {
                    return Ok(capacity);
                }
            }
        }
        Ok(self.concretize(state, size, "klee_make_symbolic size")? as u64)
    }

    /// `klee_define_fixed_object(addr, n)`: a zeroed object of `n` bytes at exactly `addr`
    /// (memory-mapped device registers and the like), as KLEE's `allocateFixed`; anywhere
    /// but at 0, in the null page too (KLEE's tests use 0x80).
    fn define_fixed_object(&mut self, state: &mut State, address: u64, size: u64) -> Exec<()> {
        if address == 0 || size == 0 {
            return Err(user_error(format!(
                "klee_define_fixed_object: invalid object ({size} bytes at {address:#x})"
            )));
        }
        if address.checked_add(size).is_none() || state.memory.overlaps(address, size) {
            return Err(user_error(format!(
                "klee_define_fixed_object: {size} bytes at {address:#x} overlap an object"
            )));
        }
        let name = format!("fixed object at {address:#x}");
        let mut request = AllocRequest::new(size, ObjectKind::Global, name, Init::Zero);
        request.fixed_address = Some(address);
        self.memory.alloc(state, request);
        Ok(())
    }

    /// A fresh symbolic value of `width` bits recorded as a test object named `name`
    /// (`klee_int`, `klee_range`, `klee_choose`, `__VERIFIER_nondet_*`).
    pub(crate) fn fresh_symbolic(&mut self, state: &mut State, name: &str, width: u32) -> Value {
        let bytes = width.div_ceil(8);
        let array = self.input_array(state, name, bytes as u64);
        let value = Expr::read_lsb(
            &UpdateList::new(array.clone()),
            Expr::constant(0, 32),
            bytes,
        );
        // A value, not memory: no object is allocated (a program asking for 10^6 inputs must
        // not carry 10^6 objects).
        state.symbolics.push_back(Symbolic {
            object: None,
            array,
            name: name.to_string(),
            size: None,
            deindex: None,
        });
        self.bind_seeds(state);
        Value::from_expr(Expr::extract(value, 0, width))
    }

    /// A `__VERIFIER_nondet_*` value; booleans are "any non-zero byte is true".
    fn nondet(&mut self, state: &mut State, name: &str, width: u32) -> Value {
        if width == 1 {
            let byte = self.fresh_symbolic(state, name, 8).to_expr();
            return Value::from_expr(Expr::ne(byte, Expr::constant(0, 8)));
        }
        self.fresh_symbolic(state, name, width)
    }

    /// `klee_assume(cond)`.
    fn assume(&mut self, state: &mut State, cond: &Value) -> Exec<()> {
        let infeasible = |silent: bool| {
            if silent {
                Termination::Silent
            } else {
                user_error("invalid klee_assume call (provably false)")
            }
        };
        let silent = self.config.silent_klee_assume;
        let c = match cond {
            Value::Concrete(v, _) => {
                return if *v != 0 {
                    Ok(())
                } else {
                    Err(infeasible(silent))
                }
            }
            other => {
                let e = other.to_expr();
                Expr::ne(e.clone(), Expr::constant(0, e.width()))
            }
        };
        let c = self.sv.opt_condition(state, c)?;
        if self.assume_by_seeds(state, &c) {
            return Ok(());
        }
        if !self.sv.may_be_true(state, &c, "klee_assume")? {
            return Err(infeasible(silent));
        }
        state.add_constraint(c);
        Ok(())
    }

    /// `klee_range(begin, end, name)`: a symbolic int in `[begin, end)`.
    fn range(&mut self, state: &mut State, args: &[Value]) -> Exec<Value> {
        let begin = self.concretize(state, arg(args, 0)?, "klee_range")?;
        let end = self.concretize(state, arg(args, 1)?, "klee_range")?;
        let (b, e) = (begin as u32 as i32, end as u32 as i32);
        if b >= e {
            return Err(user_error("invalid range"));
        }
        if b + 1 == e {
            return Ok(Value::concrete(begin, 32));
        }
        let name = self.optional_string(state, arg(args, 2)?)?;
        let x = self.fresh_symbolic(state, &name, 32).to_expr();
        let low = Expr::sle(Expr::constant(begin, 32), x.clone());
        let high = Expr::slt(x.clone(), Expr::constant(end, 32));
        // Seeds whose value is outside the range leave the path (`seeding.rs`).
        if !state.seeds.is_empty() {
            let within = Expr::and(low.clone(), high.clone());
            if self.assume_by_seeds(state, &within) {
                return Ok(Value::from_expr(x));
            }
        }
        state.add_constraint(low);
        state.add_constraint(high);
        Ok(Value::from_expr(x))
    }

    /// `klee_report_error(file, line, message, suffix)`.
    fn klee_report_error(&mut self, state: &mut State, args: &[Value]) -> Exec<Termination> {
        let file = self.optional_string(state, arg(args, 0)?)?;
        let line = self.concretize(state, arg(args, 1)?, "klee_report_error")?;
        let message = self.optional_string(state, arg(args, 2)?)?;
        let suffix = self.optional_string(state, arg(args, 3)?)?;
        self.report.reported_location = Some((file, line as u32));
        Ok(Termination::error(ErrorKind::from_suffix(&suffix), message))
    }

    /// `malloc`-like allocation; a symbolic size is concretised as KLEE does.
    pub(super) fn malloc(
        &mut self,
        module: &Module,
        state: &mut State,
        inst: &Inst,
        size: &Value,
        init: Init,
    ) -> Exec<Option<Value>> {
        let (size, sigma) = match size {
            Value::Concrete(s, _) => (*s as u64, None),
            Value::Symbolic(e) => {
                let mut allocate_other = |ex: &mut Self, st: &mut State, n: u64| {
                    let n = Value::Concrete(n as u128, 64);
                    let p = ex.malloc(module, st, inst, &n, init.clone())?;
                    Ok(p.unwrap_or(Value::Concrete(0, 64)))
                };
                match self.decide_size(state, inst.dest, e, false, &mut allocate_other)? {
                    SizeDecision::Concrete(n) => (n, None),
                    SizeDecision::Null => return Ok(Some(Value::Concrete(0, 64))),
                    SizeDecision::Symbolic { sigma, capacity } => (capacity, Some(sigma)),
                }
            }
            Value::Aggregate(_) => return Err(exec("aggregate allocation size")),
        };
        if size > self.config.max_alloc_size {
            self.warn_once(&format!(
                "allocation of {size} bytes exceeds the limit; returning NULL"
            ));
            return Ok(Some(Value::Concrete(0, 64)));
        }
        if !state.heap.fits(size, 16) {
            self.warn_once(&format!(
                "allocation of {size} bytes does not fit in the 32-bit address space; \
                 returning NULL"
            ));
            return Ok(Some(Value::Concrete(0, 64)));
        }
        let name = &module.function(state.frame().func).name;
        let mut request = AllocRequest::new(size, ObjectKind::Heap, name, init).at(inst.loc);
        if let Some(sigma) = sigma {
            request = request.with_symbolic_size(sigma);
        }
        Ok(Some(self.memory.alloc(state, request).base_value()))
    }

    fn realloc(
        &mut self,
        module: &Module,
        state: &mut State,
        inst: &Inst,
        ptr: &Value,
        size: &Value,
    ) -> Exec<Value> {
        let address = match &state.settle(ptr) {
            Value::Symbolic(p) => {
                self.exact_base(state, &Expr::zext_or_trunc(p.clone(), 64), "realloc")?
            }
            _ => self.concretize(state, ptr, "realloc pointer")? as u64,
        };
        let new_size = match size {
            Value::Symbolic(e) => {
                // As KLEE: fork on a zero size (realloc frees), then concretise the size; a
                // huge size yields NULL and keeps the old object.
                let e = Expr::zext_or_trunc(e.clone(), 64);
                let old = Value::Concrete(address as u128, 64);
                let mut allocate_other = |ex: &mut Self, st: &mut State, n: u64| {
                    ex.realloc(module, st, inst, &old, &Value::Concrete(n as u128, 64))
                };
                let zero = Expr::eq(Expr::constant(0, 64), e.clone());
                if self.sv.must_be_true(state, &zero, "realloc size")? {
                    0
                } else {
                    let sizes = if self.sv.may_be_true(state, &zero, "realloc size")? {
                        vec![Expr::not(zero.clone()), zero]
                    } else {
                        vec![Expr::not(zero)]
                    };
                    let taken = self.fork(state, ForkKind::Size, sizes, |ex, _, other| {
                        ex.allocate_on(other, inst.dest, 0, &mut allocate_other)
                    })?;
                    if taken == 1 {
                        0
                    } else {
                        match self.concretize_size(
                            state,
                            inst.dest,
                            &e,
                            false,
                            &mut allocate_other,
                        )? {
                            Some(n) => n,
                            // A huge size: realloc yields NULL and keeps the old object.
                            None => return Ok(Value::Concrete(0, 64)),
                        }
                    }
                }
            }
            other => self.concretize(state, other, "realloc size")? as u64,
        };
        if address == 0 {
            return Ok(self
                .malloc(
                    module,
                    state,
                    inst,
                    &Value::Concrete(new_size as u128, 64),
                    Init::Garbage,
                )?
                .unwrap_or(Value::Concrete(0, 64)));
        }
        let old = self.object_at(state, address);
        let Some(old) = old.filter(|o| o.kind == ObjectKind::Heap) else {
            return Err(bad_free(state, address));
        };
        if new_size == 0 {
            state.memory.free(address);
            return Ok(Value::Concrete(0, 64));
        }
        let bytes = if old.symbolic_size.is_some() {
            self.read_cells(state, address, old.size.min(new_size))
        } else {
            self.read_bytes(state, &old.base_value(), old.size.min(new_size))?
        };
        let name = &module.function(state.frame().func).name;
        let request =
            AllocRequest::new(new_size, ObjectKind::Heap, name, Init::Garbage).at(inst.loc);
        let new = self.memory.alloc(state, request).base_value();
        self.write_bytes(state, &new, &bytes)?;
        state.memory.free(address);
        Ok(new)
    }

    fn free(&mut self, state: &mut State, ptr: &Value, family: AllocFamily) -> Exec<()> {
        let address = match &state.settle(ptr) {
            Value::Symbolic(p) => {
                self.exact_base(state, &Expr::zext_or_trunc(p.clone(), 64), "free")?
            }
            _ => self.concretize(state, ptr, "free pointer")? as u64,
        };
        super::cxx::check_release(state, address, family)?;
        self.memory.free(state, address)
    }

    /// The object base (or NULL) a symbolic pointer passed to `free` or `realloc` equals, as
    /// KLEE's exact resolution: one path per feasible base, each restarting the call with the
    /// pointer fixed to its base (so the whole call runs in every one), and an invalid-free
    /// error where the pointer may equal none of them. The current state takes the first.
    fn exact_base(&mut self, state: &mut State, p: &Expr, what: &str) -> Exec<u64> {
        let is = |base: &Expr| Expr::eq(base.clone(), p.clone());
        // Length 0: an object of size 0 (`malloc(0)`) is a candidate too.
        let candidates = self.memory.candidates(&mut self.sv, state, p, 0)?;
        let mut bases: Vec<(u64, Expr)> = Vec::new();
        let null = Expr::constant(0, 64);
        let objects = candidates.into_iter().map(|address| {
            let base = state
                .memory
                .get_by_base(address)
                .expect("candidate")
                .object
                .base_expr();
            (address, base)
        });
        for (address, base) in std::iter::once((0, null)).chain(objects.collect::<Vec<_>>()) {
            if !bases.iter().any(|(a, _)| *a == address)
                && self.sv.may_be_true(state, &is(&base), what)?
            {
                bases.push((address, base));
            }
        }
        let none = Expr::and_all(bases.iter().map(|(_, b)| Expr::not(is(b))));
        let invalid = |ex: &mut Self, state: &State| match ex.sv.get_value(state, p, what) {
            Ok(address) => bad_free(state, address as u64),
            Err(t) => t,
        };
        // The alternatives: the first base, the invalid pointers (if feasible), the other
        // bases; the current state takes the first base unless policy chooses.
        let has_invalid = self.sv.may_be_true(state, &none, what)?;
        if bases.is_empty() {
            let error = if has_invalid {
                state.add_constraint(none);
                invalid(self, state)
            } else {
                Termination::error(ErrorKind::Exec, format!("{what}: no feasible pointer"))
            };
            return Err(error);
        }
        let mut alternatives = vec![is(&bases[0].1)];
        let mut meaning = vec![Some(0)];
        if has_invalid {
            alternatives.push(none);
            meaning.push(None);
        }
        for (i, (_, base)) in bases.iter().enumerate().skip(1) {
            alternatives.push(is(base));
            meaning.push(Some(i));
        }
        let taken =
            self.fork(
                state,
                ForkKind::ExactBase,
                alternatives,
                |ex, i, other| match meaning[i] {
                    None => {
                        let error = invalid(ex, &other);
                        ex.terminate(other, error);
                    }
                    Some(_) => ex.restart(other, what),
                },
            )?;
        match meaning[taken] {
            Some(0) => Ok(bases[0].0),
            Some(_) => Err(self.restart_current(state, what)),
            None => Err(invalid(self, state)),
        }
    }
}
