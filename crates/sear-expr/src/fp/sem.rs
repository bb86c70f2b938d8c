//! The operations of [`crate::fpsem`] that the expression kinds add: `fmod`, `fma`, rounding
//! to an integral value, `fpext`/`fptrunc` and `fptoui`, with the results the x86-64 build of
//! the same program gives (SSE instructions, or glibc where clang calls it).

use crate::fpsem::{binary, to_signed, FpBinOp, FpFormat};

/// An IEEE 754 rounding direction, the five of SMT-LIB. It is the mode of every node that
/// rounds ([`super::FpOp::rounding`]): C's default is [`RoundMode::NearestEven`], `fesetround`
/// selects one of the four others than [`RoundMode::NearestAway`] (which C reaches only
/// through `round`). For [`super::FpOp::Round`] it is the direction of rounding to an
/// integral value: `floor` (`Down`), `ceil` (`Up`), `trunc` (`Zero`), `round`
/// (`NearestAway`), `roundeven` (`NearestEven`), `rint`/`nearbyint` (the current mode).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RoundMode {
    /// To nearest, ties to even (SMT-LIB `RNE`; C's `FE_TONEAREST`).
    #[default]
    NearestEven,
    /// To nearest, ties away from zero (`RNA`; `round`).
    NearestAway,
    /// Toward +∞ (`RTP`; `FE_UPWARD`; `ceil`).
    Up,
    /// Toward −∞ (`RTN`; `FE_DOWNWARD`; `floor`).
    Down,
    /// Toward zero (`RTZ`; `FE_TOWARDZERO`; `trunc`).
    Zero,
}

impl RoundMode {
    /// The five modes.
    pub const ALL: [RoundMode; 5] = [
        RoundMode::NearestEven,
        RoundMode::NearestAway,
        RoundMode::Up,
        RoundMode::Down,
        RoundMode::Zero,
    ];

    /// The SMT-LIB rounding-mode constant.
    pub fn smtlib(self) -> &'static str {
        match self {
            RoundMode::NearestEven => "RNE",
            RoundMode::NearestAway => "RNA",
            RoundMode::Up => "RTP",
            RoundMode::Down => "RTN",
            RoundMode::Zero => "RTZ",
        }
    }

    /// The mode an SMT-LIB rounding-mode constant names, in its short (`RNE`) or long
    /// (`roundNearestTiesToEven`) form.
    pub fn from_smtlib(name: &str) -> Option<RoundMode> {
        Some(match name {
            "RNE" | "roundNearestTiesToEven" => RoundMode::NearestEven,
            "RNA" | "roundNearestTiesToAway" => RoundMode::NearestAway,
            "RTP" | "roundTowardPositive" => RoundMode::Up,
            "RTN" | "roundTowardNegative" => RoundMode::Down,
            "RTZ" | "roundTowardZero" => RoundMode::Zero,
            _ => return None,
        })
    }

    /// The mode of an x86-64 glibc `fesetround` argument (`FE_TONEAREST` 0, `FE_DOWNWARD`
    /// 0x400, `FE_UPWARD` 0x800, `FE_TOWARDZERO` 0xc00); `None` for other values.
    pub fn from_fenv(value: u64) -> Option<RoundMode> {
        Some(match value {
            0 => RoundMode::NearestEven,
            0x400 => RoundMode::Down,
            0x800 => RoundMode::Up,
            0xc00 => RoundMode::Zero,
            _ => return None,
        })
    }

    /// The x86-64 glibc `fegetround` value of the mode (`NearestAway`, which `fesetround`
    /// cannot select, as `FE_TONEAREST`).
    pub fn fenv(self) -> u64 {
        match self {
            RoundMode::NearestEven | RoundMode::NearestAway => 0,
            RoundMode::Down => 0x400,
            RoundMode::Up => 0x800,
            RoundMode::Zero => 0xc00,
        }
    }
}

fn quiet(fmt: FpFormat, a: u64) -> u64 {
    a | match fmt {
        FpFormat::Single => 1 << 22,
        FpFormat::Double => 1 << 51,
    }
}

/// The NaN of a result: the first NaN operand quietened, else the default NaN.
fn nan_of(fmt: FpFormat, ops: &[u64]) -> u64 {
    ops.iter()
        .find(|&&x| fmt.is_nan(x))
        .map(|&x| quiet(fmt, x))
        .unwrap_or(fmt.default_nan())
}

fn unary_host(fmt: FpFormat, a: u64, f32op: fn(f32) -> f32, f64op: fn(f64) -> f64) -> u64 {
    match fmt {
        FpFormat::Single => f32op(f32::from_bits(a as u32)).to_bits() as u64,
        FpFormat::Double => f64op(f64::from_bits(a)).to_bits(),
    }
}

/// C's `fmod(a, b)` (LLVM `frem`; exact): the sign of `a`, magnitude below `|b|`.
pub fn rem(fmt: FpFormat, a: u64, b: u64) -> u64 {
    let r = match fmt {
        FpFormat::Single => (f32::from_bits(a as u32) % f32::from_bits(b as u32)).to_bits() as u64,
        FpFormat::Double => (f64::from_bits(a) % f64::from_bits(b)).to_bits(),
    };
    if fmt.is_nan(r) {
        nan_of(fmt, &[a, b])
    } else {
        r
    }
}

extern "C" {
    fn remainder(x: f64, y: f64) -> f64;
    fn remainderf(x: f32, y: f32) -> f32;
}

/// C's `remainder(a, b)` (IEEE 754 remainder; exact), computed by the host's glibc (libm, which
/// Rust's standard library links on Linux). NaNs as glibc's x86-64 `remainder` gives them:
/// for `double` the *second* NaN operand quietened, else the first; for `float`
/// (`remainderf`) the first, else the second; else the default NaN.
pub fn ieee_rem(fmt: FpFormat, a: u64, b: u64) -> u64 {
    if fmt.is_nan(a) || fmt.is_nan(b) {
        return match fmt {
            FpFormat::Double => nan_of(fmt, &[b, a]),
            FpFormat::Single => nan_of(fmt, &[a, b]),
        };
    }
    // SAFETY: glibc's remainder/remainderf are pure functions of their arguments.
    let r = unsafe {
        match fmt {
            FpFormat::Single => {
                remainderf(f32::from_bits(a as u32), f32::from_bits(b as u32)).to_bits() as u64
            }
            FpFormat::Double => remainder(f64::from_bits(a), f64::from_bits(b)).to_bits(),
        }
    };
    if fmt.is_nan(r) {
        fmt.default_nan()
    } else {
        r
    }
}

/// `a * b + c` with one rounding (glibc's `fma`): NaNs as the x86-64 `fma` instruction
/// (`vfmadd213sd`, which glibc's `fma` runs on hardware with FMA) gives them ([`fma_nan`]).
pub fn fma(fmt: FpFormat, a: u64, b: u64, c: u64) -> u64 {
    if let Some(n) = fma_nan(fmt, a, b, c) {
        return n;
    }
    let r = match fmt {
        FpFormat::Single => f32::from_bits(a as u32)
            .mul_add(f32::from_bits(b as u32), f32::from_bits(c as u32))
            .to_bits() as u64,
        FpFormat::Double => f64::from_bits(a)
            .mul_add(f64::from_bits(b), f64::from_bits(c))
            .to_bits(),
    };
    if fmt.is_nan(r) {
        fmt.default_nan()
    } else {
        r
    }
}

/// The NaN `fma(a, b, c)` gives when an operand is a NaN or `a * b` is `0 * ∞`, as the
/// `fma` instruction gives it (measured with glibc's `fma` and `fmaf`): the first NaN operand
/// in the order `b`, `a`, `c`, quietened (so a NaN `c` wins over the invalid `0 * ∞`), else
/// the default NaN for `0 * ∞`; `None` otherwise.
pub(crate) fn fma_nan(fmt: FpFormat, a: u64, b: u64, c: u64) -> Option<u64> {
    if let Some(&n) = [b, a, c].iter().find(|&&x| fmt.is_nan(x)) {
        return Some(quiet(fmt, n));
    }
    let p = binary(FpBinOp::Mul, fmt, a, b);
    fmt.is_nan(p).then_some(p)
}

/// `a` rounded to an integral value in direction `mode` (the sign of a zero is kept; a NaN is
/// quietened).
pub fn round(fmt: FpFormat, mode: RoundMode, a: u64) -> u64 {
    if fmt.is_nan(a) {
        return quiet(fmt, a);
    }
    match mode {
        RoundMode::NearestEven => unary_host(fmt, a, f32::round_ties_even, f64::round_ties_even),
        RoundMode::NearestAway => unary_host(fmt, a, f32::round, f64::round),
        RoundMode::Up => unary_host(fmt, a, f32::ceil, f64::ceil),
        RoundMode::Down => unary_host(fmt, a, f32::floor, f64::floor),
        RoundMode::Zero => unary_host(fmt, a, f32::trunc, f64::trunc),
    }
}

/// `fpext` of a binary32 to binary64 (`cvtss2sd`: exact; a NaN keeps its payload, quietened).
pub fn ext(a: u32) -> u64 {
    let x = f32::from_bits(a);
    if x.is_nan() {
        let sign = ((a >> 31) as u64) << 63;
        let mant = (a & 0x7F_FFFF) as u64;
        sign | 0x7FF8_0000_0000_0000 | (mant << 29)
    } else {
        (x as f64).to_bits()
    }
}

/// `fptrunc` of a binary64 to binary32 (`cvtsd2ss`: rounded to nearest even; a NaN keeps the
/// high bits of its payload, quietened).
pub fn trunc(a: u64) -> u32 {
    let x = f64::from_bits(a);
    if x.is_nan() {
        let sign = ((a >> 63) as u32) << 31;
        let mant = ((a >> 29) & 0x7F_FFFF) as u32;
        sign | 0x7FC0_0000 | mant
    } else {
        (x as f32).to_bits()
    }
}

/// `fptoui` of `a` to `width` bits (1..=64) as clang's x86-64 code computes it: through a
/// 32-bit signed conversion up to 16 bits, a 64-bit signed one up to 63 bits (truncated to
/// `width`), and for 64 bits `a < 2^63 ? cvtt(a) : cvtt(a - 2^63) | 2^63`. `None` for other
/// widths.
pub fn to_unsigned(fmt: FpFormat, a: u64, width: u32) -> Option<u64> {
    match width {
        1..=16 => to_signed(fmt, a, width),
        17..=63 => to_signed(fmt, a, 64).map(|v| v & ((1u64 << width) - 1)),
        64 => {
            let x = match fmt {
                FpFormat::Single => f32::from_bits(a as u32) as f64,
                FpFormat::Double => f64::from_bits(a),
            };
            const TWO63: f64 = 9_223_372_036_854_775_808.0;
            if x < TWO63 {
                to_signed(FpFormat::Double, x.to_bits(), 64)
            } else {
                let lo = to_signed(FpFormat::Double, (x - TWO63).to_bits(), 64)?;
                Some(lo | (1 << 63))
            }
        }
        _ => None,
    }
}

/// `fptosi` of `a` to `width` bits as clang's x86-64 code computes it (a 32-bit conversion
/// up to 32 bits, a 64-bit one above; truncated to `width`).
pub fn to_signed_any(fmt: FpFormat, a: u64, width: u32) -> Option<u64> {
    match width {
        1..=32 | 64 => to_signed(fmt, a, width),
        33..=63 => to_signed(fmt, a, 64).map(|v| v & ((1u64 << width) - 1)),
        _ => None,
    }
}

/// The class of `a` as LLVM's `is.fpclass` mask bits: 0 sNaN, 1 qNaN, 2 −∞, 3 −normal,
/// 4 −subnormal, 5 −0, 6 +0, 7 +subnormal, 8 +normal, 9 +∞.
pub fn class_bit(fmt: FpFormat, a: u64) -> u32 {
    let (sign, exp, mant, exp_max, quiet_bit) = match fmt {
        FpFormat::Single => (
            (a >> 31) & 1 == 1,
            (a >> 23) & 0xFF,
            a & 0x7F_FFFF,
            0xFF,
            1u64 << 22,
        ),
        FpFormat::Double => (
            a >> 63 == 1,
            (a >> 52) & 0x7FF,
            a & 0xF_FFFF_FFFF_FFFF,
            0x7FF,
            1u64 << 51,
        ),
    };
    if exp == exp_max {
        if mant == 0 {
            return if sign { 2 } else { 9 };
        }
        return if mant & quiet_bit != 0 { 1 } else { 0 };
    }
    let k = if exp == 0 {
        if mant == 0 {
            0
        } else {
            1
        }
    } else {
        2
    };
    // −normal 3, −subnormal 4, −zero 5; +zero 6, +subnormal 7, +normal 8.
    if sign {
        5 - k
    } else {
        6 + k
    }
}
