//! Engine configuration: one struct built by the CLI and passed down explicitly.
//!
//! With the `cli` feature, [`EngineConfig`] is also the declaration of `sear run`'s engine
//! options: every field set by an option carries it (`#[arg(...)]`: name, value name, range,
//! default), its doc comment is the option's help, and sear-cli flattens the struct into its
//! arguments (`#[command(flatten)]`). A new option is one field here (or in the nested
//! configuration it belongs to), with its default in [`defaults`] or the nested type's
//! `Default`; the fields no option sets are `#[arg(skip)]`.

mod kinds;

#[cfg(feature = "cli")]
use clap::builder::TypedValueParser as _;
use std::path::PathBuf;
use std::time::Duration;

pub use kinds::{FpMode, MemoryModelKind, SearchKind};

use crate::search::weighted::Weight;

/// The defaults of [`EngineConfig`], written once (the CLI shows and uses these).
pub mod defaults {
    /// Seed of every random choice.
    pub const SEED: u64 = 1;
    /// Memory budget in MiB.
    pub const MAX_MEMORY_MIB: u64 = 2000;
    /// Call-stack depth.
    pub const MAX_STACK_FRAMES: usize = 4096;
    /// Stack size in bytes (as `ulimit -s` natively).
    pub const MAX_STACK_SIZE: u64 = 8 << 20;
    /// Objects a symbolic pointer may resolve to.
    pub const MAX_RESOLUTIONS: usize = 64;
    /// Largest allocation (`malloc` returns NULL above it; an `alloca` above it is a model
    /// error): 1 TiB. Objects cost memory only for the pages a path writes.
    pub const MAX_ALLOC_SIZE: u64 = 1 << 40;
    /// The entry function.
    pub const ENTRY: &str = "main";
    /// Write a test for every state left when the run halts.
    pub const DUMP_STATES_ON_HALT: bool = true;
    /// Write a test for every state dropped at the memory limit.
    pub const TEST_DROPPED_STATES: bool = true;
    /// `argv[0]` until the CLI names the program.
    pub const PROGRAM_NAME: &str = "prog";
}

/// Everything the executor needs to know about a run (written whole to `info.json`).
#[derive(Clone, Debug, serde::Serialize)]
#[cfg_attr(feature = "cli", derive(clap::Args))]
pub struct EngineConfig {
    /// Search strategy; repeat to interleave: dfs, bfs, random-state, random-path, or KLEE's
    /// weighted random searchers nurs:covnew, nurs:md2u, nurs:depth, nurs:rp, nurs:icnt,
    /// nurs:cpicnt, nurs:qc. Default: random-path interleaved with nurs:covnew.
    #[cfg_attr(feature = "cli", arg(
        id = "search",
        long = "search",
        value_name = "NAME",
        value_enum,
        default_values_t = EngineConfig::default_search(),
        hide_default_value = true,
    ))]
    pub search: Vec<SearchKind>,
    /// The dive's quantum (on/off): `dfs` interleaved with other searchers keeps its turn
    /// across the forks of the path it follows until that path has run a quantum of
    /// instructions (2000), as a state that does not fork does. Default: on where
    /// `--sv-comp` adds the dive to the default searchers, off otherwise.
    // `search::Ordered::keeps_turn`; `summary.json`'s `dive_turns_kept` counts the
    // selections it added.
    #[cfg_attr(feature = "cli", arg(
        id = "dive-quantum",
        long = "dive-quantum",
        value_name = "on|off",
        num_args = 0..=1,
        require_equals = true,
        default_missing_value = "on",
        value_parser = sear_solver::cli::switch(),
    ))]
    pub dive_quantum: Option<bool>,
    /// Seed of all random choices.
    #[cfg_attr(feature = "cli", arg(
        id = "seed",
        long = "seed",
        value_name = "SEED",
        default_value_t = defaults::SEED,
    ))]
    pub seed: u64,
    /// Stop exploring after this many seconds (0 to 10^9).
    #[cfg_attr(feature = "cli", arg(
        id = "max-time",
        long = "max-time",
        value_name = "SECS",
        value_parser = sear_solver::cli::duration,
    ))]
    #[serde(serialize_with = "sear_solver::config::secs::serialize_opt")]
    pub max_time: Option<Duration>,
    /// Stop after this many instructions.
    #[cfg_attr(
        feature = "cli",
        arg(id = "max-instructions", long = "max-instructions", value_name = "N")
    )]
    pub max_instructions: Option<u64>,
    /// Memory budget in MiB (1 to 2^24); above it states are dropped.
    #[cfg_attr(feature = "cli", arg(
        id = "max-memory",
        long = "max-memory",
        value_name = "MIB",
        default_value = defaults::MAX_MEMORY_MIB.to_string(),
        value_parser = clap::value_parser!(u64).range(1..=1 << 24).map(Some),
    ))]
    // Written out so that clap takes the parser's `Option` as the value, not as optional:
    // the CLI always sets a budget.
    pub max_memory_mib: ::std::option::Option<u64>,
    /// Terminate paths after this many symbolic branches.
    #[cfg_attr(
        feature = "cli",
        arg(id = "max-depth", long = "max-depth", value_name = "N")
    )]
    pub max_depth: Option<u32>,
    /// Maximum call-stack depth (1 to 2^20 frames; `main` is the first).
    #[cfg_attr(feature = "cli", arg(
        id = "max-stack-frames",
        long = "max-stack-frames",
        value_name = "N",
        default_value_t = defaults::MAX_STACK_FRAMES,
        value_parser = clap::builder::RangedI64ValueParser::<usize>::new().range(1..=1 << 20),
    ))]
    pub max_stack_frames: usize,
    /// Stack size in bytes (1 to 2^40): `alloca`s (local arrays, VLAs) beyond it are a stack
    /// overflow.
    #[cfg_attr(feature = "cli", arg(
        id = "max-stack-size",
        long = "max-stack-size",
        value_name = "BYTES",
        default_value_t = defaults::MAX_STACK_SIZE,
        value_parser = clap::value_parser!(u64).range(1..=1 << 40),
    ))]
    pub max_stack_size: u64,
    /// Write a test for every error, not one per (kind, location); with
    /// --only-output-states-covering-new, for every error whose path covered something new.
    #[cfg_attr(feature = "cli", arg(id = "emit-all-errors", long = "emit-all-errors"))]
    pub emit_all_errors: bool,
    /// Write tests only for the paths that covered an instruction or took a control-flow
    /// edge (a branch direction) no earlier path covered; the first error of each kind and
    /// location is still written (KLEE's option of the same name).
    #[cfg_attr(
        feature = "cli",
        arg(
            id = "only-output-states-covering-new",
            long = "only-output-states-covering-new"
        )
    )]
    pub only_output_states_covering_new: bool,
    /// Write a test for every state left when the run halts (a limit or a signal); the halt
    /// spends at most a quarter of --max-time (1 s-5 min) on them and counts the rest in
    /// summary.json's tests_not_written.
    #[cfg_attr(feature = "cli", arg(
        id = "dump-states-on-halt",
        long = "dump-states-on-halt",
        value_name = "on|off",
        num_args = 0..=1,
        require_equals = true,
        default_missing_value = "on",
        default_value = sear_solver::cli::shown_switch(defaults::DUMP_STATES_ON_HALT),
        value_parser = sear_solver::cli::switch(),
    ))]
    pub dump_states_on_halt: bool,
    /// Stop at the first error, and exit with status 1 when one was found (as KLEE does).
    #[cfg_attr(feature = "cli", arg(id = "exit-on-error", long = "exit-on-error"))]
    pub exit_on_error: bool,
    /// Merge the paths between klee_open_merge() and klee_close_merge() into one (KLEE's
    /// --use-merge); without it both calls are ignored.
    #[cfg_attr(feature = "cli", arg(id = "use-merge", long = "use-merge"))]
    pub use_merge: bool,
    /// Print a line at every klee_open_merge and klee_close_merge (KLEE's
    /// --debug-log-merge).
    // The lines go to the observer and `messages.txt`: `open merge: N` / `close merge: N`.
    #[cfg_attr(feature = "cli", arg(id = "debug-log-merge", long = "debug-log-merge"))]
    pub debug_log_merge: bool,
    /// Memory model: `standard` (KLEE's: concrete addresses, one path per object a symbolic
    /// pointer may point into) or `relocatable` (seed 003: symbolic base addresses; the same
    /// as --use-sym-addr).
    #[cfg_attr(feature = "cli", arg(
        id = "memory-model",
        long = "memory-model",
        value_name = "MEMORY_MODEL",
        value_enum,
        default_value_t = MemoryModelKind::default(),
    ))]
    pub memory_model: MemoryModelKind,
    /// Floating point: `symbolic` (float and double operations on symbolic values build
    /// floating-point expressions) or `concretize` (symbolic operands are concretised, with a
    /// warning).
    #[cfg_attr(feature = "cli", arg(
        id = "fp",
        long = "fp",
        value_name = "MODE",
        value_enum,
        default_value_t = FpMode::default(),
    ))]
    pub fp: FpMode,
    /// Options of the relocatable model (DSMM, contexts, reuse, splitting).
    #[cfg_attr(feature = "cli", command(flatten))]
    pub relocatable: crate::memory::relocatable::RelocatableConfig,
    /// Symbolic allocation sizes: mode, capacity, loop merging (seed 003 Ch. 5).
    #[cfg_attr(feature = "cli", command(flatten))]
    pub sym_size: crate::sym_size::SymSizeConfig,
    /// Seeds and how they are used (`--seed-file`, `--only-seed`, ...).
    #[cfg_attr(feature = "cli", command(flatten))]
    pub seeding: crate::seed::SeedConfig,
    /// Loop-iteration merging (`--merge-loop-iterations`, its cap).
    #[cfg_attr(feature = "cli", command(flatten))]
    pub iteration_merge: crate::loop_merge::iteration::IterationMergeConfig,
    /// Stop at the first error of one of these kinds (repeatable, or comma-separated): the
    /// `.err` suffixes (ptr, assert, ...) or KLEE's names (Ptr, Assert, ReadOnly, ...). Unlike
    /// --exit-on-error, the exit status stays 0.
    // Stored as `.err` suffixes.
    #[cfg_attr(feature = "cli", arg(
        id = "exit-on-error-type",
        long = "exit-on-error-type",
        value_name = "KIND",
        value_delimiter = ',',
        value_parser = |kind: &str| {
            Ok::<_, std::convert::Infallible>(crate::ErrorKind::suffix_for_name(kind))
        },
    ))]
    pub exit_on_error_types: Vec<String>,
    /// A provably false klee_assume ends its path silently, without a test or an error (as
    /// KLEE's --silent-klee-assume).
    #[cfg_attr(
        feature = "cli",
        arg(id = "silent-klee-assume", long = "silent-klee-assume")
    )]
    pub silent_klee_assume: bool,
    /// The function to start from.
    #[cfg_attr(feature = "cli", arg(
        id = "entry",
        long = "entry",
        value_name = "ENTRY",
        default_value = defaults::ENTRY,
    ))]
    pub entry: String,
    /// Do not show the live progress line.
    // The field: show a live progress line on a terminal.
    #[cfg_attr(feature = "cli", arg(id = "no-progress", long = "no-progress", action = clap::ArgAction::SetFalse))]
    pub progress: bool,
    /// Array-read transformations (`--optimize-array` and its thresholds).
    #[cfg_attr(feature = "cli", command(flatten))]
    pub array_opt: sear_arrayopt::ArrayOptConfig,
    /// Disable dynamic constant folding of reads (constant-array reads at constant
    /// offsets and reads through provably different writes), for ablation studies.
    // The policy governs the reads of the engine's memory, those the array optimiser
    // rebuilds and those the eager core rebuilds (the engine sets it in the solver
    // configurations it uses).
    #[cfg_attr(feature = "cli", arg(
        id = "no-array-folding",
        long = "no-array-folding",
        action = clap::ArgAction::SetTrue,
        value_parser = clap::builder::BoolValueParser::new()
            .map(|unfolded| sear_expr::ReadPolicy::from_folding(!unfolded)),
    ))]
    #[serde(serialize_with = "serialize_read_policy")]
    pub read_policy: sear_expr::ReadPolicy,
    /// Disable the AC normalisation of the expression builder (chains of `+`, `*`, `&`, `|`
    /// and `^` kept with their operands in one order, so that a reduction computed in two
    /// orders is one expression and comparing the two needs no query), for ablation studies.
    // `sear_expr::ac`, process-wide: set when the executor is created; counted as
    // `ac_normalization` in `summary.json`.
    #[cfg_attr(feature = "cli", arg(
        id = "no-ac-normalize",
        long = "no-ac-normalize",
        action = clap::ArgAction::SetFalse,
    ))]
    pub ac_normalize: bool,
    /// Disable the `ite` lifting of the expression builder (an operator over two `ite`s on
    /// one condition, or over an `ite` of constants and a constant, built as one `ite` of
    /// the operator over the branches: merged values combine without a query), for
    /// ablation studies.
    // `sear_expr::ite_lift`, process-wide: set when the executor is created; counted as
    // `ite_lifting` in `summary.json`.
    #[cfg_attr(feature = "cli", arg(
        id = "no-ite-lifting",
        long = "no-ite-lifting",
        action = clap::ArgAction::SetFalse,
    ))]
    pub ite_lifting: bool,
    /// Disable the rewrite of a comparison of an `ite` tree with constant leaves (a merged
    /// loop's flag, `ite(c1, 0, ite(c2, 0, 1))`) against a constant as a formula over the
    /// tree's conditions (`¬c1 ∧ ¬c2`), for ablation studies.
    // `sear_expr::ite_compare`, process-wide: set when the executor is created; counted as
    // `ite_compare` in `summary.json`.
    #[cfg_attr(feature = "cli", arg(
        id = "no-ite-compare",
        long = "no-ite-compare",
        action = clap::ArgAction::SetFalse,
    ))]
    pub ite_compare: bool,
    /// Prove every transformed expression equivalent to its original with the solver; a
    /// disagreement ends the path with an `exec` error.
    #[cfg_attr(
        feature = "cli",
        arg(id = "validate-array-opt", long = "validate-array-opt")
    )]
    pub validate_array_opt: bool,
    /// Write `testNNNNNN.trace` with each path's instruction-trace hash.
    #[cfg_attr(
        feature = "cli",
        arg(id = "write-trace-hash", long = "write-trace-hash")
    )]
    pub write_trace_hash: bool,
    /// Write each test's branch decisions to `testNNNNNN.path` (one decision per line:
    /// `KIND TAKEN/OF @AT fF:bB:iI [forced]`; docs/paths.md).
    #[cfg_attr(feature = "cli", arg(id = "write-paths", long = "write-paths"))]
    pub write_paths: bool,
    /// Follow this recorded path from the initial state (`--replay-path FILE`, read by the
    /// CLI; the command line in `info.json` names the file).
    #[serde(skip)]
    #[cfg_attr(feature = "cli", arg(skip))]
    pub replay_path: Option<std::sync::Arc<crate::path::PathRecord>>,
    /// Directory for tests and statistics (`--output-dir`, or the next `sear-out-N`).
    #[cfg_attr(feature = "cli", arg(skip))]
    pub output_dir: PathBuf,
    /// Arguments for `main` (argv[0] is the program name).
    #[cfg_attr(feature = "cli", arg(skip = vec![defaults::PROGRAM_NAME.into()]))]
    pub argv: Vec<String>,
    /// The environment given to `main` as `envp` (`NAME=value` strings).
    /// Not written to `info.json`: the user's environment may hold secrets.
    #[serde(skip)]
    #[cfg_attr(feature = "cli", arg(skip))]
    pub envp: Vec<String>,
    /// Largest symbolic pointer resolution (objects per access) before giving up.
    #[cfg_attr(feature = "cli", arg(skip = defaults::MAX_RESOLUTIONS))]
    pub max_resolutions: usize,
    /// Largest allocation: `malloc` of more returns NULL, an `alloca` of more is a model
    /// error.
    #[cfg_attr(feature = "cli", arg(skip = defaults::MAX_ALLOC_SIZE))]
    pub max_alloc_size: u64,
    /// Write a test for every state dropped at the memory limit, within a twentieth of
    /// `--max-time` per drop (as KLEE does). Off under `--sv-comp` and `--test-comp
    /// cover-error`, where only the error's test counts.
    #[cfg_attr(feature = "cli", arg(skip = defaults::TEST_DROPPED_STATES))]
    pub test_dropped_states: bool,
    /// SV-COMP's conventions: a call of `reach_error` (or `__VERIFIER_error`) ends the path
    /// with a `reach` error even where the program defines the function (`--sv-comp`,
    /// `--test-comp`).
    #[cfg_attr(feature = "cli", arg(skip))]
    pub sv_comp: bool,
    /// SV-COMP's valid-memtrack: a path that exits (`main` returns or `exit` is called)
    /// while heap objects are allocated that no global reaches ends with a `leak` error
    /// (`--sv-comp --property valid-memsafety`; `executor/leaks.rs`).
    #[cfg_attr(feature = "cli", arg(skip))]
    pub check_leaks: bool,
    /// SV-COMP's reading of uninitialised locals: each stack object of at most 64 bytes
    /// allocated by the program (not the runtime) starts with symbolic contents
    /// (`--sv-comp` without `--test-comp`, whose tests could not give them).
    #[cfg_attr(feature = "cli", arg(skip))]
    pub nondet_uninit_locals: bool,
}

impl EngineConfig {
    /// The default searcher, KLEE's: random-path interleaved with nurs:covnew.
    pub fn default_search() -> Vec<SearchKind> {
        vec![SearchKind::RandomPath, SearchKind::Nurs(Weight::CovNew)]
    }

    /// A configuration with KLEE's defaults writing to `output_dir`.
    pub fn new(output_dir: PathBuf) -> Self {
        EngineConfig {
            search: Self::default_search(),
            dive_quantum: None,
            seed: defaults::SEED,
            max_time: None,
            max_instructions: None,
            max_memory_mib: Some(defaults::MAX_MEMORY_MIB),
            max_depth: None,
            max_stack_frames: defaults::MAX_STACK_FRAMES,
            max_stack_size: defaults::MAX_STACK_SIZE,
            emit_all_errors: false,
            only_output_states_covering_new: false,
            output_dir,
            argv: vec![defaults::PROGRAM_NAME.into()],
            envp: Vec::new(),
            entry: defaults::ENTRY.into(),
            max_resolutions: defaults::MAX_RESOLUTIONS,
            max_alloc_size: defaults::MAX_ALLOC_SIZE,
            dump_states_on_halt: defaults::DUMP_STATES_ON_HALT,
            test_dropped_states: defaults::TEST_DROPPED_STATES,
            exit_on_error: false,
            exit_on_error_types: Vec::new(),
            silent_klee_assume: false,
            progress: true,
            array_opt: Default::default(),
            read_policy: sear_expr::ReadPolicy::Fold,
            ac_normalize: true,
            ite_lifting: true,
            ite_compare: true,
            validate_array_opt: false,
            write_trace_hash: false,
            write_paths: false,
            replay_path: None,
            sv_comp: false,
            check_leaks: false,
            nondet_uninit_locals: false,
            use_merge: false,
            debug_log_merge: false,
            memory_model: MemoryModelKind::Standard,
            fp: FpMode::default(),
            relocatable: Default::default(),
            sym_size: Default::default(),
            seeding: Default::default(),
            iteration_merge: Default::default(),
        }
    }
}

fn serialize_read_policy<S: serde::Serializer>(
    policy: &sear_expr::ReadPolicy,
    s: S,
) -> Result<S::Ok, S::Error> {
    s.serialize_str(if policy.folds() { "fold" } else { "unfolded" })
}
