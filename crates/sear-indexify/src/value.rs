//! The indexed types 𝒯 and their concrete values.

use std::fmt;

use serde::{Deserialize, Serialize};

/// An indexed type: each has its own garden and a disjoint range of indices.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Ty {
    /// NUL-terminated C strings (`char *` values, `char[N]` buffers).
    Str,
    /// IEEE double precision (`double`).
    F64,
    /// IEEE single precision (`float`).
    F32,
}

impl Ty {
    /// Every indexed type, in index-range order.
    pub const ALL: [Ty; 3] = [Ty::Str, Ty::F64, Ty::F32];

    /// The first index of this type's range: ranges are disjoint (spec §2.10), so an index
    /// names its type.
    pub fn base(self) -> u32 {
        match self {
            Ty::Str => 0,
            Ty::F64 => 1 << 28,
            Ty::F32 => 2 << 28,
        }
    }

    /// The type whose range holds index `i` (None for ⊥, NULL and unused ranges).
    pub fn of_index(i: u32) -> Option<Ty> {
        Ty::ALL
            .into_iter()
            .find(|t| i >= t.base() && i - t.base() < RANGE)
    }

    /// A short name (`str`, `f64`, `f32`), used in table and helper names.
    pub fn name(self) -> &'static str {
        match self {
            Ty::Str => "str",
            Ty::F64 => "f64",
            Ty::F32 => "f32",
        }
    }

    /// The size in bytes of a value of a float type (0 for strings).
    pub fn float_bytes(self) -> u32 {
        match self {
            Ty::Str => 0,
            Ty::F64 => 8,
            Ty::F32 => 4,
        }
    }
}

impl fmt::Display for Ty {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// How many indices each type's range holds.
pub const RANGE: u32 = 1 << 28;

/// ⊥, the index of "unknown": outside every garden and every type's range.
pub const BOTTOM: u32 = u32::MAX;
/// The index of the null string pointer (a distinguished value, not a string).
pub const NULL: u32 = u32::MAX - 1;

/// A concrete value of an indexed type. Floats are kept by bit pattern, so garden keys
/// compare bitwise (−0.0 ≠ +0.0); NaNs are canonicalised by [`GValue::canonical`].
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum GValue {
    /// A string's bytes, without the terminating NUL (and without NULs inside).
    Str(Vec<u8>),
    /// A double's bits.
    F64(u64),
    /// A float's bits.
    F32(u32),
}

impl GValue {
    /// The value's type.
    pub fn ty(&self) -> Ty {
        match self {
            GValue::Str(_) => Ty::Str,
            GValue::F64(_) => Ty::F64,
            GValue::F32(_) => Ty::F32,
        }
    }

    /// A double.
    pub fn f64(x: f64) -> GValue {
        GValue::F64(x.to_bits()).canonical()
    }

    /// A float.
    pub fn f32(x: f32) -> GValue {
        GValue::F32(x.to_bits()).canonical()
    }

    /// A string (the bytes up to the first NUL).
    pub fn str(bytes: &[u8]) -> GValue {
        let end = bytes.iter().position(|&b| b == 0).unwrap_or(bytes.len());
        GValue::Str(bytes[..end].to_vec())
    }

    /// The same value with every NaN replaced by the canonical quiet NaN of its format,
    /// so a garden holds at most one NaN (spec §3.3.13).
    pub fn canonical(self) -> GValue {
        match self {
            GValue::F64(b) if f64::from_bits(b).is_nan() => GValue::F64(f64::NAN.to_bits()),
            GValue::F32(b) if f32::from_bits(b).is_nan() => GValue::F32(f32::NAN.to_bits()),
            other => other,
        }
    }

    /// The string's bytes, if a string.
    pub fn as_str(&self) -> Option<&[u8]> {
        match self {
            GValue::Str(s) => Some(s),
            _ => None,
        }
    }

    /// The double, if one.
    pub fn as_f64(&self) -> Option<f64> {
        match self {
            GValue::F64(b) => Some(f64::from_bits(*b)),
            _ => None,
        }
    }

    /// The float, if one.
    pub fn as_f32(&self) -> Option<f32> {
        match self {
            GValue::F32(b) => Some(f32::from_bits(*b)),
            _ => None,
        }
    }

    /// The bytes a test file holds for this value in an object of `size` bytes: a string
    /// NUL-padded to `size`, a float's little-endian bits.
    pub fn test_bytes(&self, size: usize) -> Vec<u8> {
        let mut out = match self {
            GValue::Str(s) => s.clone(),
            GValue::F64(b) => b.to_le_bytes().to_vec(),
            GValue::F32(b) => b.to_le_bytes().to_vec(),
        };
        out.resize(size, 0);
        out
    }

    /// The float value's bits as an integer (0 for strings).
    pub fn float_bits(&self) -> u64 {
        match self {
            GValue::F64(b) => *b,
            GValue::F32(b) => *b as u64,
            GValue::Str(_) => 0,
        }
    }
}

impl fmt::Display for GValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GValue::Str(s) => write!(f, "{:?}", String::from_utf8_lossy(s)),
            GValue::F64(b) => write!(f, "{:?}", f64::from_bits(*b)),
            GValue::F32(b) => write!(f, "{:?}f", f32::from_bits(*b)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floats_compare_bitwise_and_nans_are_one() {
        assert_ne!(GValue::f64(0.0), GValue::f64(-0.0));
        assert_eq!(GValue::f64(f64::NAN), GValue::f64(-f64::NAN));
        assert_eq!(GValue::str(b"ab\0cd"), GValue::Str(b"ab".to_vec()));
        assert_eq!(GValue::str(b"ab").test_bytes(4), b"ab\0\0");
    }

    #[test]
    fn type_ranges_are_disjoint_and_out_of_band_values_outside_them() {
        assert!(Ty::Str.base() < Ty::F64.base() && Ty::F64.base() < Ty::F32.base());
        for ty in Ty::ALL {
            assert!(ty.base() + RANGE <= NULL);
        }
        assert_ne!(BOTTOM, NULL);
    }
}
