//! The values of `__VERIFIER_nondet_*` inputs as Test-Comp writes them: C literals of the
//! function's return type (decimal integers, `0`/`1` for booleans, floats that read back to
//! the same value), each with its C type.
//!
//! sear records every call as one .ktest object named after the function, holding the
//! returned value's bytes (little-endian; a boolean is one byte, true when non-zero).

/// How a nondet function's bytes are read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Repr {
    Bool,
    Signed,
    Unsigned,
    Float,
}

/// The C type and representation of `__VERIFIER_nondet_<suffix>`, if sear knows the suffix.
fn known(suffix: &str) -> Option<(&'static str, Repr)> {
    use Repr::*;
    Some(match suffix {
        "bool" | "_Bool" => ("_Bool", Bool),
        "char" => ("char", Signed),
        "uchar" | "unsigned_char" | "u8" => ("unsigned char", Unsigned),
        "short" => ("short", Signed),
        "ushort" | "unsigned_short" | "u16" => ("unsigned short", Unsigned),
        "int" => ("int", Signed),
        "uint" | "unsigned" | "unsigned_int" | "u32" | "U32" => ("unsigned int", Unsigned),
        "long" | "loff_t" => ("long", Signed),
        "ulong" | "unsigned_long" | "sector_t" | "pthread_t" => ("unsigned long", Unsigned),
        "longlong" => ("long long", Signed),
        "ulonglong" => ("unsigned long long", Unsigned),
        "size_t" => ("size_t", Unsigned),
        "pointer" => ("void *", Unsigned),
        "pchar" => ("char *", Unsigned),
        "float" => ("float", Float),
        "double" => ("double", Float),
        "int128" => ("__int128", Signed),
        "uint128" => ("unsigned __int128", Unsigned),
        _ => return None,
    })
}

/// The prefix of the functions whose results are inputs.
pub const NONDET_PREFIX: &str = "__VERIFIER_nondet_";

/// One input: the value's literal and its C type (empty when sear does not know the
/// function; the value is then the bytes as an unsigned integer).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Input {
    /// The literal.
    pub value: String,
    /// The C type, or "".
    pub ty: &'static str,
}

/// The input a call of `function` returned, from its .ktest bytes; `None` when `function` is
/// not a `__VERIFIER_nondet_*` function.
pub fn input(function: &str, bytes: &[u8]) -> Option<Input> {
    let suffix = function.strip_prefix(NONDET_PREFIX)?;
    let (ty, repr) = known(suffix).unwrap_or(("", Repr::Unsigned));
    let mut raw = [0u8; 16];
    let n = bytes.len().min(16);
    raw[..n].copy_from_slice(&bytes[..n]);
    let bits = u128::from_le_bytes(raw);
    let value = match repr {
        Repr::Bool => u8::from(bits != 0).to_string(),
        Repr::Unsigned => bits.to_string(),
        Repr::Signed if n == 0 => "0".to_string(),
        Repr::Signed => {
            let shift = 128 - 8 * n as u32;
            (((bits << shift) as i128) >> shift).to_string()
        }
        Repr::Float if n == 4 => float_literal(f32::from_bits(bits as u32).into(), true),
        Repr::Float if n == 8 => float_literal(f64::from_bits(bits as u64), false),
        Repr::Float => bits.to_string(),
    };
    Some(Input { value, ty })
}

/// A float literal that `strtod`/`scanf("%f")` read back to the same value: Rust's shortest
/// round-trip form (`1e-45`, `0.1`, `-0.0`), `nan`, `inf`, `-inf`.
fn float_literal(v: f64, single: bool) -> String {
    if v.is_nan() {
        return "nan".to_string();
    }
    if v.is_infinite() {
        return if v > 0.0 { "inf" } else { "-inf" }.to_string();
    }
    if single {
        format!("{:?}", v as f32)
    } else {
        format!("{v:?}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn value(function: &str, bytes: &[u8]) -> String {
        input(function, bytes).unwrap().value
    }

    #[test]
    fn integers_by_type() {
        assert_eq!(value("__VERIFIER_nondet_int", &(-5i32).to_le_bytes()), "-5");
        assert_eq!(
            value("__VERIFIER_nondet_uint", &u32::MAX.to_le_bytes()),
            "4294967295"
        );
        assert_eq!(value("__VERIFIER_nondet_char", &[0xff]), "-1");
        assert_eq!(value("__VERIFIER_nondet_uchar", &[0xff]), "255");
        assert_eq!(
            value("__VERIFIER_nondet_long", &i64::MIN.to_le_bytes()),
            "-9223372036854775808"
        );
        assert_eq!(value("__VERIFIER_nondet_bool", &[0x80]), "1");
        assert_eq!(value("__VERIFIER_nondet_bool", &[0]), "0");
        assert_eq!(
            input("__VERIFIER_nondet_short", &[1, 0]).unwrap().ty,
            "short"
        );
        assert_eq!(input("klee_int", &[1, 0, 0, 0]), None);
        // An unknown suffix: the bytes as an unsigned integer.
        assert_eq!(value("__VERIFIER_nondet_foo", &[1, 1]), "257");
    }

    #[test]
    fn floats_read_back_exactly() {
        for v in [0.1f64, -0.0, 1e300, 5e-324, 123456.789] {
            let text = value("__VERIFIER_nondet_double", &v.to_bits().to_le_bytes());
            assert_eq!(
                text.parse::<f64>().unwrap().to_bits(),
                v.to_bits(),
                "{text}"
            );
        }
        let f = 1e-45f32;
        let text = value("__VERIFIER_nondet_float", &f.to_bits().to_le_bytes());
        assert_eq!(text.parse::<f32>().unwrap().to_bits(), f.to_bits());
        assert_eq!(
            value("__VERIFIER_nondet_float", &f32::NAN.to_bits().to_le_bytes()),
            "nan"
        );
        assert_eq!(
            value(
                "__VERIFIER_nondet_double",
                &f64::NEG_INFINITY.to_bits().to_le_bytes()
            ),
            "-inf"
        );
    }
}
