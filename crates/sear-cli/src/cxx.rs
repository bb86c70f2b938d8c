//! The C++ standard library as bitcode: where `scripts/build-libcxx.sh` put it, which of
//! its parts a module needs, and whether a module needs it at all.
//!
//! The library (libc++ and libc++abi 19 from Debian's `llvm-toolchain-19` sources, the
//! parts docs/cxx.md lists) is built once per machine into
//! `${XDG_CACHE_HOME:-~/.cache}/sear/libcxx-VERSION-rRECIPE/`; `SEAR_LIBCXX_DIR`
//! overrides the directory. It holds three modules: `libcxx.bc` (the core: exceptions'
//! classes, RTTI, strings, containers' out-of-line members), `libcxx-io.bc` (the core plus
//! locales, iostreams' classes, `<sstream>`, `<strstream>`, `<regex>`) and `iostream.bc`
//! (the standard streams `std::cout` & co. and their initialisation), with the names
//! `libcxx-io.bc` adds (`libcxx-io.symbols`) and `iostream.bc` defines
//! (`iostream.symbols`). A program gets the smallest that serves it: linking and loading
//! the locale machinery costs every C++ program about a second, and the standard streams'
//! global constructor builds it at start-up.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};

/// The environment variable naming the library's directory.
pub const LIBCXX_DIR_ENV: &str = "SEAR_LIBCXX_DIR";

/// The libc++ version the script builds (Debian's libc++-19-dev headers must match).
const VERSION: &str = "19.1.7";
/// The script's recipe number (`recipe=` in scripts/build-libcxx.sh).
const RECIPE: u32 = 3;

/// The directory the library is (or would be) in.
pub fn library_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os(LIBCXX_DIR_ENV) {
        return PathBuf::from(dir);
    }
    let cache = std::env::var_os("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")))
        .unwrap_or_else(|| PathBuf::from(".cache"));
    cache
        .join("sear")
        .join(format!("libcxx-{VERSION}-r{RECIPE}"))
}

/// The library's core bitcode; an error saying how to build the library when it is
/// missing.
pub fn library() -> Result<PathBuf> {
    let dir = library_dir();
    let bitcode = dir.join("libcxx.bc");
    if !dir.join(".complete").is_file() || !bitcode.is_file() {
        bail!(
            "the C++ standard library for sear is not built ({} is missing): run \
             scripts/build-libcxx.sh (or scripts/setup.sh) once on this machine",
            bitcode.display()
        );
    }
    Ok(bitcode)
}

/// The library modules to link with `program`, in link order: `iostream.bc` and
/// `libcxx-io.bc` when it uses a standard stream, `libcxx-io.bc` when it uses another name
/// only that module defines (a locale, a string stream), else `libcxx.bc`.
pub fn libraries_for(program: &Path) -> Result<Vec<PathBuf>> {
    library()?;
    parts_for(&library_dir(), program)
}

/// [`libraries_for`] with the library in `dir`.
fn parts_for(dir: &Path, program: &Path) -> Result<Vec<PathBuf>> {
    let undefined = sear_ir::undefined_symbols(program).map_err(|e| anyhow::anyhow!("{e}"))?;
    let needs = |part: &str| -> Result<bool> {
        let path = dir.join(format!("{part}.symbols"));
        let text = std::fs::read_to_string(&path)
            .with_context(|| format!("reading {}", path.display()))?;
        let names: HashSet<&str> = text.lines().collect();
        Ok(undefined.iter().any(|u| names.contains(u.as_str())))
    };
    Ok(if needs("iostream")? {
        vec![dir.join("iostream.bc"), dir.join("libcxx-io.bc")]
    } else if needs("libcxx-io")? {
        vec![dir.join("libcxx-io.bc")]
    } else {
        vec![dir.join("libcxx.bc")]
    })
}

/// True when a module (bitcode or textual IR) names a C++ runtime symbol: the personality
/// routine, an exception or RTTI function of the C++ ABI, `operator new`/`delete`, or the
/// standard library's namespace (`_ZNSt3__1`, `_ZSt`).
pub fn looks_like_cxx(module: &Path) -> bool {
    const MARKERS: &[&[u8]] = &[
        b"__gxx_personality_v0",
        b"__cxa_",
        b"_ZNSt3__1",
        b"_ZNKSt3__1",
        b"_ZSt",
        b"_Znwm",
        b"_Znam",
        b"_ZTVN10__cxxabiv1",
    ];
    let Ok(bytes) = std::fs::read(module) else {
        return false;
    };
    MARKERS
        .iter()
        .any(|m| bytes.windows(m.len()).any(|w| w == *m))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cxx_modules_are_recognised() {
        let dir = tempfile::tempdir().unwrap();
        let c = dir.path().join("c.ll");
        std::fs::write(&c, "define i32 @main() { ret i32 0 }\n").unwrap();
        assert!(!looks_like_cxx(&c));
        let cxx = dir.path().join("cxx.ll");
        std::fs::write(&cxx, "declare ptr @_Znwm(i64)\n").unwrap();
        assert!(looks_like_cxx(&cxx));
    }

    #[test]
    fn programs_get_the_parts_they_use() {
        let dir = tempfile::tempdir().unwrap();
        let lib = dir.path().join("lib");
        std::fs::create_dir(&lib).unwrap();
        std::fs::write(
            lib.join("libcxx-io.symbols"),
            "_ZNSt3__18ios_base4initEPv\n",
        )
        .unwrap();
        std::fs::write(lib.join("iostream.symbols"), "_ZNSt3__14coutE\n").unwrap();
        let module = |name: &str, text: &str| {
            let path = dir.path().join(name);
            std::fs::write(&path, text).unwrap();
            parts_for(&lib, &path).unwrap()
        };
        let names = |parts: Vec<PathBuf>| {
            parts
                .iter()
                .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
                .collect::<Vec<_>>()
        };
        let plain = module("plain.ll", "declare ptr @_Znwm(i64)\n");
        assert_eq!(names(plain), ["libcxx.bc"]);
        let sstream = module("s.ll", "declare void @_ZNSt3__18ios_base4initEPv(ptr)\n");
        assert_eq!(names(sstream), ["libcxx-io.bc"]);
        let cout = module("c.ll", "@_ZNSt3__14coutE = external global i8\n");
        assert_eq!(names(cout), ["iostream.bc", "libcxx-io.bc"]);
    }
}
