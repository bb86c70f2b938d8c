//! Type layouts (sizes, alignments, field offsets) and global sizes.

mod common;

use common::{compile, global};
use sear_ir::*;

fn struct_global<'a>(m: &'a Module, name: &str) -> &'a TypeInfo {
    m.ty(global(m, name).ty)
}

#[test]
fn struct_field_offsets_and_padding() {
    let c = compile(
        "struct S { char c; int x; double d; } s;\n\
         struct T { char a; long double ld; char b; } t;\n\
         struct __attribute__((packed)) P { char c; int x; short y; } p;\n\
         struct N { struct S inner; char tail[3]; } n;\n",
        0,
    );
    let m = &c.module;
    let s = struct_global(m, "s");
    assert_eq!(s.field_offsets, vec![0, 4, 8]);
    assert_eq!((s.size, s.align), (16, 8));
    assert_eq!(global(m, "s").size, Some(16));

    // x86_fp80 is 16 bytes with 16-byte alignment.
    let t = struct_global(m, "t");
    assert_eq!(t.field_offsets, vec![0, 16, 32]);
    assert_eq!((t.size, t.align), (48, 16));

    let p = struct_global(m, "p");
    assert!(matches!(p.kind, TypeKind::Struct { packed: true, .. }));
    assert_eq!(p.field_offsets, vec![0, 1, 5]);
    assert_eq!((p.size, p.align), (7, 1));

    let n = struct_global(m, "n");
    assert_eq!(n.field_offsets, vec![0, 16]);
    assert_eq!(n.size, 24);
}

#[test]
fn scalar_and_vector_layouts_from_textual_ir() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("types.ll");
    std::fs::write(
        &path,
        r#"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"
@b = global i1 true
@i24 = global i24 5
@i128 = global i128 0
@h = global half 0xH3C00
@f = global float 1.0
@q = global fp128 0xL00000000000000003FFF000000000000
@x = global x86_fp80 0xK3FFF8000000000000000
@v3 = global <3 x i32> zeroinitializer
@v8 = global <8 x float> zeroinitializer
@v2i8 = global <2 x i8> zeroinitializer
@arr = global [3 x [5 x i16]] zeroinitializer
@p = global ptr null
"#,
    )
    .unwrap();
    let m = load_module(&path).unwrap();
    let layout = |name: &str| {
        let t = m.ty(global(&m, name).ty);
        (t.size, t.align, t.bit_width)
    };
    assert_eq!(layout("b"), (1, 1, 1));
    assert_eq!(layout("i24"), (4, 4, 24));
    assert_eq!(layout("i128"), (16, 16, 128));
    assert_eq!(layout("h"), (2, 2, 16));
    assert_eq!(layout("f"), (4, 4, 32));
    assert_eq!(layout("q"), (16, 16, 128));
    assert_eq!(layout("x"), (16, 16, 80));
    assert_eq!(layout("v3"), (16, 16, 0));
    assert_eq!(layout("v8"), (32, 32, 0));
    assert_eq!(layout("v2i8"), (2, 2, 0));
    assert_eq!(layout("arr"), (30, 2, 0));
    assert_eq!(layout("p"), (8, 8, 64));
    let v3 = m.ty(global(&m, "v3").ty);
    let TypeKind::Vector { elem, len: 3 } = v3.kind else {
        panic!("not a vector: {:?}", v3.kind)
    };
    assert_eq!(m.ty(elem).kind, TypeKind::Int(32));
}

#[test]
fn global_sizes_come_from_initializers() {
    let c = compile(
        "char msg[] = \"hello, world\";\n\
         int table[] = {1, 2, 3, 4, 5, 6, 7};\n\
         const double pi = 3.14159;\n\
         struct { int a; char b; } pair = {1, 2};\n\
         static int counter;\n\
         int use(void) { return counter++ + table[0] + msg[0] + pair.a + (int)pi; }\n",
        0,
    );
    let m = &c.module;
    assert_eq!(global(m, "msg").size, Some(13));
    assert_eq!(global(m, "table").size, Some(28));
    assert_eq!(global(m, "pair").size, Some(8));
    assert_eq!(global(m, "counter").size, Some(4));
    assert_eq!(global(m, "pi").size, Some(8));
    assert!(global(m, "pi").is_constant);
    assert!(!global(m, "table").is_constant);
    assert!(global(m, "table").init.is_some());
    assert_eq!(global(m, "table").align, 16);
    // The initializer has one element per array entry.
    let Constant::Aggregate { elems, .. } = m.constant(global(m, "table").init.unwrap()) else {
        panic!("table initializer is not an aggregate")
    };
    assert_eq!(elems.len(), 7);
    assert!(matches!(
        m.constant(elems[6]),
        Constant::Int {
            width: 32,
            value: 7
        }
    ));
}

#[test]
fn extern_globals_keep_declared_types() {
    let c = compile(
        "extern int counter;\n\
         extern int unknown_len[];\n\
         struct opaque;\n\
         extern struct opaque token;\n\
         int use(void) { return counter + unknown_len[2] + (int)(long)&token; }\n",
        0,
    );
    let m = &c.module;
    let counter = global(m, "counter");
    assert_eq!(counter.size, Some(4));
    assert!(counter.init.is_none());
    assert_eq!(global(m, "unknown_len").size, None);
    assert_eq!(global(m, "token").size, None);
}
