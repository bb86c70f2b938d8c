//! The environment a program sees (`envp`, `environ`), as KLEE gives it: sear's own
//! environment by default, or the lines of an `--env-file` (KLEE's `--env-file`).
//!
//! `sear replay` runs the native build with the same environment, so both sides agree on
//! one form: entries sorted by name, one entry per name (the last wins), as a process
//! started with an explicit environment gets it. The variables that steer the replay
//! itself ([`is_replay_control`]) are never part of it: the replay library removes them
//! before `main`, and `sear run` leaves them out.

use std::collections::BTreeMap;

/// True for the variables `sear replay` sets for itself and its sanitizers: every `SEAR_*`
/// name, `ASAN_OPTIONS`, `UBSAN_OPTIONS` and `ASAN_SYMBOLIZER_PATH`. The replay library
/// (`runtime/replay/sear_replay.c`) removes the same set before the program starts.
pub fn is_replay_control(name: &str) -> bool {
    name.starts_with("SEAR_")
        || matches!(
            name,
            "ASAN_OPTIONS" | "UBSAN_OPTIONS" | "ASAN_SYMBOLIZER_PATH"
        )
}

/// The name of an entry (`NAME=value`): up to the first `=` (the whole entry without one).
pub fn entry_name(entry: &str) -> &str {
    entry.split_once('=').map_or(entry, |(name, _)| name)
}

/// An entry as a (name, value) pair (the value empty when there is no `=`).
pub fn split_entry(entry: &str) -> (&str, &str) {
    entry.split_once('=').unwrap_or((entry, ""))
}

/// Entries in the replayable form: `NAME=value` with a non-empty name, sorted by name, one
/// per name (the last given wins), without the replay's control variables.
pub fn normalise<I: IntoIterator<Item = String>>(entries: I) -> Vec<String> {
    let mut by_name: BTreeMap<String, String> = BTreeMap::new();
    for entry in entries {
        let Some((name, _)) = entry.split_once('=') else {
            continue;
        };
        let name = name.to_string();
        if !name.is_empty() && !is_replay_control(&name) {
            by_name.insert(name, entry);
        }
    }
    by_name.into_values().collect()
}

/// The current process's environment (variables that are not UTF-8 are left out).
pub fn from_host() -> Vec<String> {
    normalise(std::env::vars_os().filter_map(|(k, v)| {
        Some(format!(
            "{}={}",
            k.into_string().ok()?,
            v.into_string().ok()?
        ))
    }))
}

/// The entries of an environment file: one per line, surrounding white space removed,
/// empty lines and lines without `=` skipped (KLEE's `--env-file` format).
pub fn parse_env_file(text: &str) -> Vec<String> {
    normalise(
        text.lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .map(str::to_string),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_are_sorted_unique_and_without_control_variables() {
        let env = normalise(
            ["Z=1", "A=2", "SEAR_KTEST=x", "A=3", "ASAN_OPTIONS=y", "B"].map(String::from),
        );
        assert_eq!(env, vec!["A=3", "Z=1"]);
    }

    #[test]
    fn env_files_have_one_entry_a_line() {
        assert_eq!(
            parse_env_file("  HOME=/root \n\nPATH=/bin\n"),
            vec!["HOME=/root", "PATH=/bin"]
        );
    }

    #[test]
    fn the_host_environment_has_no_control_variables() {
        assert!(from_host()
            .iter()
            .all(|e| !is_replay_control(entry_name(e))));
    }
}
