//! A textual form of lowered IR, for tests and bug reports.
//!
//! The syntax resembles LLVM's: slots print as `%N` (slot numbers, not LLVM names),
//! blocks as `bbN` with their LLVM name in a comment, and `getelementptr` as
//! `gep base + offset + index*scale ...`. Source locations follow `;`.

use crate::ir::*;
use std::fmt::Write;

/// Prints every global and function of a module.
pub fn print_module(m: &Module) -> String {
    let mut out = format!("; module {}\n", m.name);
    for g in &m.globals {
        print_global(m, g, &mut out);
    }
    for (name, &c) in sorted(&m.aliases) {
        let _ = writeln!(out, "@{name} = alias {}", print_constant(m, c));
    }
    for index in 0..m.functions.len() {
        out.push('\n');
        out.push_str(&print_function(m, FuncId(index as u32)));
    }
    out
}

fn sorted<V>(map: &rustc_hash::FxHashMap<String, V>) -> Vec<(&String, &V)> {
    let mut entries: Vec<_> = map.iter().collect();
    entries.sort_by(|a, b| a.0.cmp(b.0));
    entries
}

fn print_global(m: &Module, g: &Global, out: &mut String) {
    let kind = if g.is_constant { "constant" } else { "global" };
    let size = match g.size {
        Some(s) => s.to_string(),
        None => "unknown".to_string(),
    };
    let init = match g.init {
        Some(c) => format!(" = {}", print_constant(m, c)),
        None => String::from(" (external)"),
    };
    let _ = write!(
        out,
        "@{} : {kind} {}{init} ; size {size}, align {}",
        g.name,
        type_name(m, g.ty),
        g.align
    );
    if let Some(loc) = &g.loc {
        let _ = write!(out, ", {}", loc_text(m, loc));
    }
    out.push('\n');
}

/// Prints one function: its signature, then each block with its phis, instructions and
/// terminator.
pub fn print_function(m: &Module, id: FuncId) -> String {
    let f = m.function(id);
    let mut out = String::new();
    let params: Vec<String> = f
        .params
        .iter()
        .enumerate()
        .map(|(i, &t)| format!("{} %{i}", type_name(m, t)))
        .collect();
    let mut params = params.join(", ");
    if f.is_vararg {
        params.push_str(if f.params.is_empty() { "..." } else { ", ..." });
    }
    let keyword = if f.is_declaration {
        "declare"
    } else {
        "define"
    };
    let _ = write!(
        out,
        "{keyword} {} @{}({params})",
        type_name(m, f.ret),
        f.name
    );
    if f.is_declaration {
        out.push('\n');
        return out;
    }
    let _ = write!(out, " {{ ; slots {}", f.num_slots);
    if let Some(loc) = &f.loc {
        let _ = write!(out, ", {}", loc_text(m, loc));
    }
    out.push('\n');
    for (index, block) in f.blocks.iter().enumerate() {
        let _ = writeln!(out, "bb{index}: ; {}", block.name);
        for phi in &block.phis {
            let incoming: Vec<String> = phi
                .incoming
                .iter()
                .map(|(b, v)| format!("[ {}, bb{} ]", operand(m, v), b.0))
                .collect();
            let _ = writeln!(
                out,
                "  %{} = phi {} {}",
                phi.dest.0,
                type_name(m, phi.ty),
                incoming.join(", ")
            );
        }
        for inst in &block.insts {
            out.push_str("  ");
            if let Some(d) = inst.dest {
                let _ = write!(out, "%{} = ", d.0);
            }
            out.push_str(&inst_text(m, inst));
            with_loc(m, &inst.loc, &mut out);
        }
        out.push_str("  ");
        out.push_str(&terminator_text(m, &block.term));
        with_loc(m, &block.term_loc, &mut out);
    }
    out.push_str("}\n");
    out
}

fn with_loc(m: &Module, loc: &Option<Loc>, out: &mut String) {
    if let Some(loc) = loc {
        let _ = write!(out, " ; {}", loc_text(m, loc));
    }
    out.push('\n');
}

fn loc_text(m: &Module, loc: &Loc) -> String {
    format!("{}:{}:{}", m.file_name(loc.file), loc.line, loc.col)
}

/// The name of a type in LLVM syntax (`i32`, `ptr`, `[4 x i8]`, `{ i32, double }`, ...).
pub fn type_name(m: &Module, t: TypeId) -> String {
    match &m.ty(t).kind {
        TypeKind::Void => "void".into(),
        TypeKind::Int(w) => format!("i{w}"),
        TypeKind::Float(k) => float_name(*k).into(),
        TypeKind::Ptr => "ptr".into(),
        TypeKind::Array { elem, len } => format!("[{len} x {}]", type_name(m, *elem)),
        TypeKind::Vector { elem, len } => format!("<{len} x {}>", type_name(m, *elem)),
        TypeKind::Struct { fields, packed } => {
            let fields: Vec<String> = fields.iter().map(|&f| type_name(m, f)).collect();
            let body = format!("{{ {} }}", fields.join(", "));
            if *packed {
                format!("<{body}>")
            } else {
                body
            }
        }
        TypeKind::Function => "fn".into(),
        TypeKind::Other(name) => name.clone(),
    }
}

fn float_name(k: FloatKind) -> &'static str {
    match k {
        FloatKind::Half => "half",
        FloatKind::Single => "float",
        FloatKind::Double => "double",
        FloatKind::X86Fp80 => "x86_fp80",
        FloatKind::Fp128 => "fp128",
    }
}

/// Prints a constant (aggregates of more than 16 elements are abbreviated).
pub fn print_constant(m: &Module, c: ConstId) -> String {
    match m.constant(c) {
        Constant::Int { width, value } => format!("i{width} {}", signed_text(*width, *value)),
        Constant::Float { kind, bits } => match kind {
            FloatKind::Single => format!("float {:?}", f32::from_bits(*bits as u32)),
            FloatKind::Double => format!("double {:?}", f64::from_bits(*bits as u64)),
            _ => format!("{} 0x{bits:X}", float_name(*kind)),
        },
        Constant::Null => "null".into(),
        Constant::Undef(t) => format!("{} undef", type_name(m, *t)),
        Constant::Zero(t) => format!("{} zeroinitializer", type_name(m, *t)),
        Constant::GlobalAddr(g) => format!("@{}", m.global(*g).name),
        Constant::FuncAddr(f) => format!("@{}", m.function(*f).name),
        Constant::BlockAddr(f, b) => format!("blockaddress(@{}, bb{})", m.function(*f).name, b.0),
        Constant::Aggregate { ty, elems } => aggregate_text(m, *ty, elems),
        Constant::PtrOffset { base, offset } => {
            format!("({} + {offset})", print_constant(m, *base))
        }
        Constant::Cast { op, value, to } => format!(
            "{} ({} to {})",
            cast_name(*op),
            print_constant(m, *value),
            type_name(m, *to)
        ),
        Constant::Binary { op, lhs, rhs } => format!(
            "{} ({}, {})",
            binary_name(*op),
            print_constant(m, *lhs),
            print_constant(m, *rhs)
        ),
        Constant::ICmp { pred, lhs, rhs } => format!(
            "icmp {} ({}, {})",
            int_pred_name(*pred),
            print_constant(m, *lhs),
            print_constant(m, *rhs)
        ),
        Constant::Select {
            cond,
            then_value,
            else_value,
        } => format!(
            "select ({}, {}, {})",
            print_constant(m, *cond),
            print_constant(m, *then_value),
            print_constant(m, *else_value)
        ),
        Constant::Metadata(text) => format!("metadata !{text:?}"),
        Constant::Unsupported(what) => format!("unsupported({what:?})"),
    }
}

/// An integer in signed decimal, as LLVM prints it.
fn signed_text(width: u32, value: u128) -> String {
    if width == 0 || width > 128 {
        return value.to_string();
    }
    let shift = 128 - width;
    (((value << shift) as i128) >> shift).to_string()
}

fn aggregate_text(m: &Module, ty: TypeId, elems: &[ConstId]) -> String {
    let info = m.ty(ty);
    if let TypeKind::Array { elem, .. } = info.kind {
        if m.ty(elem).kind == TypeKind::Int(8) {
            let bytes: Option<Vec<u8>> = elems
                .iter()
                .map(|&e| match m.constant(e) {
                    Constant::Int { value, .. } => Some(*value as u8),
                    _ => None,
                })
                .collect();
            if let Some(bytes) = bytes {
                return format!("c\"{}\"", escape(&bytes));
            }
        }
    }
    let (open, close) = match info.kind {
        TypeKind::Array { .. } => ("[", "]"),
        TypeKind::Vector { .. } => ("<", ">"),
        _ => ("{", "}"),
    };
    let mut parts: Vec<String> = elems
        .iter()
        .take(16)
        .map(|&e| print_constant(m, e))
        .collect();
    if elems.len() > 16 {
        parts.push(format!("... ({} elements)", elems.len()));
    }
    format!("{open} {} {close}", parts.join(", "))
}

fn escape(bytes: &[u8]) -> String {
    let mut s = String::new();
    for &b in bytes.iter().take(256) {
        if b.is_ascii_graphic() && b != b'"' && b != b'\\' || b == b' ' {
            s.push(b as char);
        } else {
            let _ = write!(s, "\\{b:02X}");
        }
    }
    if bytes.len() > 256 {
        s.push_str("...");
    }
    s
}

fn operand(m: &Module, op: &Operand) -> String {
    match op {
        Operand::Slot(s) => format!("%{}", s.0),
        Operand::Const(c) => print_constant(m, *c),
    }
}

fn ops(m: &Module, list: &[&Operand]) -> String {
    list.iter()
        .map(|o| operand(m, o))
        .collect::<Vec<_>>()
        .join(", ")
}

fn inst_text(m: &Module, inst: &Inst) -> String {
    let ty = type_name(m, inst.ty);
    match &inst.kind {
        InstKind::Binary { op, lhs, rhs } => {
            format!("{} {ty} {}", binary_name(*op), ops(m, &[lhs, rhs]))
        }
        InstKind::FNeg(x) => format!("fneg {ty} {}", operand(m, x)),
        InstKind::ICmp { pred, lhs, rhs } => {
            format!("icmp {} {}", int_pred_name(*pred), ops(m, &[lhs, rhs]))
        }
        InstKind::FCmp { pred, lhs, rhs } => {
            format!("fcmp {pred:?} {}", ops(m, &[lhs, rhs])).to_lowercase()
        }
        InstKind::Cast { op, value, from } => format!(
            "{} {} {} to {ty}",
            cast_name(*op),
            type_name(m, *from),
            operand(m, value)
        ),
        InstKind::Select {
            cond,
            then_value,
            else_value,
        } => format!("select {}", ops(m, &[cond, then_value, else_value])),
        InstKind::Alloca { elem, count, align } => format!(
            "alloca {}, {}, align {align}",
            type_name(m, *elem),
            operand(m, count)
        ),
        InstKind::Load {
            ptr,
            align,
            volatile,
        } => {
            let v = if *volatile { "volatile " } else { "" };
            format!("load {v}{ty}, {}, align {align}", operand(m, ptr))
        }
        InstKind::Store {
            ptr,
            value,
            value_ty,
            align,
        } => {
            // Constants print with their type already.
            let value = match value {
                Operand::Slot(s) => format!("{} %{}", type_name(m, *value_ty), s.0),
                Operand::Const(c) => print_constant(m, *c),
            };
            format!("store {value}, {}, align {align}", operand(m, ptr))
        }
        InstKind::Gep {
            base,
            offset,
            indices,
        } => {
            let mut s = format!("gep {} + {offset}", operand(m, base));
            for (index, scale) in indices {
                let _ = write!(s, " + {}*{scale}", operand(m, index));
            }
            s
        }
        InstKind::ExtractValue { agg, indices } => {
            format!("extractvalue {ty} {}, {indices:?}", operand(m, agg))
        }
        InstKind::InsertValue {
            agg,
            value,
            indices,
        } => format!("insertvalue {}, {indices:?}", ops(m, &[agg, value])),
        InstKind::ExtractElement { vector, index } => {
            format!("extractelement {}", ops(m, &[vector, index]))
        }
        InstKind::InsertElement {
            vector,
            element,
            index,
        } => format!("insertelement {}", ops(m, &[vector, element, index])),
        InstKind::ShuffleVector { a, b, mask } => {
            format!("shufflevector {}, {mask:?}", ops(m, &[a, b]))
        }
        InstKind::Call { callee, args, .. } => {
            let target = match callee {
                Callee::Direct(f) => format!("@{}", m.function(*f).name),
                Callee::Indirect(op) => operand(m, op),
                Callee::InlineAsm(a) => format!("asm {:?}", m.inline_asm[a.0 as usize].template),
            };
            let args: Vec<&Operand> = args.iter().collect();
            format!("call {ty} {target}({})", ops(m, &args))
        }
        InstKind::VaArg { list } => format!("va_arg {ty} {}", operand(m, list)),
        InstKind::AtomicRmw { op, ptr, value } => {
            format!("atomicrmw {op:?} {}", ops(m, &[ptr, value])).to_lowercase()
        }
        InstKind::CmpXchg {
            ptr,
            expected,
            replacement,
        } => format!("cmpxchg {}", ops(m, &[ptr, expected, replacement])),
        InstKind::Freeze(x) => format!("freeze {}", operand(m, x)),
        InstKind::Nop => "nop".into(),
        InstKind::LandingPad { cleanup, clauses } => {
            let mut text = "landingpad".to_string();
            if *cleanup {
                text.push_str(" cleanup");
            }
            for clause in clauses {
                match clause {
                    Clause::Catch(op) => text.push_str(&format!(" catch {}", operand(m, op))),
                    Clause::Filter(list) => {
                        let list: Vec<&Operand> = list.iter().collect();
                        text.push_str(&format!(" filter [{}]", ops(m, &list)));
                    }
                }
            }
            text
        }
        InstKind::Unsupported(what) => format!("unsupported {what:?}"),
    }
}

fn terminator_text(m: &Module, term: &Terminator) -> String {
    match term {
        Terminator::Ret(None) => "ret void".into(),
        Terminator::Ret(Some(v)) => format!("ret {}", operand(m, v)),
        Terminator::Br(b) => format!("br bb{}", b.0),
        Terminator::CondBr {
            cond,
            then_block,
            else_block,
        } => format!(
            "br {}, bb{}, bb{}",
            operand(m, cond),
            then_block.0,
            else_block.0
        ),
        Terminator::Switch {
            value,
            default,
            cases,
        } => {
            let cases: Vec<String> = cases
                .iter()
                .map(|(v, b)| format!("{v}: bb{}", b.0))
                .collect();
            format!(
                "switch {}, default bb{} [{}]",
                operand(m, value),
                default.0,
                cases.join(", ")
            )
        }
        Terminator::IndirectBr { address, targets } => {
            let targets: Vec<String> = targets.iter().map(|b| format!("bb{}", b.0)).collect();
            format!(
                "indirectbr {}, [{}]",
                operand(m, address),
                targets.join(", ")
            )
        }
        Terminator::Unreachable => "unreachable".into(),
        Terminator::Invoke { normal, unwind } => {
            format!("to bb{} unwind bb{}", normal.0, unwind.0)
        }
        Terminator::Resume(v) => format!("resume {}", operand(m, v)),
        Terminator::Unsupported(what) => format!("unsupported {what:?}"),
    }
}

fn binary_name(op: BinaryOp) -> String {
    format!("{op:?}").to_lowercase()
}

fn cast_name(op: CastOp) -> &'static str {
    match op {
        CastOp::Trunc => "trunc",
        CastOp::ZExt => "zext",
        CastOp::SExt => "sext",
        CastOp::FpTrunc => "fptrunc",
        CastOp::FpExt => "fpext",
        CastOp::FpToUi => "fptoui",
        CastOp::FpToSi => "fptosi",
        CastOp::UiToFp => "uitofp",
        CastOp::SiToFp => "sitofp",
        CastOp::PtrToInt => "ptrtoint",
        CastOp::IntToPtr => "inttoptr",
        CastOp::BitCast => "bitcast",
        CastOp::AddrSpaceCast => "addrspacecast",
    }
}

fn int_pred_name(p: IntPredicate) -> String {
    format!("{p:?}").to_lowercase()
}
