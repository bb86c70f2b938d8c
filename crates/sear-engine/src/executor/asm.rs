//! Inline assembly: short x86 templates on a single register operand (`neg %0`,
//! `add $5, %0`, `bswap %0`, `xor %1, %0`, `rorw $8, %w0; rorl $16, %0`, ...), computed on
//! the operand's value, symbolic or not, as the instructions would (sub-registers `%b0`,
//! `%w0` work on the low bits and keep the rest; `%k0` of a 64-bit register clears the
//! upper half, as on x86-64). Anything else is refused with an `exec`
//! error naming the template (KLEE refuses inline assembly it cannot raise to LLVM too).
//!
//! `bsf`/`bsr` (bit scans, as in GMP's and coreutils' longlong.h) give the index of the
//! lowest/highest set bit of their source, at the source's width.
//!
//! The form handled: exactly one output, a register (`=r`, which starts undefined — 0 —, or
//! `+r` which LLVM writes as an output `=r` tied to input `0`), inputs that are registers or
//! immediates (`rm` is a register in LLVM's IR: the value itself), and clobbers (`~{...}`)
//! ignored. The template's `$0`/`${0:k}` (LLVM's spelling of `%0`) name operands by
//! number; AT&T order: source first, destination last.
//!
//! `cpuid` (with the `%rbx` saves of cpuid.h) is answered for a processor without cpuid
//! leaves or features: every output is 0.

use sear_expr::{BinOp, Expr};
use sear_ir::{InlineAsm, Inst, Module};

use super::intrinsics::{unary_bits, Intrinsic};
use super::layout::{scalar_width, zero_value};
use super::step::exec;
use super::Exec;
use crate::state::State;
use crate::value::Value;

/// An operand of the instruction: an immediate or the value of operand `n`.
enum Src {
    Imm(i64),
    Operand(usize),
}

/// The operand number of `$N` or `${N:mod}`, and the width the modifier selects (`b` 8,
/// `w` 16, `k` 32, `q` 64 bits; none: the operand's own).
fn operand_ref(text: &str) -> Option<(usize, Option<u32>)> {
    let t = text.trim().strip_prefix('$')?;
    let (num, modifier) = match t.strip_prefix('{') {
        Some(inner) => {
            let inner = inner.strip_suffix('}')?;
            match inner.split_once(':') {
                Some((n, m)) => (n, Some(m)),
                None => (inner, None),
            }
        }
        None => (t, None),
    };
    let width = match modifier {
        None => None,
        Some("b") => Some(8),
        Some("w") => Some(16),
        Some("k") => Some(32),
        Some("q") => Some(64),
        Some(_) => return None,
    };
    Some((num.parse().ok()?, width))
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
    operand_ref(t).map(|(n, _)| Src::Operand(n))
}

/// The mnemonic without its AT&T size suffix (`addl` → `add`), when the stem is known.
fn mnemonic(op: &str) -> Option<&'static str> {
    const OPS: [&str; 18] = [
        "neg", "not", "inc", "dec", "bswap", "add", "sub", "and", "or", "xor", "shl", "shr", "sar",
        "imul", "rol", "ror", "bsf", "bsr",
    ];
    let op = op.trim();
    OPS.iter().copied().find(|m| {
        op == *m
            || (op.len() == m.len() + 1
                && op.starts_with(m)
                && matches!(op.as_bytes()[m.len()], b'b' | b'w' | b'l' | b'q'))
    })
}

/// One instruction on `x` (already cut to the width the instruction works on).
fn apply(
    op: &str,
    parts: &[&str],
    x: Expr,
    operand: &dyn Fn(usize) -> Option<Expr>,
) -> Option<Expr> {
    let width = x.width();
    Some(match (op, parts.len()) {
        ("neg", 1) => Expr::binary(BinOp::Sub, Expr::constant(0, width), x),
        ("not", 1) => Expr::binary(BinOp::Xor, Expr::constant(u128::MAX, width), x),
        ("inc", 1) => Expr::binary(BinOp::Add, x, Expr::constant(1, width)),
        ("dec", 1) => Expr::binary(BinOp::Sub, x, Expr::constant(1, width)),
        ("bswap", 1) if width.is_multiple_of(8) => {
            let bytes: Vec<Expr> = (0..width / 8)
                .map(|i| Expr::extract(x.clone(), 8 * i, 8))
                .collect();
            Expr::concat_all(&bytes)
        }
        ("rol" | "ror", 2) => {
            // rotations by an immediate: the count is masked like a shift's, then taken
            // modulo the width
            let Src::Imm(n) = parse_src(parts[0])? else {
                return None;
            };
            let mask = if width == 64 { 63 } else { 31 };
            let n = ((n as u64 & mask) % width as u64) as u32;
            let left = if op == "rol" { n } else { (width - n) % width };
            if left == 0 {
                x
            } else {
                Expr::concat(
                    Expr::extract(x.clone(), 0, width - left),
                    Expr::extract(x, width - left, left),
                )
            }
        }
        ("bsf" | "bsr", 2) => {
            // The index of the lowest (highest) set bit of the source; a zero source leaves
            // the destination as it was.
            let Src::Operand(n) = parse_src(parts[0])? else {
                return None;
            };
            // The scan works at the source's width; the index fits any destination.
            let src = operand(n)?;
            let sw = src.width();
            let (intrinsic, forward) = if op == "bsf" {
                (Intrinsic::Cttz, true)
            } else {
                (Intrinsic::Ctlz, false)
            };
            let count = unary_bits(intrinsic, &Value::from_expr(src.clone())).to_expr();
            let index = if forward {
                count
            } else {
                Expr::binary(BinOp::Sub, Expr::constant(u128::from(sw - 1), sw), count)
            };
            let index = Expr::zext_or_trunc(index, width);
            Expr::select(Expr::eq(src, Expr::constant(0, sw)), x, index)
        }
        (_, 2) => {
            let src = match parse_src(parts[0])? {
                Src::Imm(v) => Expr::constant(v as u128, width),
                Src::Operand(n) => Expr::zext_or_trunc(operand(n)?, width),
            };
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
                _ => return None,
            };
            // x86 masks shift counts to 5 bits (6 for 64-bit operands)
            let src = if matches!(bin, BinOp::Shl | BinOp::LShr | BinOp::AShr) {
                let mask = if width == 64 { 63 } else { 31 };
                Expr::binary(BinOp::And, src, Expr::constant(mask, width))
            } else {
                src
            };
            Expr::binary(bin, x, src)
        }
        _ => return None,
    })
}

/// True for a `cpuid` template, alone or with the moves and exchanges that save `%rbx`
/// around it (clang's and GCC's cpuid.h).
fn is_cpuid(template: &str) -> bool {
    let mut instructions = template
        .split([';', '\n'])
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(|l| l.split_whitespace().next().unwrap_or(""));
    let mut saw_cpuid = false;
    let only_cpuid = instructions.all(|op| {
        saw_cpuid |= op == "cpuid";
        matches!(
            op,
            "cpuid" | "xchg" | "xchgq" | "xchgl" | "mov" | "movq" | "movl"
        )
    });
    only_cpuid && saw_cpuid
}

/// Executes an inline-assembly call.
pub(crate) fn inline_asm(
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
    if is_cpuid(&asm.template) {
        // The modelled processor reports no cpuid leaves (eax = 0 for leaf 0) and no
        // features: programs probing for extensions (cksum's pclmul) take their
        // generic code, deterministically.
        if let Some(dest) = inst.dest {
            state.frame_mut().locals[dest.0 as usize] = zero_value(module, inst.ty);
        }
        return Ok(());
    }
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
    // An output without a tied input ("=r") starts undefined: 0 here.
    let tied = constraints.iter().skip(1).any(|c| *c == "0");
    let x = if tied {
        operand(0).ok_or_else(refuse)?
    } else {
        Expr::constant(0, width)
    };
    if x.width() != width {
        return Err(refuse());
    }
    // instructions separated by ';' or new lines, each on operand 0
    let mut cur = x;
    for line in asm.template.split([';', '\n']) {
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        let (op, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let op = mnemonic(op).ok_or_else(refuse)?;
        let parts: Vec<&str> = rest
            .split(',')
            .map(str::trim)
            .filter(|p| !p.is_empty())
            .collect();
        let (dest, sub) = parts
            .last()
            .and_then(|d| operand_ref(d))
            .ok_or_else(refuse)?;
        // A wider register than the output (`${0:q}` of an `int`): the program sees
        // the low bits.
        let sub = sub.unwrap_or(width).min(width);
        if dest != 0 {
            return Err(refuse());
        }
        let low = if sub < width {
            Expr::extract(cur.clone(), 0, sub)
        } else {
            cur.clone()
        };
        let r = apply(op, &parts, low, &operand).ok_or_else(refuse)?;
        cur = if sub == width {
            r
        } else if sub == 32 {
            Expr::zext(r, width) // a 32-bit result clears the register's upper half
        } else {
            Expr::concat(Expr::extract(cur, sub, width - sub), r)
        };
    }
    let result = cur;
    if let Some(dest) = inst.dest {
        state.frame_mut().locals[dest.0 as usize] = Value::from_expr(result);
    }
    Ok(())
}
