//! SMT-LIB2 printing.

use std::fmt::Write;

use crate::array::UpdateList;
use crate::expr::{BinOp, CmpOp, Expr, ExprKind};

const DEBUG_LIMIT: usize = 20_000;

/// Prints one expression as an SMT-LIB2 term, without `let` sharing (for diagnostics;
/// very large terms are cut off with `…`).
pub fn print_expr(expr: &Expr) -> String {
    let mut out = String::new();
    write_term(expr, &mut out);
    out
}

fn write_const(out: &mut String, value: u128, width: u32) {
    if width == 1 {
        out.push_str(if value == 1 { "true" } else { "false" });
    } else if width % 4 == 0 {
        let _ = write!(out, "#x{:0w$x}", value, w = (width / 4) as usize);
    } else {
        let _ = write!(out, "#b{:0w$b}", value, w = width as usize);
    }
}

fn binop_name(op: BinOp) -> &'static str {
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

fn bool_binop_name(op: BinOp) -> Option<&'static str> {
    match op {
        BinOp::And => Some("and"),
        BinOp::Or => Some("or"),
        BinOp::Xor => Some("xor"),
        _ => None,
    }
}

fn cmp_name(op: CmpOp) -> &'static str {
    match op {
        CmpOp::Eq => "=",
        CmpOp::Ult => "bvult",
        CmpOp::Ule => "bvule",
        CmpOp::Slt => "bvslt",
        CmpOp::Sle => "bvsle",
    }
}

fn write_array(updates: &UpdateList, out: &mut String) {
    let writes: Vec<_> = updates.iter().collect();
    for _ in &writes {
        out.push_str("(store ");
    }
    out.push_str(updates.root().name());
    for w in writes.iter().rev() {
        out.push(' ');
        write_term(w.index(), out);
        out.push(' ');
        write_term(w.value(), out);
        out.push(')');
    }
}

fn write_term(expr: &Expr, out: &mut String) {
    if out.len() > DEBUG_LIMIT {
        out.push('…');
        return;
    }
    let w = expr.width();
    match expr.kind() {
        ExprKind::Constant(v) => write_const(out, *v, w),
        ExprKind::Read { updates, index } => {
            out.push_str("(select ");
            write_array(updates, out);
            out.push(' ');
            write_term(index, out);
            out.push(')');
        }
        ExprKind::Select { cond, then_expr, else_expr } => {
            out.push_str("(ite ");
            write_term(cond, out);
            out.push(' ');
            write_term(then_expr, out);
            out.push(' ');
            write_term(else_expr, out);
            out.push(')');
        }
        ExprKind::Concat { hi, lo } => {
            out.push_str("(concat ");
            write_term(hi, out);
            out.push(' ');
            write_term(lo, out);
            out.push(')');
        }
        ExprKind::Extract { expr: e, offset } => {
            let _ = write!(out, "((_ extract {} {}) ", offset + w - 1, offset);
            write_term(e, out);
            out.push(')');
        }
        ExprKind::ZExt(e) => {
            let _ = write!(out, "((_ zero_extend {}) ", w - e.width());
            write_term(e, out);
            out.push(')');
        }
        ExprKind::SExt(e) => {
            let _ = write!(out, "((_ sign_extend {}) ", w - e.width());
            write_term(e, out);
            out.push(')');
        }
        ExprKind::Not(e) => {
            out.push_str(if w == 1 { "(not " } else { "(bvnot " });
            write_term(e, out);
            out.push(')');
        }
        ExprKind::Binary { op, lhs, rhs } => {
            let name = if w == 1 {
                bool_binop_name(*op).unwrap_or(binop_name(*op))
            } else {
                binop_name(*op)
            };
            let _ = write!(out, "({name} ");
            write_term(lhs, out);
            out.push(' ');
            write_term(rhs, out);
            out.push(')');
        }
        ExprKind::Cmp { op, lhs, rhs } => {
            let _ = write!(out, "({} ", cmp_name(*op));
            write_term(lhs, out);
            out.push(' ');
            write_term(rhs, out);
            out.push(')');
        }
    }
}
