//! Seeds (KLEE's `--seed-file`, `--seed-dir`): known inputs that decide branches.
//!
//! A seed is a list of named byte strings (a `.ktest`'s objects, or a raw file turned into
//! one object of the POSIX model by the CLI). The initial state carries every seed; when the
//! program makes an object symbolic, each seed of the state binds the object's array to one
//! of its objects ([`bind`]): the next one in order, or the first unused one of the same
//! name (`--named-seed-matching`, and always for raw seeds). A seed that does not fit (no
//! object left, a size that differs and the flags do not allow extending or truncating it)
//! leaves the state, reported once.
//!
//! At a fork, a condition that reads only arrays every seed binds is decided by evaluation:
//! the state follows the seeds' side without a solver query (`executor/seeding.rs`), the
//! seeds split between the sides they take, and the sides no seed takes become *deferred*
//! states whose feasibility is asked when the searcher first picks them.

use std::sync::Arc;
use std::time::Duration;

use sear_expr::{ArrayRef, Assignment};

/// One object of a seed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeedObject {
    /// The object's name (a `.ktest` object's name; `stdin`, `A-data`, `argNN` for raw seeds).
    pub name: String,
    /// Its bytes.
    pub bytes: Vec<u8>,
    /// A shorter object is padded with zero bytes whatever the extension flags say (a raw
    /// argument: a C string padded with NULs to the argument's size).
    pub pads: bool,
}

/// A seed: where it came from and its objects.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeedInput {
    /// The file it was read from (for reports).
    pub source: String,
    /// Its objects, in order.
    pub objects: Vec<SeedObject>,
    /// A partial seed (a raw file): its objects are matched by name and the program's
    /// other symbolic objects stay free (unbound) whatever the extension flags say.
    pub partial: bool,
}

/// The seeding options of `sear run` (KLEE's names).
#[derive(Clone, Debug, Default, serde::Serialize)]
#[cfg_attr(feature = "cli", derive(clap::Args))]
pub struct SeedConfig {
    /// Stop once seeding is done (every seeded path ended, or `--seed-time` passed): the
    /// sides no seed took are not explored.
    #[cfg_attr(feature = "cli", arg(
        id = "only-seed", long = "only-seed", value_name = "on|off",
        num_args = 0..=1, require_equals = true, default_missing_value = "on",
        default_value = sear_solver::cli::shown_switch(SeedConfig::default().only_seed),
        value_parser = sear_solver::cli::switch(),
    ))]
    pub only_seed: bool,
    /// Drop the sides of a fork that no seed takes (only the seeds' own paths are run).
    #[cfg_attr(feature = "cli", arg(
        id = "only-replay-seeds", long = "only-replay-seeds", value_name = "on|off",
        num_args = 0..=1, require_equals = true, default_missing_value = "on",
        default_value = sear_solver::cli::shown_switch(SeedConfig::default().only_replay_seeds),
        value_parser = sear_solver::cli::switch(),
    ))]
    pub only_replay_seeds: bool,
    /// A seed object shorter than the program's object is used, its missing bytes zero; a
    /// program object the seed has no object for stays free (symbolic).
    #[cfg_attr(feature = "cli", arg(
        id = "allow-seed-extension", long = "allow-seed-extension", value_name = "on|off",
        num_args = 0..=1, require_equals = true, default_missing_value = "on",
        default_value = sear_solver::cli::shown_switch(SeedConfig::default().allow_seed_extension),
        value_parser = sear_solver::cli::switch(),
    ))]
    pub allow_seed_extension: bool,
    /// A seed object longer than the program's object is cut to its size.
    #[cfg_attr(feature = "cli", arg(
        id = "allow-seed-truncation", long = "allow-seed-truncation", value_name = "on|off",
        num_args = 0..=1, require_equals = true, default_missing_value = "on",
        default_value = sear_solver::cli::shown_switch(SeedConfig::default().allow_seed_truncation),
        value_parser = sear_solver::cli::switch(),
    ))]
    pub allow_seed_truncation: bool,
    /// Extend seeds with zeros: a shorter object's missing bytes are zero, and a program
    /// object the seed has no object for is all zeros.
    #[cfg_attr(feature = "cli", arg(
        id = "zero-seed-extension", long = "zero-seed-extension", value_name = "on|off",
        num_args = 0..=1, require_equals = true, default_missing_value = "on",
        default_value = sear_solver::cli::shown_switch(SeedConfig::default().zero_seed_extension),
        value_parser = sear_solver::cli::switch(),
    ))]
    pub zero_seed_extension: bool,
    /// Match seed objects to the program's objects by name (the first unused object of the
    /// same name) instead of by position.
    #[cfg_attr(feature = "cli", arg(
        id = "named-seed-matching", long = "named-seed-matching", value_name = "on|off",
        num_args = 0..=1, require_equals = true, default_missing_value = "on",
        default_value = sear_solver::cli::shown_switch(SeedConfig::default().named_seed_matching),
        value_parser = sear_solver::cli::switch(),
    ))]
    pub named_seed_matching: bool,
    /// Seconds given to seeded paths before the normal search starts (0: until every seeded
    /// path has ended).
    #[cfg_attr(feature = "cli", arg(
        id = "seed-time", long = "seed-time", value_name = "SECS",
        value_parser = sear_solver::cli::duration,
    ))]
    #[serde(serialize_with = "sear_solver::config::secs::serialize_opt")]
    pub seed_time: Option<Duration>,
    /// The seeds, read by the CLI (`--seed-file`, `--seed-dir`, `--seed-format`).
    #[serde(skip)]
    #[cfg_attr(feature = "cli", arg(skip))]
    pub seeds: Vec<Arc<SeedInput>>,
}

/// A seed as a state carries it: the input, how far it has been matched, and the bytes it
/// gives the arrays it bound.
#[derive(Clone, Debug)]
pub struct StateSeed {
    /// The seed's position in the run's list (reports name each seed once).
    pub index: usize,
    /// The seed.
    pub input: Arc<SeedInput>,
    /// The next object in positional matching.
    pub next: usize,
    /// Which objects name matching has used.
    pub used: Vec<bool>,
    /// The arrays the seed binds and their bytes.
    pub assignment: Assignment,
}

impl StateSeed {
    /// The seed `input` (the run's `index`-th) before any object was made symbolic.
    pub fn new(index: usize, input: Arc<SeedInput>) -> Self {
        let used = vec![false; input.objects.len()];
        StateSeed {
            index,
            input,
            next: 0,
            used,
            assignment: Assignment::new(),
        }
    }

    /// True if the seed gives `array` its bytes.
    pub fn binds(&self, array: &ArrayRef) -> bool {
        self.assignment.get(array).is_some()
    }
}

/// What a seed does with a new symbolic object.
#[derive(Debug, PartialEq, Eq)]
pub enum Bind {
    /// The object's bytes under the seed.
    Bytes(Vec<u8>),
    /// The seed leaves the object free (symbolic).
    Free,
    /// The seed does not fit: it leaves the state; the text says what did not match.
    Skip(String),
}

/// Matches `seed` to the program's new symbolic object `name` of `size` bytes (KLEE's
/// `SeedInfo::getNextInput` and `executeMakeSymbolic`), advancing the seed's matching.
/// Also returns a note for a positional match whose names differ (used all the same, as
/// KLEE does).
pub fn bind(
    seed: &mut StateSeed,
    config: &SeedConfig,
    name: &str,
    size: usize,
) -> (Bind, Option<String>) {
    let by_name = config.named_seed_matching || seed.input.partial;
    let found = if by_name {
        let i = seed
            .input
            .objects
            .iter()
            .enumerate()
            .position(|(i, o)| o.name == name && !seed.used[i]);
        if let Some(i) = i {
            seed.used[i] = true;
        }
        i
    } else if seed.next < seed.input.objects.len() {
        seed.next += 1;
        Some(seed.next - 1)
    } else {
        None
    };
    let Some(i) = found else {
        let bind =
            if seed.input.partial || (config.allow_seed_extension && !config.zero_seed_extension) {
                Bind::Free
            } else if config.zero_seed_extension {
                Bind::Bytes(vec![0; size])
            } else if by_name {
                Bind::Skip(format!(
                    "it has no object named '{name}' ({size} bytes) \
                 (--allow-seed-extension leaves it free, --zero-seed-extension zeroes it)"
                ))
            } else {
                Bind::Skip(format!(
                    "it has {} objects, the program makes more: object {} '{name}' ({size} bytes) \
                 (--allow-seed-extension leaves it free, --zero-seed-extension zeroes it)",
                    seed.input.objects.len(),
                    seed.input.objects.len() + 1
                ))
            };
        return (bind, None);
    };
    let object = &seed.input.objects[i];
    let note = (!by_name && object.name != name).then(|| {
        format!(
            "its object {} is named '{}', the program's '{name}' (matched by position; \
             --named-seed-matching matches by name)",
            i + 1,
            object.name
        )
    });
    let have = object.bytes.len();
    let mut bytes = object.bytes.clone();
    if have < size {
        if !(object.pads || config.allow_seed_extension || config.zero_seed_extension) {
            let what = format!(
                "size mismatch: object '{name}' is {size} bytes, the seed's '{}' {have} \
                 (--allow-seed-extension or --zero-seed-extension pads it with zeros)",
                object.name
            );
            return (Bind::Skip(what), note);
        }
        bytes.resize(size, 0);
    } else if have > size {
        if !config.allow_seed_truncation {
            let what = format!(
                "size mismatch: object '{name}' is {size} bytes, the seed's '{}' {have} \
                 (--allow-seed-truncation cuts it)",
                object.name
            );
            return (Bind::Skip(what), note);
        }
        bytes.truncate(size);
    }
    (Bind::Bytes(bytes), note)
}

/// Counters of seeding, `summary.json`'s `seeds`.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct SeedStats {
    /// Seeds given to the run.
    pub loaded: u64,
    /// Seeds that left their path because they did not fit the program's objects.
    pub skipped: u64,
    /// Seeds that left their path because a `klee_assume` was false under them.
    pub violated_assumptions: u64,
    /// Forks decided by evaluating the condition under the seeds, without a solver query.
    pub forks_decided: u64,
    /// Forks where the seeds took more than one side (both sides known feasible).
    pub forks_split: u64,
    /// Symbolic values concretised to a seed's value without a query.
    pub concretised: u64,
    /// Sides no seed took, left to be explored later (feasibility not yet known).
    pub deferred_sides: u64,
    /// Deferred sides found feasible when picked.
    pub deferred_feasible: u64,
    /// Deferred sides found infeasible when picked (dropped without a test).
    pub deferred_infeasible: u64,
    /// Deferred sides whose feasibility query failed (time-out): ended as a solver failure.
    pub deferred_failed: u64,
    /// Deferred sides never picked before the run ended (no test).
    pub deferred_unexplored: u64,
    /// Sides dropped by `--only-replay-seeds`.
    pub dropped_sides: u64,
    /// Tests whose inputs are a seed's bytes (no solver query).
    pub tests_from_seeds: u64,
    /// Tests whose inputs came partly from a seed the path started from (the factors of
    /// the path condition the seed satisfies), partly from the solver.
    pub tests_from_hints: u64,
    /// Seconds from the start to the end of the seeding phase.
    pub seeding_time_s: f64,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seed(objects: &[(&str, &[u8])], partial: bool) -> StateSeed {
        let input = SeedInput {
            source: "t.ktest".into(),
            objects: objects
                .iter()
                .map(|(n, b)| SeedObject {
                    name: n.to_string(),
                    bytes: b.to_vec(),
                    pads: false,
                })
                .collect(),
            partial,
        };
        StateSeed::new(0, Arc::new(input))
    }

    #[test]
    fn positional_matching_checks_sizes() {
        let config = SeedConfig::default();
        let mut s = seed(&[("a", b"abcd"), ("b", b"xy")], false);
        assert_eq!(
            bind(&mut s, &config, "a", 4).0,
            Bind::Bytes(b"abcd".to_vec())
        );
        let (b, note) = bind(&mut s, &config, "c", 4);
        assert!(
            matches!(b, Bind::Skip(ref m) if m.contains("size mismatch")),
            "{b:?}"
        );
        assert!(note.unwrap().contains("'b'"));
        let (b, _) = bind(&mut s, &config, "d", 1);
        assert!(
            matches!(b, Bind::Skip(ref m) if m.contains("has 2 objects")),
            "{b:?}"
        );
    }

    #[test]
    fn extension_and_truncation() {
        let config = SeedConfig {
            allow_seed_extension: true,
            allow_seed_truncation: true,
            ..Default::default()
        };
        let mut s = seed(&[("a", b"ab"), ("b", b"xyz")], false);
        assert_eq!(
            bind(&mut s, &config, "a", 4).0,
            Bind::Bytes(b"ab\0\0".to_vec())
        );
        assert_eq!(bind(&mut s, &config, "b", 1).0, Bind::Bytes(b"x".to_vec()));
        assert_eq!(bind(&mut s, &config, "c", 1).0, Bind::Free);
        let zero = SeedConfig {
            zero_seed_extension: true,
            ..Default::default()
        };
        assert_eq!(bind(&mut s, &zero, "d", 2).0, Bind::Bytes(vec![0, 0]));
    }

    #[test]
    fn named_and_partial_seeds() {
        let named = SeedConfig {
            named_seed_matching: true,
            ..Default::default()
        };
        let mut s = seed(&[("x", b"1"), ("y", b"2")], false);
        assert_eq!(bind(&mut s, &named, "y", 1).0, Bind::Bytes(b"2".to_vec()));
        assert!(matches!(bind(&mut s, &named, "y", 1).0, Bind::Skip(_)));
        let mut raw = seed(&[("stdin", b"hi")], true);
        let config = SeedConfig::default();
        assert_eq!(bind(&mut raw, &config, "model_version", 4).0, Bind::Free);
        assert!(matches!(
            bind(&mut raw, &config, "stdin", 4).0,
            Bind::Skip(_)
        ));
    }
}
