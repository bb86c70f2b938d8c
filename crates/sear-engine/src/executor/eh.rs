//! C++ exceptions: the unwinder and the personality routine, in the engine.
//!
//! The C runtime's `__cxa_throw` (runtime/src/libc/cxa.c) records the type info and the
//! destructor in the exception's header and calls `__sear_eh_raise(object, typeinfo)`.
//! The engine then unwinds as the Itanium ABI's two phases do:
//!
//! 1. search: walk the frames from the innermost; a frame suspended in the call of an
//!    `invoke` (its block ends in [`Terminator::Invoke`]) has a landing pad, whose clauses
//!    are matched against the thrown type. No `catch` clause anywhere: the exception is
//!    uncaught, and the path ends as `std::terminate` ends the process (an `abort` error
//!    naming the type), without running cleanups (as libc++abi).
//! 2. cleanup: pop frames (freeing their allocas) until a landing pad catches or has
//!    cleanups; enter its block, and its `landingpad` yields `{object, selector}`.
//!    `resume` continues from the frame's caller.
//!
//! Types match as in libc++abi: the same type (address or name), a public base class
//! (`__si_class_type_info`, `__vmi_class_type_info`, virtual bases through the object's
//! vtable), pointers to those, any object pointer for `void *`, and `catch (...)`. The
//! pointer `__cxa_begin_catch` returns (the object adjusted to the base, or the pointer
//! value for a pointer type) is written to the header's last word, `object - 8`.
//!
//! The unwinder is the executor's: it reads type infos and headers through pointer
//! resolution (`read_word`), which may fork, and ends paths (`std::terminate`).

use sear_ir::{Clause, Module, Operand, Terminator};

use super::{Exec, Executor};
use crate::executor::Cx;
use crate::state::State;
use crate::termination::{ErrorKind, Termination};
use crate::value::Value;

/// Size of the runtime's exception header (`struct sear_exception` in cxa.c), which
/// precedes the thrown object; its first word is the type info.
const HEADER: u64 = 48;

/// The selector of a type info (`llvm.eh.typeid.for`): positive, the same for one type
/// info in every function.
pub(crate) fn selector(info: u64) -> u32 {
    (((info >> 3) & 0x3fff_ffff) as u32).max(1)
}

/// What a landing pad does with an exception.
enum Landing {
    /// A `catch` clause matches (or a filter fails): enter with this selector; the object
    /// as the handler sees it.
    Catch(u32, u64),
    /// No clause matches but the pad has cleanups.
    Cleanup,
    /// The pad does not handle it.
    Pass,
}

/// The kinds of type info the matching distinguishes, by their vtables.
enum InfoKind {
    /// A class with one public non-virtual base at offset 0 (the base's type info).
    Single(u64),
    /// A class with several or virtual bases: (base type info, offset and flags).
    Multiple(Vec<(u64, i64)>),
    /// A pointer: (qualifier flags, pointee type info).
    Pointer(u64),
    /// Anything else (a class without bases, a fundamental type).
    Other,
}

impl Executor<'_> {
    /// Throws `object` of type `info`: unwinds the stack to the handler (see the module).
    pub(crate) fn raise(
        &mut self,
        module: &Module,
        state: &mut State,
        object: u64,
        info: u64,
    ) -> Exec<()> {
        // Phase 1: is there a handler?
        let sites: Vec<usize> = (0..state.stack.len()).rev().collect();
        let mut handled = false;
        let mut barrier = false;
        for depth in sites {
            // __cxa_end_catch is noexcept: a destructor throwing from it terminates.
            if module.function(state.stack[depth].func).name == "__cxa_end_catch" {
                barrier = true;
                break;
            }
            let Some(clauses) = pad_at(module, state, depth).map(|(_, c, _)| c) else {
                continue;
            };
            if let Landing::Catch(..) = self.match_clauses(state, &clauses, false, object, info)? {
                handled = true;
                break;
            }
        }
        if barrier || (!handled && self.terminate_handler_set(state)?) {
            // std::terminate runs (the program's handler, then abort).
            if let Some(terminate) = module
                .function_by_name("_ZSt9terminatev")
                .filter(|f| !module.function(*f).is_declaration)
            {
                return self.push_frame(module, state, terminate, Vec::new(), &[], &[], None);
            }
        }
        if !handled {
            let name = self.type_name(state, info)?;
            // The error is at the throw expression: leave the runtime's __cxa_throw.
            let top = module.function(state.frame().func).name.as_str();
            if matches!(top, "__cxa_throw" | "__cxa_rethrow") && state.stack.len() > 1 {
                state.stack.pop();
                state.current_inst = state.frame().inst.saturating_sub(1);
            }
            let what = self.what_message(state, info, object)?;
            return Err(Termination::error(
                ErrorKind::Abort,
                format!(
                    "terminating due to uncaught exception of type {}{}",
                    super::cxx::demangle_type(&name),
                    what.map_or_else(String::new, |w| format!(": {w}"))
                ),
            ));
        }
        // Phase 2: unwind to the first pad that catches or cleans up.
        loop {
            let depth = state.stack.len() - 1;
            if let Some((unwind, clauses, cleanup)) = pad_at(module, state, depth) {
                let landing = self.match_clauses(state, &clauses, cleanup, object, info)?;
                let selector = match landing {
                    Landing::Catch(selector, adjusted) => {
                        let at = Value::Concrete(object.wrapping_sub(8) as u128, 64);
                        let bytes = adjusted
                            .to_le_bytes()
                            .iter()
                            .map(|b| sear_expr::Expr::constant(*b as u128, 8))
                            .collect::<Vec<_>>();
                        self.write_bytes(state, &at, &bytes)?;
                        Some(selector)
                    }
                    Landing::Cleanup => Some(0),
                    Landing::Pass => None,
                };
                if let Some(selector) = selector {
                    state.eh_landing = Some((object, selector));
                    self.jump(module, state, unwind);
                    return Ok(());
                }
            }
            if state.stack.len() == 1 {
                return Err(Termination::error(
                    ErrorKind::Exec,
                    "exception unwound past the entry function",
                ));
            }
            self.cx().ret(module, state, None)?;
        }
    }

    /// `resume`: unwinds the exception `value` (`{ptr, i32}`) on from the caller.
    pub(crate) fn eh_resume(
        &mut self,
        module: &Module,
        state: &mut State,
        value: &Value,
    ) -> Exec<()> {
        let object = match value {
            Value::Aggregate(items) => items.first().cloned(),
            _ => None,
        }
        .ok_or_else(|| exec("resume of a value that is not {ptr, i32}"))?;
        let object = self.cx().concretize(state, &object, "resumed exception")? as u64;
        let info = self.read_word(state, object.wrapping_sub(HEADER))?;
        if state.stack.len() == 1 {
            return Err(exec("exception resumed past the entry function"));
        }
        self.cx().ret(module, state, None)?;
        self.raise(module, state, object, info)
    }

    /// Matches the clauses of a pad in order against an exception of type `info`.
    fn match_clauses(
        &mut self,
        state: &mut State,
        clauses: &[Clause],
        cleanup: bool,
        object: u64,
        info: u64,
    ) -> Exec<Landing> {
        for clause in clauses {
            match clause {
                Clause::Catch(op) => {
                    let catch = self.cx().operand_address(state, *op)?;
                    if let Some(adjusted) = self.can_catch(state, catch, info, object)? {
                        return Ok(Landing::Catch(selector(catch), adjusted));
                    }
                }
                Clause::Filter(allowed) => {
                    // An exception the specification does not allow: the filter "catches"
                    // it, with a negative selector (the code calls __cxa_call_unexpected).
                    let mut permitted = false;
                    for op in allowed {
                        let t = self.cx().operand_address(state, *op)?;
                        if self.can_catch(state, t, info, object)?.is_some() {
                            permitted = true;
                            break;
                        }
                    }
                    if !permitted {
                        return Ok(Landing::Catch(u32::MAX, object));
                    }
                }
            }
        }
        Ok(if cleanup {
            Landing::Cleanup
        } else {
            Landing::Pass
        })
    }

    /// The object as a handler for `catch_info` sees an exception of type `thrown` at
    /// `object`, if the handler catches it.
    fn can_catch(
        &mut self,
        state: &mut State,
        catch_info: u64,
        thrown: u64,
        object: u64,
    ) -> Exec<Option<u64>> {
        if catch_info == 0 {
            return Ok(Some(object));
        }
        let catch_kind = self.info_kind(state, catch_info)?;
        if self.same_type(state, catch_info, thrown)? {
            // A pointer handler gets the thrown pointer, not the exception's address
            // (libc++abi's __pointer_type_info::can_catch).
            return Ok(Some(match catch_kind {
                InfoKind::Pointer(_) => self.read_word(state, object)?,
                _ => object,
            }));
        }
        if let (InfoKind::Pointer(to_catch), InfoKind::Pointer(to_thrown)) =
            (catch_kind, self.info_kind(state, thrown)?)
        {
            let pointer = self.read_word(state, object)?;
            if self.same_type(state, to_catch, to_thrown)?
                || self.type_name(state, to_catch)? == "v"
            {
                return Ok(Some(pointer));
            }
            if pointer == 0 {
                return Ok(None);
            }
            return self.base_of(state, to_thrown, to_catch, pointer);
        }
        self.base_of(state, thrown, catch_info, object)
    }

    /// The address of the `base` subobject of the object of class `class` at `object`, if
    /// `base` is `class` or one of its public bases.
    fn base_of(
        &mut self,
        state: &mut State,
        class: u64,
        base: u64,
        object: u64,
    ) -> Exec<Option<u64>> {
        if self.same_type(state, class, base)? {
            return Ok(Some(object));
        }
        match self.info_kind(state, class)? {
            InfoKind::Single(parent) => self.base_of(state, parent, base, object),
            InfoKind::Multiple(parents) => {
                for (parent, flags) in parents {
                    if flags & 2 == 0 {
                        continue; // not public
                    }
                    let mut offset = flags >> 8;
                    if flags & 1 != 0 {
                        // A virtual base: its offset is in the vtable, at `offset`.
                        let vptr = self.read_word(state, object)?;
                        offset = self.read_word(state, vptr.wrapping_add(offset as u64))? as i64;
                    }
                    let at = object.wrapping_add(offset as u64);
                    if let Some(found) = self.base_of(state, parent, base, at)? {
                        return Ok(Some(found));
                    }
                }
                Ok(None)
            }
            _ => Ok(None),
        }
    }

    /// True when the program set a terminate handler (`std::set_terminate`, cxa.c).
    fn terminate_handler_set(&mut self, state: &mut State) -> Exec<bool> {
        let module = &self.program.module;
        let Some(g) = module.global_index.get("__sear_terminate_handler") else {
            return Ok(false);
        };
        let address = self.program.global_addrs[g.0 as usize];
        Ok(self.read_word(state, address)? != 0)
    }

    /// The message of an exception derived from `std::logic_error` or
    /// `std::runtime_error` (libc++ keeps it as a `const char *` right after the vtable
    /// pointer), as libc++abi prints it for an uncaught exception; `None` for other types.
    fn what_message(&mut self, state: &mut State, info: u64, object: u64) -> Exec<Option<String>> {
        if !self.derives_from(state, info, &["St11logic_error", "St13runtime_error"], 0)? {
            return Ok(None);
        }
        let text = self.read_word(state, object + 8)?;
        let text = Value::Concrete(text as u128, 64);
        Ok(self
            .cx()
            .read_message_string(state, &text, "exception message")
            .ok())
    }

    /// True when the class of type info `info` is, or has a base, named one of `names`.
    fn derives_from(
        &mut self,
        state: &mut State,
        info: u64,
        names: &[&str],
        depth: u32,
    ) -> Exec<bool> {
        if depth > 32 {
            return Ok(false);
        }
        if names.contains(&self.type_name(state, info)?.as_str()) {
            return Ok(true);
        }
        let parents = match self.info_kind(state, info)? {
            InfoKind::Single(parent) => vec![parent],
            InfoKind::Multiple(parents) => parents.into_iter().map(|(p, _)| p).collect(),
            _ => Vec::new(),
        };
        for parent in parents {
            if self.derives_from(state, parent, names, depth + 1)? {
                return Ok(true);
            }
        }
        Ok(false)
    }

    fn same_type(&mut self, state: &mut State, a: u64, b: u64) -> Exec<bool> {
        Ok(a == b || self.type_name(state, a)? == self.type_name(state, b)?)
    }

    /// The mangled type name of a type info (`St12out_of_range`).
    fn type_name(&mut self, state: &mut State, info: u64) -> Exec<String> {
        let name = self.read_word(state, info.wrapping_add(8))?;
        let name = self.cx().read_message_string(
            state,
            &Value::Concrete(name as u128, 64),
            "type name",
        )?;
        // libc++ marks names that are not unique across modules with a leading '*'.
        Ok(name.trim_start_matches('*').to_string())
    }

    fn info_kind(&mut self, state: &mut State, info: u64) -> Exec<InfoKind> {
        let vptr = self.read_word(state, info)?;
        let vtable = |name: &str| {
            let module = &self.program.module;
            module
                .global_index
                .get(name)
                .map(|g| self.program.global_addrs[g.0 as usize] + 16)
        };
        if Some(vptr) == vtable("_ZTVN10__cxxabiv120__si_class_type_infoE") {
            return Ok(InfoKind::Single(self.read_word(state, info + 16)?));
        }
        if Some(vptr) == vtable("_ZTVN10__cxxabiv121__vmi_class_type_infoE") {
            let counts = self.read_word(state, info + 16)?;
            let n = (counts >> 32).min(64);
            let mut bases = Vec::new();
            for i in 0..n {
                let at = info + 24 + 16 * i;
                let base = self.read_word(state, at)?;
                let flags = self.read_word(state, at + 8)? as i64;
                bases.push((base, flags));
            }
            return Ok(InfoKind::Multiple(bases));
        }
        if Some(vptr) == vtable("_ZTVN10__cxxabiv119__pointer_type_infoE") {
            return Ok(InfoKind::Pointer(self.read_word(state, info + 24)?));
        }
        Ok(InfoKind::Other)
    }

    /// The 8-byte little-endian word at a concrete address (type infos, vtables, the
    /// exception header); a symbolic byte is an `exec` error.
    fn read_word(&mut self, state: &mut State, address: u64) -> Exec<u64> {
        let bytes = self.read_bytes(state, &Value::Concrete(address as u128, 64), 8)?;
        let mut word = 0u64;
        for (i, b) in bytes.iter().enumerate() {
            let b = b
                .as_constant()
                .ok_or_else(|| exec("symbolic bytes in exception type information"))?;
            word |= (b as u64 & 0xff) << (8 * i);
        }
        Ok(word)
    }
}

impl Cx<'_, '_> {
    fn operand_address(&mut self, state: &mut State, op: Operand) -> Exec<u64> {
        let v = self.program.operand(state, op);
        Ok(self.concretize(state, &v, "type info")? as u64)
    }
}

/// The landing pad of the frame at `depth`, if it is suspended in an `invoke`: the
/// pad's block, its clauses and its cleanup flag.
fn pad_at(
    module: &Module,
    state: &State,
    depth: usize,
) -> Option<(sear_ir::BlockId, Vec<Clause>, bool)> {
    let frame = &state.stack[depth];
    let function = module.function(frame.func);
    let block = &function.blocks[frame.block.0 as usize];
    let Terminator::Invoke { unwind, .. } = block.term else {
        return None;
    };
    if frame.inst != block.insts.len() {
        return None;
    }
    let pad = &function.blocks[unwind.0 as usize];
    match pad.insts.first().map(|i| &i.kind) {
        Some(sear_ir::InstKind::LandingPad { cleanup, clauses }) => {
            Some((unwind, clauses.clone(), *cleanup))
        }
        _ => None,
    }
}

/// The `landingpad`'s value: the exception and selector the unwinder entered with.
pub(crate) fn landing_pad_value(state: &mut State) -> Exec<Value> {
    let (object, selector) = state
        .eh_landing
        .take()
        .ok_or_else(|| exec("landingpad reached without an exception"))?;
    Ok(Value::Aggregate(std::rc::Rc::from(vec![
        Value::Concrete(object as u128, 64),
        Value::Concrete(selector as u128, 32),
    ])))
}

fn exec(message: &str) -> Termination {
    Termination::error(ErrorKind::Exec, message)
}
