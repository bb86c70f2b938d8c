//! Compiles sear's C runtime (`runtime/src/**/*.c`) to LLVM bitcode with clang-19, cleans
//! each file up with opt-19, and links them with llvm-link-19 into two files in `OUT_DIR`,
//! which `src/lib.rs` embeds:
//!
//! * `sear-libc.bc`: libc and the POSIX model (`runtime/src/libc`, `runtime/src/posix`),
//!   linked into programs on demand (`llvm-link --only-needed`);
//! * `sear-entry.bc`: the entry point (`runtime/src/entry`), linked in whole;
//!
//! and the same two for i386 (`-m32`, for 32-bit programs): `sear-libc-i386.bc`,
//! `sear-entry-i386.bc` (they need the 32-bit glibc headers, `libc6-dev-i386`).
//!
//! The runtime is compiled at -O0 (without `optnone`) and then only promoted to SSA and
//! simplified (`sroa`, `early-cse`, `instcombine`): no pass that changes the control flow
//! runs, so the runtime forks exactly where its source branches (clang's -O1 turns
//! branches into `select`s, which merges paths and changes the path counts programs see),
//! and no loop becomes a word-at-a-time or library-call idiom.
//!
//! `SEAR_CLANG`, `SEAR_OPT` and `SEAR_LLVM_LINK` override the tools. A missing clang-19
//! fails the build with a message pointing at `scripts/setup.sh`.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The passes run on each compiled file: SSA promotion and local simplification only.
const PASSES: &str = "function(sroa,early-cse,instcombine)";

/// The same passes for the i386 build, without instcombine's fixpoint check (opt-19 stops
/// on i386's scanf.c, where one more iteration would still simplify; the result is valid).
const PASSES_I386: &str = "function(sroa,early-cse,instcombine<no-verify-fixpoint>)";

/// Flags of every runtime compilation; see docs/runtime.md for why each is there.
const CFLAGS: &[&str] = &[
    "-c",
    "-emit-llvm",
    "-O0",
    "-Xclang",
    "-disable-O0-optnone",
    "-g",
    "-std=gnu11",
    "-fno-builtin",
    "-fno-vectorize",
    "-fno-slp-vectorize",
    "-fno-unroll-loops",
    "-fno-math-errno",
    "-ffp-contract=off",
    "-fno-stack-protector",
    "-fno-common",
    "-fno-discard-value-names",
    "-D_GNU_SOURCE",
    "-U_FORTIFY_SOURCE",
    "-Wall",
    "-Wextra",
    "-Wno-unused-parameter",
    "-Werror",
];

fn main() {
    let manifest = PathBuf::from(
        std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"),
    );
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    // Canonical, so that debug locations (error reports, stack traces) read `.../runtime/src/...`.
    let runtime = manifest
        .join("../../runtime")
        .canonicalize()
        .unwrap_or_else(|e| {
            fail(&format!(
                "runtime sources not found next to {}: {e}",
                manifest.display()
            ))
        });
    println!("cargo:rerun-if-changed={}", runtime.join("src").display());
    println!(
        "cargo:rerun-if-changed={}",
        runtime.join("include").display()
    );
    println!("cargo:rerun-if-env-changed=SEAR_CLANG");
    println!("cargo:rerun-if-env-changed=SEAR_LLVM_LINK");
    println!("cargo:rerun-if-env-changed=SEAR_OPT");

    let clang = tool("SEAR_CLANG", "clang-19", "clang");
    let opt = tool("SEAR_OPT", "opt-19", "opt");
    let linker = tool("SEAR_LLVM_LINK", "llvm-link-19", "llvm-link");
    let sources = c_files(&runtime.join("src"));
    if sources.is_empty() {
        fail(&format!(
            "no C sources under {}",
            runtime.join("src").display()
        ));
    }
    for (suffix, target_flags) in VARIANTS {
        let objects = out.join(format!("objects{suffix}"));
        std::fs::create_dir_all(&objects)
            .unwrap_or_else(|e| fail(&format!("creating {}: {e}", objects.display())));
        let compiled = compile_all(&clang, &runtime, &sources, &objects, target_flags);
        let passes = if target_flags.is_empty() {
            PASSES
        } else {
            PASSES_I386
        };
        for (source, bc) in &compiled {
            simplify(&opt, source, bc, passes);
        }
        let (entry, libc): (Vec<_>, Vec<_>) = compiled.into_iter().partition(|(src, _)| {
            src.strip_prefix(runtime.join("src"))
                .is_ok_and(|rel| rel.starts_with("entry"))
        });
        link(
            &linker,
            &libc.into_iter().map(|(_, bc)| bc).collect::<Vec<_>>(),
            &out.join(format!("sear-libc{suffix}.bc")),
        );
        link(
            &linker,
            &entry.into_iter().map(|(_, bc)| bc).collect::<Vec<_>>(),
            &out.join(format!("sear-entry{suffix}.bc")),
        );
    }
}

/// The runtime's builds: the file-name suffix and the target flags of each (x86-64 is the
/// host's default target).
const VARIANTS: &[(&str, &[&str])] = &[("", &[]), ("-i386", &["-m32"])];

fn fail(message: &str) -> ! {
    panic!("\n\nsear-runtime build: {message}\n\n");
}

/// The tool named by `env`, else `versioned` on PATH, else `plain` in LLVM 19's directory.
fn tool(env: &str, versioned: &str, plain: &str) -> PathBuf {
    if let Some(path) = std::env::var_os(env) {
        return PathBuf::from(path);
    }
    if let Some(paths) = std::env::var_os("PATH") {
        for dir in std::env::split_paths(&paths) {
            let candidate = dir.join(versioned);
            if candidate.is_file() {
                return candidate;
            }
        }
    }
    let fallback = Path::new("/usr/lib/llvm-19/bin").join(plain);
    if fallback.is_file() {
        return fallback;
    }
    fail(&format!(
        "{versioned} not found (looked on PATH and in /usr/lib/llvm-19/bin). sear's C runtime \
         is compiled with LLVM 19: run scripts/setup.sh, or set {env} to the tool"
    ))
}

fn c_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let entries = std::fs::read_dir(&d)
            .unwrap_or_else(|e| fail(&format!("listing {}: {e}", d.display())));
        for entry in entries {
            let path = entry
                .unwrap_or_else(|e| fail(&format!("listing {}: {e}", d.display())))
                .path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|x| x == "c") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// Compiles every source (two at a time) and returns (source, bitcode) pairs.
fn compile_all(
    clang: &Path,
    runtime: &Path,
    sources: &[PathBuf],
    objects: &Path,
    target_flags: &[&str],
) -> Vec<(PathBuf, PathBuf)> {
    let jobs = std::thread::available_parallelism()
        .map_or(2, |n| n.get())
        .max(1);
    let mut results = Vec::new();
    for batch in sources.chunks(jobs) {
        let mut running = Vec::new();
        for source in batch {
            let rel = source.strip_prefix(runtime.join("src")).unwrap_or(source);
            let name = rel.to_string_lossy().replace(['/', '\\'], "-");
            let output = objects.join(Path::new(&name).with_extension("bc"));
            let child = Command::new(clang)
                .args(CFLAGS)
                .args(target_flags)
                .arg("-I")
                .arg(runtime.join("include"))
                .arg("-I")
                .arg(runtime.join("src"))
                .arg(source)
                .arg("-o")
                .arg(&output)
                .stderr(std::process::Stdio::piped())
                .spawn();
            running.push((source.clone(), output, child));
        }
        for (source, output, child) in running {
            let child = child
                .and_then(|c| c.wait_with_output())
                .unwrap_or_else(|e| fail(&format!("cannot run {}: {e}", clang.display())));
            if !child.status.success() {
                let hint = if target_flags.is_empty() {
                    ""
                } else {
                    "\n(the i386 runtime needs the 32-bit glibc headers: run scripts/setup.sh)"
                };
                fail(&format!(
                    "compiling {} {} failed:\n{}{hint}",
                    source.display(),
                    target_flags.join(" "),
                    String::from_utf8_lossy(&child.stderr)
                ));
            }
            results.push((source, output));
        }
    }
    results
}

/// Runs the clean-up passes on `bc` in place.
fn simplify(opt: &Path, source: &Path, bc: &Path, passes: &str) {
    let result = Command::new(opt)
        .arg(format!("-passes={passes}"))
        .arg(bc)
        .arg("-o")
        .arg(bc)
        .output()
        .unwrap_or_else(|e| fail(&format!("cannot run {}: {e}", opt.display())));
    if !result.status.success() {
        fail(&format!(
            "optimising {} failed:\n{}",
            source.display(),
            String::from_utf8_lossy(&result.stderr)
        ));
    }
}

fn link(linker: &Path, inputs: &[PathBuf], output: &Path) {
    let result = Command::new(linker)
        .arg("-o")
        .arg(output)
        .args(inputs)
        .output()
        .unwrap_or_else(|e| fail(&format!("cannot run {}: {e}", linker.display())));
    if !result.status.success() {
        fail(&format!(
            "linking {} failed:\n{}",
            output.display(),
            String::from_utf8_lossy(&result.stderr)
        ));
    }
}
