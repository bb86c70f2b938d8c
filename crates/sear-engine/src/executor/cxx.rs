//! C++ support in the engine: `operator new`/`delete` (scalar and array forms) mapped onto
//! the heap with the allocation family checked at deallocation (`delete` of `new[]`,
//! `free` of `new`, ... are `free` errors named as ASan names them), and demangled names
//! for messages and stack traces.

use sear_ir::{Inst, Module};

use super::{Exec, Executor};
use crate::memory::Init;
use crate::state::State;
use crate::termination::{ErrorKind, Termination};
use crate::value::Value;

pub use crate::state::AllocFamily;

impl AllocFamily {
    /// The allocation function's name, as ASan words it.
    fn allocator(self) -> &'static str {
        match self {
            AllocFamily::Malloc => "malloc",
            AllocFamily::New => "operator new",
            AllocFamily::NewArray => "operator new []",
        }
    }

    /// The matching deallocation function's name, as ASan words it.
    fn deallocator(self) -> &'static str {
        match self {
            AllocFamily::Malloc => "free",
            AllocFamily::New => "operator delete",
            AllocFamily::NewArray => "operator delete []",
        }
    }

    /// The family of an `operator new`/`delete` symbol (Itanium mangling), if it is one.
    pub(crate) fn of_operator(name: &str) -> Option<(AllocFamily, bool)> {
        // (family, true for an allocation)
        let rest = name.strip_prefix("_Z")?;
        Some(match rest.get(..2)? {
            "nw" => (AllocFamily::New, true),
            "na" => (AllocFamily::NewArray, true),
            "dl" => (AllocFamily::New, false),
            "da" => (AllocFamily::NewArray, false),
            _ => return None,
        })
    }
}

/// Checks that the object at `address` is released by the function matching its
/// allocation, and forgets its family. Families are kept by object id (objects keep their
/// id when a relocatable model moves them); objects from `malloc` have none.
pub(crate) fn check_release(state: &mut State, address: u64, by: AllocFamily) -> Exec<()> {
    let Some(id) = state.memory.get_by_base(address).map(|e| e.object.id) else {
        // Not a live object: the free itself reports it (double or invalid free).
        return Ok(());
    };
    let made = state
        .alloc_families
        .get(&id)
        .copied()
        .unwrap_or(AllocFamily::Malloc);
    if made != by {
        return Err(Termination::error(
            ErrorKind::Free,
            format!(
                "memory error: alloc-dealloc-mismatch ({} vs {})",
                made.allocator(),
                by.deallocator()
            ),
        ));
    }
    state.alloc_families.remove(&id);
    Ok(())
}

/// A symbol demangled (Itanium C++ ABI), or the name itself when it is not a mangled one.
pub fn demangle(name: &str) -> String {
    if !name.starts_with("_Z") {
        return name.to_string();
    }
    cpp_demangle::Symbol::new(name)
        .ok()
        .and_then(|s| s.demangle(&cpp_demangle::DemangleOptions::default()).ok())
        .unwrap_or_else(|| name.to_string())
}

/// A function's demangled name without its parameter list (`std::vector<int>::at`), for
/// stack traces that print the arguments themselves.
pub fn demangle_function(name: &str) -> String {
    let full = demangle(name);
    if !name.starts_with("_Z") {
        return full;
    }
    // The parameter list is the last balanced `(...)`, before any qualifiers (` const`).
    let Some(close) = full.rfind(')') else {
        return full;
    };
    let mut depth = 0usize;
    for (i, c) in full[..=close].char_indices().rev() {
        match c {
            ')' => depth += 1,
            '(' => {
                depth -= 1;
                if depth == 0 {
                    return full[..i].to_string();
                }
            }
            _ => {}
        }
    }
    full
}

/// The C++ feature an undefined library function belongs to, when sear does not support
/// that feature (docs/cxx.md): named in the `exec` error of a call to it.
pub fn unsupported_feature(demangled: &str) -> Option<&'static str> {
    const FEATURES: &[(&str, &str)] = &[
        ("std::__1::thread", "threads (std::thread)"),
        ("std::__1::__thread", "threads (std::thread)"),
        ("std::__1::mutex", "threads (std::mutex)"),
        (
            "std::__1::condition_variable",
            "threads (std::condition_variable)",
        ),
        ("basic_ostream", "iostreams"),
        ("basic_istream", "iostreams"),
        ("std::__1::ios_base", "iostreams"),
        ("std::__1::locale", "locales"),
        ("std::__1::__fs::filesystem", "std::filesystem"),
        ("std::__1::random_device", "std::random_device"),
    ];
    FEATURES
        .iter()
        .find(|(prefix, _)| demangled.contains(prefix))
        .map(|(_, feature)| *feature)
}

/// The C++ type a type-info name (`St12out_of_range`, `i`, `PKc`) stands for.
pub fn demangle_type(type_name: &str) -> String {
    let symbol = format!("_ZTS{type_name}");
    let text = demangle(&symbol);
    text.strip_prefix("typeinfo name for ")
        .map_or_else(|| type_name.to_string(), str::to_string)
}

impl Executor<'_> {
    /// `operator new` or `operator new[]` (every overload: nothrow, aligned): a heap object
    /// of the family. The size is the first argument.
    pub(crate) fn cxx_new(
        &mut self,
        module: &Module,
        state: &mut State,
        inst: &Inst,
        size: &Value,
        family: AllocFamily,
    ) -> Exec<Option<Value>> {
        let pointer = self.malloc(module, state, inst, size, Init::Garbage)?;
        let id = pointer
            .as_ref()
            .and_then(|p| state.address_of(p))
            .and_then(|address| state.memory.get_by_base(address))
            .map(|e| e.object.id);
        if let Some(id) = id {
            state.alloc_families.insert(id, family);
        }
        Ok(pointer)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_demangled() {
        assert_eq!(demangle("main"), "main");
        assert_eq!(demangle("_Z1fi"), "f(int)");
        assert_eq!(demangle_function("_Z1fi"), "f");
        assert_eq!(
            demangle_function("_ZNKSt3__16vectorIiNS_9allocatorIiEEE4sizeEv"),
            "std::__1::vector<int, std::__1::allocator<int> >::size"
        );
        assert_eq!(
            demangle_function("_ZN12_GLOBAL__N_11gEv"),
            "(anonymous namespace)::g"
        );
        assert_eq!(demangle_type("St12out_of_range"), "std::out_of_range");
        assert_eq!(demangle_type("i"), "int");
        assert_eq!(
            AllocFamily::of_operator("_Znam"),
            Some((AllocFamily::NewArray, true))
        );
        assert_eq!(
            AllocFamily::of_operator("_ZdlPvm"),
            Some((AllocFamily::New, false))
        );
        assert_eq!(AllocFamily::of_operator("_Z1fv"), None);
    }
}
