//! IEEE 754 binary32/binary64 arithmetic on bit patterns, with the results the x86-64 (SSE)
//! hardware gives where IEEE 754 leaves a choice, so that sear's evaluation and native replays
//! agree bit for bit (see `docs/techniques/floating-point.md`).
//!
//! Values are raw bits in a `u64` (the low 32 bits for binary32). Rounding is to nearest,
//! ties to even. NaN results follow SSE: a NaN operand propagates (the first one, quietened);
//! an invalid operation on non-NaN operands gives the "QNaN floating-point indefinite"
//! (`0xFFC00000` / `0xFFF8000000000000`, sign set). Conversions to integers out of range or
//! of a NaN give the "integer indefinite" (`0x80000000` / `0x8000000000000000`).

/// A binary floating-point format that sear reasons about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FpFormat {
    /// binary32 (`float`).
    Single,
    /// binary64 (`double`).
    Double,
}

impl FpFormat {
    /// The format of a bit-vector of `width` bits, if it is one.
    pub fn from_width(width: u32) -> Option<FpFormat> {
        match width {
            32 => Some(FpFormat::Single),
            64 => Some(FpFormat::Double),
            _ => None,
        }
    }

    /// The width in bits.
    pub fn width(self) -> u32 {
        match self {
            FpFormat::Single => 32,
            FpFormat::Double => 64,
        }
    }

    /// SSE's default NaN of the format.
    pub fn default_nan(self) -> u64 {
        match self {
            FpFormat::Single => 0xFFC0_0000,
            FpFormat::Double => 0xFFF8_0000_0000_0000,
        }
    }

    fn quiet_bit(self) -> u64 {
        match self {
            FpFormat::Single => 1 << 22,
            FpFormat::Double => 1 << 51,
        }
    }

    /// Whether `bits` is a NaN of the format.
    pub fn is_nan(self, bits: u64) -> bool {
        match self {
            FpFormat::Single => f32::from_bits(bits as u32).is_nan(),
            FpFormat::Double => f64::from_bits(bits).is_nan(),
        }
    }
}

/// A binary arithmetic operation that rounds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FpBinOp {
    /// Addition.
    Add,
    /// Subtraction.
    Sub,
    /// Multiplication.
    Mul,
    /// Division.
    Div,
}

/// The NaN SSE returns for operands `a`, `b` (`b` absent for unary operations) when the
/// host result `r` is a NaN: the first NaN operand quietened, else the default NaN.
pub(crate) fn sse_nan(fmt: FpFormat, a: u64, b: Option<u64>) -> u64 {
    if fmt.is_nan(a) {
        a | fmt.quiet_bit()
    } else if let Some(b) = b.filter(|&b| fmt.is_nan(b)) {
        b | fmt.quiet_bit()
    } else {
        fmt.default_nan()
    }
}

/// `a op b` in `fmt`, as SSE computes it.
pub fn binary(op: FpBinOp, fmt: FpFormat, a: u64, b: u64) -> u64 {
    let r = match fmt {
        FpFormat::Single => {
            let (x, y) = (f32::from_bits(a as u32), f32::from_bits(b as u32));
            let r = match op {
                FpBinOp::Add => x + y,
                FpBinOp::Sub => x - y,
                FpBinOp::Mul => x * y,
                FpBinOp::Div => x / y,
            };
            r.to_bits() as u64
        }
        FpFormat::Double => {
            let (x, y) = (f64::from_bits(a), f64::from_bits(b));
            let r = match op {
                FpBinOp::Add => x + y,
                FpBinOp::Sub => x - y,
                FpBinOp::Mul => x * y,
                FpBinOp::Div => x / y,
            };
            r.to_bits()
        }
    };
    if fmt.is_nan(r) {
        sse_nan(fmt, a, Some(b))
    } else {
        r
    }
}

/// The square root of `a` in `fmt`, as SSE (`sqrtss`/`sqrtsd`) computes it.
pub fn sqrt(fmt: FpFormat, a: u64) -> u64 {
    let r = match fmt {
        FpFormat::Single => f32::from_bits(a as u32).sqrt().to_bits() as u64,
        FpFormat::Double => f64::from_bits(a).sqrt().to_bits(),
    };
    if fmt.is_nan(r) {
        sse_nan(fmt, a, None)
    } else {
        r
    }
}

/// `fptosi` of `a` to a signed integer of `width` bits (1..=64), as clang's x86-64 code
/// computes it: a truncating conversion to 32 bits (`cvttss2si`/`cvttsd2si`) for widths up to
/// 32, then truncated to `width`; to 64 bits otherwise. Out of range or NaN gives the
/// integer indefinite of the conversion's width. `None` for widths above 64.
pub fn to_signed(fmt: FpFormat, a: u64, width: u32) -> Option<u64> {
    if width == 0 || width > 64 {
        return None;
    }
    let x = match fmt {
        FpFormat::Single => f32::from_bits(a as u32) as f64,
        FpFormat::Double => f64::from_bits(a),
    };
    let t = x.trunc();
    let r = if width <= 32 {
        if t.is_nan() || !(-2_147_483_648.0..2_147_483_648.0).contains(&t) {
            0x8000_0000u64
        } else {
            (t as i32) as u32 as u64
        }
    } else if t.is_nan()
        || !(-9_223_372_036_854_775_808.0..9_223_372_036_854_775_808.0).contains(&t)
    {
        0x8000_0000_0000_0000
    } else {
        (t as i64) as u64
    };
    Some(if width == 64 {
        r
    } else {
        r & ((1u64 << width) - 1)
    })
}

/// An LLVM `fcmp` predicate: ordered (`O*`, false when an operand is a NaN) or unordered
/// (`U*`, true when an operand is a NaN); `False`/`True` are the constant predicates.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FpPred {
    /// Always false.
    False,
    /// Ordered and equal.
    Oeq,
    /// Ordered and greater.
    Ogt,
    /// Ordered and greater or equal.
    Oge,
    /// Ordered and less.
    Olt,
    /// Ordered and less or equal.
    Ole,
    /// Ordered and not equal.
    One,
    /// Neither operand is a NaN.
    Ord,
    /// Unordered or equal.
    Ueq,
    /// Unordered or greater.
    Ugt,
    /// Unordered or greater or equal.
    Uge,
    /// Unordered or less.
    Ult,
    /// Unordered or less or equal.
    Ule,
    /// Unordered or not equal.
    Une,
    /// An operand is a NaN.
    Uno,
    /// Always true.
    True,
}

/// `a pred b` in `fmt` (IEEE 754 comparison: `-0 == +0`, a NaN is unordered with everything).
pub fn compare(pred: FpPred, fmt: FpFormat, a: u64, b: u64) -> bool {
    use std::cmp::Ordering::*;
    let ord = match fmt {
        FpFormat::Single => f32::from_bits(a as u32).partial_cmp(&f32::from_bits(b as u32)),
        FpFormat::Double => f64::from_bits(a).partial_cmp(&f64::from_bits(b)),
    };
    match (pred, ord) {
        (FpPred::False, _) => false,
        (FpPred::True, _) => true,
        (FpPred::Ord, o) => o.is_some(),
        (FpPred::Uno, o) => o.is_none(),
        (
            FpPred::Oeq | FpPred::Ogt | FpPred::Oge | FpPred::Olt | FpPred::Ole | FpPred::One,
            None,
        ) => false,
        (_, None) => true,
        (FpPred::Oeq | FpPred::Ueq, Some(o)) => o == Equal,
        (FpPred::Ogt | FpPred::Ugt, Some(o)) => o == Greater,
        (FpPred::Oge | FpPred::Uge, Some(o)) => o != Less,
        (FpPred::Olt | FpPred::Ult, Some(o)) => o == Less,
        (FpPred::Ole | FpPred::Ule, Some(o)) => o != Greater,
        (FpPred::One | FpPred::Une, Some(o)) => o != Equal,
    }
}

/// `sitofp` (`signed`) or `uitofp` of the `width`-bit integer `v` (1..=64 bits, the low bits
/// of `v`) to `fmt`, rounded to nearest even. `None` for other widths.
pub fn from_int(fmt: FpFormat, v: u64, width: u32, signed: bool) -> Option<u64> {
    if width == 0 || width > 64 {
        return None;
    }
    let v = if width == 64 {
        v
    } else {
        v & ((1u64 << width) - 1)
    };
    let neg = signed && (v >> (width - 1)) & 1 == 1;
    // The magnitude fits in u64 even for the most negative value; one rounding either way.
    let mag = if neg {
        (!v).wrapping_add(1) & mask(width)
    } else {
        v
    };
    let mag = if neg && mag == 0 {
        1u64 << (width - 1)
    } else {
        mag
    };
    Some(match fmt {
        FpFormat::Single => {
            let m = mag as f32;
            (if neg { -m } else { m }).to_bits() as u64
        }
        FpFormat::Double => {
            let m = mag as f64;
            (if neg { -m } else { m }).to_bits()
        }
    })
}

fn mask(width: u32) -> u64 {
    if width == 64 {
        u64::MAX
    } else {
        (1u64 << width) - 1
    }
}
