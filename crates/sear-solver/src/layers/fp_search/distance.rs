//! How far a conjunct is from holding under an assignment (0 where it holds), the measure
//! the local search minimises (as XSat does): a floating-point comparison's distance is the
//! number of floats between its operands (the difference of their keys), an integer
//! comparison's the difference of its operands, a conjunction's the sum of its parts', a
//! disjunction's the least of its parts'; any other Boolean that does not hold is 1.

use sear_expr::fp::{FpOp, FpPred};
use sear_expr::fpsem::FpFormat;
use sear_expr::{BinOp, CmpOp, Evaluator, Expr, ExprKind};

use super::keys::{inf_key, key, negate};

/// The distance of a comparison with a NaN operand that needs ordered operands.
const NAN_DISTANCE: f64 = 1e30;

/// The distance of `e` (a Boolean) from holding, if `positive`, or from failing, under the
/// evaluator's assignment (`e` and its subterms are evaluated through `ev`).
pub(super) fn distance(ev: &mut Evaluator, e: &Expr, positive: bool) -> f64 {
    if (ev.eval(e) == 1) == positive {
        return 0.0;
    }
    match e.kind() {
        ExprKind::Not(inner) => distance(ev, inner, !positive),
        ExprKind::Binary { op, lhs, rhs } if e.width() == 1 => {
            // `and` when positive, else `or` of the negations (and the other way round).
            let conjunction = matches!((op, positive), (BinOp::And, true) | (BinOp::Or, false));
            match op {
                BinOp::And | BinOp::Or => {
                    let (l, r) = (distance(ev, lhs, positive), distance(ev, rhs, positive));
                    if conjunction {
                        l + r
                    } else {
                        l.min(r)
                    }
                }
                _ => 1.0,
            }
        }
        ExprKind::Fp {
            op: FpOp::Cmp(pred),
            args,
        } if args.len() == 2 => {
            let pred = if positive { *pred } else { negate(*pred) };
            let Some(format) = FpFormat::from_width(args[0].width()) else {
                return 1.0;
            };
            let (a, b) = (ev.eval(&args[0]) as u64, ev.eval(&args[1]) as u64);
            fp_distance(format, pred, a, b)
        }
        ExprKind::Cmp { op, lhs, rhs } => {
            let w = lhs.width();
            let (a, b) = (ev.eval(lhs), ev.eval(rhs));
            int_distance(*op, positive, w, a, b)
        }
        _ => 1.0,
    }
}

/// The distance of `a pred b` (which does not hold) from holding.
fn fp_distance(format: FpFormat, pred: FpPred, a: u64, b: u64) -> f64 {
    let nan = format.is_nan(a) || format.is_nan(b);
    if nan {
        // Only ordered predicates fail on a NaN (and `uno`, which fails on none).
        return NAN_DISTANCE;
    }
    let (ka, kb) = (key(format, a) as f64, key(format, b) as f64);
    use FpPred::*;
    match pred {
        Olt | Ult => ka - kb + 1.0,
        Ole | Ule => ka - kb,
        Ogt | Ugt => kb - ka + 1.0,
        Oge | Uge => kb - ka,
        Oeq | Ueq => (ka - kb).abs(),
        // A failing `uno` on ordered operands: as far as infinity is.
        Uno => (inf_key(format) as f64 - ka.abs()).max(1.0),
        _ => 1.0,
    }
    .max(1.0)
}

/// The distance of the integer comparison `a op b` (of `w`-bit operands) from holding
/// (`positive`) or failing.
fn int_distance(op: CmpOp, positive: bool, w: u32, a: u128, b: u128) -> f64 {
    let signed = |v: u128| -> f64 {
        if w < 128 && v >> (w - 1) & 1 == 1 {
            v as f64 - 2f64.powi(w as i32)
        } else {
            v as f64
        }
    };
    let (a, b) = match op {
        CmpOp::Slt | CmpOp::Sle => (signed(a), signed(b)),
        _ => (a as f64, b as f64),
    };
    let d = match (op, positive) {
        (CmpOp::Eq, true) => (a - b).abs(),
        (CmpOp::Eq, false) => 1.0,
        (CmpOp::Ult | CmpOp::Slt, true) => a - b + 1.0,
        (CmpOp::Ule | CmpOp::Sle, true) => a - b,
        // ¬(a < b) is b ≤ a; ¬(a ≤ b) is b < a.
        (CmpOp::Ult | CmpOp::Slt, false) => b - a,
        (CmpOp::Ule | CmpOp::Sle, false) => b - a + 1.0,
    };
    d.max(1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failing_comparison_is_as_far_as_its_operands() {
        let f = |v: f32| v.to_bits() as u64;
        let one_ulp = fp_distance(FpFormat::Single, FpPred::Olt, f(1.0), f(1.0));
        assert_eq!(one_ulp, 1.0);
        let far = fp_distance(FpFormat::Single, FpPred::Olt, f(2.0), f(1.0));
        let near = fp_distance(FpFormat::Single, FpPred::Olt, f(1.5), f(1.0));
        assert!(far > near && near > one_ulp);
        let nan = fp_distance(FpFormat::Single, FpPred::Oge, f(f32::NAN), f(1.0));
        assert_eq!(nan, NAN_DISTANCE);
        assert_eq!(int_distance(CmpOp::Ult, true, 8, 9, 3), 7.0);
        assert_eq!(int_distance(CmpOp::Slt, false, 8, 0xFF, 3), 4.0);
    }
}
