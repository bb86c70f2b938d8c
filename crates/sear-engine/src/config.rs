//! Engine configuration: one struct built by the CLI and passed down explicitly.

use std::path::PathBuf;
use std::time::Duration;

use crate::search::weighted::Weight;

/// A search strategy (`--search`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SearchKind {
    /// Depth-first.
    Dfs,
    /// Breadth-first.
    Bfs,
    /// Uniformly random state.
    RandomState,
    /// Random walk of the process tree (KLEE's random-path).
    RandomPath,
    /// KLEE's non-uniform random searchers (`nurs:covnew`, `nurs:md2u`, ...).
    Nurs(crate::search::weighted::Weight),
}

impl SearchKind {
    /// Every searcher, in the order `--help` lists them.
    pub const ALL: [SearchKind; 11] = [
        SearchKind::Dfs,
        SearchKind::Bfs,
        SearchKind::RandomState,
        SearchKind::RandomPath,
        SearchKind::Nurs(Weight::CovNew),
        SearchKind::Nurs(Weight::MinDistToUncovered),
        SearchKind::Nurs(Weight::Depth),
        SearchKind::Nurs(Weight::RandomPath),
        SearchKind::Nurs(Weight::InstCount),
        SearchKind::Nurs(Weight::CallPathInstCount),
        SearchKind::Nurs(Weight::QueryCost),
    ];

    /// The KLEE name.
    pub fn name(self) -> &'static str {
        match self {
            SearchKind::Dfs => "dfs",
            SearchKind::Bfs => "bfs",
            SearchKind::RandomState => "random-state",
            SearchKind::RandomPath => "random-path",
            SearchKind::Nurs(weight) => weight.name(),
        }
    }
}

// Written by hand rather than derived: the `nurs:*` searchers share one variant.
impl clap::ValueEnum for SearchKind {
    fn value_variants<'a>() -> &'a [Self] {
        &Self::ALL
    }

    fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
        let value = clap::builder::PossibleValue::new(self.name());
        Some(match self {
            SearchKind::Nurs(Weight::CovNew) => value.alias("covnew"),
            _ => value,
        })
    }
}

impl serde::Serialize for SearchKind {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

/// The defaults of [`EngineConfig`], written once (the CLI shows and uses these).
pub mod defaults {
    /// Seed of every random choice.
    pub const SEED: u64 = 1;
    /// Memory budget in MiB.
    pub const MAX_MEMORY_MIB: u64 = 2000;
    /// Call-stack depth.
    pub const MAX_STACK_FRAMES: u32 = 4096;
    /// Stack size in bytes (as `ulimit -s` natively).
    pub const MAX_STACK_SIZE: u64 = 8 << 20;
    /// Objects a symbolic pointer may resolve to.
    pub const MAX_RESOLUTIONS: usize = 64;
    /// Largest allocation (`malloc` returns NULL above it; an `alloca` above it is a model
    /// error): 1 TiB. Objects cost memory only for the pages a path writes.
    pub const MAX_ALLOC_SIZE: u64 = 1 << 40;
}

/// The memory model (`--memory-model`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, clap::ValueEnum, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum MemoryModelKind {
    /// KLEE's: concrete addresses from deterministic bump allocators, one path per object a
    /// symbolic pointer may point into.
    #[default]
    Standard,
    /// Seed 003's relocatable addresses (`--use-sym-addr`): symbolic bases bound to hidden
    /// addresses, with DSMM and splitting as configured.
    Relocatable,
}

impl MemoryModelKind {
    /// The model itself, with the run's options.
    pub fn build(self, config: &EngineConfig) -> Box<dyn crate::memory::MemoryModel> {
        match self {
            MemoryModelKind::Standard => Box::new(crate::memory::StandardModel),
            MemoryModelKind::Relocatable => Box::new(
                crate::memory::relocatable::RelocatableModel::new(config.relocatable.clone()),
            ),
        }
    }
}

/// Everything the executor needs to know about a run (written whole to `info.json`).
#[derive(Clone, Debug, serde::Serialize)]
pub struct EngineConfig {
    /// Searchers to interleave. [default: random-path, nurs:covnew]
    pub search: Vec<SearchKind>,
    /// Seed of every random choice. [default: 1]
    pub seed: u64,
    /// Stop after this much wall time. [default: none]
    #[serde(serialize_with = "sear_solver::config::secs::serialize_opt")]
    pub max_time: Option<Duration>,
    /// Stop after this many instructions in total. [default: none]
    pub max_instructions: Option<u64>,
    /// Memory budget in MiB; above it states are dropped. [default: 2000]
    pub max_memory_mib: Option<u64>,
    /// Terminate paths that fork more than this many times. [default: none]
    pub max_depth: Option<u32>,
    /// Maximum stack depth before a path is terminated. [default: 4096]
    pub max_stack_frames: usize,
    /// Bytes of `alloca`s the call stack holds before an allocation is a stack overflow
    /// (natively the stack limit, `ulimit -s`). [default: 8 MiB]
    pub max_stack_size: u64,
    /// Write every error, not one per (kind, location). [default: false]
    pub emit_all_errors: bool,
    /// Write tests only for paths that covered an instruction no path had covered before
    /// (errors are still written), KLEE's `--only-output-states-covering-new`.
    /// [default: false]
    pub only_output_states_covering_new: bool,
    /// Directory for tests and statistics.
    pub output_dir: PathBuf,
    /// Arguments for `main` (argv[0] is the program name).
    pub argv: Vec<String>,
    /// The environment given to `main` as `envp` (`NAME=value` strings). [default: empty]
    /// Not written to `info.json`: the user's environment may hold secrets.
    #[serde(skip)]
    pub envp: Vec<String>,
    /// Name of the entry function. [default: main]
    pub entry: String,
    /// Largest symbolic pointer resolution (objects per access) before giving up. [default: 64]
    pub max_resolutions: usize,
    /// Largest allocation: `malloc` of more returns NULL, an `alloca` of more is a model
    /// error. [default: 2^40]
    pub max_alloc_size: u64,
    /// Write a test for every state left when the run halts (KLEE's
    /// `--dump-states-on-halt`); bounded by the halt's time budget. [default: true]
    pub dump_states_on_halt: bool,
    /// Write a test for every state dropped at the memory limit, within a twentieth of
    /// `--max-time` per drop (as KLEE does). Off under `--sv-comp` and `--test-comp
    /// cover-error`, where only the error's test counts. [default: true]
    pub test_dropped_states: bool,
    /// Stop the run at the first error. [default: false]
    pub exit_on_error: bool,
    /// Stop the run at the first error of one of these kinds (`.err` suffixes; KLEE's
    /// `--exit-on-error-type`). [default: none]
    pub exit_on_error_types: Vec<String>,
    /// A provably false `klee_assume` ends its path silently (no test, no error) instead of
    /// with a `user` error (KLEE's `--silent-klee-assume`). [default: false]
    pub silent_klee_assume: bool,
    /// Show a live progress line on a terminal. [default: true]
    pub progress: bool,
    /// Array-read transformations (`--optimize-array` and its ratios). [default: all]
    pub array_opt: sear_arrayopt::ArrayOptConfig,
    /// How the run builds reads: with dynamic constant folding, or stock reads
    /// (`--no-array-folding`). It governs the reads of the engine's memory, those the array
    /// optimiser rebuilds and those the eager core rebuilds (the engine sets it in the
    /// solver configurations it uses). [default: fold]
    #[serde(serialize_with = "serialize_read_policy")]
    pub read_policy: sear_expr::ReadPolicy,
    /// Prove every transformed expression equivalent to its original. [default: false]
    pub validate_array_opt: bool,
    /// The memory model. [default: standard]
    pub memory_model: MemoryModelKind,
    /// Options of the relocatable model (DSMM, contexts, reuse, splitting).
    pub relocatable: crate::memory::relocatable::RelocatableConfig,
    /// Merge the paths between `klee_open_merge` and `klee_close_merge` (KLEE's
    /// `--use-merge`). [default: false]
    pub use_merge: bool,
    /// Report every `klee_open_merge` and `klee_close_merge` (KLEE's `--debug-log-merge`):
    /// `open merge: N` / `close merge: N` lines to the observer and `messages.txt`.
    /// [default: false]
    pub debug_log_merge: bool,
    /// Write `testNNNNNN.trace` (the path's instruction-trace hash) next to each test.
    /// [default: false]
    pub write_trace_hash: bool,
    /// Write `testNNNNNN.path` (the path's branch decisions, `path.rs`) next to each test.
    pub write_paths: bool,
    /// Follow this recorded path from the initial state (`--replay-path`; the command line
    /// in `info.json` names the file).
    #[serde(skip)]
    pub replay_path: Option<std::sync::Arc<crate::path::PathRecord>>,
    /// SV-COMP's conventions: a call of `reach_error` (or `__VERIFIER_error`) ends the path
    /// with a `reach` error even where the program defines the function (`--sv-comp`,
    /// `--test-comp`). [default: false]
    pub sv_comp: bool,
    /// Symbolic allocation sizes: mode, capacity, loop merging (seed 003 Ch. 5).
    pub sym_size: crate::sym_size::SymSizeConfig,
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
            seed: defaults::SEED,
            max_time: None,
            max_instructions: None,
            max_memory_mib: Some(defaults::MAX_MEMORY_MIB),
            max_depth: None,
            max_stack_frames: defaults::MAX_STACK_FRAMES as usize,
            max_stack_size: defaults::MAX_STACK_SIZE,
            emit_all_errors: false,
            only_output_states_covering_new: false,
            output_dir,
            argv: vec!["prog".into()],
            envp: Vec::new(),
            entry: "main".into(),
            max_resolutions: defaults::MAX_RESOLUTIONS,
            max_alloc_size: defaults::MAX_ALLOC_SIZE,
            dump_states_on_halt: true,
            test_dropped_states: true,
            exit_on_error: false,
            exit_on_error_types: Vec::new(),
            silent_klee_assume: false,
            progress: true,
            array_opt: Default::default(),
            read_policy: sear_expr::ReadPolicy::Fold,
            validate_array_opt: false,
            write_trace_hash: false,
            write_paths: false,
            replay_path: None,
            sv_comp: false,
            use_merge: false,
            debug_log_merge: false,
            memory_model: MemoryModelKind::Standard,
            relocatable: Default::default(),
            sym_size: Default::default(),
        }
    }
}

fn serialize_read_policy<S: serde::Serializer>(
    policy: &sear_expr::ReadPolicy,
    s: S,
) -> Result<S::Ok, S::Error> {
    s.serialize_str(if policy.folds() { "fold" } else { "unfolded" })
}
