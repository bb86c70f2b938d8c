//! Reading sear's `testNNNNNN.<kind>.err` files.
//!
//! Format: `Error: <message>`, then `File: <path>`, `Line: <n>`, `Function: <name>`, then
//! optionally `Info:` and indented lines, then `Stack:` and its lines. The error kind is the middle part of the file name.

use std::path::Path;

use anyhow::{Context, Result};
use serde::Serialize;

/// What an `.err` file says about the error sear found.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct ErrInfo {
    /// The error kind from the file name (`ptr`, `div`, `assert`, ...).
    pub kind: String,
    /// The `Error:` message.
    pub message: String,
    /// The `File:` path, if present.
    pub file: Option<String>,
    /// The `Line:` number, if present and numeric.
    pub line: Option<u32>,
    /// The `Function:` name, if present.
    pub function: Option<String>,
}

/// Splits `testNNNNNN.<kind>.err` into the test stem and the kind.
pub fn split_err_name(file_name: &str) -> Option<(&str, &str)> {
    let rest = file_name.strip_suffix(".err")?;
    let (stem, kind) = rest.split_once('.')?;
    if kind.is_empty() || !is_test_stem(stem) {
        return None;
    }
    Some((stem, kind))
}

/// True for `test` followed by digits.
pub fn is_test_stem(stem: &str) -> bool {
    stem.strip_prefix("test")
        .is_some_and(|digits| !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()))
}

/// Reads an `.err` file of the given kind.
pub fn read_err_file(path: &Path, kind: &str) -> Result<ErrInfo> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    Ok(parse_err_text(&text, kind))
}

/// Parses the text of an `.err` file; unknown or missing fields are left empty.
pub fn parse_err_text(text: &str, kind: &str) -> ErrInfo {
    let mut info = ErrInfo {
        kind: kind.to_string(),
        ..ErrInfo::default()
    };
    for line in text.lines() {
        if matches!(line.trim_end(), "Stack:" | "Info:") {
            break;
        }
        let Some((key, value)) = line.split_once(':') else {
            continue;
        };
        let value = value.trim();
        match key {
            "Error" => info.message = value.to_string(),
            "File" if !value.is_empty() => info.file = Some(value.to_string()),
            // Line 0 means "unknown".
            "Line" => info.line = value.parse().ok().filter(|&n| n != 0),
            "Function" => info.function = Some(value.to_string()),
            _ => {}
        }
    }
    info
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_fields_and_names() {
        let text = "Error: memory error: out of bound pointer\nFile: /tmp/p.c\nLine: 9\n\
                    Function: main\nInfo:\n\tFile: other.c\nStack:\n\t#0 main at /tmp/p.c:9\n";
        let info = parse_err_text(text, "ptr");
        assert_eq!(info.message, "memory error: out of bound pointer");
        assert_eq!(info.file.as_deref(), Some("/tmp/p.c"));
        assert_eq!(info.line, Some(9));
        assert_eq!(info.function.as_deref(), Some("main"));
        assert_eq!(
            split_err_name("test000002.ptr.err"),
            Some(("test000002", "ptr"))
        );
        assert_eq!(
            split_err_name("test000002.bad_vector_access.err"),
            Some(("test000002", "bad_vector_access"))
        );
        assert_eq!(split_err_name("test000002.ktest"), None);
        assert_eq!(split_err_name("info.err"), None);
        let unknown = parse_err_text("Error: x\nFile: \nLine: 0\n", "exec");
        assert_eq!((unknown.file, unknown.line), (None, None));
    }
}
