//! The C front end: compiling C files to bitcode with clang-19 and linking bitcode with
//! llvm-link-19.
//!
//! Compiler and linker diagnostics are captured; on failure they are returned verbatim in
//! the error, on success (warnings) they are copied verbatim to this process's stderr.

use crate::error::IrError;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Where LLVM 19's unversioned tools live on Debian.
const LLVM_BIN_DIR: &str = "/usr/lib/llvm-19/bin";

/// How to compile a C file.
#[derive(Clone, Debug, Default)]
pub struct CompileOptions {
    /// Optimisation level 0..=3 (larger values mean 3). At 0, functions are not marked
    /// `optnone` (`-Xclang -disable-O0-optnone`), as KLEE does.
    pub opt_level: u8,
    /// Extra flags passed to clang after sear's own (so they can override them), e.g.
    /// `-fno-builtin` for libc sources or `-std=c99`.
    pub cflags: Vec<String>,
    /// `-I` directories.
    pub include_dirs: Vec<PathBuf>,
    /// `-D` definitions, `NAME` or `NAME=VALUE`.
    pub defines: Vec<String>,
    /// The directory holding `klee/klee.h` and `sear.h`; searched before `include_dirs`.
    pub runtime_include_dir: Option<PathBuf>,
}

/// The extensions of C++ sources (compiled with clang++-19 against libc++).
pub const CXX_EXTENSIONS: &[&str] = &["cpp", "cc", "cxx", "C", "c++", "cp", "CPP"];

/// True when `path` names a C++ source file (by its extension).
pub fn is_cxx_source(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| CXX_EXTENSIONS.contains(&e))
}

/// The flags every C++ compilation gets before the user's: libc++ (the library sear links
/// as bitcode and replay links natively) and C++17 (the user's `-std=` comes later and wins).
pub const CXX_DEFAULT_FLAGS: &[&str] = &["-stdlib=libc++", "-std=c++17"];

/// Finds an LLVM 19 tool: `versioned` (e.g. `clang-19`) on `PATH`, else `plain` (e.g.
/// `clang`) in `/usr/lib/llvm-19/bin`.
pub fn find_tool(versioned: &str, plain: &str) -> Result<PathBuf, IrError> {
    if let Some(paths) = std::env::var_os("PATH") {
        for dir in std::env::split_paths(&paths) {
            let candidate = dir.join(versioned);
            if candidate.is_file() {
                return Ok(candidate);
            }
        }
    }
    let fallback = Path::new(LLVM_BIN_DIR).join(plain);
    if fallback.is_file() {
        return Ok(fallback);
    }
    Err(IrError::ToolNotFound {
        tool: versioned.to_string(),
    })
}

/// The clang arguments (after the program name) that compile `source` to `output`.
pub fn clang_args(source: &Path, output: &Path, opts: &CompileOptions) -> Vec<OsString> {
    let mut args: Vec<OsString> = ["-c", "-emit-llvm", "-g", "-fno-discard-value-names"]
        .iter()
        .map(OsString::from)
        .collect();
    // Fortified libc wrappers (__memcpy_chk, ...) would need models of their own.
    args.push("-U_FORTIFY_SOURCE".into());
    match opts.opt_level.min(3) {
        0 => args.extend(["-O0", "-Xclang", "-disable-O0-optnone"].map(OsString::from)),
        level => args.push(format!("-O{level}").into()),
    }
    if let Some(dir) = &opts.runtime_include_dir {
        args.push(dash_i(dir));
    }
    for dir in &opts.include_dirs {
        args.push(dash_i(dir));
    }
    for define in &opts.defines {
        args.push(format!("-D{define}").into());
    }
    args.extend(opts.cflags.iter().map(OsString::from));
    args.push(source.into());
    args.push("-o".into());
    args.push(output.into());
    args
}

fn dash_i(dir: &Path) -> OsString {
    let mut arg = OsString::from("-I");
    arg.push(dir);
    arg
}

/// Compiles the C (or, by its extension, C++) file `source` to `out_dir/<stem>.bc` (creating `out_dir`) and returns
/// the bitcode's path.
pub fn compile_c(source: &Path, out_dir: &Path, opts: &CompileOptions) -> Result<PathBuf, IrError> {
    if !source.is_file() {
        return Err(IrError::Io {
            path: source.to_path_buf(),
            source: std::io::Error::new(std::io::ErrorKind::NotFound, "no such C source file"),
        });
    }
    std::fs::create_dir_all(out_dir).map_err(|e| IrError::Io {
        path: out_dir.to_path_buf(),
        source: e,
    })?;
    let stem = source.file_stem().unwrap_or(source.as_os_str());
    let mut output = out_dir.join(stem);
    output.set_extension("bc");
    let clang = if is_cxx_source(source) {
        find_tool("clang++-19", "clang++")?
    } else {
        find_tool("clang-19", "clang")?
    };
    let result = run(&clang, &clang_args(source, &output, opts))?;
    if !result.status.success() {
        return Err(IrError::Compile {
            source_file: source.to_path_buf(),
            status: result.status.to_string(),
            diagnostics: String::from_utf8_lossy(&result.stderr).into_owned(),
        });
    }
    forward_warnings(&result);
    Ok(output)
}

/// Optimises the module `input` (bitcode or textual IR) with `opt -O<level>` into `output`
/// (bitcode), as clang's -O<level> would have.
pub fn optimize_bitcode(input: &Path, output: &Path, level: u8) -> Result<(), IrError> {
    let opt = find_tool("opt-19", "opt")?;
    let args: Vec<OsString> = vec![
        format!("-O{}", level.clamp(1, 3)).into(),
        input.into(),
        "-o".into(),
        output.into(),
    ];
    let result = run(&opt, &args)?;
    if !result.status.success() {
        return Err(IrError::Compile {
            source_file: input.to_path_buf(),
            status: result.status.to_string(),
            diagnostics: String::from_utf8_lossy(&result.stderr).into_owned(),
        });
    }
    forward_warnings(&result);
    Ok(())
}

/// Links bitcode files into one module at `out` (every definition of every input).
pub fn link_bitcode(inputs: &[PathBuf], out: &Path) -> Result<(), IrError> {
    let mut args: Vec<OsString> = vec!["-o".into(), out.into()];
    args.extend(inputs.iter().map(OsString::from));
    link(args, out)
}

/// Links `program` files completely, then from each of `libraries` (in order) only the
/// definitions the result still needs (`llvm-link --only-needed`), into `out`.
///
/// As with static archives, a library only supplies what is needed by the program and
/// the libraries linked before it; list libraries that others depend on last.
pub fn link_with_libraries(
    program: &[PathBuf],
    libraries: &[PathBuf],
    out: &Path,
) -> Result<(), IrError> {
    if libraries.is_empty() {
        return link_bitcode(program, out);
    }
    // llvm-link applies --only-needed to every input after the first, so the program
    // must be a single file first.
    let (first, temp) = match program {
        [single] => (single.clone(), None),
        _ => {
            let temp = out.with_extension("program.bc");
            link_bitcode(program, &temp)?;
            (temp.clone(), Some(temp))
        }
    };
    let mut args: Vec<OsString> = vec![
        "--only-needed".into(),
        "-o".into(),
        out.into(),
        first.into(),
    ];
    args.extend(libraries.iter().map(OsString::from));
    let result = link(args, out);
    if let Some(temp) = temp {
        let _ = std::fs::remove_file(temp);
    }
    result
}

fn link(args: Vec<OsString>, out: &Path) -> Result<(), IrError> {
    let linker = find_tool("llvm-link-19", "llvm-link")?;
    let result = run(&linker, &args)?;
    if !result.status.success() {
        return Err(IrError::Link {
            output: out.to_path_buf(),
            status: result.status.to_string(),
            diagnostics: String::from_utf8_lossy(&result.stderr).into_owned(),
        });
    }
    forward_warnings(&result);
    Ok(())
}

fn run(tool: &Path, args: &[OsString]) -> Result<Output, IrError> {
    tracing::debug!("running {} {:?}", tool.display(), args);
    Command::new(tool)
        .args(args)
        .output()
        .map_err(|source| IrError::ToolSpawn {
            tool: tool.display().to_string(),
            source,
        })
}

/// Copies a successful tool's diagnostics (warnings) to stderr unchanged.
fn forward_warnings(result: &Output) {
    let text = condense_layout_warnings(&String::from_utf8_lossy(&result.stderr));
    if !text.is_empty() {
        use std::io::Write;
        let _ = std::io::stderr().write_all(text.as_bytes());
    }
}

/// llvm-link's warnings with its "Linking two modules of different data layouts / target
/// triples" pairs (one per runtime module, each followed by an empty line) replaced by one
/// line: a program built for an older x86-64 data layout string (KLEE's tests) is linked
/// with sear's runtime all the same.
fn condense_layout_warnings(stderr: &str) -> String {
    let mut out = String::new();
    let mut condensed = false;
    let mut skip_blank = false;
    for line in stderr.lines() {
        if line.contains("Linking two modules of different data layouts")
            || line.contains("Linking two modules of different target triples")
        {
            condensed = true;
            skip_blank = true;
            continue;
        }
        if skip_blank && line.trim().is_empty() {
            skip_blank = false;
            continue;
        }
        skip_blank = false;
        out.push_str(line);
        out.push('\n');
    }
    if condensed {
        out.push_str(
            "warning: the program's data layout or target triple differs from sear's runtime's; \
             linked all the same\n",
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::condense_layout_warnings;

    #[test]
    fn layout_warnings_become_one_line() {
        let llvm_link = "warning: Linking two modules of different data layouts: 'a.bc' is 'e' \
                         whereas 'llvm-link' is 'e-p:64:64:64'\n\nwarning: Linking two modules \
                         of different target triples: 'a.bc' is 'x' whereas 'llvm-link' is \
                         'y'\n\nwarning: something else\n";
        let text = condense_layout_warnings(llvm_link);
        assert_eq!(
            text,
            "warning: something else\nwarning: the program's data layout or target triple \
             differs from sear's runtime's; linked all the same\n"
        );
        assert_eq!(condense_layout_warnings(""), "");
    }
}
