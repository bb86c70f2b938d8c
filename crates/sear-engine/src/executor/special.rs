//! Functions the engine implements itself: the klee.h API, SV-COMP's `__VERIFIER_*`,
//! process exit, assertion failure and the heap (`malloc` and friends). One table maps
//! names to handlers; `llvm.*` intrinsics are in `intrinsics`. The dispatch is here; the
//! handlers of KLEE's API are in `special/klee_api.rs`, the heap's in `special/alloc.rs`.

use sear_expr::Expr;
use sear_ir::{Inst, Module, TypeId};

use super::cxx::{self, AllocFamily};
use super::intrinsics::Intrinsic as Intr;
use super::{Exec, Executor, Handler};
use crate::memory::{Init, Lookup, ObjectKind};
use crate::state::State;
use crate::termination::{ErrorKind, Termination};
use crate::value::Value;

mod alloc;
mod klee_api;

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
    /// `fesetround(mode)`: sets the state's rounding mode (fenv.rs).
    FeSetRound,
    /// `fegetround()`: the state's rounding mode (fenv.rs).
    FeGetRound,
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
        "fesetround" => FeSetRound,
        "fegetround" => FeGetRound,
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

impl Executor<'_> {
    /// Runs an engine-implemented function. The dispatch is the executor's: some handlers
    /// fork or end paths (`malloc` of a symbolic size, `free` of a symbolic pointer, string
    /// arguments read through pointer resolution); each arm calls its handler on the
    /// narrowest receiver (a function, `Cx`, or the executor).
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
        let width = super::calls::return_width(module, inst);
        let result: Option<Value> = match special {
            MakeSymbolic => {
                let mut name = self.cx().optional_string(state, arg(args, 2)?)?;
                if name.is_empty() {
                    name = "unnamed".into();
                    self.report
                        .warn_once("klee_make_symbolic: renamed empty name to \"unnamed\"");
                }
                let size = self
                    .cx()
                    .make_symbolic_size(state, arg(args, 0)?, arg(args, 1)?)?;
                self.make_symbolic(state, arg(args, 0)?, size, &name)?;
                None
            }
            Assume => {
                self.cx().assume(state, arg(args, 0)?)?;
                None
            }
            MarkGlobal => {
                // The object no longer counts as the heap's: free of it is "free of global"
                // (KLEE's POSIX runtime marks the argv it builds this way).
                let address = self
                    .cx()
                    .concretize(state, arg(args, 0)?, "klee_mark_global")?;
                if !state.memory.set_kind(address as u64, ObjectKind::Global) {
                    return Err(user_error("klee_mark_global: not the start of an object"));
                }
                None
            }
            DefineFixedObject => {
                let address =
                    self.cx()
                        .concretize(state, arg(args, 0)?, "klee_define_fixed_object")?;
                let size =
                    self.cx()
                        .concretize(state, arg(args, 1)?, "klee_define_fixed_object")?;
                self.cx()
                    .define_fixed_object(state, address as u64, size as u64)?;
                None
            }
            SetForking => {
                let on = self
                    .cx()
                    .concretize(state, arg(args, 0)?, "klee_set_forking")?;
                state.forking_disabled = on == 0;
                None
            }
            Range => Some(self.range(state, args)?),
            Int => {
                let name = self.cx().optional_string(state, arg(args, 0)?)?;
                Some(self.fresh_symbolic(state, &name, 32))
            }
            Choose => {
                let n = self.cx().concretize(state, arg(args, 0)?, "klee_choose")?;
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
            ReportError => return Err(self.cx().klee_report_error(state, args)?),
            Warning | WarningOnce => {
                let text = self.cx().optional_string(state, arg(args, 0)?)?;
                let function = module.function(state.frame().func).name.clone();
                let message = format!("{function}: {text}");
                if special == WarningOnce {
                    self.report.warn_once(&message);
                } else if !state.rebuilding() {
                    self.report.output.warning(&message);
                    self.report.observer.warning(&message);
                }
                None
            }
            PrintExpr | PrintRange => {
                let text = self.cx().optional_string(state, arg(args, 0)?)?;
                let value = arg(args, 1)?;
                // A constant prints as KLEE prints one: its value (true/false for a bit).
                let shown = match value {
                    Value::Concrete(v, 1) => (if *v & 1 == 1 { "true" } else { "false" }).into(),
                    Value::Concrete(v, w) => (v & super::ops::width_mask(*w)).to_string(),
                    Value::Symbolic(e) => format!("{e}"),
                    Value::Aggregate(_) => "<aggregate>".to_string(),
                };
                let message = format!("{text}:{shown}");
                if !state.rebuilding() {
                    self.report.output.message(&message);
                    self.report.observer.print(&message);
                }
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
                let address = self
                    .cx()
                    .concretize(state, arg(args, 0)?, "klee_get_obj_size")?
                    as u64;
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
                let size =
                    self.cx()
                        .concretize(state, arg(args, 1)?, "klee_check_memory_access")?;
                self.read_bytes(state, arg(args, 0)?, size as u64)?;
                None
            }
            StackTrace => {
                let stack = self.program.format_stack(state).join("\n");
                self.report.output.message(&stack);
                None
            }
            AssertFail => {
                let text = self.cx().optional_string(state, arg(args, 0)?)?;
                return Err(Termination::error(
                    ErrorKind::Assert,
                    format!("ASSERTION FAIL: {text}"),
                ));
            }
            Exit => {
                let code = match arg(args, 0)? {
                    Value::Symbolic(e) => {
                        self.report
                            .warn_once("concretizing symbolic value for exit status");
                        self.cx().fix_exit_status(state, e)?
                    }
                    other => self.cx().concretize(state, other, "exit status")?,
                };
                return Err(Termination::Exit(code as u32 as i32));
            }
            Malloc => self.malloc(module, state, inst, arg(args, 0)?, Init::Garbage)?,
            Calloc => {
                let n = self.cx().concretize(state, arg(args, 0)?, "calloc count")?;
                let m = self.cx().concretize(state, arg(args, 1)?, "calloc size")?;
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
                let object = self
                    .cx()
                    .concretize(state, arg(args, 0)?, "exception object")?
                    as u64;
                let info = self
                    .cx()
                    .concretize(state, arg(args, 1)?, "exception type")?
                    as u64;
                return self.raise(module, state, object, info);
            }
            EhTypeidFor => {
                let info = self
                    .cx()
                    .concretize(state, arg(args, 0)?, "llvm.eh.typeid.for")?
                    as u64;
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
                let name = module.function(callee_of(inst)).name.clone();
                Some(self.nondet(state, &name, width))
            }
            ReachError => return Err(Termination::error(ErrorKind::Reach, "reach_error() called")),
            CaptureOutput => {
                let stream = self
                    .cx()
                    .concretize(state, arg(args, 0)?, "__sear_write stream")?;
                let len = self
                    .cx()
                    .concretize(state, arg(args, 2)?, "__sear_write length")?;
                let bytes = self.read_bytes(state, arg(args, 1)?, len as u64)?;
                state.output.append(stream as u8, bytes);
                None
            }
            Math(f) => Some(self.cx().call_math(module, state, inst, f, args)?),
            Remainder => Some(self.cx().call_remainder(module, state, inst, args)?),
            FeSetRound => Some(self.cx().call_fesetround(state, arg(args, 0)?, width)?),
            FeGetRound => Some(super::fenv::call_fegetround(state, width)),
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
}

/// The function a direct call calls (function 0 for any other instruction).
fn callee_of(inst: &Inst) -> sear_ir::FuncId {
    match &inst.kind {
        sear_ir::InstKind::Call {
            callee: sear_ir::Callee::Direct(f),
            ..
        } => *f,
        _ => sear_ir::FuncId(0),
    }
}
