//! Seeds S: the literals of the indexed types in the program (its string constants and
//! floating-point immediates), the integer constants enumerated for integer parameters of
//! builders, and seed files (`--seeds` replaces the harvest, `--add-seeds` adds to it).

use std::collections::BTreeSet;

use sear_ir::{Constant, FloatKind, Module, TypeKind};

use crate::value::{GValue, Ty};

/// What the program's text holds.
#[derive(Clone, Debug, Default)]
pub struct Harvest {
    /// Seeds in the order found (no duplicates).
    pub seeds: Vec<GValue>,
    /// Small integer constants (0 to 4096), for integer parameters.
    pub ints: Vec<u64>,
}

/// The largest integer constant kept for integer parameters.
const MAX_INT: u128 = 4096;

/// The bytes of a string literal: a constant global holding a NUL-terminated `i8` array
/// (the bytes before the first NUL).
pub fn string_literal(module: &Module, global: sear_ir::GlobalId) -> Option<Vec<u8>> {
    let g = module.global(global);
    if !g.is_constant {
        return None;
    }
    let TypeKind::Array { elem, .. } = module.ty(g.ty).kind else {
        return None;
    };
    if module.ty(elem).kind != TypeKind::Int(8) {
        return None;
    }
    match module.constant(g.init?) {
        Constant::Zero(_) => Some(Vec::new()),
        Constant::Aggregate { elems, .. } => {
            let mut bytes = Vec::with_capacity(elems.len());
            for e in elems {
                match module.constant(*e) {
                    Constant::Int { value: 0, .. } => return Some(bytes),
                    Constant::Int { value, .. } => bytes.push(*value as u8),
                    _ => return None,
                }
            }
            None // not NUL-terminated: a byte table, not a string
        }
        _ => None,
    }
}

/// The string a pointer constant points to: a literal, or a suffix of one (`"abc" + 1`).
pub fn string_constant(module: &Module, c: sear_ir::ConstId) -> Option<Vec<u8>> {
    match module.constant(c) {
        Constant::GlobalAddr(g) => string_literal(module, *g),
        Constant::PtrOffset { base, offset } => {
            let s = string_constant(module, *base)?;
            let o = usize::try_from(*offset).ok()?;
            s.get(o..).map(<[u8]>::to_vec)
        }
        _ => None,
    }
}

/// The float value of a constant, if it is a `float` or `double` immediate.
pub fn float_constant(module: &Module, c: sear_ir::ConstId) -> Option<GValue> {
    match module.constant(c) {
        Constant::Float {
            kind: FloatKind::Double,
            bits,
        } => Some(GValue::F64(*bits as u64).canonical()),
        Constant::Float {
            kind: FloatKind::Single,
            bits,
        } => Some(GValue::F32(*bits as u32).canonical()),
        _ => None,
    }
}

/// Harvests the literals of the `types` from `program` (the program's own module, before
/// it is linked with the runtime, so the runtime's literals are not seeds).
pub fn harvest(program: &Module, types: &[Ty]) -> Harvest {
    let mut seeds = Vec::new();
    let mut seen = BTreeSet::new();
    let mut push = |v: GValue| {
        if types.contains(&v.ty()) && seen.insert(v.clone()) {
            seeds.push(v);
        }
    };
    for (i, _) in program.globals.iter().enumerate() {
        if let Some(s) = string_literal(program, sear_ir::GlobalId(i as u32)) {
            push(GValue::Str(s));
        }
    }
    let mut ints = BTreeSet::new();
    for (i, c) in program.constants.iter().enumerate() {
        if let Some(v) = float_constant(program, sear_ir::ConstId(i as u32)) {
            push(v);
        }
        if let Constant::Int { width, value } = c {
            if *width >= 8 && *value <= MAX_INT {
                ints.insert(*value as u64);
            }
        }
    }
    Harvest {
        seeds,
        ints: ints.into_iter().collect(),
    }
}

/// Parses a seed file: one seed a line; blank lines and lines starting with `#` are
/// ignored. A line is a JSON string (`"NVidia"`, escapes allowed) for a string seed,
/// `f32:NUMBER` for a float, or a number for a double (`1.5`, `-0.0`, `1e300`, `inf`,
/// `-inf`, `nan`, or `0x` and 16 hex digits of the bit pattern).
pub fn parse_seed_file(text: &str) -> Result<Vec<GValue>, String> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let bad = |why: &str| format!("line {}: {why}: {line}", n + 1);
        if line.starts_with('"') {
            let s: String = serde_json::from_str(line).map_err(|e| bad(&e.to_string()))?;
            if s.contains('\0') {
                return Err(bad("a string seed cannot contain NUL"));
            }
            out.push(GValue::Str(s.into_bytes()));
        } else if let Some(num) = line.strip_prefix("f32:") {
            let x = parse_number(num.trim()).ok_or_else(|| bad("not a number"))?;
            out.push(GValue::f32(x as f32));
        } else if let Some(hex) = line.strip_prefix("0x") {
            let bits = u64::from_str_radix(hex, 16).map_err(|_| bad("not 16 hex digits"))?;
            out.push(GValue::F64(bits).canonical());
        } else {
            let x = parse_number(line)
                .ok_or_else(|| bad("expected a JSON string, a number, or f32:NUMBER"))?;
            out.push(GValue::f64(x));
        }
    }
    Ok(out)
}

fn parse_number(s: &str) -> Option<f64> {
    match s {
        "inf" | "+inf" => Some(f64::INFINITY),
        "-inf" => Some(f64::NEG_INFINITY),
        "nan" => Some(f64::NAN),
        _ => s.parse().ok(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seed_files_hold_strings_and_numbers() {
        let seeds = parse_seed_file(
            "# vendors\n\"NVidiaCo\"\n\"tab\\there\"\n\n1.5\n-0.0\nf32:0.25\n0x7ff0000000000000\ninf\n",
        )
        .unwrap();
        assert_eq!(
            seeds,
            vec![
                GValue::str(b"NVidiaCo"),
                GValue::str(b"tab\there"),
                GValue::f64(1.5),
                GValue::f64(-0.0),
                GValue::f32(0.25),
                GValue::f64(f64::INFINITY),
                GValue::f64(f64::INFINITY),
            ]
        );
        assert!(parse_seed_file("abc\n").unwrap_err().contains("line 1"));
        assert!(parse_seed_file("\"a\\u0000b\"").is_err());
    }
}
