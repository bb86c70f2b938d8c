//! `SEAR_BLESS=1`: rewrites a program's expectations from its runs, in place, leaving every
//! other byte of the file as it was, so that a reviewer diffs the result.
//!
//! Only expectations the program already has are rewritten, and only where every run they
//! apply to agrees: the counts (`expect-completed`, `expect-error-paths`, `expect-tests`, a
//! `run:` line's COMPLETED), `expect-exits`, `expect-errors`, the `==` checks of
//! `expect-summary` and of `mode` lines, and the `expect-error` annotations at lines (stale
//! ones removed, missing ones added at the end of their line when it has no comment yet and
//! the error is in the program's own file). What cannot be written so (outputs, stderr
//! texts, inequalities, replay) stays a failure.

use std::path::Path;

use super::expect::{self, Expectations, ModeCheck};
use super::suite::Run;

/// The one value all of `values` share, if there is at least one and they agree.
fn agreed<T: PartialEq>(mut values: impl Iterator<Item = T>) -> Option<T> {
    let first = values.next()?;
    values.all(|v| v == first).then_some(first)
}

/// The lines of a file, each with its end.
struct Lines(Vec<String>);

impl Lines {
    fn new(source: &str) -> Lines {
        Lines(source.split_inclusive('\n').map(str::to_string).collect())
    }

    /// The text of 1-based `line` without its end, and its end.
    fn get(&self, line: usize) -> Option<(&str, &str)> {
        let text = self.0.get(line.checked_sub(1)?)?;
        let body = text.trim_end_matches(['\n', '\r']);
        Some((body, &text[body.len()..]))
    }

    fn set(&mut self, line: usize, body: String) {
        if let Some((_, end)) = self.get(line) {
            let end = end.to_string();
            self.0[line - 1] = body + &end;
        }
    }

    /// Replaces what follows `KEY:` in the comment of `line` with ` value`, when it differs.
    fn set_value(&mut self, line: usize, key: &str, value: &str) {
        let Some((body, _)) = self.get(line) else {
            return;
        };
        let Some(slash) = body.find("//") else { return };
        let Some(at) = body[slash..].find(&format!("{key}:")) else {
            return;
        };
        let start = slash + at + key.len() + 1;
        if body[start..].trim() == value {
            return;
        }
        let new = format!("{} {value}", &body[..start]);
        self.set(line, new);
    }

    fn join(self) -> String {
        self.0.concat()
    }
}

/// `source` with its expectations rewritten from `runs` (see the module's header).
pub fn bless(program: &Path, source: &str, e: &Expectations, runs: &[Run]) -> String {
    let mut lines = Lines::new(source);
    let plain = e.modes.is_empty() && e.runs.is_empty();
    let count = |key: &str, r: &Run| r.summary[key].as_u64();
    if let (Some(c), true) = (&e.completed, plain) {
        if let Some(Some(v)) = agreed(runs.iter().map(|r| count("completed_paths", r))) {
            lines.set_value(c.line, "expect-completed", &v.to_string());
        }
    }
    for r in runs {
        let (Some(line), Some(v)) = (r.run_line, count("completed_paths", r)) else {
            continue;
        };
        let Some(old) = lines.get(line).and_then(|(b, _)| expect::comment(b)) else {
            continue;
        };
        if let Some(i) = old.rfind(";;") {
            let value = format!("{} {v}", old["run:".len()..i + 2].trim());
            lines.set_value(line, "run", &value);
        }
    }
    for (c, key, field) in [
        (&e.error_paths, "expect-error-paths", "error_paths"),
        (&e.tests, "expect-tests", "tests"),
    ] {
        if let Some(c) = c {
            if let Some(Some(v)) = agreed(runs.iter().map(|r| count(field, r))) {
                lines.set_value(c.line, key, &v.to_string());
            }
        }
    }
    if let Some((line, exits)) = &e.exits {
        if let Some(v) = agreed(runs.iter().map(|r| &r.exits)) {
            if v != exits {
                let text: Vec<String> = v.iter().map(i64::to_string).collect();
                lines.set_value(*line, "expect-exits", &text.join(" "));
            }
        }
    }
    if let Some((line, kinds)) = &e.error_kinds {
        if let Some(v) = agreed(runs.iter().map(Run::error_kinds)) {
            if &v != kinds {
                lines.set_value(*line, "expect-errors", &v.join(" "));
            }
        }
    }
    for c in e.summary_checks.iter().filter(|c| c.check.op == "==") {
        let applicable = runs.iter().filter(|r| r.matches(&c.only_if));
        if let Some(Some(v)) = agreed(applicable.map(|r| r.number(&c.check.key))) {
            if v != c.check.value {
                let mut text = c.check.render_with(v);
                if let Some(t) = &c.only_if {
                    text.push_str(&format!(" if {t}"));
                }
                lines.set_value(c.line, "expect-summary", &text);
            }
        }
    }
    for m in &e.modes {
        let Some(r) = runs.iter().find(|r| r.mode.as_ref() == Some(&m.mode)) else {
            continue;
        };
        let mut changed = false;
        let checks: Vec<String> = m
            .checks
            .iter()
            .map(|c| match c {
                ModeCheck::Number(n) => match r.number(&n.key) {
                    Some(v) if n.op == "==" && v != n.value => {
                        changed = true;
                        n.render_with(v)
                    }
                    _ => n.render_with(n.value),
                },
                ModeCheck::ErrorIn { function, kind } => format!("error-in {function} {kind}"),
            })
            .collect();
        if changed {
            lines.set_value(m.line, &format!("mode {}", m.mode), &checks.join("; "));
        }
    }
    if e.error_kinds.is_none() && e.modes.is_empty() {
        bless_error_lines(program, &mut lines, e, runs);
    }
    lines.join()
}

/// The `expect-error` annotations: stale ones removed, missing ones added (see the header).
fn bless_error_lines(program: &Path, lines: &mut Lines, e: &Expectations, runs: &[Run]) {
    let Some(reported) = agreed(runs.iter().map(Run::errors)) else {
        return;
    };
    if reported == e.errors {
        return;
    }
    for (kind, line) in e.errors.iter().filter(|x| !reported.contains(x)) {
        let Some((body, _)) = lines.get(*line as usize) else {
            continue;
        };
        if let Some(slash) = body.find("//") {
            if expect::comment(body) == Some(&format!("expect-error: {kind}")) {
                let mut code = body[..slash].trim_end();
                if program.extension().is_some_and(|x| x == "ll") {
                    code = code.strip_suffix(';').unwrap_or(code).trim_end();
                }
                lines.set(*line as usize, code.to_string());
            }
        }
    }
    let in_program = |kind: &str, line: u32| {
        runs[0].summary["errors"]
            .as_array()
            .into_iter()
            .flatten()
            .any(|x| {
                x["kind"] == kind
                    && x["line"].as_u64() == Some(line as u64)
                    && x["file"].as_str().is_some_and(|f| Path::new(f) == program)
            })
    };
    let missing: Vec<&(String, u32)> = reported.iter().filter(|x| !e.errors.contains(x)).collect();
    for (kind, line) in &missing {
        let one_kind = missing.iter().filter(|(_, l)| l == line).count() == 1;
        let Some((body, _)) = lines.get(*line as usize) else {
            continue;
        };
        if !one_kind || body.contains("//") || !in_program(kind, *line) {
            continue;
        }
        let comment = if program.extension().is_some_and(|x| x == "ll") {
            "; //"
        } else {
            "//"
        };
        let new = format!("{} {comment} expect-error: {kind}", body.trim_end());
        lines.set(*line as usize, new);
    }
}
