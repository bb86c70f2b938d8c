//! The expectation dialect of the C programs under `tests/` (`tests/README.md` describes it):
//! one parser for every suite. Each expectation remembers its line, so that the bless mode
//! (`bless.rs`) can rewrite it in place.

/// A number expectation (`expect-completed: N` and the like) and its 1-based line.
#[derive(Debug, Clone, PartialEq)]
pub struct Count {
    /// The line of the comment.
    pub line: usize,
    /// The expected number.
    pub value: u64,
}

/// `KEY OP N`: a number of `summary.json` (a dotted path; `errors` is the number of
/// reported errors) compared with N.
#[derive(Debug, Clone, PartialEq)]
pub struct NumberCheck {
    /// The dotted path.
    pub key: String,
    /// `==`, `>=`, `<=` or `>`.
    pub op: String,
    /// N.
    pub value: f64,
}

impl NumberCheck {
    /// Parses `KEY OP N`.
    pub fn parse(text: &str) -> Result<NumberCheck, String> {
        let parts: Vec<&str> = text.split_whitespace().collect();
        let [key, op, value] = parts[..] else {
            return Err(format!("expected KEY OP N, got '{text}'"));
        };
        if !["==", ">=", "<=", ">"].contains(&op) {
            return Err(format!("bad operator in '{text}'"));
        }
        let value = value
            .parse()
            .map_err(|_| format!("bad number in '{text}'"))?;
        Ok(NumberCheck {
            key: key.to_string(),
            op: op.to_string(),
            value,
        })
    }

    /// True when `actual` meets the check.
    pub fn holds(&self, actual: f64) -> bool {
        match self.op.as_str() {
            "==" => actual == self.value,
            ">=" => actual >= self.value,
            "<=" => actual <= self.value,
            _ => actual > self.value,
        }
    }

    /// `KEY OP N` with `value` for N (written as an integer when it is one).
    pub fn render_with(&self, value: f64) -> String {
        format!("{} {} {}", self.key, self.op, render_number(value))
    }
}

/// A number as the dialect writes it.
pub fn render_number(value: f64) -> String {
    if value.fract() == 0.0 && value.abs() < 1e15 {
        format!("{}", value as i64)
    } else {
        format!("{value}")
    }
}

/// An `expect-summary:` line.
#[derive(Debug, Clone, PartialEq)]
pub struct SummaryCheck {
    /// The line of the comment.
    pub line: usize,
    /// `KEY OP N`.
    pub check: NumberCheck,
    /// `if TEXT`: only runs whose configuration contains TEXT.
    pub only_if: Option<String>,
}

/// A check of a `mode` line.
#[derive(Debug, Clone, PartialEq)]
pub enum ModeCheck {
    /// `KEY OP N`.
    Number(NumberCheck),
    /// `error-in FUNCTION KIND`: an error of that kind is reported in that function.
    ErrorIn {
        /// The function.
        function: String,
        /// The error kind.
        kind: String,
    },
}

/// A `mode MODE: CHECK; CHECK; ...` line (a symbolic-size run).
#[derive(Debug, Clone, PartialEq)]
pub struct ModeLine {
    /// The line of the comment.
    pub line: usize,
    /// `fork-lazy`, `sm+inc`, ...
    pub mode: String,
    /// Its checks.
    pub checks: Vec<ModeCheck>,
}

/// A `run: SEAR-ARGS ;; PROGRAM-ARGS ;; COMPLETED` line.
#[derive(Debug, Clone, PartialEq)]
pub struct RunLine {
    /// The line of the comment.
    pub line: usize,
    /// Arguments of `sear run` before the program.
    pub sear_args: Vec<String>,
    /// The program's arguments.
    pub program_args: Vec<String>,
    /// The completed paths expected.
    pub completed: u64,
}

/// Everything a program's comments expect.
#[derive(Debug, Default)]
pub struct Expectations {
    /// `sear-args:` (repeatable).
    pub sear_args: Vec<String>,
    /// `program-args:` (repeatable).
    pub program_args: Vec<String>,
    /// `sear-configs: ARGS | ARGS ...`.
    pub configs: Vec<Vec<String>>,
    /// The line of `sear-configs:`.
    pub configs_line: Option<usize>,
    /// `expect-completed:`.
    pub completed: Option<Count>,
    /// `expect-error-paths:`.
    pub error_paths: Option<Count>,
    /// `expect-tests:`.
    pub tests: Option<Count>,
    /// `expect-exits:` (line, sorted statuses).
    pub exits: Option<(usize, Vec<i64>)>,
    /// `... // expect-error: KIND` (kind, line), sorted.
    pub errors: Vec<(String, u32)>,
    /// `expect-errors: KIND...` (line, sorted kinds).
    pub error_kinds: Option<(usize, Vec<String>)>,
    /// False with `expect-replay: no`.
    pub replay: bool,
    /// True with `expect-replay: strict` (the report's totals are checked too).
    pub strict_replay: bool,
    /// `expect-summary:` lines.
    pub summary_checks: Vec<SummaryCheck>,
    /// `expect-sear-stderr:` texts.
    pub sear_stderr: Vec<String>,
    /// `expect-test-stdout:` outputs.
    pub test_stdout: Vec<Vec<u8>>,
    /// `expect-test-stderr:` outputs.
    pub test_stderr: Vec<Vec<u8>>,
    /// `expect-warning:` texts.
    pub warnings: Vec<String>,
    /// `expect-object:` names.
    pub objects: Vec<String>,
    /// `run:` lines.
    pub runs: Vec<RunLine>,
    /// `mode` lines.
    pub modes: Vec<ModeLine>,
}

/// The keys of the dialect (`mode` is matched apart: `mode NAME:`).
const KEYS: &[&str] = &[
    "sear-args",
    "program-args",
    "sear-configs",
    "run",
    "expect-completed",
    "expect-error-paths",
    "expect-tests",
    "expect-exits",
    "expect-error",
    "expect-errors",
    "expect-replay",
    "expect-summary",
    "expect-sear-stderr",
    "expect-test-stdout",
    "expect-test-stderr",
    "expect-warning",
    "expect-object",
];

/// The symbolic-size modes a `mode` line may name (with `+inc` or without); `mode` followed
/// by another word is prose.
const MODES: &[&str] = &[
    "concretize",
    "max",
    "fork-eager",
    "fork-lazy",
    "sm",
    "smopt",
    "pat",
];

/// The text after the first `//` of a line, trimmed (in `.ll` files the comments are
/// written `; // ...`).
pub fn comment(line: &str) -> Option<&str> {
    line.find("//").map(|i| line[i + 2..].trim())
}

/// The key of a comment that looks like a directive (`word:` with a known key or an
/// `expect-` prefix), and the text after the colon.
fn split_directive(comment: &str) -> Option<(&str, &str)> {
    let (key, rest) = comment.split_once(':')?;
    if let Some(mode) = key.strip_prefix("mode ") {
        let base = mode.strip_suffix("+inc").unwrap_or(mode);
        return MODES
            .contains(&base)
            .then(|| ("mode", &comment["mode ".len()..]));
    }
    let word = !key.is_empty() && key.chars().all(|c| c.is_ascii_lowercase() || c == '-');
    (word && (KEYS.contains(&key) || key.starts_with("expect-"))).then_some((key, rest))
}

/// Decodes `\n`, `\t`, `\\` and `\xHH`.
pub fn unescape(text: &str) -> Result<Vec<u8>, String> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'\\' && i + 1 < bytes.len() {
            match bytes[i + 1] {
                b'n' => out.push(b'\n'),
                b't' => out.push(b'\t'),
                b'\\' => out.push(b'\\'),
                b'x' if i + 3 < bytes.len() => {
                    let hex = std::str::from_utf8(&bytes[i + 2..i + 4])
                        .ok()
                        .and_then(|h| u8::from_str_radix(h, 16).ok())
                        .ok_or_else(|| format!("bad escape in '{text}'"))?;
                    out.push(hex);
                    i += 2;
                }
                other => return Err(format!("unknown escape \\{} in '{text}'", other as char)),
            }
            i += 2;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    Ok(out)
}

fn words(text: &str) -> Vec<String> {
    text.split_whitespace().map(str::to_string).collect()
}

fn number(key: &str, text: &str) -> Result<u64, String> {
    text.trim()
        .parse()
        .map_err(|_| format!("{key}: expected a number, got '{text}'"))
}

/// Parses a `mode` line's text after `mode `.
fn parse_mode(line: usize, text: &str) -> Result<ModeLine, String> {
    let (mode, checks) = text
        .split_once(':')
        .ok_or_else(|| format!("expected mode MODE: CHECKS, got '{text}'"))?;
    let checks = checks
        .split(';')
        .map(str::trim)
        .filter(|c| !c.is_empty())
        .map(|c| match c.split_whitespace().collect::<Vec<_>>()[..] {
            ["error-in", function, kind] => Ok(ModeCheck::ErrorIn {
                function: function.to_string(),
                kind: kind.to_string(),
            }),
            _ => NumberCheck::parse(c).map(ModeCheck::Number),
        })
        .collect::<Result<_, _>>()?;
    Ok(ModeLine {
        line,
        mode: mode.trim().to_string(),
        checks,
    })
}

/// Parses every expectation of `source`; an unknown `expect-` key or a malformed value is an
/// error naming the line.
pub fn parse(source: &str) -> Result<Expectations, String> {
    let mut e = Expectations {
        replay: true,
        ..Default::default()
    };
    for (index, text) in source.lines().enumerate() {
        let line = index + 1;
        let Some((key, value)) = comment(text).and_then(split_directive) else {
            continue;
        };
        parse_directive(&mut e, line, key, value).map_err(|m| format!("line {line}: {m}"))?;
    }
    e.errors.sort();
    Ok(e)
}

fn parse_directive(e: &mut Expectations, line: usize, key: &str, raw: &str) -> Result<(), String> {
    let v = raw.trim();
    let count = || number(key, v).map(|value| Count { line, value });
    match key {
        "sear-args" => e.sear_args.extend(words(v)),
        "program-args" => e.program_args.extend(words(v)),
        "sear-configs" => {
            e.configs = v.split('|').map(words).collect();
            e.configs_line = Some(line);
        }
        "run" => {
            let parts: Vec<&str> = v.split(";;").map(str::trim).collect();
            let [sear_args, program_args, completed] = parts[..] else {
                return Err("expected run: SEAR-ARGS ;; PROGRAM-ARGS ;; COMPLETED".into());
            };
            e.runs.push(RunLine {
                line,
                sear_args: words(sear_args),
                program_args: words(program_args),
                completed: number(key, completed)?,
            });
        }
        "mode" => e.modes.push(parse_mode(line, raw)?),
        "expect-completed" => e.completed = Some(count()?),
        "expect-error-paths" => e.error_paths = Some(count()?),
        "expect-tests" => e.tests = Some(count()?),
        "expect-exits" => {
            let mut exits = v
                .split_whitespace()
                .map(|x| {
                    x.parse()
                        .map_err(|_| format!("expect-exits: bad number '{x}'"))
                })
                .collect::<Result<Vec<i64>, _>>()?;
            exits.sort();
            e.exits = Some((line, exits));
        }
        "expect-error" => {
            if v.is_empty() || v.contains(char::is_whitespace) {
                return Err(format!("expect-error: one KIND, got '{v}'"));
            }
            e.errors.push((v.to_string(), line as u32));
        }
        "expect-errors" => {
            let mut kinds = words(v);
            kinds.sort();
            e.error_kinds = Some((line, kinds));
        }
        "expect-replay" => match v {
            "no" => e.replay = false,
            "yes" => e.replay = true,
            "strict" => (e.replay, e.strict_replay) = (true, true),
            _ => return Err(format!("expect-replay: yes, no or strict, got '{v}'")),
        },
        "expect-summary" => {
            let (check, only_if) = match v.split_once(" if ") {
                Some((c, t)) => (c, Some(t.trim().to_string())),
                None => (v, None),
            };
            e.summary_checks.push(SummaryCheck {
                line,
                check: NumberCheck::parse(check)?,
                only_if,
            });
        }
        "expect-sear-stderr" => e.sear_stderr.push(v.to_string()),
        "expect-test-stdout" | "expect-test-stderr" => {
            // One space after the colon belongs to the syntax, the rest to the output.
            let text = raw.trim_end();
            let bytes = unescape(text.strip_prefix(' ').unwrap_or(text))?;
            if key == "expect-test-stdout" {
                e.test_stdout.push(bytes);
            } else {
                e.test_stderr.push(bytes);
            }
        }
        "expect-warning" => e.warnings.push(v.to_string()),
        "expect-object" => e.objects.push(v.to_string()),
        _ => return Err(format!("unknown expectation '{key}:'")),
    }
    Ok(())
}
