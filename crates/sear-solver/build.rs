//! Links the Bitwuzla library of the Bitwuzla core (`src/bitwuzla`).
//!
//! `scripts/build-bitwuzla.sh` (run by `scripts/setup.sh`) builds Bitwuzla once per machine
//! from the source in the `bitwuzla-sys` crate, against Debian's GMP, CaDiCaL and SymFPU, into
//! `$SEAR_BITWUZLA_DIR` or `${XDG_CACHE_HOME:-~/.cache}/sear/bitwuzla-VERSION-rRECIPE`. This
//! script finds that prefix and links its static libraries (bundled into this crate's rlib,
//! so their order does not matter), Debian's static CaDiCaL, GMP and the C++ runtime.
//! `bitwuzla-sys` itself (no features) only adds `-lbitwuzla`, which the same search path
//! satisfies.

use std::env;
use std::path::PathBuf;
use std::process::Command;

/// The Bitwuzla version: that of `bitwuzla-sys` in Cargo.toml and of the script.
const VERSION: &str = "0.8.0";
/// The script's recipe number (`recipe=` in scripts/build-bitwuzla.sh).
const RECIPE: u32 = 1;

fn prefix() -> PathBuf {
    if let Some(dir) = env::var_os("SEAR_BITWUZLA_DIR") {
        return PathBuf::from(dir);
    }
    let cache = env::var_os("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .or_else(|| env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")))
        .expect("neither SEAR_BITWUZLA_DIR, XDG_CACHE_HOME nor HOME is set");
    cache
        .join("sear")
        .join(format!("bitwuzla-{VERSION}-r{RECIPE}"))
}

/// The directory of a library the C++ compiler finds (Debian's libcadical.a lives in the
/// multiarch directory, which rustc does not search by itself for bundled libraries).
fn compiler_lib_dir(file: &str) -> Option<PathBuf> {
    let out = Command::new("c++")
        .arg(format!("-print-file-name={file}"))
        .output()
        .ok()?;
    let path = PathBuf::from(String::from_utf8(out.stdout).ok()?.trim());
    // Without a match the compiler prints the bare name back.
    path.is_absolute()
        .then(|| path.parent().map(PathBuf::from))
        .flatten()
}

fn main() {
    println!("cargo:rerun-if-env-changed=SEAR_BITWUZLA_DIR");
    println!("cargo:rerun-if-env-changed=XDG_CACHE_HOME");
    println!("cargo:rerun-if-env-changed=HOME");
    println!("cargo:rerun-if-changed=build.rs");
    let prefix = prefix();
    let stamp = prefix.join(".complete");
    println!("cargo:rerun-if-changed={}", stamp.display());
    if !stamp.exists() {
        panic!(
            "Bitwuzla {VERSION} is not built in {}: run scripts/setup.sh (it runs \
             scripts/build-bitwuzla.sh), or point SEAR_BITWUZLA_DIR at its prefix",
            prefix.display()
        );
    }
    let lib = prefix.join("lib");
    println!("cargo:rustc-link-search=native={}", lib.display());
    for name in ["bitwuzla", "bitwuzlals", "bitwuzlabv", "bitwuzlabb"] {
        println!("cargo:rustc-link-lib=static={name}");
    }
    match compiler_lib_dir("libcadical.a") {
        Some(dir) => println!("cargo:rustc-link-search=native={}", dir.display()),
        None => panic!("libcadical.a not found: install libcadical-dev (scripts/setup.sh)"),
    }
    println!("cargo:rustc-link-lib=static=cadical");
    println!("cargo:rustc-link-lib=dylib=gmp");
    println!("cargo:rustc-link-lib=dylib=stdc++");
}
