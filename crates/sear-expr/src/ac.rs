//! AC normalisation: chains of an associative-commutative operator in one canonical shape.
//!
//! `a[0] & a[1] & … & a[n]` reduced in two different orders (forwards and backwards, or
//! after a swap of two elements) builds two different trees over the same operands; the
//! comparison of the two results then needs a query that bit-blasts both. For `Add`, `Mul`,
//! `And`, `Or` and `Xor` at widths above 1 the builder keeps every chain it builds in one
//! shape, so that equal multisets of operands give the same (hash-consed) node:
//!
//! ```text
//! c ⊕ (((t1 ⊕ t2) ⊕ t3) … ⊕ tn)      c a constant (absent when it is ⊕'s identity),
//!                                     t1 … tn the operands in key order
//! ```
//!
//! An *operand* is any expression that is neither a constant nor a `⊕` node of the same
//! width. Operands are ordered by a key from their structure alone
//! ([`Expr::operand_order`]: the smallest element index, then array, of the constant-index
//! reads they contain; then the structural hash), so every process, whatever it built
//! before, builds a chain over the same operands in the same order. A loop that reads its
//! elements in index order appends each at the top of the chain in O(1); an operand that
//! arrives out of order is inserted by rebuilding the part of the chain above it. Equal
//! operands are adjacent, so `x & x` and `x | x` keep one, `x ^ x` cancels, and the
//! constants of both sides fold into one. `x + x` stays a chain of two operands (the
//! plain builder's `x << 1` would be a new operand, out of order in the chain).
//!
//! Every rewrite is an instance of associativity, commutativity, idempotence (`And`, `Or`),
//! `x ^ x = 0` or constant folding, all of which hold on bit-vectors of every width: a
//! normalised expression equals the original under every assignment.
//!
//! **Cost bound.** Each chain records the rebuild work spent on it (nodes rebuilt for
//! out-of-order operands, summed over the chains it was built from). A combination whose
//! work would exceed `WORK_BASE` plus twice the operands' depth is not normalised: the
//! builder makes a plain node, which is not a normalised chain, and every later
//! combination with it stays plain (O(1)). So a loop that adds its elements in reverse
//! creation order pays O(n) in total, not O(n²), and is simply not normalised.
//!
//! An `ite` is not an operand of a chain while the builder lifts `ite`s
//! ([`crate::ite_lift`]): an operation with an `ite` operand that the lifting leaves is a
//! plain node.
//!
//! Switch: [`set_enabled`] (`--no-ac-normalize` in the CLI); counters: [`stats`].

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use crate::bits::mask;
use crate::expr::{BinOp, Expr, ExprKind, AC_WORK_MAX};
use crate::fold::fold_binary;

static ENABLED: AtomicBool = AtomicBool::new(true);
static CHAINS: AtomicU64 = AtomicU64::new(0);
static REBUILT: AtomicU64 = AtomicU64::new(0);
static CANCELLED: AtomicU64 = AtomicU64::new(0);
static OVER_BUDGET: AtomicU64 = AtomicU64::new(0);

/// Rebuild work every chain may spend besides twice its operands' depth.
const WORK_BASE: u64 = 64;

/// Turns the normalisation on or off for every expression built from now on (process-wide;
/// on by default).
pub fn set_enabled(on: bool) {
    ENABLED.store(on, Ordering::Relaxed);
}

/// Whether the builder normalises AC chains.
pub fn enabled() -> bool {
    ENABLED.load(Ordering::Relaxed)
}

/// The normalisation's counters since the process started.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AcStats {
    /// Combinations of two AC operands answered by the normalisation (a chain, a constant
    /// or an operand).
    pub combined: u64,
    /// Chain nodes rebuilt to insert an operand that arrived out of order.
    pub rebuilt: u64,
    /// Operands dropped by `x & x = x`, `x | x = x` or `x ^ x = 0`.
    pub cancelled: u64,
    /// Combinations left plain because their rebuild work exceeded the bound.
    pub over_budget: u64,
}

/// The counters so far.
pub fn stats() -> AcStats {
    AcStats {
        combined: CHAINS.load(Ordering::Relaxed),
        rebuilt: REBUILT.load(Ordering::Relaxed),
        cancelled: CANCELLED.load(Ordering::Relaxed),
        over_budget: OVER_BUDGET.load(Ordering::Relaxed),
    }
}

/// The operators the normalisation handles.
pub(crate) fn is_ac(op: BinOp) -> bool {
    matches!(
        op,
        BinOp::Add | BinOp::Mul | BinOp::And | BinOp::Or | BinOp::Xor
    )
}

fn identity(op: BinOp, width: u32) -> u128 {
    match op {
        BinOp::Mul => 1,
        BinOp::And => mask(width),
        _ => 0,
    }
}

fn absorbing(op: BinOp, width: u32) -> Option<u128> {
    match op {
        BinOp::Mul | BinOp::And => Some(0),
        BinOp::Or => Some(mask(width)),
        _ => None,
    }
}

/// A side of a combination: its constant and its chain of operands.
struct Side {
    constant: Option<u128>,
    chain: Option<Expr>,
}

/// `e` as a constant and a chain, or `None` when `e` is a plain `op` node (not normalised).
fn decompose(op: BinOp, e: &Expr) -> Option<Side> {
    if let Some(c) = e.as_constant() {
        return Some(Side {
            constant: Some(c),
            chain: None,
        });
    }
    match e.kind() {
        ExprKind::Binary { op: o, lhs, rhs } if *o == op => {
            if !e.ac_sorted() {
                return None;
            }
            match lhs.as_constant() {
                Some(c) => Some(Side {
                    constant: Some(c),
                    chain: Some(rhs.clone()),
                }),
                None => Some(Side {
                    constant: None,
                    chain: Some(e.clone()),
                }),
            }
        }
        _ => Some(Side {
            constant: None,
            chain: Some(e.clone()),
        }),
    }
}

/// The rebuild work recorded on `e` as an `op` chain (0 for an operand, which may be a
/// chain of another operator with work of its own).
fn chain_work(op: BinOp, e: &Expr) -> u64 {
    match e.kind() {
        ExprKind::Binary { op: o, .. } if *o == op => e.ac_work(),
        _ => 0,
    }
}

/// The top (latest) operand of a chain and the chain below it.
fn split(op: BinOp, chain: &Expr) -> (Expr, Option<Expr>) {
    match chain.kind() {
        ExprKind::Binary { op: o, lhs, rhs } if *o == op => (rhs.clone(), Some(lhs.clone())),
        _ => (chain.clone(), None),
    }
}

/// An operand's place in a chain: the order key and structural hash of the operand without
/// its `Not`, then the operand before its negation, so that `x` and `~x` are neighbours.
/// Distinct operands with equal places (a hash collision) are kept apart by the identity
/// checks of [`Build::push`], only missing a simplification.
fn key(e: &Expr) -> (u64, u64, bool) {
    match e.kind() {
        ExprKind::Not(inner) => (inner.operand_order(), inner.structural_hash(), true),
        _ => (e.operand_order(), e.structural_hash(), false),
    }
}

/// Whether one operand is the other's negation.
fn complementary(a: &Expr, b: &Expr) -> bool {
    matches!(a.kind(), ExprKind::Not(n) if n == b) || matches!(b.kind(), ExprKind::Not(n) if n == a)
}

/// A chain being built: what neighbouring operands folded into the constant.
struct Build {
    op: BinOp,
    width: u32,
    work: u64,
    /// Folded into the combination's constant: `x ^ ~x = ~0`, `x + ~x = ~0`.
    constant: Option<u128>,
    /// `x & ~x = 0`, `x | ~x = ~0`: the whole combination is this constant.
    absorbed: Option<u128>,
}

impl Build {
    fn fold(&mut self, value: u128) {
        self.constant = Some(match self.constant {
            Some(c) => fold_binary(self.op, self.width, c, value),
            None => value,
        });
    }

    /// Pushes `latest_first` (operands above `base`'s, the latest first) onto `base`. The
    /// chain's top records the work of the chains it was built from and the `rebuilt`
    /// nodes; the nodes below it only the former: they are the chain an in-order build
    /// would have made, so a later build that meets them (they are hash-consed) is not
    /// charged for this one's rebuild.
    fn push_all(
        &mut self,
        base: Option<Expr>,
        latest_first: Vec<Expr>,
        work_in: u64,
        rebuilt: u64,
    ) -> Option<Expr> {
        let mut chain = base;
        let n = latest_first.len();
        for (i, operand) in latest_first.into_iter().rev().enumerate() {
            self.work = if i + 1 == n {
                work_in + rebuilt
            } else {
                work_in
            };
            chain = self.push(chain, operand);
        }
        self.work = work_in + rebuilt;
        chain
    }

    /// Appends `operand` (whose key is not below any of `chain`'s) to a chain.
    fn push(&mut self, chain: Option<Expr>, operand: Expr) -> Option<Expr> {
        let Some(chain) = chain else {
            return Some(operand);
        };
        let (top, rest) = split(self.op, &chain);
        let ones = mask(self.width);
        if top == operand {
            match self.op {
                BinOp::And | BinOp::Or => {
                    CANCELLED.fetch_add(1, Ordering::Relaxed);
                    return Some(chain);
                }
                BinOp::Xor => {
                    CANCELLED.fetch_add(2, Ordering::Relaxed);
                    return rest;
                }
                _ => {}
            }
        } else if complementary(&top, &operand) {
            match self.op {
                BinOp::And => self.absorbed = Some(0),
                BinOp::Or => self.absorbed = Some(ones),
                BinOp::Xor | BinOp::Add => {
                    CANCELLED.fetch_add(2, Ordering::Relaxed);
                    self.fold(ones);
                    return rest;
                }
                _ => {}
            }
        }
        Some(Expr::make_ac(
            ExprKind::Binary {
                op: self.op,
                lhs: chain,
                rhs: operand,
            },
            self.width,
            Some(self.work),
        ))
    }
}

/// Merges two chains, or `None` when that would cost more than the bound.
fn merge(build: &mut Build, a: Option<Expr>, b: Option<Expr>) -> Option<Option<Expr>> {
    let op = build.op;
    let work_in =
        a.as_ref().map_or(0, |e| chain_work(op, e)) + b.as_ref().map_or(0, |e| chain_work(op, e));
    let depth =
        a.as_ref().map_or(0, |e| e.depth() as u64) + b.as_ref().map_or(0, |e| e.depth() as u64);
    let budget = (WORK_BASE + 2 * depth).min(AC_WORK_MAX);
    let (mut a, mut b) = (a, b);
    // The operands above the longest common base, latest first.
    let mut popped: Vec<Expr> = Vec::new();
    let base = loop {
        let (ea, eb) = match (&a, &b) {
            (None, _) => break b,
            (_, None) => break a,
            (Some(ea), Some(eb)) => (ea.clone(), eb.clone()),
        };
        let (ta, ra) = split(op, &ea);
        let (tb, rb) = split(op, &eb);
        if key(&ta) >= key(&tb) {
            popped.push(ta);
            a = ra;
        } else {
            popped.push(tb);
            b = rb;
        }
        // The first operand popped is the new top: an append, not a rebuild.
        if work_in + popped.len() as u64 - 1 > budget {
            OVER_BUDGET.fetch_add(1, Ordering::Relaxed);
            return None;
        }
    };
    let rebuilt = popped.len().saturating_sub(1) as u64;
    REBUILT.fetch_add(rebuilt, Ordering::Relaxed);
    Some(build.push_all(base, popped, work_in, rebuilt))
}

/// `lhs op rhs` normalised, or `None` when either side is a plain `op` node or the
/// combination would exceed its rebuild bound (the builder then makes a plain node).
/// `op` is AC, the width above 1 and not both sides constant.
pub(crate) fn combine(op: BinOp, lhs: &Expr, rhs: &Expr, width: u32) -> Option<Expr> {
    // An `ite` is no chain operand while the builder lifts `ite`s (`crate::ite_lift`): two
    // `ite`s on one condition side by side in a chain would be lifted when the chain is
    // built again, so the canonical form would not be a fixpoint.
    if crate::ite_lift::enabled() && (is_ite(lhs) || is_ite(rhs)) {
        return None;
    }
    let a = decompose(op, lhs)?;
    let b = decompose(op, rhs)?;
    let mut build = Build {
        op,
        width,
        work: 0,
        constant: None,
        absorbed: None,
    };
    let chain = merge(&mut build, a.chain, b.chain)?;
    CHAINS.fetch_add(1, Ordering::Relaxed);
    for c in [a.constant, b.constant].into_iter().flatten() {
        build.fold(c);
    }
    if let Some(z) = absorbing(op, width) {
        if build.constant == Some(z) {
            build.absorbed = Some(z);
        }
    }
    if let Some(value) = build.absorbed {
        return Some(Expr::constant(value, width));
    }
    Some(finish(op, build.constant, chain, width))
}

fn is_ite(e: &Expr) -> bool {
    matches!(e.kind(), ExprKind::Select { .. })
}

/// `constant op chain` without an identity constant.
fn finish(op: BinOp, constant: Option<u128>, chain: Option<Expr>, width: u32) -> Expr {
    match (constant.filter(|&c| c != identity(op, width)), chain) {
        (None, None) => Expr::constant(identity(op, width), width),
        (Some(c), None) => Expr::constant(c, width),
        (None, Some(chain)) => chain,
        (Some(c), Some(chain)) => with_constant(op, c, chain, width),
    }
}

/// `c op chain`, with the plain builder's rewrites of a constant and one operand.
fn with_constant(op: BinOp, c: u128, chain: Expr, width: u32) -> Expr {
    let single = !matches!(chain.kind(), ExprKind::Binary { op: o, .. } if *o == op);
    if single {
        match (op, chain.kind()) {
            // ~0 ^ x = ~x
            (BinOp::Xor, _) if c == mask(width) => return Expr::not(chain),
            // c1 + (c2 - x) = (c1 + c2) - x
            (
                BinOp::Add,
                ExprKind::Binary {
                    op: BinOp::Sub,
                    lhs,
                    rhs,
                },
            ) => {
                if let Some(c2) = lhs.as_constant() {
                    return Expr::sub(Expr::constant(c.wrapping_add(c2), width), rhs.clone());
                }
            }
            _ => {}
        }
    }
    let work = chain_work(op, &chain);
    Expr::make_ac(
        ExprKind::Binary {
            op,
            lhs: Expr::constant(c, width),
            rhs: chain,
        },
        width,
        Some(work),
    )
}

/// `lhs - rhs` when both are normalised sums and `rhs`'s operands are among `lhs`'s: the
/// sum of the rest (`(c1 + x + y + z) - (c2 + y) = (c1 - c2) + x + z`), or `None`.
pub(crate) fn subtract(lhs: &Expr, rhs: &Expr) -> Option<Expr> {
    let a = decompose(BinOp::Add, lhs)?;
    let b = decompose(BinOp::Add, rhs)?;
    let (mut left, mut right) = (a.chain?, b.chain?);
    let width = lhs.width();
    let budget = (WORK_BASE + 2 * left.depth() as u64).min(AC_WORK_MAX);
    let work_in = chain_work(BinOp::Add, &left);
    // The operands of `lhs` above the last one removed, latest first.
    let mut kept: Vec<Expr> = Vec::new();
    let mut removed = 0u64;
    let base = loop {
        let (top, rest) = split(BinOp::Add, &left);
        let (wanted, others) = split(BinOp::Add, &right);
        if top == wanted {
            removed += 2;
            match others {
                None => break rest,
                Some(others) => right = others,
            }
            left = rest?;
            continue;
        }
        if key(&top) < key(&wanted) || work_in + kept.len() as u64 >= budget {
            return None;
        }
        kept.push(top);
        left = rest?;
    };
    let mut build = Build {
        op: BinOp::Add,
        width,
        work: 0,
        constant: a.constant,
        absorbed: None,
    };
    let rebuilt = kept.len() as u64;
    REBUILT.fetch_add(rebuilt, Ordering::Relaxed);
    CANCELLED.fetch_add(removed, Ordering::Relaxed);
    CHAINS.fetch_add(1, Ordering::Relaxed);
    let chain = build.push_all(base, kept, work_in, rebuilt);
    if let Some(c) = b.constant {
        build.fold(c.wrapping_neg() & mask(width));
    }
    Some(finish(BinOp::Add, build.constant, chain, width))
}
