//! What the floating-point search needs to know of a conjunct, found by one walk of it:
//! whether it holds a floating-point node, the float inputs its floating-point nodes read
//! (4 or 8 consecutive bytes of a symbolic array, little-endian, read at constant indices
//! and used as a binary32/binary64 operand), the float constants it compares or computes
//! with, and the bounds its top-level comparisons of an input with a constant imply.

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
    let mut constants: FxHashSet<(FpFormat, u64)> = FxHashSet::default();
    let mut arrays: FxHashSet<ArrayRef> = FxHashSet::default();
    for_each_node([conjunct], |e| match e.kind() {
        ExprKind::Read { updates, .. } if !updates.root().is_constant() => {
            arrays.insert(updates.root().clone());
        }
        ExprKind::Fp { op, args } => {
            info.has_fp = true;
            if matches!(op, FpOp::SIToFP(_) | FpOp::UIToFP(_)) {
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
    info.constants = constants.into_iter().collect();
    info.constants.sort_by_key(|&(f, b)| (f.width(), b));
    info.arrays = arrays.into_iter().collect();
    info.arrays.sort_by_key(ArrayRef::id);
    info
}

/// The input `term` is, if it is one: the concatenation of 4 or 8 reads of consecutive
/// constant indices of one symbolic array, the highest index most significant.
pub(super) fn float_input(term: &Expr) -> Option<FloatInput> {
    let format = FpFormat::from_width(term.width())?;
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
    (consecutive && fits && n * 8 == format.width() as usize).then(|| FloatInput {
        array: array.clone(),
        offset: low as usize,
        format,
    })
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
}
