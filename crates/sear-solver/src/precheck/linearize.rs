//! Linearisation of bit-vector constraints into an integer linear over-approximation (spec
//! 001 §6.3–§6.4).
//!
//! Every expression of width `k` gets a linear form whose value is exactly its unsigned value
//! in `[0, 2^k)` in every integer solution of the rows added for it. Operators with an exact
//! linear encoding use it (concat, extract, extensions, `not`, addition and subtraction,
//! multiplication and shifts by constants, division and remainder by constants, masks,
//! boolean connectives); wrap-around is modelled by an integer wrap variable that bound
//! propagation removes whenever interval computation shows the operation cannot overflow.
//! Anything else becomes a fresh variable over its bit-width domain, sometimes with sound
//! side rows (`x & y ≤ x`, `x | y ≥ x`, `x urem y ≤ x`, ...). That is a weaker, still sound,
//! version of the paper's exclusion rules X3/R1–R6: a non-linear sub-term loses its meaning
//! but the rest of the constraint is kept.
//!
//! Asserting a boolean adds rows it implies: conjunctions split, negations flip,
//! comparisons become rows, `≠` between non-booleans is dropped (X1), disjunctions of booleans
//! become `a + b ≥ 1`. Signed comparisons use the exact sign decomposition
//! `x = 2^(k-1)·s + t`, `signed(x) = x − 2^k·s`, which subsumes the spec's refinement of X2:
//! when the intervals put an operand in one sign half, propagation fixes `s` and the
//! comparison becomes the unsigned one.

use num_bigint::BigInt;
use num_integer::Integer;
use num_traits::{One, Zero};
use rustc_hash::FxHashMap;
use sear_expr::{BinOp, CmpOp, Expr, ExprKind};

use crate::ilp::{LinExpr, Problem};

fn pow2(k: u32) -> BigInt {
    BigInt::one() << k
}

/// Builds a [`Problem`] from expressions.
#[derive(Default)]
pub struct Linearizer {
    /// The rows and variables built so far.
    pub problem: Problem,
    memo: FxHashMap<Expr, LinExpr>,
    signed: FxHashMap<Expr, LinExpr>,
}

impl Linearizer {
    /// Gives the array read `read` a fresh variable with value bounds `[lo, hi]`.
    pub fn set_read(&mut self, read: &Expr, lo: u128, hi: u128) {
        let v = self.problem.new_var(lo, hi);
        self.memo.insert(read.clone(), LinExpr::var(v));
    }

    /// The range of a linear form under the current bounds.
    pub fn range(&self, e: &LinExpr) -> (BigInt, BigInt) {
        e.range(&self.problem.bounds)
    }

    fn fresh(&mut self, lo: impl Into<BigInt>, hi: impl Into<BigInt>) -> LinExpr {
        LinExpr::var(self.problem.new_var(lo, hi))
    }

    fn fresh_width(&mut self, k: u32) -> LinExpr {
        self.fresh(0, pow2(k) - 1)
    }

    /// `s mod 2^k` for a linear form `s`: `s` itself when its range fits, else
    /// `z = s − 2^k·o` with a wrap variable `o`.
    fn wrap(&mut self, s: LinExpr, k: u32) -> LinExpr {
        let m = pow2(k);
        let (lo, hi) = self.range(&s);
        let (olo, ohi) = (lo.div_floor(&m), hi.div_floor(&m));
        if olo == ohi {
            return s.offset(&-(&olo * &m));
        }
        let z = self.problem.new_var(0, &m - 1);
        let o = self.problem.new_var(olo, ohi);
        // z - s + m·o = 0
        let row = LinExpr::var(z).minus(&s).add_scaled(&LinExpr::var(o), &m);
        self.problem.eq0(row);
        LinExpr::var(z)
    }

    /// `x = d·q + r`, `0 ≤ r < d`: returns `(q, r)`.
    fn divmod(&mut self, x: &LinExpr, d: &BigInt) -> (LinExpr, LinExpr) {
        let (lo, hi) = self.range(x);
        let lo = lo.max(BigInt::zero());
        let q = self.fresh(lo.div_floor(d), hi.div_floor(d));
        let r = self.fresh(0, d - 1);
        let row = x.minus(&q.scale(d)).minus(&r);
        self.problem.eq0(row);
        (q, r)
    }

    /// The linear form of `e` (any width), exactly its unsigned value.
    pub fn term(&mut self, e: &Expr) -> LinExpr {
        if let Some(c) = e.as_constant() {
            return LinExpr::constant(c);
        }
        if let Some(l) = self.memo.get(e) {
            return l.clone();
        }
        let mut stack = vec![(e.clone(), false)];
        while let Some((node, ready)) = stack.pop() {
            if node.is_constant() || self.memo.contains_key(&node) {
                continue;
            }
            if !ready {
                stack.push((node.clone(), true));
                if !matches!(node.kind(), ExprKind::Read { .. } | ExprKind::Forall { .. }) {
                    for c in node.children() {
                        stack.push((c, false));
                    }
                }
                continue;
            }
            let l = self.build(&node);
            self.memo.insert(node, l);
        }
        self.memo[e].clone()
    }

    fn get(&self, e: &Expr) -> LinExpr {
        match e.as_constant() {
            Some(c) => LinExpr::constant(c),
            None => self.memo[e].clone(),
        }
    }

    fn build(&mut self, e: &Expr) -> LinExpr {
        let k = e.width();
        match e.kind() {
            ExprKind::Constant(c) => LinExpr::constant(*c),
            ExprKind::Read { updates, index } => match (index.as_constant(), updates.is_empty()) {
                (Some(i), true) => match updates.root().contents() {
                    Some(bytes) => LinExpr::constant(bytes.get(i as usize).copied().unwrap_or(0)),
                    None if updates.root().reads_zero_at(i) => LinExpr::constant(0),
                    None => self.fresh(0, 255),
                },
                // Reads the analysis did not bound (R6: any byte).
                _ => self.fresh(0, 255),
            },
            ExprKind::Select {
                cond,
                then_expr,
                else_expr,
            } => {
                let c = self.get(cond);
                let (t, f) = (self.get(then_expr), self.get(else_expr));
                match c.as_constant() {
                    Some(v) if v.is_one() => t,
                    Some(_) => f,
                    None => {
                        let (tl, th) = self.range(&t);
                        let (fl, fh) = self.range(&f);
                        self.fresh(tl.min(fl), th.max(fh))
                    }
                }
            }
            ExprKind::Concat { hi, lo } => {
                self.get(lo).add_scaled(&self.get(hi), &pow2(lo.width()))
            }
            ExprKind::Extract { expr, offset } => self.extract(expr, *offset, k),
            ExprKind::ZExt(x) => self.get(x),
            ExprKind::SExt(x) => {
                let (sign, x) = self.sign_split(x);
                // sext(x) = x + (2^k − 2^kx)·s
                x.add_scaled(&sign, &(pow2(k) - pow2(x_width(e))))
            }
            ExprKind::Not(x) => LinExpr::constant(pow2(k) - 1).minus(&self.get(x)),
            ExprKind::Binary { op, lhs, rhs } => self.binary(*op, lhs, rhs, k),
            ExprKind::Cmp { op, lhs, rhs } => self.cmp_value(*op, lhs, rhs),
            // Quantified clauses are passed by (the layer never sends them here): any value.
            ExprKind::Var(_) | ExprKind::Forall { .. } => self.fresh_width(k),
            // Floating-point nodes are atoms: any value of their width.
            ExprKind::Fp { .. } => self.fresh_width(k),
        }
    }

    /// `(s, x)` with `s` the sign bit of `x` as a linear form (a constant when the range of
    /// `x` lies in one sign half).
    fn sign_split(&mut self, x: &Expr) -> (LinExpr, LinExpr) {
        let k = x.width();
        let lx = self.get(x);
        let half = pow2(k - 1);
        let (lo, hi) = self.range(&lx);
        if hi < half {
            return (LinExpr::constant(0), lx);
        }
        if lo >= half {
            return (LinExpr::constant(1), lx);
        }
        let s = self.problem.new_var(0, 1);
        let t = self.problem.new_var(0, &half - 1);
        let row = lx
            .minus(&LinExpr::var(s).scale(&half))
            .minus(&LinExpr::var(t));
        self.problem.eq0(row);
        (LinExpr::var(s), lx)
    }

    /// The signed value of `x` as a linear form: `x − 2^k·s`.
    fn signed_value(&mut self, x: &Expr) -> LinExpr {
        if let Some(c) = x.as_constant() {
            let k = x.width();
            let c = BigInt::from(c);
            return LinExpr::constant(if c >= pow2(k - 1) { c - pow2(k) } else { c });
        }
        if let Some(s) = self.signed.get(x) {
            return s.clone();
        }
        self.term(x);
        let (sign, lx) = self.sign_split(x);
        let v = lx.add_scaled(&sign, &-pow2(x.width()));
        self.signed.insert(x.clone(), v.clone());
        v
    }

    fn extract(&mut self, expr: &Expr, offset: u32, w: u32) -> LinExpr {
        let x = self.get(expr);
        if offset == 0 {
            return self.wrap(x, w);
        }
        let kx = expr.width();
        // x = 2^(off+w)·u + 2^off·z + l
        let (lo, hi) = self.range(&x);
        let _ = lo;
        let z = self.fresh_width(w);
        let l = self.fresh_width(offset);
        let mut row = x.minus(&z.scale(&pow2(offset))).minus(&l);
        if offset + w < kx {
            let u = self.fresh(0, hi.div_floor(&pow2(offset + w)));
            row = row.minus(&u.scale(&pow2(offset + w)));
        }
        self.problem.eq0(row);
        z
    }

    fn binary(&mut self, op: BinOp, lhs: &Expr, rhs: &Expr, k: u32) -> LinExpr {
        let (x, y) = (self.get(lhs), self.get(rhs));
        let m1 = pow2(k) - 1;
        let cx = self.range(&x);
        let cy = self.range(&y);
        let const_of = |r: &(BigInt, BigInt)| (r.0 == r.1).then(|| r.0.clone());
        match op {
            BinOp::Add => self.wrap(x.plus(&y), k),
            BinOp::Sub => self.wrap(x.minus(&y), k),
            BinOp::Mul if k == 1 => self.and_bool(&x, &y),
            BinOp::Mul => match (const_of(&cx), const_of(&cy)) {
                (Some(c), _) => self.wrap(y.scale(&c), k),
                (_, Some(c)) => self.wrap(x.scale(&c), k),
                _ => self.fresh_width(k),
            },
            BinOp::UDiv => match const_of(&cy) {
                Some(d) if d.is_zero() => LinExpr::constant(m1),
                Some(d) if d.is_one() => x,
                Some(d) => self.divmod(&x, &d).0,
                None => self.fresh_width(k),
            },
            BinOp::URem => match const_of(&cy) {
                Some(d) if d.is_zero() => x,
                Some(d) if d.is_one() => LinExpr::constant(0),
                Some(d) => self.divmod(&x, &d).1,
                None => {
                    // x urem y ≤ x for every y.
                    let z = self.fresh_width(k);
                    self.problem.le0(z.minus(&x));
                    z
                }
            },
            BinOp::And if k == 1 => self.and_bool(&x, &y),
            BinOp::And => match (const_of(&cx), const_of(&cy)) {
                (Some(c), _) => self.and_mask(&y, &c, k),
                (_, Some(c)) => self.and_mask(&x, &c, k),
                _ => {
                    let z = self.fresh_width(k);
                    self.problem.le0(z.minus(&x));
                    self.problem.le0(z.minus(&y));
                    z
                }
            },
            BinOp::Or => {
                // x | y ≥ x, ≥ y, ≤ x + y (exact for booleans).
                let z = self.fresh_width(k);
                self.problem.le0(x.minus(&z));
                self.problem.le0(y.minus(&z));
                self.problem.le0(z.minus(&x.plus(&y)));
                z
            }
            BinOp::Xor => {
                let z = self.fresh_width(k);
                self.problem.le0(z.minus(&x.plus(&y)));
                if k == 1 {
                    // Exact for booleans.
                    self.problem.le0(x.minus(&y).minus(&z));
                    self.problem.le0(y.minus(&x).minus(&z));
                    self.problem
                        .le0(z.plus(&x).plus(&y).offset(&BigInt::from(-2)));
                }
                z
            }
            BinOp::Shl => match const_of(&cy) {
                Some(s) if s >= BigInt::from(k) => LinExpr::constant(0),
                Some(s) => {
                    let s: u32 = (&s).try_into().unwrap_or(0);
                    self.wrap(x.scale(&pow2(s)), k)
                }
                None => self.fresh_width(k),
            },
            BinOp::LShr => match const_of(&cy) {
                Some(s) if s >= BigInt::from(k) => LinExpr::constant(0),
                Some(s) => {
                    let s: u32 = (&s).try_into().unwrap_or(0);
                    if s == 0 {
                        x
                    } else {
                        self.divmod(&x, &pow2(s)).0
                    }
                }
                None => {
                    let z = self.fresh_width(k);
                    self.problem.le0(z.minus(&x));
                    z
                }
            },
            BinOp::AShr => match const_of(&cy) {
                Some(s) if cx.1 < pow2(k - 1) && s < BigInt::from(k) => {
                    let s: u32 = (&s).try_into().unwrap_or(0);
                    if s == 0 {
                        x
                    } else {
                        self.divmod(&x, &pow2(s)).0
                    }
                }
                _ => self.fresh_width(k),
            },
            BinOp::SDiv | BinOp::SRem => self.fresh_width(k),
        }
    }

    /// Boolean `x ∧ y`, exactly: `z ≤ x`, `z ≤ y`, `z ≥ x + y − 1`.
    fn and_bool(&mut self, x: &LinExpr, y: &LinExpr) -> LinExpr {
        let z = self.fresh(0, 1);
        self.problem.le0(z.minus(x));
        self.problem.le0(z.minus(y));
        self.problem
            .le0(x.plus(y).offset(&BigInt::from(-1)).minus(&z));
        z
    }

    /// `x & c` for a constant mask `c`.
    fn and_mask(&mut self, x: &LinExpr, c: &BigInt, k: u32) -> LinExpr {
        let all = pow2(k) - 1;
        if c.is_zero() {
            return LinExpr::constant(0);
        }
        if *c == all {
            return x.clone();
        }
        // Low ones: the low m bits of x.
        let low = c + 1;
        if (&low & c).is_zero() {
            let m = low.bits() as u32 - 1;
            return self.wrap(x.clone(), m);
        }
        // High ones: x minus its low m bits.
        let below = &all - c; // 2^m − 1
        let b1 = &below + 1;
        if (&b1 & &below).is_zero() {
            let m = b1.bits() as u32 - 1;
            let lowbits = self.wrap(x.clone(), m);
            return x.minus(&lowbits);
        }
        let z = self.fresh(0, c.clone());
        self.problem.le0(z.minus(x));
        z
    }

    /// A comparison used as a value: decided from ranges when possible, else a fresh boolean
    /// `b` linked to the comparison by indicator rows (exact over the integers):
    /// `b = 1 ⇒ cmp` and, except for `=`, `b = 0 ⇒ ¬cmp`.
    fn cmp_value(&mut self, op: CmpOp, lhs: &Expr, rhs: &Expr) -> LinExpr {
        let (x, y) = match op {
            CmpOp::Slt | CmpOp::Sle => (self.signed_value(lhs), self.signed_value(rhs)),
            _ => (self.get(lhs), self.get(rhs)),
        };
        let d = x.minus(&y);
        let (dlo, dhi) = self.range(&d);
        let zero = BigInt::zero();
        let decided = match op {
            CmpOp::Eq if dlo > zero || dhi < zero => Some(false),
            CmpOp::Eq if dlo == zero && dhi == zero => Some(true),
            CmpOp::Ult | CmpOp::Slt if dhi < zero => Some(true),
            CmpOp::Ult | CmpOp::Slt if dlo >= zero => Some(false),
            CmpOp::Ule | CmpOp::Sle if dhi <= zero => Some(true),
            CmpOp::Ule | CmpOp::Sle if dlo > zero => Some(false),
            _ => None,
        };
        if let Some(b) = decided {
            return LinExpr::constant(b as u8);
        }
        let b = self.fresh(0, 1);
        let one = BigInt::one();
        match op {
            CmpOp::Ult | CmpOp::Slt => {
                // b=1 ⇒ d ≤ −1: d − dhi + (dhi+1)·b ≤ 0; b=0 ⇒ d ≥ 0: −d + dlo·b ≤ 0.
                self.problem
                    .le0(d.offset(&-&dhi).add_scaled(&b, &(&dhi + &one)));
                self.problem.le0(d.scale(&-&one).add_scaled(&b, &dlo));
            }
            CmpOp::Ule | CmpOp::Sle => {
                // b=1 ⇒ d ≤ 0: d − dhi + dhi·b ≤ 0; b=0 ⇒ d ≥ 1: 1 − d − (1−dlo)·b ≤ 0.
                self.problem.le0(d.offset(&-&dhi).add_scaled(&b, &dhi));
                self.problem
                    .le0(d.scale(&-&one).offset(&one).add_scaled(&b, &-(&one - &dlo)));
            }
            CmpOp::Eq => {
                // b=1 ⇒ d = 0: d − dhi + dhi·b ≤ 0 and −d + dlo − dlo·b ≤ 0.
                self.problem.le0(d.offset(&-&dhi).add_scaled(&b, &dhi));
                self.problem
                    .le0(d.scale(&-&one).offset(&dlo).add_scaled(&b, &-&dlo));
            }
        }
        b
    }

    /// Adds rows implied by the boolean `c` being true.
    pub fn assert(&mut self, c: &Expr) {
        let mut work = vec![(c.clone(), true)];
        while let Some((e, pos)) = work.pop() {
            match e.kind() {
                ExprKind::Constant(v) => {
                    if (*v == 1) != pos {
                        self.problem.le0(LinExpr::constant(1));
                    }
                }
                ExprKind::Not(x) if e.is_bool() => work.push((x.clone(), !pos)),
                ExprKind::Binary {
                    op: BinOp::And,
                    lhs,
                    rhs,
                } if e.is_bool() && pos => {
                    work.push((lhs.clone(), true));
                    work.push((rhs.clone(), true));
                }
                ExprKind::Binary {
                    op: BinOp::Or,
                    lhs,
                    rhs,
                } if e.is_bool() && !pos => {
                    work.push((lhs.clone(), false));
                    work.push((rhs.clone(), false));
                }
                ExprKind::Binary {
                    op: BinOp::Or,
                    lhs,
                    rhs,
                } if e.is_bool() => {
                    // a ∨ b: a + b ≥ 1.
                    let (a, b) = (self.term(lhs), self.term(rhs));
                    self.problem.le0(LinExpr::constant(1).minus(&a).minus(&b));
                }
                ExprKind::Binary {
                    op: BinOp::And,
                    lhs,
                    rhs,
                } if e.is_bool() => {
                    // ¬(a ∧ b): a + b ≤ 1.
                    let (a, b) = (self.term(lhs), self.term(rhs));
                    self.problem.le0(a.plus(&b).offset(&BigInt::from(-1)));
                }
                ExprKind::Cmp { op, lhs, rhs } => self.compare(*op, lhs, rhs, pos),
                _ => {
                    let v = self.term(&e);
                    let target = if pos { -1 } else { 0 };
                    self.problem.eq0(v.offset(&BigInt::from(target)));
                }
            }
        }
    }

    fn compare(&mut self, op: CmpOp, lhs: &Expr, rhs: &Expr, pos: bool) {
        let (x, y) = match op {
            CmpOp::Slt | CmpOp::Sle => (self.signed_value(lhs), self.signed_value(rhs)),
            _ => (self.term(lhs), self.term(rhs)),
        };
        let one = BigInt::one();
        match (op, pos) {
            (CmpOp::Eq, true) => self.problem.eq0(x.minus(&y)),
            (CmpOp::Eq, false) if lhs.width() == 1 => self.problem.eq0(x.plus(&y).offset(&-one)),
            (CmpOp::Eq, false) => {
                // x ≠ y is kept only when y is a constant at an end of x's range (or the
                // other way round); otherwise it is dropped (X1).
                let (rx, ry) = (self.range(&x), self.range(&y));
                let (v, c) = if ry.0 == ry.1 {
                    (x, ry.0)
                } else if rx.0 == rx.1 {
                    (y, rx.0)
                } else {
                    return;
                };
                let (lo, hi) = self.range(&v);
                if c == lo {
                    // v ≥ c + 1
                    self.problem.le0(v.scale(&-&one).offset(&(c + &one)));
                } else if c == hi {
                    // v ≤ c − 1
                    self.problem.le0(v.offset(&(&one - c)));
                }
            }
            // x < y ⇔ x − y + 1 ≤ 0; ¬(x < y) ⇔ y − x ≤ 0
            (CmpOp::Ult | CmpOp::Slt, true) => self.problem.le0(x.minus(&y).offset(&one)),
            (CmpOp::Ult | CmpOp::Slt, false) => self.problem.le0(y.minus(&x)),
            // x ≤ y; ¬(x ≤ y) ⇔ y − x + 1 ≤ 0
            (CmpOp::Ule | CmpOp::Sle, true) => self.problem.le0(x.minus(&y)),
            (CmpOp::Ule | CmpOp::Sle, false) => self.problem.le0(y.minus(&x).offset(&one)),
        }
    }

    /// The number of rows built so far.
    pub fn rows(&self) -> usize {
        self.problem.rows.len()
    }
}

fn x_width(e: &Expr) -> u32 {
    match e.kind() {
        ExprKind::SExt(x) | ExprKind::ZExt(x) => x.width(),
        _ => e.width(),
    }
}
