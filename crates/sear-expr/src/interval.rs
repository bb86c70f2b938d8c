//! Unsigned intervals of bit-vector terms, read off the syntax: `lo ≤ t ≤ hi` for every
//! assignment of the arrays.
//!
//! The solver facade uses them to answer, without a solver, a query whose condition the
//! intervals decide whatever the path condition says: a bounds check `off ≤ 479` where `off`
//! is `12·trans[s] + cls[c]` over constant tables whose bytes are at most 39 and 11, or a
//! comparison of a table read against a value outside the table's bytes.
//!
//! The rules, with `a ∈ [la, ha]` and `b ∈ [lb, hb]` for the operands and `w` the width:
//!
//! * a read from a constant array at an index inside it: the smallest and largest byte at the
//!   indices the index's interval allows, joined with the values of the writes whose index
//!   may equal it; any other read (symbolic, or possibly past the end): `[0, 255]`;
//! * `a + b`, `a − b`: the exact interval when no assignment wraps, or when every assignment
//!   wraps by the same `2^w`; otherwise everything;
//! * `a · b`, `a << k`: the exact interval when `ha · hb` (`ha · 2^k`) does not wrap;
//! * `a / b`, `a >> b`, `a % b` and their signed forms on non-negative operands: monotone
//!   bounds (a division by a `b` that may be 0 gives everything);
//! * `a & b`: at most `min(ha, hb)`; `a | b`, `a ⊕ b`: below the next power of two;
//! * a little-endian word read from a constant table (`concat` of the bytes at `x + n−1`, …,
//!   `x`): the smallest and largest word at the offsets `x`'s interval and power-of-two
//!   congruence allow;
//! * `zext`, `sext` of a non-negative or a negative interval, `concat`, `extract` when the
//!   cut bits do not vary; `ite(c, a, b)`: the decided arm, or the hull of both;
//! * comparisons: true or false when the intervals decide them (signed ones when neither
//!   interval crosses the sign boundary).
//!
//! Nodes deeper than [`MAX_DEPTH`] and analyses of more than [`MAX_NODES`] nodes claim
//! nothing (everything), so the cost of an answer stays bounded.

use rustc_hash::FxHashMap;

use crate::bits::mask;
use crate::congruence::Congruences;
use crate::expr::{BinOp, CmpOp, Expr, ExprKind};
use crate::UpdateList;

/// Nodes deeper than this are not looked into.
pub const MAX_DEPTH: u32 = 512;
/// The most nodes one [`Intervals`] memo analyses.
pub const MAX_NODES: usize = 20_000;
/// Update lists longer than this make a read `[0, 255]`.
const MAX_UPDATES: usize = 64;
/// The most constant arrays whose extreme bytes [`Intervals::forget_terms`] keeps.
const MAX_ARRAYS: usize = 4096;
/// Index intervals narrower than this are scanned byte by byte in a constant array.
const MAX_SCAN: u128 = 4096;

/// `lo ≤ t ≤ hi` (unsigned) for every assignment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Interval {
    /// The smallest value.
    pub lo: u128,
    /// The largest value.
    pub hi: u128,
}

impl Interval {
    /// Every value of width `w`.
    pub fn full(w: u32) -> Self {
        Interval { lo: 0, hi: mask(w) }
    }

    /// The single value `v`.
    pub fn point(v: u128) -> Self {
        Interval { lo: v, hi: v }
    }

    /// True if `v` lies in the interval.
    pub fn contains(&self, v: u128) -> bool {
        self.lo <= v && v <= self.hi
    }

    /// The boolean the interval of a width-1 term decides, if it does.
    pub fn decided(&self) -> Option<bool> {
        (self.lo == self.hi).then_some(self.lo == 1)
    }

    /// True if the interval is a single value.
    pub fn is_point(&self) -> bool {
        self.lo == self.hi
    }

    fn hull(self, other: Self) -> Self {
        Interval {
            lo: self.lo.min(other.lo),
            hi: self.hi.max(other.hi),
        }
    }

    fn boolean(b: Option<bool>) -> Self {
        match b {
            Some(b) => Interval::point(b as u128),
            None => Interval { lo: 0, hi: 1 },
        }
    }
}

/// The interval of `e`, computed afresh (use [`Intervals`] to share work).
pub fn interval(e: &Expr) -> Interval {
    Intervals::default().of(e)
}

/// Computes intervals with a memo of every node visited (and of each constant array's
/// smallest and largest byte).
#[derive(Default)]
pub struct Intervals {
    memo: FxHashMap<Expr, Interval>,
    bytes: FxHashMap<u64, (u8, u8)>,
    congruences: Congruences,
}

impl Intervals {
    /// An empty memo.
    pub fn new() -> Self {
        Self::default()
    }

    /// Forgets the terms' intervals, keeping each constant array's smallest and largest
    /// byte (and forgetting those too when there are many).
    pub fn forget_terms(&mut self) {
        self.memo.clear();
        self.congruences = Congruences::new();
        if self.bytes.len() > MAX_ARRAYS {
            self.bytes.clear();
        }
    }

    /// The truth value of the boolean `e` in every assignment, if its intervals decide it.
    pub fn decide(&mut self, e: &Expr) -> Option<bool> {
        debug_assert!(e.is_bool());
        self.of(e).decided()
    }

    /// The interval of `e`.
    pub fn of(&mut self, e: &Expr) -> Interval {
        if let Some(c) = e.as_constant() {
            return Interval::point(c);
        }
        if let Some(i) = self.memo.get(e) {
            return *i;
        }
        // Iterative post-order; a node whose children are all known is computed.
        let mut stack = vec![(e.clone(), false)];
        while let Some((n, ready)) = stack.pop() {
            if n.is_constant() || self.memo.contains_key(&n) {
                continue;
            }
            if !ready && n.depth() <= MAX_DEPTH && self.memo.len() < MAX_NODES {
                stack.push((n.clone(), true));
                for_each_operand(&n, |c| {
                    if !c.is_constant() && !self.memo.contains_key(c) {
                        stack.push((c.clone(), false));
                    }
                });
                continue;
            }
            let i = if ready { self.node(&n) } else { unknown(&n) };
            self.memo.insert(n, i);
        }
        self.memo[e]
    }

    /// A child's interval (constants directly, others from the memo).
    fn get(&self, e: &Expr) -> Interval {
        match e.as_constant() {
            Some(c) => Interval::point(c),
            None => self.memo.get(e).copied().unwrap_or_else(|| unknown(e)),
        }
    }

    fn node(&mut self, e: &Expr) -> Interval {
        let w = e.width();
        let i = match e.kind() {
            ExprKind::Constant(v) => Interval::point(*v),
            ExprKind::Read { updates, index } => self.read(updates, index),
            ExprKind::Select {
                cond,
                then_expr,
                else_expr,
            } => match self.get(cond).decided() {
                Some(true) => self.get(then_expr),
                Some(false) => self.get(else_expr),
                None => self.get(then_expr).hull(self.get(else_expr)),
            },
            ExprKind::Concat { .. } if let Some(i) = self.word_read(e) => i,
            ExprKind::Concat { hi, lo } => {
                let (h, l) = (self.get(hi), self.get(lo));
                let s = lo.width();
                Interval {
                    lo: (h.lo << s) | l.lo,
                    hi: (h.hi << s) | l.hi,
                }
            }
            ExprKind::Extract { expr, offset } => {
                let a = self.get(expr);
                truncate(
                    Interval {
                        lo: a.lo >> offset,
                        hi: a.hi >> offset,
                    },
                    w,
                )
            }
            ExprKind::ZExt(x) => self.get(x),
            ExprKind::SExt(x) => {
                let a = self.get(x);
                let from = x.width();
                let sign = 1u128 << (from - 1);
                if a.hi < sign {
                    a
                } else if a.lo >= sign {
                    let ext = mask(w) ^ mask(from);
                    Interval {
                        lo: a.lo | ext,
                        hi: a.hi | ext,
                    }
                } else {
                    Interval::full(w)
                }
            }
            ExprKind::Not(x) => {
                let a = self.get(x);
                let m = mask(w);
                Interval {
                    lo: m - a.hi,
                    hi: m - a.lo,
                }
            }
            ExprKind::Binary { op, lhs, rhs } => binary(*op, self.get(lhs), self.get(rhs), w),
            ExprKind::Cmp { op, lhs, rhs } => {
                Interval::boolean(compare(*op, self.get(lhs), self.get(rhs), lhs.width()))
            }
            ExprKind::Var(_) | ExprKind::Forall { .. } | ExprKind::Fp { .. } => Interval::full(w),
        };
        debug_assert!(i.lo <= i.hi && i.hi <= mask(w), "{e}: {i:?}");
        i
    }

    /// A little-endian word read from a constant table, `concat(t[x + n−1], …, t[x + 1], t[x])`
    /// (how the engine loads an `int` at a symbolic offset): the smallest and largest word
    /// at the offsets `x`'s interval and power-of-two congruence allow, when those are few
    /// and inside the table.
    fn word_read(&mut self, e: &Expr) -> Option<Interval> {
        let mut bytes = Vec::new();
        let mut pending = vec![e];
        while let Some(n) = pending.pop() {
            match n.kind() {
                ExprKind::Concat { hi, lo } => {
                    pending.push(hi);
                    pending.push(lo);
                }
                _ => bytes.push(n),
            }
        }
        // `bytes` is least significant first (the low half is popped first); each must be a
        // read of one constant table.
        if bytes.len() < 2 || bytes.len() > 16 {
            return None;
        }
        let reads: Vec<(&UpdateList, &Expr)> = bytes
            .iter()
            .map(|b| match b.kind() {
                ExprKind::Read { updates, index } => Some((updates, index)),
                _ => None,
            })
            .collect::<Option<_>>()?;
        let (table, x) = reads[0];
        let contents = table.root().contents().filter(|_| table.is_empty())?;
        for (j, (updates, index)) in reads.iter().enumerate().skip(1) {
            let next = Expr::add(Expr::constant(j as u128, x.width()), x.clone());
            if *updates != table || **index != next {
                return None;
            }
        }
        let at = self.get(x);
        let last = at.hi.checked_add(reads.len() as u128 - 1)?;
        if last >= contents.len() as u128 || at.hi - at.lo >= MAX_SCAN {
            return None;
        }
        let congruence = self.congruences.of(x);
        let mut result: Option<Interval> = None;
        for k in at.lo..=at.hi {
            if !congruence.allows(k as u64) {
                continue;
            }
            let k = k as usize;
            let word = contents[k..k + reads.len()]
                .iter()
                .rev()
                .fold(0u128, |w, &b| (w << 8) | b as u128);
            let i = Interval::point(word);
            result = Some(result.map_or(i, |r| r.hull(i)));
        }
        result
    }

    fn read(&mut self, updates: &UpdateList, index: &Expr) -> Interval {
        let root = updates.root();
        let Some(contents) = root.contents() else {
            return Interval::full(8);
        };
        if updates.len() > MAX_UPDATES {
            return Interval::full(8);
        }
        let at = self.get(index);
        let size = contents.len() as u128;
        let mut result: Option<Interval> = None;
        let mut join = |i: Interval| result = Some(result.map_or(i, |r| r.hull(i)));
        if at.hi >= size {
            // Past the end a sized array reads 0 in sear's semantics, but an SMT core may
            // leave those bytes free: claim nothing either way could contradict.
            return Interval::full(8);
        }
        {
            let hi = at.hi;
            if hi - at.lo < MAX_SCAN {
                let bytes = &contents[at.lo as usize..=hi as usize];
                let (min, max) = min_max(bytes);
                join(Interval {
                    lo: min as u128,
                    hi: max as u128,
                });
            } else {
                let (min, max) = *self
                    .bytes
                    .entry(root.id())
                    .or_insert_with(|| min_max(contents));
                join(Interval {
                    lo: min as u128,
                    hi: max as u128,
                });
            }
        }
        for u in updates.iter() {
            let ui = self.get(u.index());
            if ui.hi >= at.lo && ui.lo <= at.hi {
                join(self.get(u.value()));
            }
        }
        result.expect("an in-bounds read joins the array's bytes")
    }
}

fn min_max(bytes: &[u8]) -> (u8, u8) {
    bytes
        .iter()
        .fold((u8::MAX, u8::MIN), |(lo, hi), &b| (lo.min(b), hi.max(b)))
}

/// A node the analysis does not look into: booleans may be either, others anything.
fn unknown(e: &Expr) -> Interval {
    Interval::full(e.width())
}

/// Calls `f` on every child the rules look into.
fn for_each_operand(e: &Expr, mut f: impl FnMut(&Expr)) {
    match e.kind() {
        ExprKind::Read { updates, index } => {
            f(index);
            if updates.root().is_constant() && updates.len() <= MAX_UPDATES {
                for u in updates.iter() {
                    f(u.index());
                    f(u.value());
                }
            }
        }
        ExprKind::Select {
            cond,
            then_expr,
            else_expr,
        } => {
            f(cond);
            f(then_expr);
            f(else_expr);
        }
        ExprKind::Concat { hi, lo } => {
            f(hi);
            f(lo);
        }
        ExprKind::Extract { expr: x, .. }
        | ExprKind::ZExt(x)
        | ExprKind::SExt(x)
        | ExprKind::Not(x) => f(x),
        ExprKind::Binary { lhs, rhs, .. } | ExprKind::Cmp { lhs, rhs, .. } => {
            f(lhs);
            f(rhs);
        }
        ExprKind::Constant(_)
        | ExprKind::Var(_)
        | ExprKind::Forall { .. }
        | ExprKind::Fp { .. } => {}
    }
}

/// `a` cut to its low `w` bits: exact when the cut bits are the same at both ends.
fn truncate(a: Interval, w: u32) -> Interval {
    if w >= 128 || (a.lo >> w) == (a.hi >> w) {
        let m = mask(w);
        Interval {
            lo: a.lo & m,
            hi: a.hi & m,
        }
    } else {
        Interval::full(w)
    }
}

/// All ones from the highest set bit of `x` down.
fn smear(x: u128) -> u128 {
    if x == 0 {
        0
    } else {
        u128::MAX >> x.leading_zeros()
    }
}

fn binary(op: BinOp, a: Interval, b: Interval, w: u32) -> Interval {
    let full = Interval::full(w);
    let m = mask(w);
    let sign = 1u128 << (w - 1);
    let non_negative = |x: Interval| x.hi < sign;
    match op {
        BinOp::Add => match (a.lo.checked_add(b.lo), a.hi.checked_add(b.hi)) {
            (Some(lo), Some(hi)) if hi <= m => Interval { lo, hi },
            // Both ends wrap once (w < 128 here: the sums did not overflow u128).
            (Some(lo), Some(hi)) if lo > m => Interval {
                lo: lo - m - 1,
                hi: hi - m - 1,
            },
            _ => full,
        },
        BinOp::Sub => {
            if a.lo >= b.hi {
                Interval {
                    lo: a.lo - b.hi,
                    hi: a.hi - b.lo,
                }
            } else if a.hi < b.lo {
                // Every difference is negative: each wraps by 2^w.
                Interval {
                    lo: m - (b.hi - a.lo) + 1,
                    hi: m - (b.lo - a.hi) + 1,
                }
            } else {
                full
            }
        }
        BinOp::Mul => match a.hi.checked_mul(b.hi) {
            Some(hi) if hi <= m => Interval {
                lo: a.lo * b.lo,
                hi,
            },
            _ => full,
        },
        BinOp::UDiv if b.lo > 0 => Interval {
            lo: a.lo / b.hi,
            hi: a.hi / b.lo,
        },
        BinOp::SDiv if b.lo > 0 && non_negative(a) && non_negative(b) => Interval {
            lo: a.lo / b.hi,
            hi: a.hi / b.lo,
        },
        BinOp::URem => urem(a, b),
        BinOp::SRem if non_negative(a) && non_negative(b) => urem(a, b),
        BinOp::And if a.is_point() && b.is_point() => Interval::point(a.lo & b.lo),
        BinOp::And => Interval {
            lo: 0,
            hi: a.hi.min(b.hi),
        },
        BinOp::Or if a.is_point() && b.is_point() => Interval::point(a.lo | b.lo),
        BinOp::Or => Interval {
            lo: a.lo.max(b.lo),
            hi: smear(a.hi | b.hi) & m,
        },
        BinOp::Xor if a.is_point() && b.is_point() => Interval::point(a.lo ^ b.lo),
        BinOp::Xor => Interval {
            lo: 0,
            hi: smear(a.hi | b.hi) & m,
        },
        BinOp::Shl if b.is_point() => {
            if b.lo >= w as u128 {
                Interval::point(0)
            } else {
                let k = b.lo as u32;
                match a.hi.checked_shl(k).filter(|hi| hi >> k == a.hi) {
                    Some(hi) if hi <= m => Interval { lo: a.lo << k, hi },
                    _ => full,
                }
            }
        }
        BinOp::LShr => shift_right(a, b, w),
        BinOp::AShr if non_negative(a) => shift_right(a, b, w),
        _ => full,
    }
}

/// `a % b`: never more than `a`, and below `b` when `b` cannot be 0 (`x % 0` is `x`).
fn urem(a: Interval, b: Interval) -> Interval {
    if a.hi < b.lo {
        a
    } else if b.lo > 0 {
        Interval {
            lo: 0,
            hi: a.hi.min(b.hi - 1),
        }
    } else {
        Interval { lo: 0, hi: a.hi }
    }
}

/// `a >> b` (logical): the smallest value shifted the most, the largest the least.
fn shift_right(a: Interval, b: Interval, w: u32) -> Interval {
    let shifted = |x: u128, k: u128| if k >= w as u128 { 0 } else { x >> k };
    Interval {
        lo: shifted(a.lo, b.hi),
        hi: shifted(a.hi, b.lo),
    }
}

/// Maps a `w`-bit interval to the order of signed values (the sign bit flipped), if it
/// does not cross the boundary between the largest positive and the most negative value.
fn signed_order(a: Interval, w: u32) -> Option<Interval> {
    let sign = 1u128 << (w - 1);
    (a.hi < sign || a.lo >= sign).then_some(Interval {
        lo: a.lo ^ sign,
        hi: a.hi ^ sign,
    })
}

fn compare(op: CmpOp, a: Interval, b: Interval, w: u32) -> Option<bool> {
    let unsigned_lt = |a: Interval, b: Interval| {
        if a.hi < b.lo {
            Some(true)
        } else if a.lo >= b.hi {
            Some(false)
        } else {
            None
        }
    };
    let unsigned_le = |a: Interval, b: Interval| {
        if a.hi <= b.lo {
            Some(true)
        } else if a.lo > b.hi {
            Some(false)
        } else {
            None
        }
    };
    let signed = || Some((signed_order(a, w)?, signed_order(b, w)?));
    match op {
        CmpOp::Eq => {
            if a.is_point() && b.is_point() {
                Some(a.lo == b.lo)
            } else if a.hi < b.lo || b.hi < a.lo {
                Some(false)
            } else {
                None
            }
        }
        CmpOp::Ult => unsigned_lt(a, b),
        CmpOp::Ule => unsigned_le(a, b),
        CmpOp::Slt => signed().and_then(|(a, b)| unsigned_lt(a, b)),
        CmpOp::Sle => signed().and_then(|(a, b)| unsigned_le(a, b)),
    }
}
