//! A small SMT-LIB2 writer for query logs.
//!
//! Every non-constant node becomes one `define-fun` (so shared sub-terms are written once and
//! deep terms need no recursion); width-1 expressions are `Bool`. Reads are written as plain
//! `select`s over `store` chains (the core additionally makes out-of-bounds reads of symbolic
//! arrays zero; engine queries read in bounds).

use std::fmt::Write;

use rustc_hash::{FxHashMap, FxHashSet};
use sear_expr::visit::{collect_arrays, for_each_node};
use sear_expr::{ArrayRef, BinOp, CmpOp, Expr, ExprKind, UpdateList};

fn sort(width: u32) -> String {
    if width == 1 {
        "Bool".into()
    } else {
        format!("(_ BitVec {width})")
    }
}

fn lit(v: u128, width: u32) -> String {
    if width == 1 {
        (if v == 1 { "true" } else { "false" }).into()
    } else {
        format!("(_ bv{v} {width})")
    }
}

/// Names and writes the nodes of one query.
struct Writer {
    names: FxHashMap<Expr, String>,
    out: String,
}

impl Writer {
    fn name(&self, e: &Expr) -> String {
        match e.as_constant() {
            Some(v) => lit(v, e.width()),
            None => self.names[e].clone(),
        }
    }

    /// The operand as a bit-vector (booleans become `#b1`/`#b0`).
    fn bv(&self, e: &Expr) -> String {
        if e.width() == 1 {
            format!("(ite {} #b1 #b0)", self.name(e))
        } else {
            self.name(e)
        }
    }

    fn array(&self, updates: &UpdateList) -> String {
        let mut s = array_name(updates.root());
        let writes: Vec<_> = updates.iter().collect();
        for w in writes.iter().rev() {
            s = format!("(store {s} {} {})", self.bv(w.index()), self.bv(w.value()));
        }
        s
    }

    fn term(&self, e: &Expr) -> String {
        let w = e.width();
        let to_bool = |bv: String| if w == 1 { format!("(= {bv} #b1)") } else { bv };
        match e.kind() {
            ExprKind::Constant(v) => lit(*v, w),
            ExprKind::Read { updates, index } => {
                format!("(select {} {})", self.array(updates), self.bv(index))
            }
            ExprKind::Select {
                cond,
                then_expr,
                else_expr,
            } => format!(
                "(ite {} {} {})",
                self.name(cond),
                self.name(then_expr),
                self.name(else_expr)
            ),
            ExprKind::Concat { hi, lo } => format!("(concat {} {})", self.bv(hi), self.bv(lo)),
            ExprKind::Extract { expr, offset } => to_bool(format!(
                "((_ extract {} {}) {})",
                offset + w - 1,
                offset,
                self.bv(expr)
            )),
            ExprKind::ZExt(x) => format!("((_ zero_extend {}) {})", w - x.width(), self.bv(x)),
            ExprKind::SExt(x) => format!("((_ sign_extend {}) {})", w - x.width(), self.bv(x)),
            ExprKind::Not(x) if w == 1 => format!("(not {})", self.name(x)),
            ExprKind::Not(x) => format!("(bvnot {})", self.name(x)),
            ExprKind::Binary { op, lhs, rhs } => {
                let bool_op = match op {
                    BinOp::And => Some("and"),
                    BinOp::Or => Some("or"),
                    BinOp::Xor | BinOp::Add | BinOp::Sub => Some("xor"),
                    _ => None,
                };
                match bool_op {
                    Some(o) if w == 1 => format!("({o} {} {})", self.name(lhs), self.name(rhs)),
                    _ => to_bool(format!(
                        "({} {} {})",
                        binop(*op),
                        self.bv(lhs),
                        self.bv(rhs)
                    )),
                }
            }
            ExprKind::Cmp {
                op: CmpOp::Eq,
                lhs,
                rhs,
            } => {
                format!("(= {} {})", self.name(lhs), self.name(rhs))
            }
            ExprKind::Cmp { op, lhs, rhs } => {
                format!("({} {} {})", cmpop(*op), self.bv(lhs), self.bv(rhs))
            }
        }
    }
}

/// A quoted symbol naming an array uniquely.
fn array_name(a: &ArrayRef) -> String {
    let clean: String = a
        .name()
        .chars()
        .filter(|c| *c != '|' && *c != '\\')
        .collect();
    format!("|{clean}!{}|", a.id())
}

fn binop(op: BinOp) -> &'static str {
    match op {
        BinOp::Add => "bvadd",
        BinOp::Sub => "bvsub",
        BinOp::Mul => "bvmul",
        BinOp::UDiv => "bvudiv",
        BinOp::SDiv => "bvsdiv",
        BinOp::URem => "bvurem",
        BinOp::SRem => "bvsrem",
        BinOp::And => "bvand",
        BinOp::Or => "bvor",
        BinOp::Xor => "bvxor",
        BinOp::Shl => "bvshl",
        BinOp::LShr => "bvlshr",
        BinOp::AShr => "bvashr",
    }
}

fn cmpop(op: CmpOp) -> &'static str {
    match op {
        CmpOp::Eq => "=",
        CmpOp::Ult => "bvult",
        CmpOp::Ule => "bvule",
        CmpOp::Slt => "bvslt",
        CmpOp::Sle => "bvsle",
    }
}

/// Writes `(set-logic QF_ABV)`, the array declarations, one `define-fun` per node, an `assert`
/// per conjunct and `(check-sat)`.
pub fn write_query<'a>(conjuncts: impl IntoIterator<Item = &'a Expr> + Clone) -> String {
    let mut w = Writer {
        names: FxHashMap::default(),
        out: String::new(),
    };
    w.out.push_str("(set-logic QF_ABV)\n");
    for a in collect_arrays(conjuncts.clone()) {
        let name = array_name(&a);
        let s = format!("(Array (_ BitVec {}) (_ BitVec 8))", a.index_width());
        match a.contents() {
            None => {
                let _ = writeln!(w.out, "(declare-fun {name} () {s})");
            }
            Some(bytes) => {
                let mut t = format!("((as const {s}) (_ bv0 8))");
                for (i, b) in bytes.iter().enumerate().filter(|(_, b)| **b != 0) {
                    t = format!("(store {t} (_ bv{i} {}) (_ bv{b} 8))", a.index_width());
                }
                let _ = writeln!(w.out, "(define-fun {name} () {s} {t})");
            }
        }
    }
    // Collect every node, then write them children first.
    let mut nodes: Vec<Expr> = Vec::new();
    for_each_node(conjuncts.clone(), |e| nodes.push(e.clone()));
    let mut done: FxHashSet<Expr> = FxHashSet::default();
    for root in nodes {
        let mut stack = vec![(root, false)];
        while let Some((e, ready)) = stack.pop() {
            if e.is_constant() || done.contains(&e) {
                continue;
            }
            if !ready {
                stack.push((e.clone(), true));
                let mut children = e.children();
                if let ExprKind::Read { updates, .. } = e.kind() {
                    for u in updates.iter() {
                        children.push(u.index().clone());
                        children.push(u.value().clone());
                    }
                }
                stack.extend(children.into_iter().map(|c| (c, false)));
                continue;
            }
            let name = format!("e{}", w.names.len());
            let line = format!(
                "(define-fun {name} () {} {})\n",
                sort(e.width()),
                w.term(&e)
            );
            w.out.push_str(&line);
            w.names.insert(e.clone(), name);
            done.insert(e);
        }
    }
    for c in conjuncts {
        let _ = writeln!(w.out, "(assert {})", w.name(c));
    }
    w.out.push_str("(check-sat)\n");
    w.out
}
