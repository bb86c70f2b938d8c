//! The C++ standard library as bitcode: where `scripts/build-libcxx.sh` put it, and
//! whether a module needs it.
//!
//! The library (libc++ and libc++abi 19 from Debian's `llvm-toolchain-19` sources, the
//! parts docs/cxx.md lists) is built once per machine into
//! `${XDG_CACHE_HOME:-~/.cache}/sear/libcxx-VERSION-rRECIPE/libcxx.bc`; `SEAR_LIBCXX_DIR`
//! overrides the directory.

use std::path::{Path, PathBuf};

use anyhow::{bail, Result};

/// The environment variable naming the library's directory.
pub const LIBCXX_DIR_ENV: &str = "SEAR_LIBCXX_DIR";

/// The libc++ version the script builds (Debian's libc++-19-dev headers must match).
const VERSION: &str = "19.1.7";
/// The script's recipe number (`recipe=` in scripts/build-libcxx.sh).
const RECIPE: u32 = 2;

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

/// The library's bitcode; an error saying how to build it when it is missing.
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
}
