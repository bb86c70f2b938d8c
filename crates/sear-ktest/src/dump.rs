//! A human-readable dump in the style of KLEE's `ktest-tool`.

use std::fmt::Write;

use crate::KTest;

/// Dumps `test` like `ktest-tool` does, without the leading `ktest file` line.
///
/// Per object it prints the name, size, data as a Python bytes literal, hex, and for sizes
/// 1, 2, 4 and 8 the little-endian signed and unsigned integer values, then printable text.
pub fn dump(test: &KTest) -> String {
    let mut out = String::new();
    write_body(&mut out, test, false);
    out
}

/// Dumps `test` like `ktest-tool` does, starting with `ktest file : '<file_name>'`.
pub fn dump_named(file_name: &str, test: &KTest) -> String {
    dump_named_with(file_name, test, false)
}

/// [`dump_named`], and with `floats` also the `float` value of every 4-byte object and the
/// `double` value of every 8-byte one (little-endian; `object N: float: 1.5`, NaNs with
/// their bits), which KLEE's `ktest-tool` does not print.
pub fn dump_named_with(file_name: &str, test: &KTest, floats: bool) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "ktest file : {}", py_str(file_name));
    write_body(&mut out, test, floats);
    out
}

/// The `float`/`double` reading of a 4- or 8-byte object: Rust's shortest representation
/// that reads back to the same value (`-0`, `inf`, `NaN` with its bits).
fn float_value(bytes: &[u8]) -> Option<(&'static str, String)> {
    let show = |v: f64, is_nan: bool, bits: u64| {
        if is_nan {
            format!("NaN (0x{bits:x})")
        } else {
            format!("{v:?}")
        }
    };
    match bytes.len() {
        4 => {
            let bits = u32::from_le_bytes(bytes.try_into().ok()?);
            let x = f32::from_bits(bits);
            let text = if x.is_nan() {
                show(0.0, true, bits as u64)
            } else {
                format!("{x:?}")
            };
            Some(("float", text))
        }
        8 => {
            let bits = u64::from_le_bytes(bytes.try_into().ok()?);
            let x = f64::from_bits(bits);
            Some(("double", show(x, x.is_nan(), bits)))
        }
        _ => None,
    }
}

fn write_body(out: &mut String, test: &KTest, floats: bool) {
    let args: Vec<String> = test.args.iter().map(|a| py_str(a)).collect();
    let _ = writeln!(out, "args       : [{}]", args.join(", "));
    if test.sym_argvs != 0 || test.sym_argv_len != 0 {
        let _ = writeln!(out, "sym argvs  : {}", test.sym_argvs);
        let _ = writeln!(out, "sym argvlen: {}", test.sym_argv_len);
    }
    let _ = writeln!(out, "num objects: {}", test.objects.len());
    for (i, object) in test.objects.iter().enumerate() {
        let bytes = &object.bytes;
        let _ = writeln!(out, "object {i}: name: {}", py_str(&object.name));
        let _ = writeln!(out, "object {i}: size: {}", bytes.len());
        let _ = writeln!(out, "object {i}: data: {}", py_bytes(bytes));
        let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
        let _ = writeln!(out, "object {i}: hex : 0x{hex}");
        if let Some((int, uint)) = int_values(bytes) {
            let _ = writeln!(out, "object {i}: int : {int}");
            let _ = writeln!(out, "object {i}: uint: {uint}");
        }
        if let Some((kind, value)) = float_value(bytes).filter(|_| floats) {
            let _ = writeln!(out, "object {i}: {kind}: {value}");
        }
        let text: String = bytes
            .iter()
            .map(|&b| if is_printable(b) { b as char } else { '.' })
            .collect();
        let _ = writeln!(out, "object {i}: text: {text}");
    }
}

/// The little-endian signed and unsigned values of a 1, 2, 4 or 8-byte object.
fn int_values(bytes: &[u8]) -> Option<(i64, u64)> {
    if !matches!(bytes.len(), 1 | 2 | 4 | 8) {
        return None;
    }
    let mut buf = [0u8; 8];
    buf[..bytes.len()].copy_from_slice(bytes);
    let uint = u64::from_le_bytes(buf);
    let shift = 64 - 8 * bytes.len() as u32;
    // Sign-extend from the object's width.
    let int = ((uint << shift) as i64) >> shift;
    Some((int, uint))
}

fn is_printable(b: u8) -> bool {
    (0x20..0x7f).contains(&b)
}

/// Python's `repr` of a `str`, for ASCII-ish text.
fn py_str(s: &str) -> String {
    quote(s.chars().map(|c| c as u32), "")
}

/// Python's `repr` of a `bytes` object.
fn py_bytes(bytes: &[u8]) -> String {
    quote(bytes.iter().map(|&b| u32::from(b)), "b")
}

/// Quotes like Python: single quotes unless the text contains `'` but no `"`.
fn quote(units: impl Iterator<Item = u32> + Clone, prefix: &str) -> String {
    let has_single = units.clone().any(|u| u == u32::from(b'\''));
    let has_double = units.clone().any(|u| u == u32::from(b'"'));
    let q = if has_single && !has_double { '"' } else { '\'' };
    let is_bytes = prefix == "b";
    let mut out = String::from(prefix);
    out.push(q);
    for unit in units {
        match unit {
            0x5c => out.push_str("\\\\"),
            0x09 => out.push_str("\\t"),
            0x0a => out.push_str("\\n"),
            0x0d => out.push_str("\\r"),
            u if u == q as u32 => {
                out.push('\\');
                out.push(q);
            }
            u @ 0x20..=0x7e => out.push(char::from(u as u8)),
            u if u < 0x20 || (0x7f..0xa1).contains(&u) || (is_bytes && u < 0x100) => {
                let _ = write!(out, "\\x{u:02x}");
            }
            // Non-ASCII characters of a str print as themselves, as in Python 3.
            u => out.push(char::from_u32(u).unwrap_or('\u{fffd}')),
        }
    }
    out.push(q);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_literals_follow_python() {
        assert_eq!(py_bytes(b"ab\x00\xff"), "b'ab\\x00\\xff'");
        assert_eq!(py_bytes(b"it's"), "b\"it's\"");
        assert_eq!(py_bytes(b"'\""), "b'\\'\"'");
        assert_eq!(py_bytes(b"\\\n\t\r"), "b'\\\\\\n\\t\\r'");
    }

    #[test]
    fn int_values_sign_extend() {
        assert_eq!(int_values(&[0xff]), Some((-1, 255)));
        assert_eq!(int_values(&[0x00, 0x80]), Some((-32768, 32768)));
        assert_eq!(int_values(&[1, 0, 0, 0]), Some((1, 1)));
        assert_eq!(int_values(&[0xff; 8]), Some((-1, u64::MAX)));
        assert_eq!(int_values(&[1, 2, 3]), None);
    }
}
