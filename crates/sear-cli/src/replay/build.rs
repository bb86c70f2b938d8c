//! Building the program under test natively, with sanitizers, against the replay runtime.

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{bail, Context, Result};

/// The environment variable naming the clang to use (default `clang-19`).
pub const CLANG_ENV: &str = "SEAR_CLANG";

/// Sanitizer checks every replay build has: ASan for memory errors and the UBSan checks that
/// match sear's `div`, `overshift` and `unreachable_call` errors.
const BASE_SANITIZERS: &str = "address,integer-divide-by-zero,shift-exponent,unreachable";

/// Flags of a bitcode build that make no sense for a native executable.
const DROPPED_FLAGS: &[&str] = &["-emit-llvm", "-c", "-S", "-flto"];

/// What to build.
#[derive(Clone, Debug)]
pub struct BuildConfig {
    /// The clang executable.
    pub clang: String,
    /// sear's runtime directory (holds `include/` and `replay/sear_replay.c`).
    pub runtime_dir: PathBuf,
    /// The C source of the program under test.
    pub program: PathBuf,
    /// Extra compiler flags for the program (include dirs, defines, user flags).
    pub cflags: Vec<String>,
    /// Also check signed integer overflow (when sear reported `overflow` errors).
    pub check_overflow: bool,
    /// Interpose `read` and `write` to replay `--fd-fail` failures.
    pub fd_fail: bool,
    /// Bitcode libraries the run linked (`--link-llvm-lib`): modules are compiled with the
    /// program, archives' members extracted first.
    pub libraries: Vec<PathBuf>,
    /// Interpose the calls that answer from the POSIX model's recorded file statuses
    /// (`stat`, `isatty`, `ioctl`, `open`, ...), for runs that used the model.
    pub posix_model: bool,
    /// Build for `sear coverage`: the program (and its libraries) with gcov instrumentation
    /// (`--coverage`) instead of sanitizers; the replay library writes the counts also when
    /// the program dies of a signal.
    pub coverage: bool,
}

impl BuildConfig {
    /// The clang named by `SEAR_CLANG`, or `clang-19`.
    pub fn default_clang() -> String {
        std::env::var(CLANG_ENV).unwrap_or_else(|_| "clang-19".to_string())
    }

    /// The build for the tests of `set`: its program, libraries and model, the run's
    /// compiler flags followed by `extra`.
    pub fn for_tests(
        set: &super::testset::TestSet,
        program: PathBuf,
        extra: &super::ExtraFlags,
    ) -> Result<BuildConfig> {
        Ok(BuildConfig {
            fd_fail: set.uses_fd_fail(),
            libraries: set.info.link_llvm_libs.clone(),
            posix_model: set.info.posix_model,
            clang: BuildConfig::default_clang(),
            runtime_dir: crate::runtime_dir::locate()?,
            program,
            cflags: extra.after(&set.info.cflags),
            check_overflow: false,
            coverage: false,
        })
    }

    /// The instrumentation flags of the program: sanitizers, or gcov's for coverage.
    fn instrumentation(&self) -> Vec<String> {
        if self.coverage {
            return vec!["--coverage".to_string()];
        }
        vec![
            self.sanitize_flag(),
            "-fno-sanitize-recover=all".to_string(),
        ]
    }

    fn sanitize_flag(&self) -> String {
        let mut checks = BASE_SANITIZERS.to_string();
        if self.check_overflow {
            checks.push_str(",signed-integer-overflow");
        }
        format!("-fsanitize={checks}")
    }
}

/// Compiles the runtime and the program into `out_dir` and returns the executable's path.
pub fn build(config: &BuildConfig, out_dir: &Path) -> Result<PathBuf> {
    let include = config.runtime_dir.join("include");
    let runtime_src = config.runtime_dir.join("replay/sear_replay.c");
    if !runtime_src.is_file() {
        bail!("replay runtime {} not found", runtime_src.display());
    }
    let mut common = vec![
        "-g".to_string(),
        "-O0".to_string(),
        "-fno-omit-frame-pointer".to_string(),
    ];
    // A 32-bit program (-m32) is replayed as a 32-bit executable: the replay library, the
    // stubs and the link are built for the program's target too.
    common.extend(target_flags(&config.cflags));
    common.extend(config.instrumentation());

    // The runtime gets only our flags, so user flags such as -Werror cannot break it.
    let runtime_obj = out_dir.join("sear_replay.o");
    let mut cmd = compiler(config, out_dir);
    if config.fd_fail {
        cmd.arg("-DSEAR_REPLAY_FD_FAIL");
    }
    if config.posix_model {
        cmd.arg("-DSEAR_REPLAY_POSIX");
    }
    if config.coverage {
        // The library itself is not measured.
        cmd.args(["-DSEAR_REPLAY_COVERAGE", "-g", "-O0"]);
    } else {
        cmd.args(&common);
    }
    cmd.arg("-I")
        .arg(&include)
        .arg("-c")
        .arg(&runtime_src)
        .arg("-o")
        .arg(&runtime_obj);
    run_compiler(cmd, "the replay runtime")?;

    let library_inputs = library_inputs(&config.libraries, out_dir)?;
    let cflags = if config.coverage {
        absolute_paths(&config.cflags)
    } else {
        config.cflags.clone()
    };
    let program_inputs = program_inputs(config, &common, out_dir)?;
    let exe = out_dir.join("replay-program");
    let link = |extra: Option<&Path>| {
        let mut cmd = linker(config, out_dir);
        cmd.args(&common)
            .arg("-I")
            .arg(&include)
            .args(filter_cflags(&cflags))
            .args(&program_inputs)
            .args(&library_inputs)
            .arg(&runtime_obj)
            .args(extra)
            .arg("-lm");
        if !config.coverage {
            // The replay runtime's __wrap_malloc/__wrap_calloc make zero-size allocations
            // zero-size objects for ASan (it gives malloc(0) one addressable byte).
            cmd.arg("-Wl,--wrap=malloc,--wrap=calloc");
        }
        cmd.arg("-o").arg(&exe);
        cmd
    };
    let what = config.program.display().to_string();
    let output = compiler_output(link(None))?;
    if output.status.success() {
        return Ok(exe);
    }
    // Functions the program declares but nothing defines (sear reports calls to them as
    // `exec` errors): link a stub for each that aborts with a clear message, so that the
    // other tests still replay.
    let stderr = String::from_utf8_lossy(&output.stderr);
    let undefined = undefined_symbols(&stderr);
    if undefined.is_empty() {
        return Err(build_failure(&what, &output));
    }
    let stubs_src = out_dir.join("sear_replay_stubs.c");
    std::fs::write(&stubs_src, stubs_source(&undefined))
        .with_context(|| format!("writing {}", stubs_src.display()))?;
    let stubs_obj = out_dir.join("sear_replay_stubs.o");
    let mut cmd = compiler(config, out_dir);
    cmd.args(&common)
        .arg("-c")
        .arg(&stubs_src)
        .arg("-o")
        .arg(&stubs_obj);
    run_compiler(cmd, "stubs for undefined functions")?;
    let output = compiler_output(link(Some(&stubs_obj)))?;
    if !output.status.success() {
        return Err(build_failure(&what, &output));
    }
    Ok(exe)
}

/// The suffix of the manifest wllvm's `extract-bc -m` writes beside a whole-program module:
/// the module's per-object bitcode files, one path a line.
pub const MANIFEST_SUFFIX: &str = ".llvm.manifest";

/// What to compile for the program: the program itself, or, for a coverage build of a
/// bitcode module with a wllvm manifest (`PROGRAM.llvm.manifest` beside `PROGRAM.bc`, as
/// `extract-bc -m` names it, or `PROGRAM.bc.llvm.manifest`), each object's bitcode
/// compiled on its own (in `out_dir/unit-N`). LLVM's gcov pass assumes one compilation unit
/// per module: on a module linked from many it instruments every function once per unit
/// and writes notes gcov cannot read back, so a whole program is measured as its objects.
fn program_inputs(config: &BuildConfig, common: &[String], out_dir: &Path) -> Result<Vec<PathBuf>> {
    // extract-bc -m -o P.bc writes P.llvm.manifest; P.bc.llvm.manifest is accepted too.
    let manifest = [
        config.program.with_extension("llvm.manifest"),
        PathBuf::from(format!("{}{MANIFEST_SUFFIX}", config.program.display())),
    ]
    .into_iter()
    .find(|m| m.is_file());
    let Some(manifest) = manifest.filter(|_| config.coverage) else {
        return Ok(vec![config.program.clone()]);
    };
    let text = std::fs::read_to_string(&manifest)
        .with_context(|| format!("reading {}", manifest.display()))?;
    let mut objects = Vec::new();
    for (n, unit) in text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .enumerate()
    {
        let dir = out_dir.join(format!("unit-{n}"));
        std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
        let object = dir.join("unit.o");
        let mut cmd = Command::new(&config.clang);
        cmd.current_dir(&dir)
            .args(common)
            .arg("-c")
            .arg(unit)
            .arg("-o")
            .arg(&object);
        run_compiler(cmd, &format!("{unit} (from {})", manifest.display()))?;
        objects.push(object);
    }
    if objects.is_empty() {
        bail!("{} lists no bitcode file", manifest.display());
    }
    Ok(objects)
}

/// A clang command. Coverage builds run in `out_dir`: gcov's notes of a bitcode module with
/// several compilation units (a whole program linked by wllvm or llvm-link) are written, one
/// per unit, to the current directory.
fn compiler(config: &BuildConfig, out_dir: &Path) -> Command {
    let mut cmd = Command::new(&config.clang);
    if config.coverage {
        cmd.current_dir(out_dir);
    }
    cmd
}

/// The command that compiles the program and links the executable: clang++ (with libc++,
/// as sear linked it) for a C++ program, the C compiler otherwise.
fn linker(config: &BuildConfig, out_dir: &Path) -> Command {
    if !sear_ir::frontend::is_cxx_source(&config.program) {
        return compiler(config, out_dir);
    }
    let cxx = match config.clang.strip_suffix("clang-19") {
        Some(prefix) => format!("{prefix}clang++-19"),
        None => config.clang.replace("clang", "clang++"),
    };
    let mut cmd = Command::new(cxx);
    if config.coverage {
        cmd.current_dir(out_dir);
    }
    cmd.arg("-stdlib=libc++");
    cmd
}

/// `flags` with the paths of include options made absolute (for a compiler that runs in
/// another directory).
pub fn absolute_paths(flags: &[String]) -> Vec<String> {
    const PATH_OPTIONS: &[&str] = &[
        "-I",
        "-isystem",
        "-iquote",
        "-idirafter",
        "-include",
        "-imacros",
    ];
    let absolute = |p: &str| {
        std::path::absolute(p)
            .map(|a| a.display().to_string())
            .unwrap_or_else(|_| p.to_string())
    };
    let mut out = Vec::with_capacity(flags.len());
    let mut iter = flags.iter();
    while let Some(flag) = iter.next() {
        if PATH_OPTIONS.contains(&flag.as_str()) {
            out.push(flag.clone());
            if let Some(path) = iter.next() {
                out.push(absolute(path));
            }
            continue;
        }
        // Joined forms (`-Iinc`, `-isystem/usr/x`); not `-include-pch` and the like.
        let joined = PATH_OPTIONS.iter().find(|o| {
            flag.len() > o.len() && flag.starts_with(*o) && !flag[o.len()..].starts_with('-')
        });
        match joined {
            Some(option) => out.push(format!("{option}{}", absolute(&flag[option.len()..]))),
            None => out.push(flag.clone()),
        }
    }
    out
}

/// The files to compile with the program for `--link-llvm-lib` libraries: modules as they
/// are, the members of archives extracted into `out_dir` (named `.bc`, so clang compiles
/// them; the native linker takes no bitcode objects).
fn library_inputs(libraries: &[PathBuf], out_dir: &Path) -> Result<Vec<PathBuf>> {
    let mut inputs = Vec::new();
    for (n, library) in libraries.iter().enumerate() {
        let library = &std::path::absolute(library).unwrap_or_else(|_| library.clone());
        let is_module = library.extension().is_some_and(|e| e == "bc" || e == "ll");
        if is_module {
            inputs.push(library.clone());
            continue;
        }
        let dir = out_dir.join(format!("library{n}"));
        std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
        let ar = sear_ir::frontend::find_tool("llvm-ar-19", "llvm-ar")
            .map_err(|e| anyhow::anyhow!("{e}"))?;
        let mut cmd = Command::new(ar);
        cmd.arg("x").arg(library).current_dir(&dir);
        run_compiler(cmd, "extracting a --link-llvm-lib archive")?;
        let mut members: Vec<PathBuf> = std::fs::read_dir(&dir)
            .with_context(|| format!("reading {}", dir.display()))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .collect();
        members.sort();
        for member in members {
            let renamed = member.with_extension("bc");
            std::fs::rename(&member, &renamed)
                .with_context(|| format!("renaming {}", member.display()))?;
            inputs.push(renamed);
        }
    }
    Ok(inputs)
}

/// The marker of a stub's message: `sear-replay: undefined external function NAME called`.
pub const UNDEFINED_FUNCTION_MARKER: &str = "sear-replay: undefined external function ";

/// The symbols a failed link names as undefined (GNU ld's "undefined reference to `f'",
/// lld's "undefined symbol: f"), sorted and deduplicated; only C identifiers.
pub fn undefined_symbols(linker_output: &str) -> Vec<String> {
    let mut names = std::collections::BTreeSet::new();
    for line in linker_output.lines() {
        let name = if let Some(at) = line.find("undefined reference to `") {
            let rest = &line[at + "undefined reference to `".len()..];
            rest.split('\'').next().unwrap_or("")
        } else if let Some(at) = line.find("undefined symbol: ") {
            line[at + "undefined symbol: ".len()..].trim()
        } else {
            continue;
        };
        let is_identifier = !name.is_empty()
            && !name.starts_with(|c: char| c.is_ascii_digit())
            && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
        if is_identifier {
            names.insert(name.to_string());
        }
    }
    names.into_iter().collect()
}

/// C source defining a stub for each name that reports the call and aborts.
fn stubs_source(names: &[String]) -> String {
    let mut c = String::from(
        "/* Generated by sear replay: stubs for functions nothing defines. */\n\
         #include <stdio.h>\n#include <stdlib.h>\n",
    );
    for name in names {
        c.push_str(&format!(
            "void {name}(void) {{\n  fputs(\"{UNDEFINED_FUNCTION_MARKER}{name} called\\n\", \
             stderr);\n  abort();\n}}\n"
        ));
    }
    c
}

fn compiler_output(mut cmd: Command) -> Result<std::process::Output> {
    cmd.output()
        .with_context(|| format!("cannot run {:?}", cmd.get_program()))
}

fn build_failure(what: &str, output: &std::process::Output) -> anyhow::Error {
    anyhow::anyhow!(
        "building {what} for replay failed ({}):\n{}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    )
}

/// The flags among `flags` that choose the target (`-m32`, `-m64`, `--target=T`,
/// `-target T`), in order.
pub fn target_flags(flags: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    let mut iter = flags.iter();
    while let Some(flag) = iter.next() {
        if flag == "-m32" || flag == "-m64" || flag.starts_with("--target=") {
            out.push(flag.clone());
        } else if flag == "-target" {
            out.push(flag.clone());
            out.extend(iter.next().cloned());
        }
    }
    out
}

/// Drops flags meant for a bitcode build (`-emit-llvm`, `-c`, `-o <file>`, ...).
pub fn filter_cflags(flags: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    let mut iter = flags.iter();
    while let Some(flag) = iter.next() {
        if flag == "-o" {
            iter.next();
        } else if !DROPPED_FLAGS.contains(&flag.as_str()) && !flag.starts_with("-o") {
            out.push(flag.clone());
        }
    }
    out
}

fn run_compiler(cmd: Command, what: &str) -> Result<()> {
    let output = compiler_output(cmd)?;
    if !output.status.success() {
        return Err(build_failure(what, &output));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn undefined_symbols_of_both_linkers() {
        let ld = "/usr/bin/ld: /tmp/p-1.o: in function `main':\n\
                  p.c:(.text+0x1d): undefined reference to `ext_fn'\n\
                  /usr/bin/ld: p.c:(.text+0x3d): undefined reference to `ext_fn'\n\
                  ld.lld: error: undefined symbol: other_fn\n\
                  clang: error: linker command failed with exit code 1";
        assert_eq!(undefined_symbols(ld), vec!["ext_fn", "other_fn"]);
        let stubs = stubs_source(&undefined_symbols(ld));
        assert!(stubs.contains("void ext_fn(void) {"), "{stubs}");
        assert!(stubs.contains("undefined external function ext_fn called"));
    }

    #[test]
    fn target_flags_are_picked_out() {
        let flags: Vec<String> = ["-O1", "-m32", "-DX", "-target", "i386-linux-gnu", "-g"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        assert_eq!(
            target_flags(&flags),
            vec!["-m32", "-target", "i386-linux-gnu"]
        );
    }

    #[test]
    fn include_paths_are_made_absolute() {
        let cwd = std::env::current_dir().unwrap();
        let flags: Vec<String> = [
            "-Iinc", "-I", "inc", "-isystem", "/abs", "-DX=1", "-include", "h.h",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let inc = cwd.join("inc").display().to_string();
        assert_eq!(
            absolute_paths(&flags),
            vec![
                format!("-I{inc}"),
                "-I".to_string(),
                inc.clone(),
                "-isystem".to_string(),
                "/abs".to_string(),
                "-DX=1".to_string(),
                "-include".to_string(),
                cwd.join("h.h").display().to_string(),
            ]
        );
    }

    #[test]
    fn bitcode_flags_are_dropped() {
        let flags: Vec<String> = [
            "-emit-llvm",
            "-c",
            "-DX=1",
            "-o",
            "a.bc",
            "-I/inc",
            "-oa.bc",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        assert_eq!(filter_cflags(&flags), vec!["-DX=1", "-I/inc"]);
    }
}
