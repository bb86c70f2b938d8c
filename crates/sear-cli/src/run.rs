//! `sear run`: compile a C program (or load `.bc`/`.ll`), explore it, write tests.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::{bail, Context, Result};
use sear_engine::{EngineConfig, Executor};
use sear_ir::frontend::{compile_c, CompileOptions};
use sear_solver::SolverConfig;

use crate::progress::TerminalObserver;

/// Arguments of `sear run`: the engine's, the solver's and the indexify options are
/// declared on their configuration types (`EngineConfig`, `SolverConfig`, `Settings`) and
/// flattened here; the rest are the CLI's own.
#[derive(Debug, clap::Args)]
pub struct RunArgs {
    /// The program: a C file, LLVM bitcode (.bc) or textual IR (.ll).
    pub program: PathBuf,
    /// Arguments passed to the program's `main` (after the program name).
    #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
    pub args: Vec<String>,
    /// Output directory (default: sear-out-N in the current directory, with a sear-last link).
    #[arg(long, value_name = "DIR")]
    pub output_dir: Option<PathBuf>,
    /// Engine options (docs/techniques/relocatable-memory.md and symbolic-size.md for the
    /// memory and symbolic-size ones).
    #[command(flatten)]
    pub engine: EngineConfig,
    /// The relocatable-memory options beyond the model's own.
    #[command(flatten)]
    pub relocatable: crate::memory_args::RelocatableArgs,
    /// Check the lowered IR's invariants before running (sear-ir's verifier; always on in
    /// debug builds and in the test suites).
    #[arg(long)]
    pub verify_ir: bool,
    /// Links a library of LLVM bitcode with the program before the runtime: a .bc/.ll module or
    /// an archive of them, only what the program needs (KLEE's --link-llvm-lib; repeatable).
    #[arg(long = "link-llvm-lib", value_name = "PATH")]
    pub link_llvm_lib: Vec<PathBuf>,
    /// Extra flags for clang (split on whitespace; repeatable).
    #[arg(long, value_name = "FLAGS", allow_hyphen_values = true)]
    pub cflags: Vec<String>,
    /// Extra flags for clang++ when the program is C++ (split on whitespace; repeatable;
    /// after sear's `-stdlib=libc++ -std=c++17`, so `-std=c++20` overrides the standard).
    #[arg(long, value_name = "FLAGS", allow_hyphen_values = true)]
    pub cxxflags: Vec<String>,
    /// Include directory for clang (repeatable).
    #[arg(short = 'I', value_name = "DIR")]
    pub include: Vec<PathBuf>,
    /// Macro definition for clang (repeatable).
    #[arg(short = 'D', value_name = "NAME[=VALUE]")]
    pub define: Vec<String>,
    /// Optimisation level (0-3): clang's for a C program; for a .bc/.ll module, `opt -O<N>` is
    /// run on it first (KLEE's --optimize).
    #[arg(short = 'O', value_name = "LEVEL", default_value_t = 0, value_parser = clap::value_parser!(u8).range(0..=3))]
    pub opt_level: u8,
    /// SV-COMP's unreach-call property: a call of reach_error is the error whatever its body,
    /// __VERIFIER_assume(0) ends a path silently, the run stops at the first reach_error, and
    /// a verdict line is printed (TRUE: every path explored, none reaches it; FALSE and the
    /// test; UNKNOWN) and written to verdict.json.
    #[arg(long)]
    pub sv_comp: bool,
    /// The SV-COMP property checked with --sv-comp: unreach-call (the default),
    /// valid-memsafety (valid-free, valid-deref and valid-memtrack: invalid frees, invalid
    /// accesses and memory leaked at exit are the errors; the verdict names the violated
    /// one, e.g. FALSE(valid-memtrack)), or a property file (.prp) with either.
    #[arg(long, value_name = "PROPERTY", requires = "sv_comp",
          value_parser = crate::testcomp::parse_sv_property)]
    pub property: Option<crate::testcomp::SvProperty>,
    /// Test-Comp: also write the test suite in Test-Comp's format to OUT/test-suite
    /// (metadata.xml and one XML file per test with the __VERIFIER_nondet_* inputs in call
    /// order) for PROPERTY: cover-error (stops at the first reach_error), cover-branches, or
    /// a Test-Comp property file (.prp). --sv-comp's conventions and verdict line apply.
    #[arg(long, value_name = "PROPERTY", value_parser = crate::testcomp::parse_property)]
    pub test_comp: Option<crate::testcomp::TestCompProperty>,
    /// Solver options.
    #[command(flatten)]
    pub solver: SolverConfig,
    /// C runtime and environment-model options.
    #[command(flatten)]
    pub runtime: crate::runtime_link::RuntimeArgs,
    /// Indexify options (seed 004).
    #[command(flatten)]
    pub indexify: crate::indexify_args::IndexifyArgs,
    /// Branch-decision records (`--write-paths`, `--replay-path`).
    #[command(flatten)]
    pub paths: crate::path_args::PathArgs,
    /// Seeds (`--seed-file`, `--seed-dir`, `--seed-format`).
    #[command(flatten)]
    pub seeds: crate::seed_args::SeedArgs,
    /// Parallel exploration (`--jobs`).
    #[command(flatten)]
    pub parallel: crate::parallel::args::ParallelArgs,
}

impl RunArgs {
    /// True under `--sv-comp` or `--test-comp`: the competitions' conventions, verdict and
    /// suite apply.
    fn competition(&self) -> bool {
        self.sv_comp || self.test_comp.is_some()
    }

    /// Writes the verdict (and, under `--test-comp`, the suite) of the run in `output_dir`
    /// whose summary is `summary`; `pointer_bits` is the module's data model.
    fn finish_competition(
        &self,
        output_dir: &Path,
        summary: &sear_engine::output::Summary,
        pointer_bits: u32,
    ) -> Result<()> {
        crate::testcomp::finish(
            output_dir,
            &self.program,
            &self.engine.entry,
            summary,
            self.test_comp.as_ref(),
            self.property.unwrap_or_default(),
            pointer_bits,
        )
    }
}

/// Runs `sear run`; returns the process exit code.
pub fn run(args: &RunArgs) -> Result<i32> {
    match std::fs::metadata(&args.program) {
        Ok(m) if m.is_file() => {}
        Ok(m) if m.is_dir() => bail!("{}: is a directory", args.program.display()),
        Ok(_) => bail!("{}: not a regular file", args.program.display()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            bail!("{}: no such file", args.program.display())
        }
        Err(e) => bail!("{}: {e}", args.program.display()),
    }
    let program = args
        .program
        .canonicalize()
        .with_context(|| format!("resolving {}", args.program.display()))?;
    let worker = crate::parallel::worker::WorkerEnv::from_env()?;
    let output_dir = match (&worker, &args.output_dir) {
        (Some(w), _) => w.dir.clone(),
        (None, Some(dir)) => {
            if dir.exists()
                && std::fs::read_dir(dir)
                    .map(|mut d| d.next().is_some())
                    .unwrap_or(true)
            {
                bail!("output directory {} exists and is not empty", dir.display());
            }
            dir.clone()
        }
        (None, None) => next_output_dir()?,
    };
    if worker.is_none() && (args.parallel.jobs > 1 || args.parallel.cluster.is_some()) {
        return run_coordinator(args, &program, &output_dir);
    }
    args.indexify.check()?;
    let scratch = tempfile::tempdir().context("creating a temporary directory")?;
    let (hosts, host_infos) = args.runtime.host_files()?;
    let (bitcode, cflags, own_bitcode) = match crate::parallel::worker::prepared_bitcode()? {
        // A worker runs the module its coordinator compiled and linked once for all.
        Some(prepared) => prepared,
        None => prepare_bitcode(args, &program, scratch.path(), &hosts)?,
    };
    let load = if args.verify_ir {
        sear_ir::load_module_verified
    } else {
        sear_ir::load_module
    };
    let module = load(&bitcode).with_context(|| format!("loading {}", bitcode.display()))?;
    let pointer_bits = module.data_model.pointer_bits();
    let mut config = engine_config(args, &program, output_dir.clone())?;
    if worker.is_some() {
        // `--max-memory` is the machine's budget: each of the N workers gets its share.
        let jobs = u64::from(args.parallel.jobs.max(1));
        config.max_memory_mib = config.max_memory_mib.map(|m| (m / jobs).max(1));
    }
    // With the runtime, main is run by the runtime's entry (the POSIX model's set-up).
    let posix = !args.runtime.no_runtime
        && args.engine.entry == sear_engine::config::defaults::ENTRY
        && module
            .function_by_name("main")
            .is_some_and(|f| !module.function(f).is_declaration);
    if posix {
        config.entry = sear_runtime::ENTRY_FUNCTION.to_string();
    }
    let config_envp = config.envp.clone();
    let mut solver_config = args.solver.clone();
    args.relocatable.apply_solver(&mut solver_config);
    let mut configuration = serde_json::json!({ "engine": &config, "solver": &solver_config });
    let mut indexify = None;
    let module = if args.indexify.enabled() {
        let entry = config.entry.clone();
        let prepared = args
            .indexify
            .prepare(&own_bitcode, &module, &entry, args.verify_ir)?;
        let report = serde_json::to_value(&prepared.stats)?;
        configuration["indexify"] = report["settings"].clone();
        let tables = Arc::new(std::sync::Mutex::new(prepared.tables));
        indexify = Some((
            sear_engine::executor::IndexifyRun {
                tables: Arc::clone(&tables),
                helpers: prepared.helpers,
                report,
            },
            tables,
            prepared.cache_file,
        ));
        prepared.module
    } else {
        module
    };
    let mut link = None;
    let mut observer = TerminalObserver::new(args.engine.progress && worker.is_none());
    let forward = observer.forward();
    let mut executor = Executor::new(Arc::new(module), config, &solver_config, &mut observer)?;
    if let Some(w) = &worker {
        let mut connected =
            crate::parallel::worker::WorkerLink::connect(w, executor.interrupt_flag())?;
        *forward.lock().unwrap_or_else(|p| p.into_inner()) = Some(connected.writer());
        if let (Some(numbers), Some(run_dir)) = (connected.test_numbers(), w.run_dir()) {
            executor = executor.with_test_numbers(run_dir, Box::new(numbers));
        }
        executor = executor.with_work_queue(link.insert(connected));
    }
    let mut cache = None;
    if let Some((run, tables, file)) = indexify {
        executor.enable_indexify(run);
        cache = Some((tables, file));
    }
    let received = crate::signals::install(executor.interrupt_flag());
    let watchdog = args.engine.max_time.map(|limit| {
        let sv_comp = args.competition();
        crate::overrun::install(limit, output_dir.clone(), sv_comp)
    });
    let environment = args.runtime.env_file.as_ref().map(|_| config_envp.clone());
    let facts = RunFacts {
        posix,
        host_files: &host_infos,
        environment: environment.as_deref(),
        configuration,
    };
    write_info(&output_dir, &program, &cflags, args, facts)?;
    if args.output_dir.is_none() && worker.is_none() {
        update_last_link(&output_dir);
    }
    let summary = executor.run()?;
    if let Some(link) = link.as_mut() {
        link.done(&summary)?;
        return Ok(0);
    }
    if let Some(w) = &watchdog {
        w.disarm();
    }
    observer.finish();
    if args.competition() {
        args.finish_competition(&output_dir, &summary, pointer_bits)?;
    }
    if let Some((tables, file)) = &cache {
        crate::indexify_args::save_cache(tables, file.as_deref());
    }
    crate::term::errln!("sear: output directory: {}", output_dir.display());
    crate::term::errln!("sear: done: total instructions = {}", summary.instructions);
    crate::term::errln!("sear: done: completed paths = {}", summary.completed_paths);
    crate::term::errln!("sear: done: error paths = {}", summary.error_paths);
    crate::term::errln!(
        "sear: done: partially completed paths = {}",
        summary.early_paths
    );
    crate::term::errln!("sear: done: generated tests = {}", summary.tests);
    crate::term::errln!("sear: done: errors = {}", summary.errors.len());
    let status = exit_code(received.exit_status(), &summary.stop_reason);
    if status == 0 && args.engine.exit_on_error && !summary.errors.is_empty() {
        return Ok(1);
    }
    Ok(status)
}

/// `sear run --jobs N` (N > 1): the coordinator of N worker processes writing into
/// `output_dir` (`parallel/`).
fn run_coordinator(args: &RunArgs, program: &Path, output_dir: &Path) -> Result<i32> {
    let cluster = args.parallel.cluster.as_deref();
    if let Some(address) = cluster {
        let cpus = crate::parallel::check_cluster(address)?;
        if cpus < f64::from(args.parallel.jobs) {
            crate::term::errln!(
                "sear: warning: the cluster has {cpus} CPUs for {} workers; some wait for a CPU",
                args.parallel.jobs
            );
        }
    }
    // Compiled and linked once, here, for every worker (a compile error is the run's, said
    // once), before the output directory is made.
    let scratch = tempfile::tempdir().context("creating a temporary directory")?;
    let (hosts, _) = args.runtime.host_files()?;
    let (bitcode, cflags, own_bitcode) = prepare_bitcode(args, program, scratch.path(), &hosts)?;
    let work_root = output_dir.join(".workers");
    std::fs::create_dir_all(&work_root)
        .with_context(|| format!("creating {}", work_root.display()))?;
    if args.output_dir.is_none() {
        update_last_link(output_dir);
    }
    let prepared = crate::parallel::worker::PreparedBitcode::store(
        &work_root,
        &bitcode,
        &own_bitcode,
        cflags,
    )?;
    let interrupt = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let received = crate::signals::install(Arc::clone(&interrupt));
    // Whether every error is its own (the competition modes set it as a single run would).
    let mut errors_config = args.engine.clone();
    crate::testcomp::configure(
        &mut errors_config,
        args.sv_comp,
        args.test_comp.as_ref(),
        args.property.unwrap_or_default(),
    );
    let limits = crate::parallel::RunOptions {
        prepared: Some(prepared),
        progress: args.engine.progress,
        max_time: args.engine.max_time,
        max_instructions: args.engine.max_instructions,
        emit_all_errors: errors_config.emit_all_errors,
    };
    let competition = args.competition();
    // The Test-Comp suite's data model (ILP32 or LP64) is the module's.
    let pointer_bits = if competition {
        sear_ir::load_module(&bitcode)
            .with_context(|| format!("loading {}", bitcode.display()))?
            .data_model
            .pointer_bits()
    } else {
        64
    };
    let status =
        crate::parallel::run_parallel(args.parallel.jobs, output_dir, interrupt, cluster, limits)?;
    if competition {
        // The verdict and the suite come from the merged directory, as from one process's.
        let path = output_dir.join("summary.json");
        let text = std::fs::read_to_string(&path)
            .with_context(|| format!("reading {}", path.display()))?;
        let summary: sear_engine::output::Summary =
            serde_json::from_str(&text).with_context(|| format!("reading {}", path.display()))?;
        args.finish_competition(output_dir, &summary, pointer_bits)?;
    }
    Ok(received.exit_status().unwrap_or(status))
}

/// The exit status of a run: 128 + the signal that stopped it; else 130 (as for SIGINT)
/// when the engine says it was interrupted; else 0. An interrupted run is incomplete and
/// must not look like a finished one.
fn exit_code(signal_status: Option<i32>, stop_reason: &str) -> i32 {
    match signal_status {
        Some(status) => status,
        None if stop_reason == "interrupted" => 130,
        None => 0,
    }
}

/// Compiles (or copies) the program to bitcode linked with the runtime; returns the
/// bitcode, the compiler flags used (recorded for replay) and the program's own bitcode
/// before the runtime was linked.
fn prepare_bitcode(
    args: &RunArgs,
    program: &Path,
    scratch: &Path,
    hosts: &[sear_runtime::host_files::HostFile],
) -> Result<(PathBuf, Vec<String>, PathBuf)> {
    let extension = program.extension().and_then(|e| e.to_str()).unwrap_or("");
    let runtime = crate::runtime_dir::locate()?;
    let cxx = sear_ir::frontend::is_cxx_source(program);
    let split = |flags: &[String]| -> Vec<String> {
        flags
            .iter()
            .flat_map(|f| f.split_whitespace().map(str::to_string))
            .collect()
    };
    // The compiler's own flags (recorded for replay): for C++, libc++ and C++17 first.
    let mut user_flags: Vec<String> = Vec::new();
    if cxx {
        user_flags.extend(
            sear_ir::frontend::CXX_DEFAULT_FLAGS
                .iter()
                .map(|f| f.to_string()),
        );
        user_flags.extend(split(&args.cflags));
        user_flags.extend(split(&args.cxxflags));
    } else {
        // Competition tasks in older C: implicit declarations and the like as warnings.
        if args.competition() {
            user_flags.extend(
                crate::testcomp::LENIENT_CFLAGS
                    .iter()
                    .map(|f| f.to_string()),
            );
        }
        user_flags.extend(split(&args.cflags));
    }
    let mut cflags = user_flags.clone();
    cflags.extend(args.include.iter().map(|d| format!("-I{}", d.display())));
    cflags.extend(args.define.iter().map(|d| format!("-D{d}")));
    let bitcode = match extension {
        // -O on a module optimises it as clang's -O would have (KLEE's --optimize).
        "bc" | "ll" if args.opt_level > 0 => {
            let optimized = scratch.join("program.opt.bc");
            sear_ir::frontend::optimize_bitcode(program, &optimized, args.opt_level)
                .map_err(|e| anyhow::anyhow!("{e}"))?;
            optimized
        }
        "bc" | "ll" => program.to_path_buf(),
        _ if cxx || matches!(extension, "c" | "i") => {
            if cxx {
                // Before compiling: a missing library says how to build it.
                crate::cxx::library()?;
            }
            let options = CompileOptions {
                opt_level: args.opt_level,
                cflags: user_flags,
                include_dirs: args.include.clone(),
                defines: args.define.clone(),
                runtime_include_dir: Some(runtime.join("include")),
            };
            compile_c(program, scratch, &options).map_err(|e| anyhow::anyhow!("{e}"))?
        }
        other => bail!(
            "{}: unsupported input '.{other}' (expected a .c, .bc or .ll file, or C++: .cpp, \
             .cc, .cxx, .C, .c++)",
            program.display()
        ),
    };
    // C++: libc++ and libc++abi as bitcode (scripts/build-libcxx.sh), only what the
    // program needs, before sear's C runtime (which they call).
    let bitcode = if cxx || crate::cxx::looks_like_cxx(&bitcode) {
        match crate::cxx::libraries_for(&bitcode) {
            Ok(libraries) => {
                let linked = scratch.join("program.cxx.bc");
                sear_ir::frontend::link_with_libraries(&[bitcode], &libraries, &linked)
                    .map_err(|e| anyhow::anyhow!("linking the C++ standard library: {e}"))?;
                linked
            }
            Err(e) => {
                crate::term::errln!("sear: WARNING: {e:#}");
                bitcode
            }
        }
    } else {
        bitcode
    };
    let bitcode = if args.link_llvm_lib.is_empty() {
        bitcode
    } else {
        let libraries = args
            .link_llvm_lib
            .iter()
            .map(|l| {
                l.canonicalize()
                    .with_context(|| format!("--link-llvm-lib {}", l.display()))
            })
            .collect::<Result<Vec<_>>>()?;
        let with_libraries = scratch.join("program.libs.bc");
        sear_ir::frontend::link_with_libraries(&[bitcode], &libraries, &with_libraries)
            .map_err(|e| anyhow::anyhow!("linking --link-llvm-lib: {e}"))?;
        with_libraries
    };
    // Parsing it here rejects a file that is not LLVM (or is truncated) with sear's own
    // message, before llvm-link would quote it, and gives the program's target to the
    // modules sear links with it.
    let target = sear_ir::module_target(&bitcode).map_err(|e| anyhow::anyhow!("{e}"))?;
    if target.data_model == sear_ir::DataModel::Ilp32 {
        // KLEE warns that the module's and the host's targets differ.
        crate::term::errln!(
            "sear: WARNING: module and host target triples do not match ({} vs the host's \
             x86_64): the module runs with its 32-bit data layout (4-byte pointers and long), \
             linked with sear's i386 runtime",
            if target.triple.is_empty() {
                "none"
            } else {
                &target.triple
            }
        );
    }
    if args.runtime.no_runtime {
        return Ok((bitcode.clone(), cflags, bitcode));
    }
    let with_entry = args.engine.entry == sear_engine::config::defaults::ENTRY;
    let linked = args
        .runtime
        .link(&bitcode, scratch, with_entry, hosts, &target)?;
    Ok((linked, cflags, bitcode))
}

fn engine_config(args: &RunArgs, program: &Path, output_dir: PathBuf) -> Result<EngineConfig> {
    let mut config = args.engine.clone();
    config.output_dir = output_dir;
    args.relocatable.apply(&mut config)?;
    config.sym_size.check().map_err(anyhow::Error::msg)?;
    args.paths.apply(&mut config)?;
    args.seeds.apply(&mut config)?;
    let parallel = args.parallel.jobs > 1 || args.parallel.cluster.is_some();
    crate::testcomp::iteration_merge_defaults(&mut config, parallel)?;
    crate::testcomp::configure(
        &mut config,
        args.sv_comp,
        args.test_comp.as_ref(),
        args.property.unwrap_or_default(),
    );
    let name = program
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or("prog")
        .to_string();
    config.argv = args.runtime.program_argv(&name, &args.args)?;
    config.envp = args.runtime.environment()?;
    Ok(config)
}

/// What `info.json` records beside the command line.
struct RunFacts<'a> {
    /// The program runs under the POSIX model.
    posix: bool,
    /// The `--host-file`s, for replay.
    host_files: &'a [crate::runtime_link::HostFileInfo],
    /// The environment, when it came from `--env-file`.
    environment: Option<&'a [String]>,
    /// The complete engine and solver configuration.
    configuration: serde_json::Value,
}

fn write_info(
    dir: &Path,
    program: &Path,
    cflags: &[String],
    args: &RunArgs,
    facts: RunFacts,
) -> Result<()> {
    let RunFacts {
        posix,
        host_files,
        environment,
        configuration,
    } = facts;
    // The environment is recorded only when it came from --env-file: sear's own may hold
    // secrets, and replay takes its own environment then, as the run did.
    let info = serde_json::json!({
        "program": program,
        "cflags": cflags,
        "args": args.args,
        "posix_model": posix,
        "host_files": host_files,
        "link_llvm_libs": args
            .link_llvm_lib
            .iter()
            .map(|l| l.canonicalize().unwrap_or_else(|_| l.clone()))
            .collect::<Vec<_>>(),
        "env_file": args.runtime.env_file,
        "environment": environment,
        "search": args.engine.search,
        "seed": args.engine.seed,
        "sear_version": env!("CARGO_PKG_VERSION"),
        "configuration": configuration,
    });
    let path = dir.join("info.json");
    std::fs::write(&path, serde_json::to_string_pretty(&info)? + "\n")
        .with_context(|| format!("writing {}", path.display()))
}

/// The first `sear-out-N` that does not exist in the current directory.
fn next_output_dir() -> Result<PathBuf> {
    for n in 0..100_000 {
        let dir = PathBuf::from(format!("sear-out-{n}"));
        if !dir.exists() {
            return Ok(dir);
        }
    }
    bail!("no free sear-out-N directory name")
}

fn update_last_link(dir: &Path) {
    let link = Path::new("sear-last");
    if link.symlink_metadata().is_ok() {
        let _ = std::fs::remove_file(link);
    }
    #[cfg(unix)]
    let _ = std::os::unix::fs::symlink(dir, link);
}

#[cfg(test)]
mod tests {
    use super::exit_code;

    #[test]
    fn interrupted_runs_exit_non_zero() {
        assert_eq!(exit_code(None, "interrupted"), 130);
        assert_eq!(exit_code(Some(143), "interrupted"), 143);
        assert_eq!(exit_code(None, "exhausted"), 0);
        assert_eq!(exit_code(None, "max-time"), 0);
    }
}
