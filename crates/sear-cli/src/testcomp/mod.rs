//! SV-COMP and Test-Comp runs: `--sv-comp` (the unreach-call property: a verdict) and
//! `--test-comp PROPERTY` (a test suite in Test-Comp's exchange format for `cover-error` or
//! `cover-branches`, and the verdict too).
//!
//! Both follow the competitions' conventions for the program: a call of `reach_error` (or
//! `__VERIFIER_error`) is the error whatever the program's body for it, `__VERIFIER_assume`
//! with a false condition ends the path silently, `__VERIFIER_nondet_*` are the inputs, and
//! the stack has no limit of its own (`--max-stack-size` defaults to the largest allocation).
//! `cover-error` and `--sv-comp` stop at the first `reach_error` and write no tests for the
//! states left when the run stops (`--dump-states-on-halt=false`); every error path gets its
//! own test (`--emit-all-errors`), since paths that end in `abort()` at one place still
//! cover different branches and count for the verdict.

mod inputs;
mod suite;
mod verdict;

use std::path::Path;

use anyhow::{Context, Result};
use sear_engine::EngineConfig;

pub use suite::write_suite;
pub use verdict::{decide, Verdict};

/// clang flags of `--sv-comp` and `--test-comp`: the competitions' older tasks compile as
/// their other tools (gcc, CIL-based front ends) accept them. clang 16 and later reject
/// calls of undeclared functions (old tasks call `__VERIFIER_assume` and
/// `__VERIFIER_nondet_*` without declaring them) and implicit `int` (`main() {...}`) as
/// errors; C89's rules make them warnings, which these flags ask for. K&R definitions are
/// accepted by clang 19 in C17 with a warning.
pub const LENIENT_CFLAGS: &[&str] = &[
    "-Wno-error=implicit-function-declaration",
    "-Wno-error=implicit-int",
    "-Wno-error=int-conversion",
    "-Wno-error=incompatible-function-pointer-types",
];

/// The SV-COMP property of `--sv-comp --property`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SvProperty {
    /// `unreach-call.prp`: `reach_error` is never called.
    #[default]
    UnreachCall,
    /// `valid-memsafety.prp`: valid-free, valid-deref and valid-memtrack.
    MemSafety,
}

/// Parses `--property`: `unreach-call`, `valid-memsafety`, or a property file.
pub fn parse_sv_property(text: &str) -> Result<SvProperty, String> {
    match text {
        "unreach-call" => return Ok(SvProperty::UnreachCall),
        "valid-memsafety" | "memsafety" => return Ok(SvProperty::MemSafety),
        _ => {}
    }
    let contents = std::fs::read_to_string(text).map_err(|e| {
        format!(
            "'{text}' is neither unreach-call, valid-memsafety nor a readable property file ({e})"
        )
    })?;
    let compact: String = contents.split_whitespace().collect();
    if compact.contains("G!call(reach_error())") || compact.contains("G!call(__VERIFIER_error())") {
        Ok(SvProperty::UnreachCall)
    } else if compact.contains("Gvalid-free")
        && compact.contains("Gvalid-deref")
        && compact.contains("Gvalid-memtrack")
    {
        Ok(SvProperty::MemSafety)
    } else {
        Err(format!(
            "{text}: not an SV-COMP property sear checks (unreach-call, or valid-memsafety's \
             valid-free, valid-deref and valid-memtrack together)"
        ))
    }
}

/// A Test-Comp coverage property.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Coverage {
    /// `coverage-error-call.prp`: a test that calls `reach_error`.
    Error,
    /// `coverage-branches.prp`: tests covering as many branches as possible.
    Branches,
}

/// `--test-comp`'s value: the property and its specification text (for `metadata.xml`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TestCompProperty {
    /// Which coverage.
    pub coverage: Coverage,
    /// The property as Test-Comp writes it (`COVER( init(main()), FQL(...) )`).
    pub specification: String,
}

/// The specification of `coverage-error-call.prp` for an entry function.
fn error_spec(entry: &str) -> String {
    format!("COVER( init({entry}()), FQL(COVER EDGES(@CALL(reach_error))) )")
}

/// The specification of `coverage-branches.prp` for an entry function.
fn branches_spec(entry: &str) -> String {
    format!("COVER( init({entry}()), FQL(COVER EDGES(@DECISIONEDGE)) )")
}

/// Parses `--test-comp`: `cover-error`, `cover-branches`, or a property file (`.prp`) with
/// one of the two specifications.
pub fn parse_property(text: &str) -> Result<TestCompProperty, String> {
    match text {
        "cover-error" | "coverage-error-call" => {
            return Ok(TestCompProperty {
                coverage: Coverage::Error,
                specification: error_spec("main"),
            })
        }
        "cover-branches" | "coverage-branches" => {
            return Ok(TestCompProperty {
                coverage: Coverage::Branches,
                specification: branches_spec("main"),
            })
        }
        _ => {}
    }
    let contents = std::fs::read_to_string(text).map_err(|e| {
        format!(
            "'{text}' is neither cover-error, cover-branches nor a readable property file ({e})"
        )
    })?;
    let specification = contents.trim().to_string();
    let compact: String = specification.split_whitespace().collect();
    let coverage = if compact.contains("FQL(COVEREDGES(@CALL(reach_error)))") {
        Coverage::Error
    } else if compact.contains("FQL(COVEREDGES(@DECISIONEDGE))") {
        Coverage::Branches
    } else {
        return Err(format!(
            "{text}: not a Test-Comp property sear supports (COVER EDGES(@CALL(reach_error)) or \
             COVER EDGES(@DECISIONEDGE))"
        ));
    };
    Ok(TestCompProperty {
        coverage,
        specification,
    })
}

/// Applies the competitions' conventions to the engine's configuration.
pub fn configure(
    config: &mut EngineConfig,
    sv_comp: bool,
    test_comp: Option<&TestCompProperty>,
    property: SvProperty,
) {
    if !sv_comp && test_comp.is_none() {
        return;
    }
    config.sv_comp = true;
    config.silent_klee_assume = true;
    // SV-COMP's programs have no stack limit (a 10 GB local array is a task's business):
    // the stack holds what the heap does, unless --max-stack-size says otherwise.
    if config.max_stack_size == sear_engine::config::defaults::MAX_STACK_SIZE {
        config.max_stack_size = config.max_alloc_size;
    }
    config.emit_all_errors = true;
    let stop_at_error = sv_comp || test_comp.is_some_and(|p| p.coverage == Coverage::Error);
    // The kinds that violate the property: the run stops at the first.
    let violations: &[&str] = match (property, test_comp) {
        (SvProperty::MemSafety, None) => &["ptr", "free", "leak"],
        _ => &["reach"],
    };
    if property == SvProperty::MemSafety && test_comp.is_none() {
        config.check_leaks = true;
    }
    // Uninitialised locals are inputs of the older tasks: nondeterministic, so that the
    // verdict is not TRUE where the stack's contents reach the error. A Test-Comp test
    // cannot give them (the format has only __VERIFIER_nondet_* values): they are no
    // objects of the tests, and a path that needs a value of one is not reproduced natively.
    config.nondet_uninit_locals = true;
    for kind in violations {
        if stop_at_error && !config.exit_on_error_types.iter().any(|k| k == kind) {
            config.exit_on_error_types.push(kind.to_string());
        }
    }
    if stop_at_error && config.search == EngineConfig::default_search() {
        // Reachability: a depth-first dive beside the default pair, so that an error at the
        // end of a long path (a loop of 10^5 branches on inputs before the check) is
        // reached while random-path and covnew explore near the root.
        config.search.push(sear_engine::config::SearchKind::Dfs);
        // The dive keeps its turn across its forks (`--dive-quantum`), unless turned off.
        config.dive_quantum.get_or_insert(true);
    }
    if sv_comp && test_comp.is_none() {
        // Loop-iteration merging (issue 38): a loop over 10^5 nondeterministic elements that
        // forks once per element stays one path, so a safe task can be proven; unless turned
        // off, or another merging technique is asked for (they do not combine).
        if !other_merging(config) {
            config.iteration_merge.enabled.get_or_insert(true);
        }
    }
    if test_comp.is_some() {
        // A test only for a path that covered an instruction or a branch direction no
        // earlier path did (KLEE's Test-Comp runs use the same option): the other paths add
        // no coverage, and a suite of every path (2^k for k input-dependent loop exits) is
        // more than a validator can execute. Error tests are written whatever they cover,
        // so a cover-error suite keeps its error test.
        config.only_output_states_covering_new = true;
    }
    if stop_at_error && test_comp.is_none() {
        // Only the verdict and the error's test matter: the states left when the run stops
        // get no test, so the halt takes no time past --max-time.
        config.dump_states_on_halt = false;
        config.test_dropped_states = false;
    }
    // Under --test-comp cover-error the states left at --max-time keep their tests (those
    // that covered something new, as KLEE writes them): Test-Comp counts any test that
    // reaches the error natively, and a loop of 2^28 iterations without inputs
    // (loop-acceleration's `functions`, `phases`, `simple`) reaches it there from the
    // test of the state the limit stopped. After the error's test they cost the validator
    // nothing: TestCov stops at the first test that reaches the error.
}

/// Checks `--merge-loop-iterations` against the other merging techniques (they keep their
/// paths in the same place and do not combine), and keeps it off by default in a parallel
/// run (`parallel`: a worker running a technique gives no state away, since a merged path
/// is no one recorded path). Before [`configure`], which turns it on under `--sv-comp`.
pub fn iteration_merge_defaults(config: &mut EngineConfig, parallel: bool) -> Result<()> {
    if config.iteration_merge.enabled == Some(true) && other_merging(config) {
        anyhow::bail!(
            "--merge-loop-iterations cannot be combined with --use-merge, \
             --sym-size-mode=sm|smopt|pat or --incremental-merge"
        );
    }
    if parallel {
        config.iteration_merge.enabled.get_or_insert(false);
    }
    Ok(())
}

/// True when a merging technique other than loop-iteration merging is asked for.
fn other_merging(config: &EngineConfig) -> bool {
    config.use_merge || config.sym_size.mode.merges() || config.sym_size.incremental.enabled
}

/// After the run: writes the test suite (with `--test-comp`; its architecture is the
/// program's `pointer_bits`) and `verdict.json`, and prints the verdict line on stdout.
pub fn finish(
    output_dir: &Path,
    program: &Path,
    entry: &str,
    summary: &sear_engine::output::Summary,
    test_comp: Option<&TestCompProperty>,
    property: SvProperty,
    pointer_bits: u32,
) -> Result<()> {
    if let Some(property) = test_comp {
        let written = write_suite(output_dir, program, entry, property, pointer_bits)?;
        crate::term::errln!(
            "sear: test suite: {} ({} tests)",
            output_dir.join(suite::SUITE_DIR).display(),
            written.tests
        );
        if written.other_objects > 0 {
            crate::term::errln!(
                "sear: warning: {} tests have symbolic objects other than __VERIFIER_nondet_* \
                 inputs, which the test-suite format cannot express",
                written.other_objects
            );
        }
    }
    let verdict = if test_comp.is_none() && property == SvProperty::MemSafety {
        verdict::decide_memsafety(summary)
    } else {
        decide(summary)
    };
    let path = output_dir.join("verdict.json");
    std::fs::write(
        &path,
        serde_json::to_string_pretty(&verdict.to_json())? + "\n",
    )
    .with_context(|| format!("writing {}", path.display()))?;
    crate::term::outln!("{}", verdict.line());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_property_files() {
        assert_eq!(
            parse_property("cover-error").unwrap().coverage,
            Coverage::Error
        );
        assert_eq!(
            parse_property("cover-branches").unwrap().coverage,
            Coverage::Branches
        );
        let dir = tempfile::tempdir().unwrap();
        let prp = dir.path().join("coverage-branches.prp");
        std::fs::write(
            &prp,
            "COVER( init(main()), FQL(COVER EDGES(@DECISIONEDGE)) )\n",
        )
        .unwrap();
        let p = parse_property(prp.to_str().unwrap()).unwrap();
        assert_eq!(p.coverage, Coverage::Branches);
        assert_eq!(p.specification, branches_spec("main"));
        let other = dir.path().join("unreach-call.prp");
        std::fs::write(
            &other,
            "CHECK( init(main()), LTL(G ! call(reach_error())) )\n",
        )
        .unwrap();
        assert!(parse_property(other.to_str().unwrap()).is_err());
        assert!(parse_property("cover-everything").is_err());
    }
}
