//! The `summary.json` record of a run.

use serde::{Deserialize, Serialize};

/// One reported error.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ErrorRecord {
    /// The kind (the `.err` suffix).
    pub kind: String,
    /// The message.
    pub message: String,
    /// Source file.
    pub file: String,
    /// Source line.
    pub line: u32,
    /// Function.
    pub function: String,
    /// The test that reproduces it.
    pub test: String,
}

/// The queries asked for one purpose and their solver time (`Summary::queries_by_purpose`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PurposeQueries {
    /// Queries asked.
    pub queries: u64,
    /// Their time in the solver chain, seconds.
    pub time_s: f64,
}

/// What the path simplification did (`Summary::simplification`, `--no-path-simplification`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SimplificationStats {
    /// On (the default) or off.
    pub enabled: bool,
    /// Conditions and values the engine would have asked about that the terms the path
    /// fixed made constant: answered without a query.
    pub decided: u64,
    /// Conditions and values asked about in a smaller form.
    pub rewritten: u64,
    /// Symbolic pointers of memory accesses that the terms the path fixed made constant:
    /// resolved as concrete addresses.
    #[serde(default)]
    pub pointers: u64,
}

/// What the AC normalisation did (`Summary::ac_normalization`, `--no-ac-normalize`;
/// `sear_expr::ac`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct AcNormalizationStats {
    /// On (the default) or off.
    pub enabled: bool,
    /// Combinations of `+`, `*`, `&`, `|`, `^` operands built as normalised chains.
    pub combined: u64,
    /// Chain nodes rebuilt to insert an operand that arrived out of order.
    pub rebuilt: u64,
    /// Operands dropped: `x & x`, `x | x`, `x ^ x`, `x ^ ~x`, `x + ~x`, `(x + y) - y`.
    pub cancelled: u64,
    /// Chains left plain because inserting would have cost more than the bound.
    pub over_budget: u64,
}

/// What the `ite` lifting did (`Summary::ite_lifting`, `--no-ite-lifting`;
/// `sear_expr::ite_lift`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct IteLiftingStats {
    /// On (the default) or off.
    pub enabled: bool,
    /// Operators over `ite`s built as one `ite` of the operator over the branches.
    pub lifted: u64,
}

/// What the rewrite of comparisons of `ite` trees with constants did
/// (`Summary::ite_compare`, `--no-ite-compare`; `sear_expr::ite_compare`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct IteCompareStats {
    /// On (the default) or off.
    pub enabled: bool,
    /// Comparisons of an `ite` tree with constant leaves against a constant built as a
    /// formula over the tree's conditions.
    pub rewritten: u64,
    /// `ite` nodes rewritten for them (the work; cached nodes are not counted again).
    pub nodes: u64,
}

/// The run summary. It reads back from `summary.json` (a parallel run's coordinator reads
/// the merged one for its verdict); what the file lacks is the default.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct Summary {
    /// Paths that returned from the entry function or called `exit`.
    pub completed_paths: u64,
    /// Paths that ended with an error (reported or not).
    pub error_paths: u64,
    /// Paths ended early (limits, interruption).
    pub early_paths: u64,
    /// Paths ended without a test (`klee_silent_exit`, a false `klee_assume` under
    /// `--silent-klee-assume`); KLEE counts them as partially completed.
    pub silent_paths: u64,
    /// `.ktest` files written.
    pub tests: u64,
    /// Reported errors.
    pub errors: Vec<ErrorRecord>,
    /// Instructions executed.
    pub instructions: u64,
    /// Solver queries issued by the engine.
    pub queries: u64,
    /// Time spent in the solver chain.
    pub solver_time_s: f64,
    /// The queries and their solver time by what the engine asked them for ("fork",
    /// "resolve", "allocation size", ...); the tests' models are not among them.
    pub queries_by_purpose: std::collections::BTreeMap<String, PurposeQueries>,
    /// The path simplification's counts.
    pub simplification: SimplificationStats,
    /// The AC normalisation's counts.
    pub ac_normalization: AcNormalizationStats,
    /// The `ite` lifting's counts.
    pub ite_lifting: IteLiftingStats,
    /// The rewrite of comparisons of `ite` trees with constants.
    pub ite_compare: IteCompareStats,
    /// Wall time of the run.
    pub time_s: f64,
    /// CPU time of the process in user mode (KLEE's `UserTime`), including the front end's
    /// work in-process (not clang, a child process).
    pub user_time_s: f64,
    /// CPU time of the process in system mode.
    pub system_time_s: f64,
    /// The process's peak resident set size, in MiB.
    pub peak_memory_mib: f64,
    /// Why the run stopped.
    pub stop_reason: String,
    /// States forked.
    pub forks: u64,
    /// Instructions covered / total instructions of reached functions.
    pub covered_instructions: u64,
    /// Total instructions in the module's defined functions.
    pub total_instructions: u64,
    /// Peak number of simultaneously live states.
    pub max_states: u64,
    /// Paths merged into others (`--use-merge`).
    pub merged_states: u64,
    /// States dropped to stay within the memory limit.
    pub dropped_states: u64,
    /// Branches at the memory limit that followed one side instead of forking: the other
    /// side's paths were not explored.
    pub forks_inhibited: u64,
    /// Selections the depth-first dive added by keeping its turn across the forks of its
    /// path (`--dive-quantum`).
    pub dive_turns_kept: u64,
    /// States left when the run halted that would have had a test and got none
    /// (`--dump-states-on-halt=false`, or the halt's time budget ran out); counted in
    /// `early_paths`.
    pub tests_not_written: u64,
    /// Symbolic values fixed to one feasible value (external arguments, pointers passed to
    /// the engine's functions, ...): paths with the other values were not explored.
    pub concretisations: u64,
    /// Floating-point operations on symbolic values built as expressions (`--fp=symbolic`)
    /// instead of being concretised.
    pub fp_symbolic_ops: u64,
    /// The memory model and its statistics.
    pub memory: serde_json::Value,
    /// The symbolic-size model: mode, capacity, allocation and loop-merging counters.
    pub symbolic_size: serde_json::Value,
    /// Per-layer solver statistics.
    pub solver: serde_json::Value,
    /// Array-read transformations: mode, successes per transformation, time, validation.
    pub array_opt: serde_json::Value,
    /// Indexify (seed 004): gardens, tables, rewriting and exploration counters; null when
    /// the run was not indexified.
    pub indexify: serde_json::Value,
    /// Digest of the instruction-trace hashes of every ended path (order-independent), for
    /// checking that two configurations executed the same paths.
    pub trace_digest: String,
    /// Seeding's counters (`--seed-file`, `--seed-dir`: seeds loaded and skipped, forks the
    /// seeds decided without a query, deferred sides); absent without seeds.
    #[serde(skip_serializing_if = "serde_json::Value::is_null")]
    pub seeds: serde_json::Value,
    /// Loop-iteration merging's counters (`--merge-loop-iterations`); absent when it is off.
    #[serde(skip_serializing_if = "serde_json::Value::is_null")]
    pub loop_iteration_merging: serde_json::Value,
    /// A worker's share of a parallel run (prefixes, replay, idle time); absent otherwise.
    #[serde(skip_serializing_if = "serde_json::Value::is_null")]
    pub worker: serde_json::Value,
    /// For a worker, the trace hash of every path ended since it last reported (it sends
    /// them to the coordinator, which computes the run's `trace_digest`); not written.
    #[serde(skip)]
    pub trace_hashes: Vec<u64>,
    /// The covered instructions as (function, block, instruction), for a worker's
    /// coordinator (the run's coverage is their union); not written.
    #[serde(skip)]
    pub covered: Vec<(u32, u32, u32)>,
    /// For a worker, the test files it wrote (its coordinator makes the numbers dense with
    /// them); not written.
    #[serde(skip)]
    pub test_files: super::TestFiles,
}
