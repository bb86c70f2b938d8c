//! Models of quantified queries (spec 003 §5.7): checking by evaluation, `duplicate` and the
//! pieces of `repair`.
//!
//! A cell is an access pair evaluated under a model, `(array, index)`. `m[i↦n](e)` is `e`
//! evaluated with the bound variable `i` at `n`.

use rustc_hash::{FxHashMap, FxHashSet};
use sear_expr::quant::MAX_ENUMERATION;
use sear_expr::visit::for_each_node;
use sear_expr::{ArrayRef, Assignment, Evaluator, Expr, ExprKind};

use super::clauses::{Clause, Clauses};

/// A model cell: an array and an index.
pub type Cell = (ArrayRef, u128);

/// `e` under `m` with `var` at `n`.
pub fn eval_at(m: &Assignment, var: &Expr, n: u128, e: &Expr) -> u128 {
    let mut bindings = FxHashMap::default();
    bindings.insert(var.as_var().expect("a bound variable"), n);
    Evaluator::with_bindings(m, bindings).eval(e)
}

/// The value of the bound of `clause` under `m`, when it may be enumerated.
pub fn bound_value(m: &Assignment, clause: &Clause) -> Option<u128> {
    let k = m.evaluate(&clause.bound);
    (k <= MAX_ENUMERATION).then_some(k)
}

/// The cell a read node accesses under `m` (with `var` at `n` when given).
pub fn cell_of(m: &Assignment, read: &Expr, at: Option<(&Expr, u128)>) -> Option<Cell> {
    let ExprKind::Read { updates, index } = read.kind() else {
        return None;
    };
    let i = match at {
        Some((var, n)) => eval_at(m, var, n, index),
        None => m.evaluate(index),
    };
    Some((updates.root().clone(), i))
}

/// True when `m` satisfies every clause (quantified ones by enumeration).
pub fn satisfies(m: &Assignment, clauses: &Clauses) -> bool {
    m.satisfies(clauses.all())
}

/// Sets one byte of `m` (ignored beyond the array's dense part: such bytes read zero).
pub fn set_cell(m: &mut Assignment, array: &ArrayRef, index: u128, value: u8) {
    let mut bytes = m
        .get(array)
        .map(<[u8]>::to_vec)
        .unwrap_or_else(|| vec![0; array.size() as usize]);
    if let Some(b) = bytes
        .get_mut(index as usize)
        .filter(|_| index < array.size() as u128)
    {
        *b = value;
        m.insert(array.clone(), bytes);
    }
}

/// `duplicate(φ, m, conflicts)`: for each clause and each array it reads through its
/// variable, the value its first access has at `i = 1` is copied to the cells that access
/// reaches at `i = 2..=m(k)`, except the conflict cells. Indices and values are evaluated
/// under the original `m`.
pub fn duplicate(clauses: &Clauses, m: &Assignment, conflicts: &FxHashSet<Cell>) -> Assignment {
    let mut out = m.clone();
    for c in &clauses.q {
        let Some(k) = bound_value(m, c) else {
            continue;
        };
        let mut done: Vec<ArrayRef> = Vec::new();
        for read in c.vreads() {
            let ExprKind::Read { updates, index } = read.kind() else {
                continue;
            };
            let array = updates.root();
            if done.contains(array) || array.is_constant() {
                continue;
            }
            done.push(array.clone());
            let value = eval_at(m, &c.var, 1, &read) as u8;
            for n in 2..=k {
                let at = eval_at(m, &c.var, n, index);
                if !conflicts.contains(&(array.clone(), at)) {
                    set_cell(&mut out, array, at, value);
                }
            }
        }
    }
    out
}

/// The cells `m` violates (`repair`'s first two loops): the variable accesses of every
/// violated instance, and every access of every violated quantifier-free clause.
pub fn conflicts(clauses: &Clauses, m: &Assignment) -> FxHashSet<Cell> {
    let mut out = FxHashSet::default();
    for c in &clauses.q {
        let Some(k) = bound_value(m, c) else {
            continue;
        };
        let vreads = c.vreads();
        for n in 1..=k {
            if eval_at(m, &c.var, n, &c.body) != 1 {
                out.extend(
                    vreads
                        .iter()
                        .filter_map(|r| cell_of(m, r, Some((&c.var, n)))),
                );
            }
        }
    }
    let mut ev = Evaluator::new(m);
    for theta in &clauses.qf {
        if ev.eval(theta) != 1 {
            for_each_node([theta], |e| {
                if let Some(cell) = cell_of(m, e, None) {
                    out.insert(cell);
                }
            });
        }
    }
    out
}

/// The instances `ψ[n/i]` whose variable accesses reach a conflict cell (`map` of `repair`).
pub fn conflict_instances(
    clauses: &Clauses,
    m: &Assignment,
    conflicts: &FxHashSet<Cell>,
) -> Vec<Expr> {
    let mut out = Vec::new();
    for c in &clauses.q {
        let Some(k) = bound_value(m, c) else {
            continue;
        };
        let vreads = c.vreads();
        for n in 1..=k {
            let touches = vreads.iter().any(|r| {
                cell_of(m, r, Some((&c.var, n))).is_some_and(|cell| conflicts.contains(&cell))
            });
            if touches {
                out.push(c.instance(n));
            }
        }
    }
    out
}

/// `t = m(t)` for every read of an array that is not read through a bound variable (and
/// does not mention one): `repair` pins everything but the quantified arrays. Reads that
/// occur in the instances `free` (the conflict instances added to the query) stay free: a
/// violated instance may need them changed (a refinement of Algorithm 7; every model is
/// checked by evaluation anyway).
pub fn pins(clauses: &Clauses, m: &Assignment, free: &[Expr]) -> Vec<Expr> {
    let qarrays = clauses.qarrays();
    let mut unpinned: FxHashSet<Expr> = FxHashSet::default();
    for_each_node(free, |e| {
        if matches!(e.kind(), ExprKind::Read { .. }) {
            unpinned.insert(e.clone());
        }
    });
    let mut reads: Vec<Expr> = Vec::new();
    for_each_node(clauses.all(), |e| {
        if let ExprKind::Read { updates, .. } = e.kind() {
            if !qarrays.contains(updates.root())
                && !updates.root().is_constant()
                && !unpinned.contains(e)
                && !sear_expr::quant::contains_var([e])
            {
                reads.push(e.clone());
            }
        }
    });
    reads.sort();
    let mut ev = Evaluator::new(m);
    reads
        .into_iter()
        .map(|r| {
            let v = ev.eval(&r);
            Expr::eq(Expr::constant(v, r.width()), r)
        })
        .collect()
}
