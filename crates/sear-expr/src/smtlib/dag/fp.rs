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
        FpOp::Arith(a, m) => {
            let name = match a {
                FpArith::Add => "fp.add",
                FpArith::Sub => "fp.sub",
                FpArith::Mul => "fp.mul",
                FpArith::Div => "fp.div",
                FpArith::Rem => "sear.fmod",
                FpArith::IeeeRem => "fp.rem",
            };
            j.push(Job::Owned(match a {
                FpArith::Rem | FpArith::IeeeRem => format!("({name}"),
                _ => format!("({name} {}", m.smtlib()),
            }));
            operands(&mut j, c, in_w);
        }
        FpOp::Sqrt(m) => {
            j.push(Job::Owned(format!("(fp.sqrt {}", m.smtlib())));
            operands(&mut j, c, in_w);
        }
        FpOp::Fma(m) => {
            j.push(Job::Owned(format!("(fp.fma {}", m.smtlib())));
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
        FpOp::SIToFP(m) | FpOp::UIToFP(m) => {
            let u = if matches!(op, FpOp::UIToFP(_)) {
                "_unsigned"
            } else {
                ""
            };
            j.push(Job::Owned(format!(
                "((_ to_fp{u} {}) {} ",
                sort_params(w),
                m.smtlib()
            )));
            j.push(Job::Item(c[0], Some(Sort::Bv), false));
        }
        FpOp::Ext => {
            j.push(Job::Owned(format!("((_ to_fp {}) RNE", sort_params(w))));
            operands(&mut j, c, in_w);
        }
        FpOp::Trunc(m) => {
            j.push(Job::Owned(format!(
                "((_ to_fp {}) {}",
                sort_params(w),
                m.smtlib()
            )));
            operands(&mut j, c, in_w);
        }
    }
    j.push(Job::Text(")"));
    if to_bv {
        j.push(Job::Text(")"));
    }
    j
}
