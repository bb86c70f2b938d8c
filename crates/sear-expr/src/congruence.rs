//! Power-of-two congruences of bit-vector terms: `t ≡ r (mod 2^k)` for every assignment,
//! read off the syntax of `t`.
//!
//! One analysis serves two users: the array-read transformations (`sear-arrayopt`: offsets a
//! symbolic index cannot take are don't-cares) and the solver's type-based axiom
//! elimination, ILP pre-check and eager core (`sear-solver`: an index term's residue modulo
//! an array's access size, spec 001 §4.4).
//!
//! Only power-of-two moduli are tracked: `2^k` divides `2^w` for every width `w ≥ k`, so
//! wrap-around of `w`-bit arithmetic preserves the congruence; other moduli do not survive
//! it. A congruence never claims more than the node's width (nor more than 64 bits). A term
//! the rules do not cover has the trivial congruence (`k = 0`).
//!
//! The rules, with `a ≡ ra (mod 2^ka)` and `b ≡ rb (mod 2^kb)` for the operands:
//!
//! * constants: their value (up to 64 bits); `zext`, `sext` and the low extract: the operand's;
//!   `concat(hi, lo)`: `lo`'s, extended by `hi`'s when `lo` is known entirely;
//! * `a + b`, `a − b`, `a ⊕ b`: `min(ka, kb)` bits;
//! * `a · b`: `min(ka + tz(rb), kb + tz(ra), ka + kb)` bits, `tz` counting trailing zero
//!   bits (a multiple of `2^j` times anything is a multiple of `2^j`);
//! * `a << c`: `ka + c` bits (zero when `c` is at least the width);
//! * `a & b`, `a | b`: the low bits known on both sides, continued while one side has a
//!   known 0 (for `&`) or 1 (for `|`) bit;
//! * `ite(c, a, b)`: the low bits both arms agree on.

use rustc_hash::FxHashMap;

use crate::expr::{BinOp, Expr, ExprKind};

/// The largest modulus exponent tracked.
const MAX_BITS: u32 = 64;

/// Trailing zeros of a remainder, with 0 counting as "infinitely many".
const ZERO_TZ: u32 = 128;

/// `e ≡ rem (mod 2^bits)` for every value of `e`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Congruence {
    /// The remainder (less than `2^bits`).
    pub rem: u64,
    /// The modulus exponent (0: nothing known; at most 64).
    pub bits: u32,
}

impl Congruence {
    /// Nothing known.
    pub const UNKNOWN: Congruence = Congruence { rem: 0, bits: 0 };

    /// `rem (mod 2^bits)`, with `bits` capped at 64 and `rem` reduced.
    pub fn new(rem: u128, bits: u32) -> Self {
        let bits = bits.min(MAX_BITS);
        Congruence {
            rem: (rem as u64) & low_mask(bits),
            bits,
        }
    }

    /// True if offset `o` satisfies the congruence.
    pub fn allows(&self, o: u64) -> bool {
        o & low_mask(self.bits) == self.rem
    }

    /// The residue modulo `m` (a power of two), if the congruence determines it.
    pub fn residue(&self, m: u64) -> Option<u64> {
        debug_assert!(m.is_power_of_two());
        (m.trailing_zeros() <= self.bits).then_some(self.rem & (m - 1))
    }

    fn tz(&self) -> u32 {
        tz(self.rem)
    }

    fn bit(&self, i: u32) -> Option<bool> {
        (i < self.bits).then(|| (self.rem >> i) & 1 == 1)
    }
}

/// Trailing zero bits of `x`, [`ZERO_TZ`] for 0.
fn tz(x: u64) -> u32 {
    if x == 0 {
        ZERO_TZ
    } else {
        x.trailing_zeros()
    }
}

fn low_mask(bits: u32) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    }
}

/// The congruence of `e`, computed afresh (use [`Congruences`] to share work between
/// queries over common subterms).
pub fn congruence(e: &Expr) -> Congruence {
    Congruences::default().of(e)
}

/// Computes congruences with a memo of every node visited.
#[derive(Default)]
pub struct Congruences {
    memo: FxHashMap<Expr, Congruence>,
}

impl Congruences {
    /// An empty memo.
    pub fn new() -> Self {
        Self::default()
    }

    /// The congruence of `e`.
    pub fn of(&mut self, e: &Expr) -> Congruence {
        if let Some(c) = e.as_constant() {
            return Congruence::new(c, e.width());
        }
        if let Some(c) = self.memo.get(e) {
            return *c;
        }
        // Iterative post-order over the nodes the rules look into.
        let mut stack = vec![(e.clone(), false)];
        while let Some((n, ready)) = stack.pop() {
            if n.is_constant() || self.memo.contains_key(&n) {
                continue;
            }
            if !ready {
                stack.push((n.clone(), true));
                for c in operands(&n) {
                    stack.push((c, false));
                }
                continue;
            }
            let c = self.node(&n);
            self.memo.insert(n, c);
        }
        self.memo[e]
    }

    /// The residue of `t` modulo `m` (a power of two), if it follows from the syntax. A
    /// constant's residue is its value's, whatever its width.
    pub fn residue(&mut self, t: &Expr, m: u64) -> Option<u64> {
        debug_assert!(m.is_power_of_two());
        if m == 1 {
            return Some(0);
        }
        if let Some(c) = t.as_constant() {
            return Some((c % m as u128) as u64);
        }
        self.of(t).residue(m)
    }

    /// A child's congruence (constants directly, others from the memo).
    fn get(&self, e: &Expr) -> Congruence {
        match e.as_constant() {
            Some(c) => Congruence::new(c, e.width()),
            None => self.memo.get(e).copied().unwrap_or(Congruence::UNKNOWN),
        }
    }

    fn node(&self, e: &Expr) -> Congruence {
        let w = e.width();
        let (rem, bits) = match e.kind() {
            ExprKind::Constant(v) => (*v, w),
            ExprKind::ZExt(x) | ExprKind::SExt(x) | ExprKind::Extract { expr: x, offset: 0 } => {
                let c = self.get(x);
                (c.rem as u128, c.bits)
            }
            ExprKind::Concat { hi, lo } => {
                let l = self.get(lo);
                if l.bits >= lo.width() {
                    let h = self.get(hi);
                    (
                        ((h.rem as u128) << lo.width()) | l.rem as u128,
                        lo.width() + h.bits,
                    )
                } else {
                    (l.rem as u128, l.bits)
                }
            }
            ExprKind::Binary { op, lhs, rhs } => {
                let (a, b) = (self.get(lhs), self.get(rhs));
                match op {
                    BinOp::Add => (a.rem.wrapping_add(b.rem) as u128, a.bits.min(b.bits)),
                    BinOp::Sub => (a.rem.wrapping_sub(b.rem) as u128, a.bits.min(b.bits)),
                    BinOp::Xor => ((a.rem ^ b.rem) as u128, a.bits.min(b.bits)),
                    BinOp::Mul => {
                        let bits = (a.bits + b.tz()).min(b.bits + a.tz()).min(a.bits + b.bits);
                        (a.rem.wrapping_mul(b.rem) as u128, bits)
                    }
                    BinOp::Shl => match rhs.as_constant() {
                        Some(k) if k >= w as u128 => (0, w),
                        Some(k) => {
                            let k = k as u32;
                            let rem = if k >= 64 { 0 } else { (a.rem as u128) << k };
                            (rem, a.bits + k)
                        }
                        None => (0, 0),
                    },
                    BinOp::And => bitwise(a, b, w, false),
                    BinOp::Or => bitwise(a, b, w, true),
                    _ => (0, 0),
                }
            }
            ExprKind::Select {
                then_expr,
                else_expr,
                ..
            } => {
                let (a, b) = (self.get(then_expr), self.get(else_expr));
                (a.rem as u128, a.bits.min(b.bits).min(tz(a.rem ^ b.rem)))
            }
            _ => (0, 0),
        };
        Congruence::new(rem, bits.min(w))
    }
}

/// `a & b` (`ones` false) or `a | b` (`ones` true): the low bits known on both sides, then
/// each next bit known on one side to be the absorbing value (0 for `&`, 1 for `|`).
fn bitwise(a: Congruence, b: Congruence, w: u32, ones: bool) -> (u128, u32) {
    let mut bits = a.bits.min(b.bits);
    let both = if ones { a.rem | b.rem } else { a.rem & b.rem };
    let mut rem = both & low_mask(bits);
    while bits < w.min(MAX_BITS) {
        if a.bit(bits) == Some(ones) || b.bit(bits) == Some(ones) {
            rem |= (ones as u64) << bits;
            bits += 1;
        } else {
            break;
        }
    }
    (rem as u128, bits)
}

/// The non-constant children the rules look into.
fn operands(e: &Expr) -> Vec<Expr> {
    let v = match e.kind() {
        ExprKind::Binary { lhs, rhs, .. } => vec![lhs.clone(), rhs.clone()],
        ExprKind::ZExt(x) | ExprKind::SExt(x) | ExprKind::Extract { expr: x, offset: 0 } => {
            vec![x.clone()]
        }
        ExprKind::Concat { hi, lo } => vec![hi.clone(), lo.clone()],
        ExprKind::Select {
            then_expr,
            else_expr,
            ..
        } => vec![then_expr.clone(), else_expr.clone()],
        _ => vec![],
    };
    v.into_iter().filter(|c| !c.is_constant()).collect()
}
