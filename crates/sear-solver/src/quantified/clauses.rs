//! A quantified query as clauses (spec 003 §5.7): the quantifier-free clauses θ (`qf(φ)`)
//! and the quantified ones `∀i. 1 ≤ i ≤ k → ψ` (`q(φ)`), with the access pairs the procedure
//! works on, and `strip`, the sound quantifier-free weakening.

use sear_expr::quant::{conjuncts, instantiate, mentions};
use sear_expr::visit::for_each_node;
use sear_expr::{ArrayRef, BinOp, Expr, ExprKind};

/// One quantified clause.
#[derive(Clone, Debug)]
pub struct Clause {
    /// The whole clause.
    pub expr: Expr,
    /// The bound variable `i`.
    pub var: Expr,
    /// The bound `k`.
    pub bound: Expr,
    /// The body ψ.
    pub body: Expr,
}

impl Clause {
    /// The instance `ψ[n/i]`.
    pub fn instance(&self, n: u128) -> Expr {
        instantiate(&self.body, &self.var, &Expr::constant(n, self.var.width()))
    }

    /// The access pairs of ψ whose index mentions `i` (`vreads(ψ, i)`): read nodes.
    pub fn vreads(&self) -> Vec<Expr> {
        let mut out = Vec::new();
        for_each_node([&self.body], |e| {
            if let ExprKind::Read { index, .. } = e.kind() {
                if mentions(index, &self.var) {
                    out.push(e.clone());
                }
            }
        });
        out.sort();
        out
    }
}

/// A query split into clauses.
#[derive(Clone, Debug, Default)]
pub struct Clauses {
    /// Quantifier-free conjuncts.
    pub qf: Vec<Expr>,
    /// Quantified conjuncts.
    pub q: Vec<Clause>,
}

impl Clauses {
    /// The clauses of the conjunction of `conjuncts` (nested conjunctions flattened).
    pub fn of<'a>(conjuncts_in: impl IntoIterator<Item = &'a Expr>) -> Clauses {
        let mut out = Clauses::default();
        for c in conjuncts_in {
            for part in conjuncts(c) {
                match part.as_forall() {
                    Some((var, bound, body)) => {
                        let clause = Clause {
                            expr: part.clone(),
                            var: var.clone(),
                            bound: bound.clone(),
                            body: body.clone(),
                        };
                        out.q.push(clause);
                    }
                    None => out.qf.push(part),
                }
            }
        }
        out
    }

    /// Every clause as an expression.
    pub fn all(&self) -> impl Iterator<Item = &Expr> {
        self.qf.iter().chain(self.q.iter().map(|c| &c.expr))
    }

    /// The arrays read through a bound variable (`qarrays(φ)`).
    pub fn qarrays(&self) -> Vec<ArrayRef> {
        let mut out: Vec<ArrayRef> = Vec::new();
        for c in &self.q {
            for r in c.vreads() {
                if let ExprKind::Read { updates, .. } = r.kind() {
                    if !out.contains(updates.root()) {
                        out.push(updates.root().clone());
                    }
                }
            }
        }
        out
    }

    /// `strip(φ)`: the quantifier-free clauses, each clause's first instance under `k ≥ 1`,
    /// `¬(1 ≤ t ≤ k)` for every quantifier-free clause that is a negated instance
    /// `¬ψ[t/i]` of a conjunct of a body (E-matching), and `1 ≤ t ≤ k → ψ[t/i]` for every
    /// write `a[w] := v` of an array the body reads at `e(i)` with `e[t/i] = w` (E-matching
    /// against the write indices: a string's terminating NUL written at `n − 1` bounds `k`
    /// below `n` without the quantifier). `φ ⊨ strip(φ)`. Returns the clauses and how many
    /// E-matching constraints were added.
    pub fn strip(&self) -> (Vec<Expr>, u64) {
        let mut out = self.qf.clone();
        let mut matched = 0u64;
        for c in &self.q {
            let w = c.var.width();
            let one = Expr::constant(1, w);
            out.push(Expr::implies(
                Expr::ule(one.clone(), c.bound.clone()),
                c.instance(1),
            ));
            let parts = conjuncts(&c.body);
            for theta in &self.qf {
                for part in &parts {
                    let Some(t) = negated_instance(theta, part, &c.var) else {
                        continue;
                    };
                    let inside = Expr::and(
                        Expr::ule(one.clone(), t.clone()),
                        Expr::ule(t, c.bound.clone()),
                    );
                    out.push(Expr::not(inside));
                    matched += 1;
                    break;
                }
            }
            for t in c.write_triggers() {
                let inside = Expr::and(
                    Expr::ule(one.clone(), t.clone()),
                    Expr::ule(t.clone(), c.bound.clone()),
                );
                out.push(Expr::implies(inside, instantiate(&c.body, &c.var, &t)));
                matched += 1;
            }
        }
        (out, matched)
    }
}

/// At most this many write-index instances per clause in `strip`.
const MAX_WRITE_TRIGGERS: usize = 32;

impl Clause {
    /// The terms `t` (free of `i`) with `e[t/i] = w` for a read `a[e(i)]` of the body and a
    /// write index `w` of `a`'s update list; distinct, at most [`MAX_WRITE_TRIGGERS`].
    pub fn write_triggers(&self) -> Vec<Expr> {
        let mut out: Vec<Expr> = Vec::new();
        for r in self.vreads() {
            let ExprKind::Read { updates, index } = r.kind() else {
                continue;
            };
            for node in updates.iter() {
                if out.len() >= MAX_WRITE_TRIGGERS {
                    return out;
                }
                let Some(t) = matches(index, node.index(), &self.var) else {
                    continue;
                };
                // Any `t` gives a sound instance; a match makes it a useful one.
                if !mentions(&t, &self.var) && !out.contains(&t) {
                    out.push(t);
                }
            }
        }
        out
    }
}

/// `t` when `theta` is `¬part[t/var]` (checked by rebuilding the instance).
pub fn negated_instance(theta: &Expr, part: &Expr, var: &Expr) -> Option<Expr> {
    let pattern = Expr::not(part.clone());
    let t = matches(&pattern, theta, var)?;
    if mentions(&t, var) || Expr::not(instantiate(part, var, &t)) != *theta {
        return None;
    }
    Some(t)
}

/// A term `t` such that `pattern[t/var]` is `term`, found structurally; an index
/// `c + p(var)` matches `u` when `p(var)` matches `u − c`.
pub fn matches(pattern: &Expr, term: &Expr, var: &Expr) -> Option<Expr> {
    let mut binding: Option<Expr> = None;
    if match_into(pattern, term, var, &mut binding) {
        binding
    } else {
        None
    }
}

fn bind(binding: &mut Option<Expr>, t: Expr) -> bool {
    match binding {
        Some(b) => *b == t,
        None => {
            *binding = Some(t);
            true
        }
    }
}

fn match_into(p: &Expr, t: &Expr, var: &Expr, binding: &mut Option<Expr>) -> bool {
    if p == var {
        return p.width() == t.width() && bind(binding, t.clone());
    }
    if !mentions(p, var) {
        return p == t;
    }
    if p.width() != t.width() {
        return false;
    }
    // a + p'(var) against u (a free of var, e.g. a constant or a base address):
    // p'(var) against u − a.
    if let ExprKind::Binary {
        op: BinOp::Add,
        lhs,
        rhs,
    } = p.kind()
    {
        let (a, rest) = if mentions(lhs, var) {
            (rhs, lhs)
        } else {
            (lhs, rhs)
        };
        if !mentions(a, var) && mentions(rest, var) {
            // A symbolic `a`: first structurally (`a + p'` against `a + u'`).
            if !a.is_constant() {
                if let ExprKind::Binary {
                    op: BinOp::Add,
                    lhs: tl,
                    rhs: tr,
                } = t.kind()
                {
                    let saved = binding.clone();
                    if pair(lhs, rhs, tl, tr, true, var, binding) {
                        return true;
                    }
                    *binding = saved;
                }
            }
            return match_into(rest, &Expr::sub(t.clone(), a.clone()), var, binding);
        }
    }
    // extract(p'(var)) at bit 0 against u: p'(var) against zext(u) (one solution).
    if let ExprKind::Extract { expr, offset: 0 } = p.kind() {
        if mentions(expr, var) && !matches!(t.kind(), ExprKind::Extract { .. }) {
            return match_into(expr, &Expr::zext(t.clone(), expr.width()), var, binding);
        }
    }
    use ExprKind::*;
    match (p.kind(), t.kind()) {
        (
            Read {
                updates: pu,
                index: pi,
            },
            Read {
                updates: tu,
                index: ti,
            },
        ) => pu == tu && match_into(pi, ti, var, binding),
        (
            Select {
                cond: pc,
                then_expr: pt,
                else_expr: pe,
            },
            Select {
                cond: tc,
                then_expr: tt,
                else_expr: te,
            },
        ) => {
            match_into(pc, tc, var, binding)
                && match_into(pt, tt, var, binding)
                && match_into(pe, te, var, binding)
        }
        (Concat { hi: ph, lo: pl }, Concat { hi: th, lo: tl }) => {
            match_into(ph, th, var, binding) && match_into(pl, tl, var, binding)
        }
        (
            Extract {
                expr: pe,
                offset: po,
            },
            Extract {
                expr: te,
                offset: to,
            },
        ) => po == to && match_into(pe, te, var, binding),
        (ZExt(a), ZExt(b)) | (SExt(a), SExt(b)) | (Not(a), Not(b)) => {
            match_into(a, b, var, binding)
        }
        (
            Binary {
                op: po,
                lhs: pl,
                rhs: pr,
            },
            Binary {
                op: to,
                lhs: tl,
                rhs: tr,
            },
        ) if po == to => pair(pl, pr, tl, tr, po.is_commutative(), var, binding),
        (
            Cmp {
                op: po,
                lhs: pl,
                rhs: pr,
            },
            Cmp {
                op: to,
                lhs: tl,
                rhs: tr,
            },
        ) if po == to => pair(pl, pr, tl, tr, *po == sear_expr::CmpOp::Eq, var, binding),
        _ => false,
    }
}

/// Two operands against two, in order or (for commutative operators) swapped.
fn pair(
    pl: &Expr,
    pr: &Expr,
    tl: &Expr,
    tr: &Expr,
    commutative: bool,
    var: &Expr,
    binding: &mut Option<Expr>,
) -> bool {
    let saved = binding.clone();
    if match_into(pl, tl, var, binding) && match_into(pr, tr, var, binding) {
        return true;
    }
    *binding = saved;
    commutative && match_into(pl, tr, var, binding) && match_into(pr, tl, var, binding)
}
