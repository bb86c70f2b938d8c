//! What the floating-point search needs to know of a conjunct, found by one walk of it:
//! whether it holds a floating-point node, the float inputs its floating-point nodes read
//! (4 or 8 consecutive bytes of a symbolic array, little-endian, read at constant indices
//! and used as a binary32/binary64 operand), the integer inputs its int-to-float
//! conversions read ([`IntInput`]), the float constants it compares or computes with, and
//! the bounds its top-level comparisons of an input with a constant imply.

use rustc_hash::FxHashSet;
use sear_expr::fp::{FpOp, FpPred};
use sear_expr::fpsem::FpFormat;
use sear_expr::visit::for_each_node;
use sear_expr::{ArrayRef, Assignment, BinOp, Expr, ExprKind};

use super::keys::{key, negate};

/// A float input: `format`'s bytes at `offset..` of `array`, least significant first.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(super) struct FloatInput {
    /// The symbolic array.
    pub array: ArrayRef,
    /// The index of its least significant byte.
    pub offset: usize,
    /// binary32 or binary64.
    pub format: FpFormat,
}

impl FloatInput {
    /// The number of bytes.
    pub fn len(&self) -> usize {
        self.format.width() as usize / 8
    }

    /// Its bits under `model` (bytes the model does not give are zero).
    pub fn get(&self, model: &Assignment) -> u64 {
        (0..self.len()).rev().fold(0u64, |bits, i| {
            (bits << 8) | model.byte(&self.array, (self.offset + i) as u128) as u64
        })
    }

    /// Sets its bytes in `model` (whose copy of the array must be assigned).
    pub fn set(&self, model: &mut Assignment, bits: u64) {
        for i in 0..self.len() {
            model.set_byte(&self.array, self.offset + i, (bits >> (8 * i)) as u8);
        }
    }
}

/// An integer input that reaches a float operation through `sitofp`/`uitofp`: the
/// converted integer itself when it is 1, 2, 4 or 8 consecutive bytes of a symbolic array
/// (little-endian, perhaps extended), else each byte (read at a constant index) of the
/// computation the conversion takes (a number parsed from digits). The search moves it as
/// an integer: its key is its value.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(super) struct IntInput {
    /// The symbolic array.
    pub array: ArrayRef,
    /// The index of its least significant byte.
    pub offset: usize,
    /// The number of bytes (1, 2, 4 or 8).
    pub bytes: usize,
    /// Whether its values are read as two's complement.
    pub signed: bool,
}

impl IntInput {
    /// The least and greatest value (the unsigned 8-byte range clipped to `i64`).
    pub fn range(&self) -> (i64, i64) {
        let bits = 8 * self.bytes as u32;
        match (self.signed, bits) {
            (_, 64) => (if self.signed { i64::MIN } else { 0 }, i64::MAX),
            (true, _) => (-(1i64 << (bits - 1)), (1i64 << (bits - 1)) - 1),
            (false, _) => (0, (1i64 << bits) - 1),
        }
    }

    /// Its value under `model` (bytes the model does not give are zero).
    pub fn get(&self, model: &Assignment) -> i64 {
        let raw = (0..self.bytes).rev().fold(0u64, |bits, i| {
            (bits << 8) | model.byte(&self.array, (self.offset + i) as u128) as u64
        });
        let shift = 64 - 8 * self.bytes as u32;
        if self.signed {
            ((raw << shift) as i64) >> shift
        } else {
            raw as i64
        }
    }

    /// Sets its bytes in `model` to `value` (whose copy of the array must be assigned).
    pub fn set(&self, model: &mut Assignment, value: i64) {
        for i in 0..self.bytes {
            model.set_byte(&self.array, self.offset + i, (value >> (8 * i)) as u8);
        }
    }
}

/// A bound on an input that a conjunct implies: `input ≥ key` (`lower`) or `input ≤ key`,
/// in the ordered keys of [`super::keys`].
#[derive(Clone, Debug)]
pub(super) struct Bound {
    /// The input bounded.
    pub input: FloatInput,
    /// True for a lower bound.
    pub lower: bool,
    /// The bound's key (inclusive).
    pub key: i64,
}

/// One conjunct's analysis.
#[derive(Debug, Default)]
pub(super) struct ConjunctInfo {
    /// It holds a floating-point node.
    pub has_fp: bool,
    /// The float inputs its floating-point nodes read (no repeats).
    pub inputs: Vec<FloatInput>,
    /// The integer inputs its int-to-float conversions read (no repeats).
    pub int_inputs: Vec<IntInput>,
    /// The float constants among the operands of its floating-point nodes (format, bits).
    pub constants: Vec<(FpFormat, u64)>,
    /// The bounds it implies.
    pub bounds: Vec<Bound>,
    /// The symbolic arrays it reads.
    pub arrays: Vec<ArrayRef>,
}

/// Analyses `conjunct` (one walk of its DAG).
pub(super) fn analyse(conjunct: &Expr) -> ConjunctInfo {
    let mut info = ConjunctInfo::default();
    let mut inputs: FxHashSet<FloatInput> = FxHashSet::default();
    let mut int_inputs: FxHashSet<IntInput> = FxHashSet::default();
    let mut constants: FxHashSet<(FpFormat, u64)> = FxHashSet::default();
    let mut arrays: FxHashSet<ArrayRef> = FxHashSet::default();
    for_each_node([conjunct], |e| match e.kind() {
        ExprKind::Read { updates, .. } if !updates.root().is_constant() => {
            arrays.insert(updates.root().clone());
        }
        ExprKind::Fp { op, args } => {
            info.has_fp = true;
            if matches!(op, FpOp::SIToFP(_) | FpOp::UIToFP(_)) {
                if let Some(arg) = args.first() {
                    converted_inputs(arg, matches!(op, FpOp::SIToFP(_)), &mut int_inputs);
                }
                return;
            }
            for a in args {
                let Some(format) = FpFormat::from_width(a.width()) else {
                    continue;
                };
                if let Some(bits) = a.as_constant() {
                    constants.insert((format, bits as u64));
                } else if let Some(input) = float_input(a) {
                    inputs.insert(input);
                }
            }
        }
        _ => {}
    });
    bounds_of(conjunct, true, &mut info.bounds);
    info.inputs = inputs.into_iter().collect();
    info.inputs
        .sort_by_key(|i| (i.array.id(), i.offset, i.format.width()));
    info.int_inputs = int_inputs.into_iter().collect();
    info.int_inputs
        .sort_by_key(|i| (i.array.id(), i.offset, i.bytes, i.signed));
    info.constants = constants.into_iter().collect();
    info.constants.sort_by_key(|&(f, b)| (f.width(), b));
    info.arrays = arrays.into_iter().collect();
    info.arrays.sort_by_key(ArrayRef::id);
    info
}

/// The integer inputs of the conversion of `arg` (`signed`: `sitofp`): `arg` itself, under
/// extensions, when it is consecutive bytes of an array, else every byte it reads at a
/// constant index of a symbolic array.
fn converted_inputs(arg: &Expr, signed: bool, out: &mut FxHashSet<IntInput>) {
    let mut term = arg;
    let mut signed = signed;
    loop {
        match term.kind() {
            ExprKind::ZExt(inner) => (term, signed) = (inner, false),
            ExprKind::SExt(inner) => (term, signed) = (inner, true),
            _ => break,
        }
    }
    if let Some((array, offset, bytes)) = le_reads(term) {
        if matches!(bytes, 1 | 2 | 4 | 8) {
            out.insert(IntInput {
                array,
                offset,
                bytes,
                signed,
            });
            return;
        }
    }
    for_each_node([arg], |e| {
        if let ExprKind::Read { updates, index } = e.kind() {
            let array = updates.root();
            if let Some(i) = index.as_constant() {
                let symbolic = !array.is_constant() && !array.is_unbounded();
                if e.width() == 8 && symbolic && i < array.size() as u128 {
                    out.insert(IntInput {
                        array: array.clone(),
                        offset: i as usize,
                        bytes: 1,
                        signed: false,
                    });
                }
            }
        }
    });
}

/// The input `term` is, if it is one: the concatenation of 4 or 8 reads of consecutive
/// constant indices of one symbolic array, the highest index most significant.
pub(super) fn float_input(term: &Expr) -> Option<FloatInput> {
    let format = FpFormat::from_width(term.width())?;
    let (array, offset, n) = le_reads(term)?;
    (n * 8 == format.width() as usize).then_some(FloatInput {
        array,
        offset,
        format,
    })
}

/// `term` as the little-endian concatenation of reads of consecutive constant indices of
/// one bounded symbolic array, the highest index most significant: the array, the lowest
/// index and the number of bytes.
fn le_reads(term: &Expr) -> Option<(ArrayRef, usize, usize)> {
    let mut bytes = Vec::new();
    let mut stack = vec![term];
    // Most significant first.
    while let Some(e) = stack.pop() {
        match e.kind() {
            ExprKind::Concat { hi, lo } => {
                stack.push(lo);
                stack.push(hi);
            }
            ExprKind::Read { updates, index } if e.width() == 8 => {
                bytes.push((updates.root(), index.as_constant()?));
            }
            _ => return None,
        }
    }
    let (array, low) = *bytes.last()?;
    if array.is_constant() || array.is_unbounded() {
        return None;
    }
    let n = bytes.len();
    let consecutive = bytes
        .iter()
        .enumerate()
        .all(|(k, (a, i))| a == &array && *i == low + (n - 1 - k) as u128);
    let fits = low + n as u128 <= array.size() as u128;
    (consecutive && fits).then(|| (array.clone(), low as usize, n))
}

/// The bounds `e` (holding if `positive`, else its negation) implies: a comparison of an
/// input (or the `fpext` of one) with a constant, under negations and conjunctions.
fn bounds_of(e: &Expr, positive: bool, out: &mut Vec<Bound>) {
    match e.kind() {
        ExprKind::Not(inner) => bounds_of(inner, !positive, out),
        ExprKind::Binary {
            op: BinOp::And,
            lhs,
            rhs,
        } if positive && e.width() == 1 => {
            bounds_of(lhs, true, out);
            bounds_of(rhs, true, out);
        }
        ExprKind::Fp {
            op: FpOp::Cmp(pred),
            args,
        } if args.len() == 2 => {
            let pred = if positive { *pred } else { negate(*pred) };
            let (a, b) = (&args[0], &args[1]);
            if let (Some(input), Some(c)) = (bounded_input(a), b.as_constant()) {
                push_bounds(out, input, pred, a.width(), c as u64);
            } else if let (Some(c), Some(input)) = (a.as_constant(), bounded_input(b)) {
                push_bounds(out, input, swap(pred), b.width(), c as u64);
            }
        }
        _ => {}
    }
}

/// `term` as an input, or the `fpext` of one.
fn bounded_input(term: &Expr) -> Option<FloatInput> {
    match term.as_fp() {
        Some((FpOp::Ext, [inner])) => float_input(inner),
        _ => float_input(term),
    }
}

/// The predicate with its operands swapped (`a < b` is `b > a`).
fn swap(pred: FpPred) -> FpPred {
    use FpPred::*;
    match pred {
        Olt => Ogt,
        Ogt => Olt,
        Ole => Oge,
        Oge => Ole,
        Ult => Ugt,
        Ugt => Ult,
        Ule => Uge,
        Uge => Ule,
        p => p,
    }
}

/// The bounds of `input pred c`, where `c` has `width` bits (the input's, or 64 for the
/// `fpext` of a binary32 input, then rounded to it: a bound only guides the search).
fn push_bounds(out: &mut Vec<Bound>, input: FloatInput, pred: FpPred, width: u32, c: u64) {
    let Some(cfmt) = FpFormat::from_width(width) else {
        return;
    };
    if cfmt.is_nan(c) {
        return;
    }
    let c = match (cfmt, input.format) {
        (FpFormat::Double, FpFormat::Single) => (f64::from_bits(c) as f32).to_bits() as u64,
        _ => c,
    };
    let k = key(input.format, c);
    use FpPred::*;
    let (lower, upper) = match pred {
        Olt | Ult => (None, Some(k - 1)),
        Ole | Ule => (None, Some(k)),
        Ogt | Ugt => (Some(k + 1), None),
        Oge | Uge => (Some(k), None),
        Oeq | Ueq => (Some(k), Some(k)),
        _ => (None, None),
    };
    for (lower, key) in [(true, lower), (false, upper)] {
        if let Some(key) = key {
            out.push(Bound {
                input: input.clone(),
                lower,
                key,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sear_expr::{Array, ArrayKind, UpdateList};

    fn f32c(v: f32) -> Expr {
        Expr::constant(v.to_bits() as u128, 32)
    }

    #[test]
    fn inputs_constants_and_bounds_of_a_conjunct() {
        let a = Array::new("IN", 8, ArrayKind::SymbolicInput, None);
        let x = Expr::read_lsb(&UpdateList::new(a.clone()), Expr::constant(4, 32), 4);
        let input = float_input(&x).expect("4 consecutive bytes");
        assert_eq!((input.offset, input.format), (4, FpFormat::Single));
        // Not an input: the bytes out of order.
        let swapped = Expr::concat(
            Expr::extract(x.clone(), 0, 16),
            Expr::extract(x.clone(), 16, 16),
        );
        assert!(float_input(&swapped).is_none());
        // !(x > -0.8) ∧ x ≥ -2: x in [-2, -0.8] (or NaN).
        let above = Expr::fcmp(FpPred::Ogt, x.clone(), f32c(-0.8)).unwrap();
        let floor = Expr::fcmp(FpPred::Oge, x.clone(), f32c(-2.0)).unwrap();
        let info = analyse(&Expr::and(Expr::not(above), floor));
        assert!(info.has_fp);
        assert_eq!(info.inputs, vec![input]);
        assert_eq!(info.arrays, vec![a]);
        let k = |v: f32| key(FpFormat::Single, v.to_bits() as u64);
        let mut bounds: Vec<(bool, i64)> = info.bounds.iter().map(|b| (b.lower, b.key)).collect();
        bounds.sort();
        assert_eq!(bounds, vec![(false, k(-0.8)), (true, k(-2.0))]);
        let consts: Vec<u64> = info.constants.iter().map(|c| c.1).collect();
        assert!(consts.contains(&((-0.8f32).to_bits() as u64)));
    }

    #[test]
    fn integer_inputs_of_conversions() {
        let a = Array::new("n", 8, ArrayKind::SymbolicInput, None);
        let u = UpdateList::new(a.clone());
        let word = Expr::read_lsb(&u, Expr::constant(0, 32), 4);
        let half = Expr::read_lsb(&u, Expr::constant(4, 32), 2);
        let one = f32c(1.0);
        let lt = |e: Expr| Expr::fcmp(FpPred::Olt, e, one.clone()).unwrap();
        // (float)int: the 4 bytes, signed.
        let info = analyse(&lt(Expr::int_to_fp(true, word.clone(), 32).unwrap()));
        let int = |offset, bytes, signed| IntInput {
            array: a.clone(),
            offset,
            bytes,
            signed,
        };
        assert_eq!(info.int_inputs, vec![int(0, 4, true)]);
        assert!(info.inputs.is_empty());
        // sitofp of a zero-extended uint16: the 2 bytes, unsigned.
        let info = analyse(&lt(
            Expr::int_to_fp(true, Expr::zext(half.clone(), 32), 32).unwrap()
        ));
        assert_eq!(info.int_inputs, vec![int(4, 2, false)]);
        // A computation of bytes 6 and 7: each byte.
        let b = |i: u128| Expr::sext(Expr::read(&u, Expr::constant(i, 32)), 32);
        let sum = Expr::add(Expr::mul(b(6), Expr::constant(10, 32)), b(7));
        let info = analyse(&lt(Expr::int_to_fp(true, sum, 32).unwrap()));
        assert_eq!(info.int_inputs, vec![int(6, 1, false), int(7, 1, false)]);
    }

    #[test]
    fn integer_inputs_get_and_set_their_values() {
        let a = Array::new("n", 8, ArrayKind::SymbolicInput, None);
        let mut model = Assignment::new();
        model.insert(a.clone(), vec![0; 8]);
        for (bytes, signed, v, range) in [
            (4, true, -700i64, (-(1i64 << 31), (1i64 << 31) - 1)),
            (2, false, 65_000, (0, 65_535)),
            (1, false, 200, (0, 255)),
            (8, true, i64::MIN + 3, (i64::MIN, i64::MAX)),
        ] {
            let input = IntInput {
                array: a.clone(),
                offset: 0,
                bytes,
                signed,
            };
            assert_eq!(input.range(), range);
            input.set(&mut model, v);
            assert_eq!(input.get(&model), v);
        }
    }
}
