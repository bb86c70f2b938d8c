//! Printing of floating-point nodes in SMT-LIB's FP theory (as Z3 reads it: the operands go
//! through `(_ to_fp e s)` from their bits and results back through `fp.to_ieee_bv`). The
//! text is for reading and for Z3; the NaN bit patterns of results (x86-64's, see
//! [`crate::fp`]) are not spelled out, and `frem` prints as `sear.fmod`.

use super::{Job, Sort};
use crate::fp::{FpArith, FpOp, FpPred};

fn sort_params(width: u32) -> &'static str {
    if width == 32 {
        "8 24"
    } else {
        "11 53"
    }
}

/// `((_ to_fp e s) X)` for child `id` of `width` bits.
fn operand(jobs: &mut Vec<Job>, id: u32, width: u32) {
    jobs.push(Job::Owned(format!("((_ to_fp {}) ", sort_params(width))));
    jobs.push(Job::Item(id, Some(Sort::Bv), false));
    jobs.push(Job::Text(")"));
}

fn operands(jobs: &mut Vec<Job>, c: &[u32], width: u32) {
    for &id in c {
        jobs.push(Job::Text(" "));
        operand(jobs, id, width);
    }
}

/// The ordered comparison behind `pred` and whether the printed form is its negation
/// (`u*` predicates are the negations of the opposite ordered ones).
fn cmp_form(pred: FpPred) -> (&'static str, bool) {
    match pred {
        FpPred::Oeq => ("fp.eq", false),
        FpPred::Ogt => ("fp.gt", false),
        FpPred::Oge => ("fp.geq", false),
        FpPred::Olt => ("fp.lt", false),
        FpPred::Ole => ("fp.leq", false),
        FpPred::Une => ("fp.eq", true),
        FpPred::Ule => ("fp.gt", true),
        FpPred::Ult => ("fp.geq", true),
        FpPred::Uge => ("fp.lt", true),
        FpPred::Ugt => ("fp.leq", true),
        FpPred::One => ("sear.fp.one", false),
        FpPred::Ueq => ("sear.fp.one", true),
        FpPred::Ord => ("sear.fp.ord", false),
        FpPred::Uno => ("sear.fp.ord", true),
        FpPred::True | FpPred::False => ("sear.fp.const", false),
    }
}

/// The jobs printing an FP node of result width `w` whose operands have width `in_w`.
pub(super) fn fp_jobs(op: FpOp, w: u32, in_w: u32, c: &[u32]) -> Vec<Job> {
    let mut j = Vec::new();
    let to_bv = !matches!(op, FpOp::Cmp(_) | FpOp::ToSI | FpOp::ToUI);
    if to_bv {
        j.push(Job::Text("(fp.to_ieee_bv "));
    }
    match op {
        FpOp::Arith(a) => {
            let name = match a {
                FpArith::Add => "(fp.add RNE",
                FpArith::Sub => "(fp.sub RNE",
                FpArith::Mul => "(fp.mul RNE",
                FpArith::Div => "(fp.div RNE",
                FpArith::Rem => "(sear.fmod",
                FpArith::IeeeRem => "(fp.rem",
            };
            j.push(Job::Text(name));
            operands(&mut j, c, in_w);
        }
        FpOp::Sqrt => {
            j.push(Job::Text("(fp.sqrt RNE"));
            operands(&mut j, c, in_w);
        }
        FpOp::Fma => {
            j.push(Job::Text("(fp.fma RNE"));
            operands(&mut j, c, in_w);
        }
        FpOp::Round(m) => {
            j.push(Job::Owned(format!("(fp.roundToIntegral {}", m.smtlib())));
            operands(&mut j, c, in_w);
        }
        FpOp::Cmp(p) => {
            let (name, negated) = cmp_form(p);
            if negated {
                j.push(Job::Text("(not "));
            }
            j.push(Job::Owned(format!("({name}")));
            operands(&mut j, c, in_w);
            if negated {
                j.push(Job::Text(")"));
            }
        }
        FpOp::ToSI | FpOp::ToUI => {
            let s = if op == FpOp::ToSI { "sbv" } else { "ubv" };
            j.push(Job::Owned(format!("((_ fp.to_{s} {w}) RTZ")));
            operands(&mut j, c, in_w);
        }
        FpOp::SIToFP | FpOp::UIToFP => {
            let u = if op == FpOp::UIToFP { "_unsigned" } else { "" };
            j.push(Job::Owned(format!("((_ to_fp{u} {}) RNE ", sort_params(w))));
            j.push(Job::Item(c[0], Some(Sort::Bv), false));
        }
        FpOp::Ext | FpOp::Trunc => {
            j.push(Job::Owned(format!("((_ to_fp {}) RNE", sort_params(w))));
            operands(&mut j, c, in_w);
        }
    }
    j.push(Job::Text(")"));
    if to_bv {
        j.push(Job::Text(")"));
    }
    j
}
