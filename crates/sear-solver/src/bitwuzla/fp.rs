//! Bitwuzla's terms for the floating-point encoding of [`crate::fpenc`] (SymFPU inside
//! Bitwuzla). Bitwuzla has no `fp.to_ieee_bv`: the bits of a float `x` are a fresh
//! bit-vector constant `r` with the side condition `isNaN(x) ∨ to_fp(r) = x` (structural
//! equality, so `r` is unique where it is used: the encoding only uses the bits of non-NaN
//! floats). The side conditions of a node are kept with its translation and asserted with
//! every query that contains the node ([`super::translate::Translator::side_conditions`]).

use bitwuzla_sys as sys;
use sear_expr::fp::{FpArith, RoundMode};
use sear_expr::fpsem::FpFormat;

use super::api::{Term, TermManager};
use crate::fpenc::{FpRel, FpTerms};

/// The Bitwuzla side of the encoding: the term manager and the side conditions made while
/// encoding one node.
pub(super) struct BzFp<'a> {
    pub(super) tm: &'a mut TermManager,
    pub(super) defs: Vec<Term>,
    /// A counter for the names of the fresh constants.
    pub(super) fresh: &'a mut u64,
}

fn dims(fmt: FpFormat) -> (u64, u64) {
    match fmt {
        FpFormat::Single => (8, 24),
        FpFormat::Double => (11, 53),
    }
}

fn rm(mode: RoundMode) -> sys::BitwuzlaRoundingMode {
    match mode {
        RoundMode::NearestEven => sys::BITWUZLA_RM_RNE,
        RoundMode::NearestAway => sys::BITWUZLA_RM_RNA,
        RoundMode::Up => sys::BITWUZLA_RM_RTP,
        RoundMode::Down => sys::BITWUZLA_RM_RTN,
        RoundMode::Zero => sys::BITWUZLA_RM_RTZ,
    }
}

impl BzFp<'_> {
    fn rm(&self, m: RoundMode) -> Term {
        self.tm.rm_value(rm(m))
    }
}

impl FpTerms for BzFp<'_> {
    type B = Term;
    type V = Term;
    type F = Term;

    fn bv_const(&mut self, width: u32, value: u128) -> Term {
        self.tm.bv_value(width, value)
    }
    fn bv_and(&mut self, a: &Term, b: &Term) -> Term {
        self.tm.op2(sys::BITWUZLA_KIND_BV_AND, *a, *b)
    }
    fn bv_or(&mut self, a: &Term, b: &Term) -> Term {
        self.tm.op2(sys::BITWUZLA_KIND_BV_OR, *a, *b)
    }
    fn bv_eq(&mut self, a: &Term, b: &Term) -> Term {
        self.tm.op2(sys::BITWUZLA_KIND_EQUAL, *a, *b)
    }
    fn bv_ult(&mut self, a: &Term, b: &Term) -> Term {
        self.tm.op2(sys::BITWUZLA_KIND_BV_ULT, *a, *b)
    }
    fn bv_ite(&mut self, c: &Term, t: &Term, e: &Term) -> Term {
        self.tm.op3(sys::BITWUZLA_KIND_ITE, *c, *t, *e)
    }
    fn extract(&mut self, a: &Term, hi: u32, lo: u32) -> Term {
        self.tm
            .op1_indexed2(sys::BITWUZLA_KIND_BV_EXTRACT, *a, hi as u64, lo as u64)
    }
    fn concat(&mut self, hi: &Term, lo: &Term) -> Term {
        self.tm.op2(sys::BITWUZLA_KIND_BV_CONCAT, *hi, *lo)
    }
    fn not(&mut self, a: &Term) -> Term {
        self.tm.op1(sys::BITWUZLA_KIND_NOT, *a)
    }
    fn and(&mut self, a: &Term, b: &Term) -> Term {
        self.tm.op2(sys::BITWUZLA_KIND_AND, *a, *b)
    }
    fn or(&mut self, a: &Term, b: &Term) -> Term {
        self.tm.op2(sys::BITWUZLA_KIND_OR, *a, *b)
    }
    fn fp_from_bits(&mut self, fmt: FpFormat, bits: &Term) -> Term {
        let (e, s) = dims(fmt);
        self.tm
            .op_indexed(sys::BITWUZLA_KIND_FP_TO_FP_FROM_BV, &[*bits], &[e, s])
    }
    fn fp_bits(&mut self, fmt: FpFormat, f: &Term) -> Term {
        let sort = self.tm.bv_sort(fmt.width());
        *self.fresh += 1;
        let r = self.tm.constant(sort, &format!("fpbits{}", self.fresh));
        let back = self.fp_from_bits(fmt, &r);
        let same = self.tm.op2(sys::BITWUZLA_KIND_EQUAL, back, *f);
        let nan = self.tm.op1(sys::BITWUZLA_KIND_FP_IS_NAN, *f);
        let def = self.tm.op2(sys::BITWUZLA_KIND_OR, nan, same);
        self.defs.push(def);
        r
    }
    fn fp_arith(&mut self, op: FpArith, m: RoundMode, a: &Term, b: &Term) -> Term {
        let kind = match op {
            FpArith::Add => sys::BITWUZLA_KIND_FP_ADD,
            FpArith::Sub => sys::BITWUZLA_KIND_FP_SUB,
            FpArith::Mul => sys::BITWUZLA_KIND_FP_MUL,
            FpArith::Div => sys::BITWUZLA_KIND_FP_DIV,
            FpArith::Rem | FpArith::IeeeRem => {
                return self.tm.op_n(sys::BITWUZLA_KIND_FP_REM, &[*a, *b])
            }
        };
        let r = self.rm(m);
        self.tm.op_n(kind, &[r, *a, *b])
    }
    fn fp_sqrt(&mut self, m: RoundMode, a: &Term) -> Term {
        let r = self.rm(m);
        self.tm.op_n(sys::BITWUZLA_KIND_FP_SQRT, &[r, *a])
    }
    fn fp_fma(&mut self, m: RoundMode, a: &Term, b: &Term, c: &Term) -> Term {
        let r = self.rm(m);
        self.tm.op_n(sys::BITWUZLA_KIND_FP_FMA, &[r, *a, *b, *c])
    }
    fn fp_round(&mut self, mode: RoundMode, a: &Term) -> Term {
        let r = self.tm.rm_value(rm(mode));
        self.tm.op_n(sys::BITWUZLA_KIND_FP_RTI, &[r, *a])
    }
    fn fp_is_nan(&mut self, a: &Term) -> Term {
        self.tm.op1(sys::BITWUZLA_KIND_FP_IS_NAN, *a)
    }
    fn fp_rel(&mut self, rel: FpRel, a: &Term, b: &Term) -> Term {
        let kind = match rel {
            FpRel::Lt => sys::BITWUZLA_KIND_FP_LT,
            FpRel::Leq => sys::BITWUZLA_KIND_FP_LEQ,
            FpRel::Eq => sys::BITWUZLA_KIND_FP_EQUAL,
        };
        self.tm.op_n(kind, &[*a, *b])
    }
    fn fp_to_sbv(&mut self, a: &Term, width: u32) -> Term {
        let r = self.tm.rm_value(sys::BITWUZLA_RM_RTZ);
        self.tm
            .op_indexed(sys::BITWUZLA_KIND_FP_TO_SBV, &[r, *a], &[width as u64])
    }
    fn fp_from_int(&mut self, fmt: FpFormat, signed: bool, m: RoundMode, v: &Term) -> Term {
        let (e, s) = dims(fmt);
        let kind = if signed {
            sys::BITWUZLA_KIND_FP_TO_FP_FROM_SBV
        } else {
            sys::BITWUZLA_KIND_FP_TO_FP_FROM_UBV
        };
        let r = self.rm(m);
        self.tm.op_indexed(kind, &[r, *v], &[e, s])
    }
    fn fp_convert(&mut self, to: FpFormat, m: RoundMode, a: &Term) -> Term {
        let (e, s) = dims(to);
        let r = self.rm(m);
        self.tm
            .op_indexed(sys::BITWUZLA_KIND_FP_TO_FP_FROM_FP, &[r, *a], &[e, s])
    }
}
