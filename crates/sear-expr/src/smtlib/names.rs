//! SMT-LIB symbols: which names may be written bare, quoting, and unique array names.

use rustc_hash::{FxHashMap, FxHashSet};

use crate::array::{ArrayKind, ArrayRef};

/// Words that SMT-LIB reserves and that therefore must be quoted when used as names.
const RESERVED: &[&str] = &[
    "_",
    "!",
    "as",
    "let",
    "exists",
    "forall",
    "match",
    "par",
    "NUMERAL",
    "DECIMAL",
    "STRING",
    "BINARY",
    "HEXADECIMAL",
];

/// True for characters allowed in a simple (unquoted) SMT-LIB symbol.
pub(crate) fn is_symbol_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || "~!@$%^&*_-+=<>.?/".contains(c)
}

/// True if `s` can be written without `|...|` quotes.
pub(crate) fn is_simple_symbol(s: &str) -> bool {
    let mut chars = s.chars();
    match chars.next() {
        None => false,
        Some(first) if first.is_ascii_digit() || !is_symbol_char(first) => false,
        Some(_) => chars.all(is_symbol_char) && !RESERVED.contains(&s),
    }
}

/// Replaces the characters a quoted symbol (or a one-line comment) cannot hold.
pub(crate) fn sanitize(name: &str) -> String {
    let cleaned: String = name
        .chars()
        .map(|c| {
            if c == '|' || c == '\\' || c.is_control() {
                '_'
            } else {
                c
            }
        })
        .collect();
    if cleaned.is_empty() {
        "_".to_string()
    } else {
        cleaned
    }
}

/// The printed form of a sanitized name: bare when possible, `|quoted|` otherwise.
pub(crate) fn quote(name: &str) -> String {
    if is_simple_symbol(name) {
        name.to_string()
    } else {
        format!("|{name}|")
    }
}

/// The `kind=` tag of a `; sear-array` comment.
pub(crate) fn kind_tag(kind: ArrayKind) -> &'static str {
    match kind {
        ArrayKind::SymbolicInput => "symbolic-input",
        ArrayKind::MemoryObject => "memory-object",
        ArrayKind::SymbolicAddress => "symbolic-address",
        ArrayKind::Other => "other",
    }
}

/// Parses a `kind=` tag of a `; sear-array` comment.
pub(crate) fn kind_from_tag(tag: &str) -> Option<ArrayKind> {
    Some(match tag {
        "symbolic-input" => ArrayKind::SymbolicInput,
        "memory-object" => ArrayKind::MemoryObject,
        "symbolic-address" => ArrayKind::SymbolicAddress,
        "other" => ArrayKind::Other,
        _ => return None,
    })
}

/// Assigns every array of one script a distinct printed symbol.
///
/// Names are sanitized (no `|`, `\` or control characters) and quoted when needed; two
/// distinct arrays with the same name get suffixes `_1`, `_2`, ... so that the script stays
/// unambiguous even when the caller broke the "unique name" rule.
#[derive(Default)]
pub(crate) struct ArrayNames {
    printed: FxHashMap<u64, String>,
    used: FxHashSet<String>,
    /// The next suffix to try for each base name.
    next_suffix: FxHashMap<String, u32>,
}

impl ArrayNames {
    /// The printed symbol of `array`, assigning one on first use.
    pub(crate) fn name(&mut self, array: &ArrayRef) -> &str {
        let (used, next_suffix) = (&mut self.used, &mut self.next_suffix);
        self.printed.entry(array.id()).or_insert_with(|| {
            let base = sanitize(array.name());
            let mut candidate = base.clone();
            let suffix = next_suffix.entry(base.clone()).or_insert(1);
            while used.contains(&candidate) {
                candidate = format!("{base}_{suffix}");
                *suffix += 1;
            }
            used.insert(candidate.clone());
            quote(&candidate)
        })
    }

    /// The printed symbol of an array named before (see [`ArrayNames::name`]).
    pub(crate) fn get(&self, array: &ArrayRef) -> Option<&str> {
        self.printed.get(&array.id()).map(String::as_str)
    }

    /// A prefix for generated names (`let` variables, shared definitions) that no array name
    /// starts with, so generated names never shadow an array.
    pub(crate) fn fresh_prefix(&self) -> String {
        let mut prefix = String::from("?e");
        while self.used.iter().any(|n| n.starts_with(&prefix)) {
            prefix.push('_');
        }
        prefix
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn simple_symbols() {
        assert!(is_simple_symbol("arg0"));
        assert!(is_simple_symbol("?B1"));
        assert!(is_simple_symbol("model_version"));
        assert!(!is_simple_symbol("0abc"));
        assert!(!is_simple_symbol("a b"));
        assert!(!is_simple_symbol("let"));
        assert!(!is_simple_symbol(""));
        assert_eq!(quote("a b"), "|a b|");
        assert_eq!(sanitize("a|b\nc"), "a_b_c");
    }
}
