//! The byte search's frontiers: per level, the terms through which the conjuncts still to
//! check see the bytes already assigned, and the invariant that makes pruning by their
//! values exact.

use rustc_hash::{FxHashMap, FxHashSet};
use sear_expr::{Expr, ExprKind, UpdateList};

use super::{Conjunct, MAX_BYTES};

/// The terms of one level of the search: after bytes `0..=k` have values, the conjuncts not
/// yet checked depend on those bytes only through these terms (their maximal subterms that
/// read no byte after `k` but some byte up to `k`). Two prefixes that give them the same
/// values have the same completions, so a failed one need not be searched again: on a
/// scanner's path condition the frontier is the automaton's state, and the search becomes
/// one over states rather than over byte strings.
///
/// **Invariant (what an UNSAT answer rests on).** The frontier of level `k` *covers* every
/// input byte at or before `k` that a conjunct checked after `k` observes: each such byte is
/// read by some term of the frontier, and every node above the frontier is a function of its
/// [`operands`] alone. A read observes the byte its root holds at its (constant) index as
/// well as its update list's indices and values, so the byte read through the root is an
/// operand of its own ([`root_byte`]): a read of `in[0]` through a write of the later byte
/// `in[1]` depends on both, and without that operand `in[0]` was in no frontier and prefixes
/// differing only in it were pruned as one (issue 37). [`frontier_terms`] computes each
/// node's observed bytes from the reads and checks the coverage against the bytes each
/// conjunct reads ([`super::reads::reads_of`], a separate walk); a query whose frontiers do not cover is
/// not answered by the search.
pub(super) struct Frontier {
    pub(super) terms: Vec<Expr>,
}

/// How [`frontier_terms`] can fail.
pub(super) enum NoFrontier {
    /// The walk over the conjuncts' nodes exceeds the budget.
    OutOfBudget,
    /// A level's frontier misses a byte a later conjunct reads (the invariant of
    /// [`Frontier`] does not hold: the search must not answer).
    Uncovered,
}

/// A set of search positions (at most [`MAX_BYTES`]), a bit each.
type Positions = u32;
const _: () = assert!(MAX_BYTES <= Positions::BITS as usize);

/// The positions at or before `k`.
fn up_to(k: usize) -> Positions {
    if k + 1 >= Positions::BITS as usize {
        Positions::MAX
    } else {
        (1 << (k + 1)) - 1
    }
}

/// The frontier of each of `levels` levels for the conjuncts of several bytes, and the
/// budget left after computing them (see [`Frontier`] for the invariant they are checked
/// to meet).
pub(super) fn frontier_terms(
    conjuncts: &[Conjunct],
    order: &FxHashMap<(u64, usize), usize>,
    levels: usize,
    mut budget: usize,
) -> Result<(Vec<Frontier>, usize), NoFrontier> {
    // The last byte (in search order) each node reads and every byte it observes, by an
    // iterative post-order walk; the operands of a read include its update list's indices
    // and values and the byte its root holds at its index. Each node's operands are listed
    // once, on its first visit, and kept for the second pass.
    let mut last: FxHashMap<Expr, (Option<usize>, Positions)> = FxHashMap::default();
    let mut visited: Vec<(Expr, Vec<Expr>)> = Vec::new();
    let mut stack: Vec<(Expr, Option<Vec<Expr>>)> = conjuncts
        .iter()
        .filter(|c| !c.unary)
        .map(|c| (c.expr.clone(), None))
        .collect();
    while let Some((e, ops)) = stack.pop() {
        let Some(ops) = ops else {
            if e.is_constant() || last.contains_key(&e) {
                continue;
            }
            let ops = operands(&e);
            budget = budget
                .checked_sub(1 + ops.len())
                .ok_or(NoFrontier::OutOfBudget)?;
            let children: Vec<(Expr, Option<Vec<Expr>>)> =
                ops.iter().map(|o| (o.clone(), None)).collect();
            stack.push((e, Some(ops)));
            stack.extend(children);
            continue;
        };
        if last.contains_key(&e) {
            // Reached twice before its first visit was finished (a shared operand).
            continue;
        }
        let own = read_position(&e, order);
        let (m, seen) = ops
            .iter()
            .filter_map(|o| last.get(o).copied())
            .chain([(own, own.map_or(0, |k| 1 << k))])
            .fold((None, 0), |(m, seen), (l, s)| (m.max(l), seen | s));
        last.insert(e.clone(), (m, seen));
        visited.push((e, ops));
    }
    let mut terms: Vec<FxHashSet<Expr>> = vec![FxHashSet::default(); levels];
    let mut covered: Vec<Positions> = vec![0; levels];
    for (e, ops) in &visited {
        let Some(parent) = last[e].0 else { continue };
        for o in ops {
            if let Some(&(Some(child), seen)) = last.get(o) {
                for level in child..parent {
                    terms[level].insert(o.clone());
                    covered[level] |= seen;
                }
            }
        }
    }
    // The invariant: a conjunct checked after level k (its last byte is after k) observes
    // bytes up to k only through the level's frontier.
    for c in conjuncts.iter().filter(|c| !c.unary) {
        let Some(last) = c.last else { continue };
        let reads: Positions = c.reads.iter().fold(0, |s, &k| s | 1 << k);
        if (0..last).any(|k| reads & up_to(k) & !covered[k] != 0) {
            return Err(NoFrontier::Uncovered);
        }
    }
    let frontiers = terms
        .into_iter()
        .map(|set| {
            let mut terms: Vec<Expr> = set.into_iter().collect();
            terms.sort_by_key(Expr::ptr_key);
            Frontier { terms }
        })
        .collect();
    Ok((frontiers, budget))
}

/// A node's operands: its children, and for a read its update list's indices and values
/// and the byte its root holds at its index ([`root_byte`]).
fn operands(e: &Expr) -> Vec<Expr> {
    let mut ops = e.children();
    if let ExprKind::Read { updates, .. } = e.kind() {
        for write in updates.iter() {
            ops.push(write.index().clone());
            ops.push(write.value().clone());
        }
        ops.extend(root_byte(e));
    }
    ops
}

/// For a read of a symbolic array at a constant index through a non-empty update list, the
/// read of the same byte of the bare array: the input byte the read returns when no write
/// hits its index, which it observes as much as the writes' values.
fn root_byte(e: &Expr) -> Option<Expr> {
    let ExprKind::Read { updates, index } = e.kind() else {
        return None;
    };
    let root = updates.root();
    (!updates.is_empty() && !root.is_constant() && index.is_constant())
        .then(|| Expr::read(&UpdateList::new(root.clone()), index.clone()))
}

/// The search position of the input byte `e` reads, if it is a read of an input byte at a
/// constant index with no writes in between.
fn read_position(e: &Expr, order: &FxHashMap<(u64, usize), usize>) -> Option<usize> {
    let ExprKind::Read { updates, index } = e.kind() else {
        return None;
    };
    let root = updates.root();
    let i = index.as_constant()?;
    (!root.is_constant() && updates.is_empty())
        .then(|| order.get(&(root.id(), usize::try_from(i).ok()?)).copied())
        .flatten()
}
