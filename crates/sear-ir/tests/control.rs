//! Lowering of control flow and calls: switches, phis, GEPs, source lines, indirect calls,
//! variadic declarations and vector code.

mod common;

use common::{compile, direct_callee, func, insts};
use sear_ir::*;

#[test]
fn switch_cases_and_default() {
    let c = compile(
        "int classify(int x) {\n\
           switch (x) {\n\
           case 1: return 10;\n\
           case 5: return 50;\n\
           case -3: return 7;\n\
           default: return 0;\n\
           }\n\
         }\n",
        0,
    );
    let m = &c.module;
    let f = func(m, "classify");
    let (value, default, cases) = f
        .blocks
        .iter()
        .find_map(|b| match &b.term {
            Terminator::Switch {
                value,
                default,
                cases,
            } => Some((value, *default, cases.clone())),
            _ => None,
        })
        .expect("a switch");
    assert!(matches!(value, Operand::Slot(_)));
    let mut values: Vec<u128> = cases.iter().map(|&(v, _)| v).collect();
    values.sort();
    // -3 is masked to 32 bits.
    assert_eq!(values, vec![1, 5, 0xFFFF_FFFD]);
    assert_eq!(f.blocks[default.0 as usize].name, "sw.default");
    for (v, target) in cases {
        let expected = match v {
            1 => "sw.bb",
            5 => "sw.bb1",
            _ => "sw.bb2",
        };
        assert_eq!(f.blocks[target.0 as usize].name, expected);
    }
}

#[test]
fn phis_at_o2_name_predecessors() {
    let c = compile(
        "int sum(const int *a, int n) {\n\
           int s = 0;\n\
           for (int i = 0; i < n; i++) s += a[i] * 3;\n\
           return s;\n\
         }\n",
        2,
    );
    let m = &c.module;
    let f = func(m, "sum");
    let phis: Vec<&Phi> = f.blocks.iter().flat_map(|b| b.phis.iter()).collect();
    assert!(
        phis.len() >= 2,
        "expected loop phis:\n{}",
        print_function(m, m.function_by_name("sum").unwrap())
    );
    for (index, block) in f.blocks.iter().enumerate() {
        for phi in &block.phis {
            assert!(phi.dest.0 < f.num_slots);
            for (pred, _) in &phi.incoming {
                let pred_block = &f.blocks[pred.0 as usize];
                let succs: Vec<u32> = match &pred_block.term {
                    Terminator::Br(b) => vec![b.0],
                    Terminator::CondBr {
                        then_block,
                        else_block,
                        ..
                    } => vec![then_block.0, else_block.0],
                    other => panic!("unexpected terminator {other:?}"),
                };
                assert!(succs.contains(&(index as u32)));
            }
        }
        // Phis are kept apart from the body.
        assert!(block
            .insts
            .iter()
            .all(|i| !matches!(i.kind, InstKind::Unsupported(_))));
    }
}

/// The `Gep` instructions of a function, as `(offset, [scale])`.
fn geps(f: &Function) -> Vec<(i64, Vec<i64>)> {
    insts(f)
        .filter_map(|i| match &i.kind {
            InstKind::Gep {
                offset, indices, ..
            } => Some((*offset, indices.iter().map(|&(_, s)| s).collect())),
            _ => None,
        })
        .collect()
}

#[test]
fn gep_offsets_and_scales() {
    let c = compile(
        "struct P { int x; int y; double z; };\n\
         int grid[10][20];\n\
         int two_d(int i, int j) { return grid[i][j]; }\n\
         double field(struct P *p, long i) { return p[i].z; }\n\
         int fixed(struct P *p) { return p[3].y; }\n\
         int row(int i) { return grid[i][7]; }\n",
        0,
    );
    let m = &c.module;
    // grid[i][j]: clang emits one GEP per subscript.
    assert_eq!(geps(func(m, "two_d")), vec![(0, vec![80]), (0, vec![4])]);
    // p[i].z: a pointer step of 16 bytes, then a field at offset 8.
    assert_eq!(geps(func(m, "field")), vec![(0, vec![16]), (8, vec![])]);
    // p[3].y: fully constant.
    assert_eq!(geps(func(m, "fixed")), vec![(48, vec![]), (4, vec![])]);
    // grid[i][7]: the constant index is folded, the variable one scaled.
    assert_eq!(geps(func(m, "row")), vec![(0, vec![80]), (28, vec![])]);
}

#[test]
fn instructions_carry_source_lines() {
    let c = compile(
        "int g;\nint f(int a, int b) {\n  int q = a / b;\n  g = q;\n  return q * 2;\n}\n",
        0,
    );
    let m = &c.module;
    let f = func(m, "f");
    let loc = f.loc.expect("function location");
    assert_eq!(loc.line, 2);
    assert!(m.file_name(loc.file).ends_with("/prog.c"));
    assert!(std::path::Path::new(m.file_name(loc.file)).is_absolute());
    let line_of = |pred: &dyn Fn(&InstKind) -> bool| {
        insts(f)
            .find(|i| pred(&i.kind))
            .and_then(|i| i.loc)
            .map(|l| (l.line, l.col))
    };
    assert_eq!(
        line_of(&|k| matches!(
            k,
            InstKind::Binary {
                op: BinaryOp::SDiv,
                ..
            }
        )),
        Some((3, 13))
    );
    assert_eq!(
        line_of(&|k| matches!(
            k,
            InstKind::Store {
                ptr: Operand::Const(_),
                ..
            }
        )),
        Some((4, 5))
    );
    assert_eq!(
        line_of(&|k| matches!(
            k,
            InstKind::Binary {
                op: BinaryOp::Mul,
                ..
            }
        )),
        Some((5, 12))
    );
    let ret = f
        .blocks
        .iter()
        .find(|b| matches!(b.term, Terminator::Ret(_)))
        .unwrap();
    assert_eq!(ret.term_loc.map(|l| l.line), Some(5));
}

#[test]
fn calls_direct_indirect_and_intrinsic() {
    let c = compile(
        "#include <string.h>\n\
         struct big { char buf[64]; };\n\
         int twice(int x) { return 2 * x; }\n\
         int apply(int (*fp)(int), int v) { return fp(v); }\n\
         void copy(struct big *d, const struct big *s) { *d = *s; }\n\
         int main(void) { return apply(twice, 4); }\n",
        0,
    );
    let m = &c.module;
    let indirect = insts(func(m, "apply"))
        .find_map(|i| match &i.kind {
            InstKind::Call { callee, args, .. } => Some((*callee, args.len())),
            _ => None,
        })
        .unwrap();
    assert!(matches!(indirect, (Callee::Indirect(Operand::Slot(_)), 1)));
    let memcpy: Vec<&str> = insts(func(m, "copy"))
        .filter_map(|i| direct_callee(m, i))
        .collect();
    assert_eq!(memcpy, vec!["llvm.memcpy.p0.p0.i64"]);
    let decl = common::func(m, "llvm.memcpy.p0.p0.i64");
    assert!(decl.is_declaration && decl.blocks.is_empty());
    assert_eq!(decl.params.len(), 4);
    // main passes the address of `twice` as a constant.
    let call = insts(func(m, "main"))
        .find(|i| direct_callee(m, i) == Some("apply"))
        .unwrap();
    let InstKind::Call {
        args, arg_types, ..
    } = &call.kind
    else {
        unreachable!()
    };
    let Operand::Const(fp) = args[0] else {
        panic!("function pointer is not a constant")
    };
    assert_eq!(
        m.constant(fp),
        &Constant::FuncAddr(m.function_by_name("twice").unwrap())
    );
    assert_eq!(m.ty(arg_types[0]).kind, TypeKind::Ptr);
    assert_eq!(
        call.ty,
        m.function(m.function_by_name("apply").unwrap()).ret
    );
    // Debug intrinsics (debug records in LLVM 19) never show up as calls.
    let dbg_calls = m
        .functions
        .iter()
        .flat_map(insts)
        .filter(|i| direct_callee(m, i).is_some_and(|n| n.starts_with("llvm.dbg.")))
        .count();
    assert_eq!(dbg_calls, 0);
}

#[test]
fn variadic_functions() {
    let c = compile(
        "#include <stdarg.h>\n\
         int printf(const char *fmt, ...);\n\
         int vsum(int n, ...) {\n\
           va_list ap; va_start(ap, n);\n\
           int s = 0;\n\
           for (int i = 0; i < n; i++) s += va_arg(ap, int);\n\
           va_end(ap);\n\
           return s;\n\
         }\n\
         int main(void) { return printf(\"%d %d\\n\", vsum(2, 1, 2), 7); }\n",
        0,
    );
    let m = &c.module;
    let printf = func(m, "printf");
    assert!(printf.is_vararg && printf.is_declaration);
    assert_eq!(printf.params.len(), 1);
    let vsum = func(m, "vsum");
    assert!(vsum.is_vararg && !vsum.is_declaration);
    let starts = insts(vsum)
        .filter(|i| direct_callee(m, i).is_some_and(|n| n.starts_with("llvm.va_start")))
        .count();
    assert_eq!(starts, 1);
    // The variadic call passes all three arguments.
    let call = insts(func(m, "main"))
        .find(|i| direct_callee(m, i) == Some("printf"))
        .unwrap();
    let InstKind::Call { args, .. } = &call.kind else {
        unreachable!()
    };
    assert_eq!(args.len(), 3);
}

#[test]
fn vectorised_loop_at_o2() {
    let c = compile(
        "void scale(int *restrict out, const int *restrict in, int n) {\n\
           for (int i = 0; i < n; i++) out[i] = in[i] * 3 + 1;\n\
         }\n",
        2,
    );
    let m = &c.module;
    let f = func(m, "scale");
    let vector_ops = insts(f)
        .filter(|i| matches!(m.ty(i.ty).kind, TypeKind::Vector { .. }))
        .filter(|i| {
            matches!(
                i.kind,
                InstKind::Binary {
                    op: BinaryOp::Mul | BinaryOp::Add | BinaryOp::Shl,
                    ..
                } | InstKind::Load { .. }
            )
        })
        .count();
    assert!(
        vector_ops >= 2,
        "{}",
        print_function(m, m.function_by_name("scale").unwrap())
    );
    let vector_stores = insts(f)
        .filter(|i| matches!(&i.kind, InstKind::Store { value_ty, .. } if matches!(m.ty(*value_ty).kind, TypeKind::Vector { .. })))
        .count();
    assert!(vector_stores >= 1);
    // Vector constants (splats) are aggregates or zeroinitializers.
    let splat = insts(f).find_map(|i| match &i.kind {
        InstKind::Binary {
            rhs: Operand::Const(c),
            ..
        } if matches!(m.ty(i.ty).kind, TypeKind::Vector { .. }) => Some(m.constant(*c).clone()),
        _ => None,
    });
    assert!(
        matches!(splat, Some(Constant::Aggregate { .. })),
        "{splat:?}"
    );
}
