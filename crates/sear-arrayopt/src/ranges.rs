//! Index ranges: which byte offsets an index can take, maximal runs, and range tests (spec
//! §3.2 RANGES / RANGE_TEST and §3.6).
//!
//! Range tests are unsigned comparisons on the byte offset at its full width, so they stay
//! sound when the index arithmetic wraps. A multiplier, zero extension or constant addend
//! is peeled off only when [`max_value`] proves it cannot wrap (then `lo ≤ 4·x ≤ hi` is
//! exactly `⌈lo/4⌉ ≤ x ≤ ⌊hi/4⌋`); otherwise the test stays on the byte offset.
//!
//! Which offsets an index's power-of-two congruence excludes is
//! [`sear_expr::congruence`], the analysis the solver uses too.

use sear_expr::bits::mask;
use sear_expr::expr::{BinOp, Expr, ExprKind};

/// Recursion limit of the small analysis below (deeper terms are "unknown").
const MAX_DEPTH: u32 = 24;

/// An upper bound of the unsigned value of `e`.
pub fn max_value(e: &Expr) -> u128 {
    max_value_at(e, 0)
}

fn max_value_at(e: &Expr, depth: u32) -> u128 {
    let w = e.width();
    let all = mask(w);
    if depth > MAX_DEPTH {
        return all;
    }
    let sub = |x: &Expr| max_value_at(x, depth + 1);
    let r = match e.kind() {
        ExprKind::Constant(v) => *v,
        ExprKind::Read { .. } => 0xFF,
        ExprKind::ZExt(x) => sub(x),
        ExprKind::Concat { hi, lo } => (sub(hi) << lo.width()) | mask(lo.width()),
        ExprKind::Extract { expr, offset: 0 } => sub(expr).min(all),
        ExprKind::Select {
            then_expr,
            else_expr,
            ..
        } => sub(then_expr).max(sub(else_expr)),
        ExprKind::Binary { op, lhs, rhs } => {
            let (a, b) = (lhs.as_constant(), rhs.as_constant());
            match op {
                BinOp::Add => sub(lhs).saturating_add(sub(rhs)),
                BinOp::Mul => sub(lhs).saturating_mul(sub(rhs)),
                BinOp::Shl => match b {
                    Some(k) if k < w as u128 => sub(lhs).checked_shl(k as u32).unwrap_or(u128::MAX),
                    _ => all,
                },
                BinOp::LShr => match b {
                    Some(k) if k < w as u128 => sub(lhs) >> k,
                    _ => sub(lhs),
                },
                BinOp::UDiv => match b {
                    Some(c) if c != 0 => sub(lhs) / c,
                    _ => all,
                },
                BinOp::URem => match b {
                    Some(c) if c != 0 => (c - 1).min(sub(lhs)),
                    _ => all,
                },
                BinOp::And => match a {
                    Some(c) => c.min(sub(rhs)),
                    None => sub(lhs).min(sub(rhs)),
                },
                _ => all,
            }
        }
        _ => all,
    };
    if r > all {
        all
    } else {
        r
    }
}

/// How one offset relates to the set being encoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Membership {
    /// The offset is in the set.
    In,
    /// The offset is not in the set.
    Out,
    /// Unreachable: either answer is fine, so it may bridge two runs.
    DontCare,
}

/// Builds maximal runs `[lo, hi]` of `In` offsets from a walk over offsets in increasing
/// order. A run never starts or ends on a don't-care, and never spans an `Out` offset.
#[derive(Default, Debug)]
pub struct RunBuilder {
    runs: Vec<(u64, u64)>,
    open: Option<(u64, u64)>,
}

impl RunBuilder {
    /// Records offset `o` (offsets must be pushed in increasing order; offsets never pushed
    /// are don't-cares).
    pub fn push(&mut self, o: u64, m: Membership) {
        match m {
            Membership::In => match &mut self.open {
                Some((_, hi)) => *hi = o,
                None => self.open = Some((o, o)),
            },
            Membership::Out => {
                if let Some(run) = self.open.take() {
                    self.runs.push(run);
                }
            }
            Membership::DontCare => {}
        }
    }

    /// The runs.
    pub fn finish(mut self) -> Vec<(u64, u64)> {
        if let Some(run) = self.open.take() {
            self.runs.push(run);
        }
        self.runs
    }
}

/// `lo ≤u x ≤u hi` at `x`'s full width, with no-wrap peeling (see the module docs).
pub fn range_test(x: &Expr, lo: u64, hi: u64) -> Expr {
    let (mut x, mut lo, mut hi) = (x.clone(), lo as u128, hi as u128);
    loop {
        if lo > hi {
            return Expr::false_();
        }
        let all = mask(x.width());
        if lo > all {
            return Expr::false_();
        }
        hi = hi.min(all);
        let next = match x.kind() {
            ExprKind::ZExt(y) => Some(y.clone()),
            // The low bits of a value that fits in them are the value.
            ExprKind::Extract { expr, offset: 0 } if max_value(expr) <= all => Some(expr.clone()),
            ExprKind::Binary {
                op: BinOp::Mul,
                lhs,
                rhs,
            } => match lhs.as_constant() {
                Some(c) if c != 0 && no_wrap_mul(rhs, c, all) => {
                    lo = lo.div_ceil(c);
                    hi /= c;
                    Some(rhs.clone())
                }
                _ => None,
            },
            ExprKind::Binary {
                op: BinOp::Shl,
                lhs,
                rhs,
            } => match rhs.as_constant() {
                Some(k) if k < x.width() as u128 && no_wrap_mul(lhs, 1u128 << k, all) => {
                    let c = 1u128 << k;
                    lo = lo.div_ceil(c);
                    hi /= c;
                    Some(lhs.clone())
                }
                _ => None,
            },
            ExprKind::Binary {
                op: BinOp::Add,
                lhs,
                rhs,
            } => match lhs.as_constant() {
                Some(c) if max_value(rhs).checked_add(c).is_some_and(|m| m <= all) => {
                    if hi < c {
                        return Expr::false_();
                    }
                    lo = lo.saturating_sub(c);
                    hi -= c;
                    Some(rhs.clone())
                }
                _ => None,
            },
            _ => None,
        };
        match next {
            Some(y) => x = y,
            None => break,
        }
    }
    let w = x.width();
    let all = mask(w);
    let c = |v: u128| Expr::constant(v, w);
    match (lo == 0, hi >= all) {
        _ if lo == hi => Expr::eq(c(lo), x),
        (true, true) => Expr::true_(),
        (true, false) => Expr::ule(x, c(hi)),
        (false, true) => Expr::ule(c(lo), x),
        (false, false) => Expr::and(Expr::ule(c(lo), x.clone()), Expr::ule(x, c(hi))),
    }
}

fn no_wrap_mul(x: &Expr, c: u128, all: u128) -> bool {
    max_value(x).checked_mul(c).is_some_and(|m| m <= all)
}

/// The disjunction of the range tests of `runs` on `x`.
pub fn runs_test(x: &Expr, runs: &[(u64, u64)]) -> Expr {
    Expr::or_all(runs.iter().map(|(lo, hi)| range_test(x, *lo, *hi)))
}
