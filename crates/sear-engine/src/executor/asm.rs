//! Inline assembly: the one-instruction x86 templates programs use on a single register
//! operand (`neg %0`, `add $5, %0`, `bswap %0`, `xor %1, %0`, ...), computed on the operand's
//! value, symbolic or not, as the instruction would. Anything else is refused with an `exec`
//! error naming the template (KLEE refuses inline assembly it cannot raise to LLVM too).
//!
//! The form handled: exactly one output, a register (`=r`, or `+r` which LLVM writes as an
//! output `=r` tied to input `0`), inputs that are registers or immediates, and clobbers
//! (`~{...}`) ignored. The template's `$0`/`${0:k}` (LLVM's spelling of `%0`) name operands by
//! number; AT&T order: source first, destination last.

use sear_expr::{BinOp, Expr};
use sear_ir::{InlineAsm, Inst, Module};

use super::layout::scalar_width;
use super::step::exec;
use super::{Exec, Executor};
use crate::state::State;
use crate::value::Value;

/// An operand of the instruction: an immediate or the value of operand `n`.
enum Src {
    Imm(i64),
    Operand(usize),
}

/// The operand number of `$N` or `${N:mod}`.
fn operand_number(text: &str) -> Option<usize> {
    let t = text.trim();
    let t = t.strip_prefix('$')?;
    let t = t
        .strip_prefix('{')
        .map_or(t, |r| r.split(':').next().unwrap_or(""));
    t.trim_end_matches('}').parse().ok()
}

fn parse_src(text: &str) -> Option<Src> {
    let t = text.trim();
    if let Some(imm) = t.strip_prefix("$$") {
        // LLVM escapes the immediate's `$` as `$$`
        let imm = imm.trim();
        return if let Some(h) = imm.strip_prefix("0x") {
            i64::from_str_radix(h, 16).ok().map(Src::Imm)
        } else {
            imm.parse().ok().map(Src::Imm)
        };
    }
    operand_number(t).map(Src::Operand)
}

/// The mnemonic without its AT&T size suffix (`addl` → `add`), when the stem is known.
fn mnemonic(op: &str) -> Option<&'static str> {
    const OPS: [&str; 14] = [
        "neg", "not", "inc", "dec", "bswap", "add", "sub", "and", "or", "xor", "shl", "shr", "sar",
        "imul",
    ];
    let op = op.trim();
    OPS.iter().copied().find(|m| {
        op == *m
            || (op.len() == m.len() + 1
                && op.starts_with(m)
                && matches!(op.as_bytes()[m.len()], b'b' | b'w' | b'l' | b'q'))
    })
}

impl Executor<'_> {
    /// Executes an inline-assembly call.
    pub(crate) fn inline_asm(
        &mut self,
        module: &Module,
        state: &mut State,
        inst: &Inst,
        asm: &InlineAsm,
        args: &[Value],
    ) -> Exec<()> {
        let refuse = || {
            exec(format!(
                "inline assembly '{}' is not supported",
                asm.template
            ))
        };
        let width = scalar_width(module, inst.ty).ok_or_else(refuse)?;
        let constraints: Vec<&str> = asm
            .constraints
            .split(',')
            .filter(|c| !c.starts_with('~'))
            .collect();
        // operand 0: the output; operands 1..: the inputs, in argument order
        if constraints.first() != Some(&"=r") || constraints.len() != args.len() + 1 {
            return Err(refuse());
        }
        let operand = |n: usize| -> Option<Expr> {
            if n == 0 {
                // the output's value before the instruction: its tied input
                let tied = constraints.iter().skip(1).position(|c| *c == "0")?;
                return Some(args[tied].to_expr());
            }
            args.get(n - 1).map(Value::to_expr)
        };
        let template = asm.template.trim();
        let (op, rest) = template
            .split_once(char::is_whitespace)
            .unwrap_or((template, ""));
        let op = mnemonic(op).ok_or_else(refuse)?;
        let parts: Vec<&str> = rest
            .split(',')
            .map(str::trim)
            .filter(|p| !p.is_empty())
            .collect();
        let dest = parts
            .last()
            .and_then(|d| operand_number(d))
            .ok_or_else(refuse)?;
        if dest != 0 {
            return Err(refuse());
        }
        let x = operand(0).ok_or_else(refuse)?;
        if x.width() != width {
            return Err(refuse());
        }
        let result = match (op, parts.len()) {
            ("neg", 1) => Expr::binary(BinOp::Sub, Expr::constant(0, width), x),
            ("not", 1) => Expr::binary(BinOp::Xor, Expr::constant(u128::MAX, width), x),
            ("inc", 1) => Expr::binary(BinOp::Add, x, Expr::constant(1, width)),
            ("dec", 1) => Expr::binary(BinOp::Sub, x, Expr::constant(1, width)),
            ("bswap", 1) if width % 8 == 0 => {
                let bytes: Vec<Expr> = (0..width / 8)
                    .map(|i| Expr::extract(x.clone(), 8 * i, 8))
                    .collect();
                Expr::concat_all(&bytes)
            }
            (_, 2) => {
                let src = match parse_src(parts[0]).ok_or_else(refuse)? {
                    Src::Imm(v) => Expr::constant(v as u128, width),
                    Src::Operand(n) => operand(n).ok_or_else(refuse)?,
                };
                if src.width() != width {
                    return Err(refuse());
                }
                let bin = match op {
                    "add" => BinOp::Add,
                    "sub" => BinOp::Sub,
                    "and" => BinOp::And,
                    "or" => BinOp::Or,
                    "xor" => BinOp::Xor,
                    "shl" => BinOp::Shl,
                    "shr" => BinOp::LShr,
                    "sar" => BinOp::AShr,
                    "imul" => BinOp::Mul,
                    _ => return Err(refuse()),
                };
                // x86 masks shift counts to the operand's width (5 or 6 bits)
                let src = if matches!(bin, BinOp::Shl | BinOp::LShr | BinOp::AShr) {
                    let mask = if width == 64 { 63 } else { 31 };
                    Expr::binary(BinOp::And, src, Expr::constant(mask, width))
                } else {
                    src
                };
                Expr::binary(bin, x, src)
            }
            _ => return Err(refuse()),
        };
        if let Some(dest) = inst.dest {
            state.frame_mut().locals[dest.0 as usize] = Value::from_expr(result);
        }
        Ok(())
    }
}
