//! `sear solve` for scripts with bit-vectors wider than 128 bits, which sear's expression
//! language does not hold: the script's commands are followed here and its declarations
//! and assertions are handed to Z3 as text ([`sear_solver::direct`]). What is printed is
//! what `sear solve` prints for any script: `sat`/`unsat`/`unknown`, models as
//! `(model (define-fun NAME () SORT VALUE) ...)` (bit-vector constants, then Booleans, then
//! arrays as `store` chains), `get-value` answers, deletion-minimal unsat cores of named
//! assertions, `push`/`pop`/`reset`/`echo`/`exit` as in SMT-LIB.

use std::fmt::Write as _;

use sear_solver::direct::{DirectAnswer, DirectModel, DirectValue, DirectZ3};

/// An element of the script: an atom (symbol, numeral, keyword, literal), a string or a
/// list, with its span in the text.
#[derive(Clone, Debug)]
enum Sx {
    Atom(String, usize, usize),
    Str(String, usize, usize),
    List(Vec<Sx>, usize, usize),
}

impl Sx {
    fn span(&self) -> (usize, usize) {
        match self {
            Sx::Atom(_, s, e) | Sx::Str(_, s, e) | Sx::List(_, s, e) => (*s, *e),
        }
    }

    fn atom(&self) -> Option<&str> {
        match self {
            Sx::Atom(a, ..) => Some(a),
            _ => None,
        }
    }
}

/// The script's top-level elements; an error names the byte offset.
fn read_script(text: &str) -> Result<Vec<Sx>, String> {
    let bytes = text.as_bytes();
    let mut stack: Vec<(Vec<Sx>, usize)> = vec![(Vec::new(), 0)];
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        match c {
            b';' => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
            }
            b'(' => {
                stack.push((Vec::new(), i));
                i += 1;
            }
            b')' => {
                if stack.len() < 2 {
                    return Err(format!("unbalanced ')' at byte {i}"));
                }
                let (items, start) = stack.pop().expect("checked");
                stack
                    .last_mut()
                    .expect("the top level stays")
                    .0
                    .push(Sx::List(items, start, i + 1));
                i += 1;
            }
            b'"' => {
                let start = i;
                let mut value = String::new();
                i += 1;
                loop {
                    match bytes.get(i) {
                        None => return Err(format!("unterminated string at byte {start}")),
                        Some(b'"') if bytes.get(i + 1) == Some(&b'"') => {
                            value.push('"');
                            i += 2;
                        }
                        Some(b'"') => {
                            i += 1;
                            break;
                        }
                        Some(_) => {
                            let ch = text[i..].chars().next().expect("in the text");
                            value.push(ch);
                            i += ch.len_utf8();
                        }
                    }
                }
                stack
                    .last_mut()
                    .expect("open")
                    .0
                    .push(Sx::Str(value, start, i));
            }
            _ if c.is_ascii_whitespace() => i += 1,
            _ => {
                let start = i;
                if c == b'|' {
                    i += 1;
                    while i < bytes.len() && bytes[i] != b'|' {
                        i += 1;
                    }
                    if i == bytes.len() {
                        return Err(format!("unterminated |symbol| at byte {start}"));
                    }
                    i += 1;
                } else {
                    while i < bytes.len()
                        && !bytes[i].is_ascii_whitespace()
                        && !matches!(bytes[i], b'(' | b')' | b';' | b'"')
                    {
                        i += 1;
                    }
                }
                stack.last_mut().expect("open").0.push(Sx::Atom(
                    text[start..i].to_string(),
                    start,
                    i,
                ));
            }
        }
    }
    if stack.len() != 1 {
        return Err("unclosed parenthesis".into());
    }
    Ok(stack.pop().expect("the top level").0)
}

/// What the current scopes hold, in order.
#[derive(Clone, Debug)]
enum Item {
    /// A declaration or definition; for `declare-fun NAME ()` / `declare-const`, its name.
    Decl {
        text: String,
        constant: Option<String>,
    },
    /// An assertion and its `:named` name.
    Assert { text: String, name: Option<String> },
}

/// The name of `(! t ... :named n ...)` (without `|...|`, as sear's parser reads symbols).
fn assertion_name(term: &Sx) -> Option<String> {
    let Sx::List(items, ..) = term else {
        return None;
    };
    if items.first()?.atom()? != "!" {
        return None;
    }
    items
        .windows(2)
        .find(|w| w[0].atom() == Some(":named"))
        .and_then(|w| w[1].atom())
        .map(|n| {
            n.strip_prefix('|')
                .and_then(|s| s.strip_suffix('|'))
                .unwrap_or(n)
                .to_string()
        })
}

/// A symbol as sear prints it in models: `|...|` unless it is a simple symbol.
fn model_name(written: &str) -> String {
    let bare = written
        .strip_prefix('|')
        .and_then(|s| s.strip_suffix('|'))
        .unwrap_or(written);
    let clean: String = bare
        .chars()
        .map(|c| {
            if c == '|' || c == '\\' || c.is_control() {
                '_'
            } else {
                c
            }
        })
        .collect();
    let simple = !clean.is_empty()
        && !clean.starts_with(|c: char| c.is_ascii_digit())
        && clean
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "~!@$%^&*_-+=<>.?/".contains(c));
    match (clean.is_empty(), simple) {
        (true, _) => "_".into(),
        (false, true) => clean,
        (false, false) => format!("|{clean}|"),
    }
}

/// A bit-vector literal as sear writes one: `#x..` for widths that are a multiple of four,
/// `#b..` otherwise; width 1 as `true`/`false` where `bool_for_bit` (get-value).
fn format_bits(width: u32, limbs: &[u64], bool_for_bit: bool) -> String {
    let bit = |i: u32| (limbs.get((i / 64) as usize).copied().unwrap_or(0) >> (i % 64)) & 1;
    if width == 1 && bool_for_bit {
        return if bit(0) == 1 { "true" } else { "false" }.into();
    }
    let mut out = String::new();
    if width.is_multiple_of(4) {
        out.push_str("#x");
        for d in (0..width / 4).rev() {
            let nibble = (0..4).fold(0, |acc, b| acc | (bit(4 * d + b) << b));
            let _ = write!(out, "{nibble:x}");
        }
    } else {
        out.push_str("#b");
        for i in (0..width).rev() {
            out.push(if bit(i) == 1 { '1' } else { '0' });
        }
    }
    out
}

fn format_value(v: &DirectValue, bool_for_bit: bool) -> String {
    match v {
        DirectValue::Bool(b) => b.to_string(),
        DirectValue::Bv { width, limbs } => format_bits(*width, limbs, bool_for_bit),
        DirectValue::Array { .. } => format_array(v).1,
        DirectValue::Other(text) => text.clone(),
    }
}

fn sort_of(v: &DirectValue) -> String {
    match v {
        DirectValue::Bool(_) => "Bool".into(),
        DirectValue::Bv { width, .. } => format!("(_ BitVec {width})"),
        DirectValue::Array { .. } => format_array(v).0,
        DirectValue::Other(_) => "?".into(),
    }
}

/// An array's sort and value: a `store` chain, in index order, of the entries that differ
/// from the default, over the constant array of the default (as sear prints arrays, whose
/// default is zero).
fn format_array(v: &DirectValue) -> (String, String) {
    let DirectValue::Array {
        index_width,
        default,
        entries,
    } = v
    else {
        return ("?".into(), format_value(v, false));
    };
    let sort = format!("(Array (_ BitVec {index_width}) {})", sort_of(default));
    // Later stores win; keep one entry per index, in index order.
    let mut by_index: std::collections::BTreeMap<Vec<u64>, &DirectValue> = Default::default();
    for (i, e) in entries {
        if let DirectValue::Bv { limbs, .. } = i {
            let mut key = limbs.clone();
            key.reverse();
            by_index.insert(key, e);
        }
    }
    let mut stores = Vec::new();
    for (key, e) in by_index {
        if *e != **default {
            let mut limbs = key;
            limbs.reverse();
            stores.push((
                format_bits(*index_width, &limbs, false),
                format_value(e, false),
            ));
        }
    }
    let mut out = "(store ".repeat(stores.len());
    let _ = write!(out, "((as const {sort}) {})", format_value(default, false));
    for (i, e) in stores {
        let _ = write!(out, " {i} {e})");
    }
    (sort, out)
}

/// Runs the script; returns the exit code (0, or 1 if a command failed).
pub fn run(text: &str, z3: &DirectZ3, print_models: bool) -> anyhow::Result<i32> {
    let elements = read_script(text).map_err(|e| anyhow::anyhow!(e))?;
    let mut scopes: Vec<Vec<Item>> = vec![Vec::new()];
    let mut model: Option<DirectModel> = None;
    let mut last_unsat: Option<Vec<(Option<String>, String)>> = None;
    let mut code = 0;
    for element in &elements {
        let Sx::List(parts, ..) = element else {
            anyhow::bail!("expected '(' to start a command");
        };
        let Some(head) = parts.first().and_then(Sx::atom) else {
            anyhow::bail!("empty command");
        };
        let source = |sx: &Sx| {
            let (s, e) = sx.span();
            text[s..e].to_string()
        };
        let scope = scopes.last_mut().expect("a scope is always open");
        match head {
            "set-logic" | "set-option" | "set-info" | "get-info" | "get-option" => {}
            "declare-fun" | "declare-const" | "define-fun" | "define-sort" | "declare-sort"
            | "define-fun-rec" | "define-funs-rec" => {
                let constant = match (head, parts.get(1).and_then(Sx::atom), parts.get(2)) {
                    ("declare-const", Some(name), _) => Some(name.to_string()),
                    ("declare-fun", Some(name), Some(Sx::List(params, ..)))
                        if params.is_empty() =>
                    {
                        Some(name.to_string())
                    }
                    _ => None,
                };
                scope.push(Item::Decl {
                    text: source(element),
                    constant,
                });
            }
            "assert" => {
                let Some(term) = parts.get(1) else {
                    anyhow::bail!("assert expects 1 argument");
                };
                scope.push(Item::Assert {
                    text: source(element),
                    name: assertion_name(term),
                });
            }
            "check-sat" | "check-sat-assuming" => {
                let mut checked: Vec<(Option<String>, String)> = scopes
                    .iter()
                    .flatten()
                    .filter_map(|item| match item {
                        Item::Assert { text, name } => Some((name.clone(), text.clone())),
                        Item::Decl { .. } => None,
                    })
                    .collect();
                if head == "check-sat-assuming" {
                    if let Some(Sx::List(literals, ..)) = parts.get(1) {
                        for l in literals {
                            let t = source(l);
                            checked.push((Some(t.clone()), format!("(assert {t})")));
                        }
                    }
                }
                model = None;
                last_unsat = None;
                match z3.check(&script_text(&scopes, &checked)) {
                    Ok(DirectAnswer::Sat(m)) => {
                        crate::term::outln!("sat");
                        if print_models {
                            crate::term::out!("{}", model_text(&m, z3, &scopes));
                        }
                        model = Some(m);
                    }
                    Ok(DirectAnswer::Unsat) => {
                        crate::term::outln!("unsat");
                        last_unsat = Some(checked);
                    }
                    Ok(DirectAnswer::Unknown(_)) => crate::term::outln!("unknown"),
                    Err(e) => {
                        crate::term::outln!("unknown");
                        crate::term::errln!("sear solve: {e}");
                        code = 1;
                    }
                }
            }
            "get-model" => match &model {
                Some(m) => crate::term::out!("{}", model_text(m, z3, &scopes)),
                None => crate::term::outln!("(error \"no model available\")"),
            },
            "get-value" => match (&model, parts.get(1)) {
                (Some(m), Some(Sx::List(terms, ..))) => {
                    let declarations = declarations_text(&scopes);
                    let mut out = String::from("(");
                    for (i, t) in terms.iter().enumerate() {
                        if i > 0 {
                            out.push_str("\n ");
                        }
                        let written = source(t);
                        match m.value(z3, &declarations, &written) {
                            Ok(v) => {
                                let _ = write!(out, "({written} {})", format_value(&v, true));
                            }
                            Err(e) => {
                                let _ = write!(out, "({written} (error \"{e}\"))");
                                code = 1;
                            }
                        }
                    }
                    out.push_str(")\n");
                    crate::term::out!("{out}");
                }
                (None, _) => crate::term::outln!("(error \"no model available\")"),
                _ => anyhow::bail!("get-value expects a list of terms"),
            },
            "get-unsat-core" => match &last_unsat {
                Some(checked) => match unsat_core(z3, &scopes, checked) {
                    Ok(names) => crate::term::outln!("({})", names.join(" ")),
                    Err(e) => {
                        crate::term::outln!("(error \"no unsat core: {e}\")");
                        code = 1;
                    }
                },
                None => crate::term::outln!("(error \"the last check was not unsat\")"),
            },
            "push" | "pop" => {
                let n = match parts.get(1).and_then(Sx::atom) {
                    None => 1,
                    Some(n) => n
                        .parse::<u32>()
                        .map_err(|_| anyhow::anyhow!("{head} expects a numeral"))?,
                };
                if head == "push" {
                    scopes.extend((0..n).map(|_| Vec::new()));
                } else if n as usize >= scopes.len() {
                    crate::term::outln!(
                        "(error \"pop {n} exceeds the {} open scopes\")",
                        scopes.len() - 1
                    );
                    code = 1;
                } else {
                    scopes.truncate(scopes.len() - n as usize);
                }
            }
            "reset" => {
                scopes = vec![Vec::new()];
                model = None;
                last_unsat = None;
            }
            "reset-assertions" => {
                let decls: Vec<Item> = scopes
                    .drain(..)
                    .flatten()
                    .filter(|i| matches!(i, Item::Decl { .. }))
                    .collect();
                scopes = vec![decls];
                model = None;
                last_unsat = None;
            }
            "echo" => match parts.get(1) {
                Some(Sx::Str(s, ..)) => crate::term::outln!("{s}"),
                _ => anyhow::bail!("echo expects a string"),
            },
            "exit" => break,
            other => anyhow::bail!("unsupported command {other}"),
        }
    }
    Ok(code)
}

/// Every declaration of the open scopes, in order.
fn declarations_text(scopes: &[Vec<Item>]) -> String {
    let mut out = String::new();
    for item in scopes.iter().flatten() {
        if let Item::Decl { text, .. } = item {
            out.push_str(text);
            out.push('\n');
        }
    }
    out
}

/// The declarations, then the assertions to check.
fn script_text(scopes: &[Vec<Item>], checked: &[(Option<String>, String)]) -> String {
    let mut out = declarations_text(scopes);
    for (_, text) in checked {
        out.push_str(text);
        out.push('\n');
    }
    out
}

/// The model as sear prints one: bit-vector constants, then Booleans, then arrays, each in
/// declaration order.
fn model_text(m: &DirectModel, z3: &DirectZ3, scopes: &[Vec<Item>]) -> String {
    let declarations = declarations_text(scopes);
    let mut groups: [Vec<String>; 3] = Default::default();
    for item in scopes.iter().flatten() {
        let Item::Decl {
            constant: Some(name),
            ..
        } = item
        else {
            continue;
        };
        let Ok(v) = m.value(z3, &declarations, name) else {
            continue;
        };
        let group = match v {
            DirectValue::Bv { .. } => 0,
            DirectValue::Bool(_) => 1,
            _ => 2,
        };
        groups[group].push(format!(
            "  (define-fun {} () {} {})\n",
            model_name(name),
            sort_of(&v),
            format_value(&v, false)
        ));
    }
    let mut out = String::from("(model\n");
    for line in groups.iter().flatten() {
        out.push_str(line);
    }
    out.push_str(")\n");
    out
}

/// The deletion-minimal core among the named assertions, as `sear solve` computes it.
fn unsat_core(
    z3: &DirectZ3,
    scopes: &[Vec<Item>],
    checked: &[(Option<String>, String)],
) -> Result<Vec<String>, String> {
    let mut keep = vec![true; checked.len()];
    for i in 0..checked.len() {
        if checked[i].0.is_none() {
            continue;
        }
        keep[i] = false;
        let rest: Vec<(Option<String>, String)> = checked
            .iter()
            .zip(&keep)
            .filter(|(_, k)| **k)
            .map(|(c, _)| c.clone())
            .collect();
        match z3.check(&script_text(scopes, &rest))? {
            DirectAnswer::Unsat => {}
            DirectAnswer::Sat(_) => keep[i] = true,
            DirectAnswer::Unknown(reason) => return Err(reason),
        }
    }
    Ok(checked
        .iter()
        .zip(&keep)
        .filter_map(|((name, _), k)| if *k { name.clone() } else { None })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literals_are_written_as_sear_writes_them() {
        assert_eq!(format_bits(8, &[0x2a], false), "#x2a");
        assert_eq!(format_bits(3, &[5], false), "#b101");
        assert_eq!(format_bits(1, &[1], true), "true");
        assert_eq!(
            format_bits(132, &[1, 0, 0x8], false),
            format!("#x8{:016x}{:016x}", 0, 1)
        );
    }

    #[test]
    fn scripts_split_into_commands() {
        let s = read_script("; c\n(assert (! x :named |a b|)) (echo \"q\"\"q\")").unwrap();
        assert_eq!(s.len(), 2);
        let Sx::List(parts, ..) = &s[0] else { panic!() };
        assert_eq!(assertion_name(&parts[1]).as_deref(), Some("a b"));
        let Sx::List(parts, ..) = &s[1] else { panic!() };
        assert!(matches!(&parts[1], Sx::Str(v, ..) if v == "q\"q"));
        assert!(read_script("(a").is_err());
    }

    #[test]
    fn model_names_are_quoted_when_needed() {
        assert_eq!(model_name("x"), "x");
        assert_eq!(model_name("|a b|"), "|a b|");
        assert_eq!(model_name("|x|"), "x");
    }
}
