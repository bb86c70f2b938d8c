//! Textual `.ll` input, malformed inputs, and instructions sear does not support.

mod common;

use common::{direct_callee, func, insts};
use sear_ir::*;
use std::path::PathBuf;

const HEADER: &str = "target datalayout = \"e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128\"\ntarget triple = \"x86_64-pc-linux-gnu\"\n";

/// Writes `text` to `name` in a fresh directory.
fn write(name: &str, text: &[u8]) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(name);
    std::fs::write(&path, text).unwrap();
    (dir, path)
}

fn load_ll(body: &str) -> Module {
    let (_dir, path) = write("input.ll", format!("{HEADER}{body}").as_bytes());
    let m = load_module(&path).unwrap_or_else(|e| panic!("{e}"));
    verify(&m).unwrap();
    m
}

#[test]
fn textual_ir_input() {
    let m = load_ll(
        r#"
@counter = internal global i32 0, align 4
define i32 @bump(i32 %by) {
entry:
  %old = load i32, ptr @counter, align 4
  %new = add nsw i32 %old, %by
  store i32 %new, ptr @counter, align 4
  %big = icmp sgt i32 %new, 100
  br i1 %big, label %reset, label %done
reset:
  store i32 0, ptr @counter, align 4
  br label %done
done:
  %r = phi i32 [ 0, %reset ], [ %new, %entry ]
  ret i32 %r
}
"#,
    );
    let f = func(&m, "bump");
    assert_eq!(f.params.len(), 1);
    assert_eq!(f.blocks.len(), 3);
    let names: Vec<&str> = f.blocks.iter().map(|b| b.name.as_str()).collect();
    assert_eq!(names, vec!["entry", "reset", "done"]);
    // Slots: %by = 0, %old = 1, %new = 2, %big = 3, %r = 4.
    assert_eq!(f.num_slots, 5);
    assert!(matches!(
        f.blocks[0].insts[1].kind,
        InstKind::Binary {
            op: BinaryOp::Add,
            lhs: Operand::Slot(Slot(1)),
            rhs: Operand::Slot(Slot(0))
        }
    ));
    let phi = &f.blocks[2].phis[0];
    assert_eq!(phi.dest, Slot(4));
    assert_eq!(phi.incoming.len(), 2);
    assert_eq!(phi.incoming[1], (BlockId(0), Operand::Slot(Slot(2))));
    assert!(matches!(
        f.blocks[2].term,
        Terminator::Ret(Some(Operand::Slot(Slot(4))))
    ));
    // No debug information: no locations.
    assert!(insts(f).all(|i| i.loc.is_none()));
    let text = print_function(&m, m.function_by_name("bump").unwrap());
    assert!(text.contains("%2 = add i32 %1, %0"), "{text}");
}

#[test]
fn unnamed_values_and_blocks_are_numbered_like_llvm() {
    let m = load_ll(
        r#"
define i32 @f(i32 %0) {
  %2 = icmp eq i32 %0, 0
  br i1 %2, label %3, label %4
3:
  ret i32 1
4:
  ret i32 %0
}
"#,
    );
    let names: Vec<&str> = func(&m, "f")
        .blocks
        .iter()
        .map(|b| b.name.as_str())
        .collect();
    assert_eq!(names, vec!["1", "3", "4"]);
}

#[test]
fn malformed_inputs_are_errors() {
    let (_d, garbage_ll) = write("bad.ll", b"this is not LLVM IR\n");
    match load_module(&garbage_ll) {
        Err(IrError::Parse { path, message }) => {
            assert_eq!(path, garbage_ll);
            assert!(message.contains("expected top-level entity"), "{message}");
        }
        other => panic!("expected a parse error, got {other:?}"),
    }
    let err = load_module(&garbage_ll).unwrap_err().to_string();
    assert!(err.contains("bad.ll"), "{err}");

    // Bitcode magic followed by junk: an error, not an abort of the process.
    let (_d, garbage_bc) = write(
        "bad.bc",
        b"BC\xC0\xDE\x35\x14\x00\x00\x05\x00\x00\x00\x62\x0C\x30\x24junkjunkjunk",
    );
    assert!(matches!(
        load_module(&garbage_bc),
        Err(IrError::Parse { .. })
    ));

    let (_d, empty) = write("empty.bc", b"");
    assert!(load_module(&empty).is_err());

    let missing = PathBuf::from("/nonexistent/dir/prog.bc");
    match load_module(&missing) {
        Err(IrError::Io { path, .. }) => assert_eq!(path, missing),
        other => panic!("expected an I/O error, got {other:?}"),
    }

    // Truncated real bitcode.
    let c = common::compile("int main(void) { return 0; }\n", 0);
    let bytes = std::fs::read(&c.bitcode).unwrap();
    let (_d, truncated) = write("truncated.bc", &bytes[..bytes.len() / 2]);
    assert!(matches!(
        load_module(&truncated),
        Err(IrError::Parse { .. })
    ));

    // A C file passed by mistake gets a hint.
    let (_d, c_file) = write("prog.c", b"int main(void) { return 0; }\n");
    let err = load_module(&c_file).unwrap_err().to_string();
    assert!(err.contains("must be compiled"), "{err}");
}

#[test]
fn modules_failing_llvm_verification_are_errors() {
    let (_d, path) = write(
        "invalid.ll",
        format!(
            "{HEADER}define i32 @f(i1 %c) {{\nentry:\n  br i1 %c, label %a, label %b\na:\n  %x = add i32 1, 2\n  br label %b\nb:\n  ret i32 %x\n}}\n"
        )
        .as_bytes(),
    );
    match load_module(&path) {
        Err(IrError::InvalidModule { message, .. }) => {
            assert!(message.contains("dominate"), "{message}")
        }
        other => panic!("expected a verifier error, got {other:?}"),
    }
}

#[test]
fn unsupported_targets_are_rejected() {
    let (_d, be) = write(
        "be.ll",
        b"target datalayout = \"E-m:e-i64:64-n32:64-S128\"\n",
    );
    assert!(matches!(
        load_module(&be),
        Err(IrError::UnsupportedTarget { .. })
    ));
    // 32-bit pointers (i386, ILP32) are executed; 16-bit ones are refused.
    let (_d, p32) = write(
        "p32.ll",
        b"target datalayout = \"e-m:e-p:32:32-i64:64-n32-S128\"\n@p = global ptr null\n@l = global [3 x ptr] zeroinitializer\n",
    );
    let m = load_module(&p32).unwrap();
    assert_eq!(m.data_model, sear_ir::DataModel::Ilp32);
    assert_eq!(m.data_model.pointer_bits(), 32);
    assert_eq!(m.ty(common::global(&m, "p").ty).size, 4);
    assert_eq!(m.ty(common::global(&m, "l").ty).size, 12);
    let (_d, p16) = write(
        "p16.ll",
        b"target datalayout = \"e-m:e-p:16:16-i64:64-n16-S16\"\n",
    );
    let err = load_module(&p16).unwrap_err();
    assert!(err.to_string().contains("16-bit pointers"), "{err}");
    // No data layout at all: x86-64 is assumed (i64 is 8-byte aligned, unlike LLVM's
    // default layout).
    let (_d, none) = write(
        "none.ll",
        b"@g = global i64 1\n@h = global x86_fp80 0xK3FFF8000000000000000\n",
    );
    let m = load_module(&none).unwrap();
    assert_eq!(m.ty(common::global(&m, "g").ty).align, 8);
    assert_eq!(m.ty(common::global(&m, "h").ty).size, 16);
}

#[test]
fn unsupported_instructions_do_not_fail_the_load() {
    let m = load_ll(
        r#"
declare i32 @__gxx_personality_v0(...)
declare void @may_throw()
define i32 @eh() personality ptr @__gxx_personality_v0 {
entry:
  invoke void @may_throw() to label %ok unwind label %lpad
ok:
  ret i32 0
lpad:
  %lp = landingpad { ptr, i32 } cleanup
  resume { ptr, i32 } %lp
}
define i32 @asm(i32 %x) {
  %r = call i32 asm "bswap $0", "=r,0"(i32 %x)
  ret i32 %r
}
define void @barrier() {
  call void asm sideeffect "", "~{memory}"()
  ret void
}
define i32 @computed_goto(i1 %c) {
entry:
  %target = select i1 %c, ptr blockaddress(@computed_goto, %one), ptr blockaddress(@computed_goto, %two)
  indirectbr ptr %target, [label %one, label %two]
one:
  ret i32 1
two:
  ret i32 2
}
"#,
    );
    let eh = func(&m, "eh");
    // invoke: the call is the block's last instruction, the terminator its two edges.
    assert!(matches!(
        eh.blocks[0].insts.last().map(|i| &i.kind),
        Some(InstKind::Call { .. })
    ));
    assert!(matches!(
        &eh.blocks[0].term,
        Terminator::Invoke { normal, unwind } if normal.0 == 1 && unwind.0 == 2
    ));
    assert!(matches!(
        &eh.blocks[2].insts[0].kind,
        InstKind::LandingPad { cleanup: true, clauses } if clauses.is_empty()
    ));
    assert!(eh.blocks[2].insts[0].dest.is_some());
    assert!(matches!(&eh.blocks[2].term, Terminator::Resume(_)));

    let asm = func(&m, "asm");
    assert!(matches!(
        asm.blocks[0].insts[0].kind,
        InstKind::Call {
            callee: Callee::InlineAsm(_),
            ..
        }
    ));

    // An empty asm statement (a compiler barrier) does nothing.
    assert!(matches!(
        func(&m, "barrier").blocks[0].insts[0].kind,
        InstKind::Nop
    ));

    let goto = func(&m, "computed_goto");
    let InstKind::Select {
        then_value: Operand::Const(c),
        ..
    } = goto.blocks[0].insts[0].kind
    else {
        panic!("expected a select")
    };
    // blockaddress names the function and the block (%one is block 1).
    assert!(
        matches!(m.constant(c), Constant::BlockAddr(f, BlockId(1)) if m.function(*f).name == "computed_goto")
    );
    assert!(matches!(
        &goto.blocks[0].term,
        Terminator::IndirectBr { targets, .. } if targets == &[BlockId(1), BlockId(2)]
    ));
}

#[test]
fn aggregates_atomics_and_vectors() {
    let m = load_ll(
        r#"
define i32 @f(ptr %p, <4 x i32> %v, { i32, i64 } %s) {
  %a = extractvalue { i32, i64 } %s, 0
  %s2 = insertvalue { i32, i64 } %s, i64 7, 1
  %old = atomicrmw add ptr %p, i32 1 seq_cst
  %pair = cmpxchg ptr %p, i32 %old, i32 5 seq_cst seq_cst
  %ok = extractvalue { i32, i1 } %pair, 1
  fence seq_cst
  %fr = freeze i32 %a
  %sh = shufflevector <4 x i32> %v, <4 x i32> poison, <4 x i32> <i32 3, i32 poison, i32 1, i32 0>
  %e = extractelement <4 x i32> %sh, i64 2
  %ins = insertelement <4 x i32> %sh, i32 %e, i32 0
  %neg = fneg double 1.5
  %vg = getelementptr i32, <2 x ptr> zeroinitializer, <2 x i64> <i64 1, i64 2>
  ret i32 %fr
}
"#,
    );
    let f = func(&m, "f");
    let kinds: Vec<&InstKind> = insts(f).map(|i| &i.kind).collect();
    assert!(matches!(kinds[0], InstKind::ExtractValue { indices, .. } if indices == &[0]));
    assert!(matches!(kinds[1], InstKind::InsertValue { indices, .. } if indices == &[1]));
    assert!(matches!(
        kinds[2],
        InstKind::AtomicRmw { op: RmwOp::Add, .. }
    ));
    assert!(matches!(kinds[3], InstKind::CmpXchg { .. }));
    let pair_ty = insts(f).nth(3).unwrap().ty;
    assert!(matches!(&m.ty(pair_ty).kind, TypeKind::Struct { fields, .. } if fields.len() == 2));
    assert!(matches!(kinds[5], InstKind::Nop));
    assert!(insts(f).nth(5).unwrap().dest.is_none());
    assert!(matches!(kinds[6], InstKind::Freeze(_)));
    assert!(matches!(kinds[7], InstKind::ShuffleVector { mask, .. } if mask == &[3, -1, 1, 0]));
    assert!(matches!(kinds[8], InstKind::ExtractElement { .. }));
    assert!(matches!(kinds[9], InstKind::InsertElement { .. }));
    assert!(matches!(kinds[10], InstKind::FNeg(Operand::Const(_))));
    assert!(matches!(kinds[11], InstKind::Unsupported(s) if s.contains("vectors of pointers")));
}

#[test]
fn old_style_debug_intrinsic_calls_are_dropped() {
    let m = load_ll(
        r#"
define i32 @f(i32 %x) !dbg !5 {
  call void @llvm.dbg.value(metadata i32 %x, metadata !9, metadata !DIExpression()), !dbg !10
  %y = add i32 %x, 1, !dbg !10
  ret i32 %y, !dbg !10
}
declare void @llvm.dbg.value(metadata, metadata, metadata)
!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3, !4}
!0 = distinct !DICompileUnit(language: DW_LANG_C11, file: !1, producer: "hand", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "src/x.c", directory: "/work/proj")
!3 = !{i32 7, !"Dwarf Version", i32 5}
!4 = !{i32 2, !"Debug Info Version", i32 3}
!5 = distinct !DISubprogram(name: "f", scope: !1, file: !1, line: 3, type: !6, scopeLine: 3, spFlags: DISPFlagDefinition, unit: !0)
!6 = !DISubroutineType(types: !7)
!7 = !{!8, !8}
!8 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!9 = !DILocalVariable(name: "x", arg: 1, scope: !5, file: !1, line: 3, type: !8)
!10 = !DILocation(line: 4, column: 7, scope: !5)
"#,
    );
    let f = func(&m, "f");
    assert!(insts(f).all(|i| direct_callee(&m, i).is_none()));
    assert_eq!(insts(f).count(), 1);
    let loc = insts(f).next().unwrap().loc.unwrap();
    assert_eq!((loc.line, loc.col), (4, 7));
    // Relative file names are joined with the compilation directory.
    assert_eq!(m.file_name(loc.file), "/work/proj/src/x.c");
    assert_eq!(f.loc.map(|l| l.line), Some(3));
}

#[test]
fn metadata_arguments_become_metadata_constants() {
    let m = load_ll(
        r#"
define void @f() {
  call void @llvm.experimental.noalias.scope.decl(metadata !0)
  ret void
}
declare void @llvm.experimental.noalias.scope.decl(metadata)
!0 = !{!1}
!1 = distinct !{!1, !2, !"scope"}
!2 = distinct !{!2, !"domain"}
"#,
    );
    let f = func(&m, "f");
    let call = insts(f).next().unwrap();
    assert_eq!(
        direct_callee(&m, call),
        Some("llvm.experimental.noalias.scope.decl")
    );
    let InstKind::Call { args, .. } = &call.kind else {
        unreachable!()
    };
    let [Operand::Const(c)] = args[..] else {
        panic!("expected one constant argument: {args:?}")
    };
    assert_eq!(m.constant(c), &Constant::Metadata(String::new()));
}

#[test]
fn metadata_strings_keep_their_text() {
    let m = load_ll(
        r#"
define float @f(float %x, float %y) {
  %r = call float @llvm.experimental.constrained.fadd.f32(float %x, float %y, metadata !"round.dynamic", metadata !"fpexcept.ignore")
  ret float %r
}
declare float @llvm.experimental.constrained.fadd.f32(float, float, metadata, metadata)
"#,
    );
    let f = func(&m, "f");
    let call = insts(f).next().unwrap();
    let InstKind::Call { args, .. } = &call.kind else {
        unreachable!()
    };
    let texts: Vec<&Constant> = args[2..]
        .iter()
        .map(|a| match a {
            Operand::Const(c) => m.constant(*c),
            Operand::Slot(_) => panic!("metadata in a slot"),
        })
        .collect();
    assert_eq!(
        texts,
        [
            &Constant::Metadata("round.dynamic".into()),
            &Constant::Metadata("fpexcept.ignore".into())
        ]
    );
}
