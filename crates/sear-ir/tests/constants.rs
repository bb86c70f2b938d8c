//! Lowering of constants: folded constant GEPs, strings, floats, wide integers, aliases,
//! function addresses and deduplication.

mod common;

use common::{compile, func, global, insts};
use sear_ir::*;

/// The `(base global, offset)` of a folded pointer constant.
fn ptr_offset(m: &Module, c: ConstId) -> (String, i64) {
    match m.constant(c) {
        Constant::PtrOffset { base, offset } => match m.constant(*base) {
            Constant::GlobalAddr(g) => (m.global(*g).name.clone(), *offset),
            other => panic!("base is not a global: {other:?}"),
        },
        Constant::GlobalAddr(g) => (m.global(*g).name.clone(), 0),
        other => panic!("not a pointer constant: {other:?}"),
    }
}

#[test]
fn constant_geps_fold_to_byte_offsets() {
    let c = compile(
        "struct S { char c; int x; double d; int arr[4]; } s;\n\
         int arr[10];\n\
         int *p = &arr[3];\n\
         char *q = (char *)&s + 5;\n\
         int *r = &s.arr[2];\n\
         int f(void) { return arr[3] + s.arr[2] + ((char *)&s)[3]; }\n",
        0,
    );
    let m = &c.module;
    assert_eq!(
        ptr_offset(m, global(m, "p").init.unwrap()),
        ("arr".into(), 12)
    );
    assert_eq!(ptr_offset(m, global(m, "q").init.unwrap()), ("s".into(), 5));
    assert_eq!(
        ptr_offset(m, global(m, "r").init.unwrap()),
        ("s".into(), 24)
    );
    // Inside f, clang emits typed constant GEPs, nested for s.arr[2].
    let loads: Vec<(String, i64)> = insts(func(m, "f"))
        .filter_map(|i| match &i.kind {
            InstKind::Load {
                ptr: Operand::Const(c),
                ..
            } => Some(ptr_offset(m, *c)),
            _ => None,
        })
        .collect();
    assert_eq!(
        loads,
        vec![("arr".into(), 12), ("s".into(), 24), ("s".into(), 3)]
    );
}

#[test]
fn strings_are_aggregates_of_bytes() {
    let c = compile(
        "const char *msg = \"hi!\";\nconst char *get(void) { return msg; }\n",
        0,
    );
    let m = &c.module;
    let Constant::GlobalAddr(str_global) = m.constant(global(m, "msg").init.unwrap()) else {
        panic!("msg does not point to a global")
    };
    let string = m.global(*str_global);
    assert!(string.is_constant);
    assert_eq!(string.size, Some(4));
    let Constant::Aggregate { elems, .. } = m.constant(string.init.unwrap()) else {
        panic!("string is not an aggregate")
    };
    let bytes: Vec<u128> = elems
        .iter()
        .map(|&e| match m.constant(e) {
            Constant::Int { width: 8, value } => *value,
            other => panic!("not a byte: {other:?}"),
        })
        .collect();
    assert_eq!(bytes, vec![b'h'.into(), b'i'.into(), b'!'.into(), 0]);
}

#[test]
fn floating_point_and_wide_integer_constants_keep_their_bits() {
    let c = compile(
        "long double ld = 1.0L;\n\
         __float128 q = 1.0Q;\n\
         _Float16 h = 1.0;\n\
         float f = 0.1f;\n\
         double d = -2.5;\n\
         __int128 big = ((__int128)1 << 100) + 7;\n\
         __int128 neg = -2;\n",
        0,
    );
    let m = &c.module;
    let init = |name: &str| m.constant(global(m, name).init.unwrap()).clone();
    assert_eq!(
        init("ld"),
        Constant::Float {
            kind: FloatKind::X86Fp80,
            bits: 0x3FFF_8000_0000_0000_0000
        }
    );
    assert_eq!(
        init("q"),
        Constant::Float {
            kind: FloatKind::Fp128,
            bits: 0x3FFF_0000_0000_0000_0000_0000_0000_0000
        }
    );
    assert_eq!(
        init("h"),
        Constant::Float {
            kind: FloatKind::Half,
            bits: 0x3C00
        }
    );
    assert_eq!(
        init("f"),
        Constant::Float {
            kind: FloatKind::Single,
            bits: u128::from(0.1f32.to_bits())
        }
    );
    assert_eq!(
        init("d"),
        Constant::Float {
            kind: FloatKind::Double,
            bits: u128::from((-2.5f64).to_bits())
        }
    );
    assert_eq!(
        init("big"),
        Constant::Int {
            width: 128,
            value: (1u128 << 100) + 7
        }
    );
    assert_eq!(
        init("neg"),
        Constant::Int {
            width: 128,
            value: u128::MAX - 1
        }
    );
}

#[test]
fn function_addresses_aliases_and_casts() {
    let c = compile(
        "int target(int x) { return x + 1; }\n\
         int alias_of_target(int) __attribute__((alias(\"target\")));\n\
         int (*fp)(int) = target;\n\
         long addr = (long)&fp;\n\
         int call_alias(void) { return alias_of_target(3); }\n",
        0,
    );
    let m = &c.module;
    let target = m.function_by_name("target").unwrap();
    assert_eq!(
        m.constant(global(m, "fp").init.unwrap()),
        &Constant::FuncAddr(target)
    );
    assert_eq!(
        m.constant(m.aliases["alias_of_target"]),
        &Constant::FuncAddr(target)
    );
    // A call through the alias is a direct call of the aliasee.
    let callees: Vec<&str> = insts(func(m, "call_alias"))
        .filter_map(|i| common::direct_callee(m, i))
        .collect();
    assert_eq!(callees, vec!["target"]);
    match m.constant(global(m, "addr").init.unwrap()) {
        Constant::Cast {
            op: CastOp::PtrToInt,
            value,
            to,
        } => {
            assert_eq!(
                m.constant(*value),
                &Constant::GlobalAddr(m.global_index["fp"])
            );
            assert_eq!(m.ty(*to).kind, TypeKind::Int(64));
        }
        other => panic!("addr initializer is {other:?}"),
    }
}

#[test]
fn constants_are_deduplicated() {
    let c = compile(
        "int a = 42, b = 42; long c = 42; int d[4] = {42, 42, 42, 42};\n",
        0,
    );
    let m = &c.module;
    let a = global(m, "a").init.unwrap();
    assert_eq!(a, global(m, "b").init.unwrap());
    assert_ne!(a, global(m, "c").init.unwrap());
    let Constant::Aggregate { elems, .. } = m.constant(global(m, "d").init.unwrap()) else {
        panic!("d is not an aggregate")
    };
    assert!(elems.iter().all(|&e| e == a));
    // No two entries of the table are equal.
    let mut seen = std::collections::HashSet::new();
    for constant in &m.constants {
        assert!(
            seen.insert(constant.clone()),
            "duplicate constant {constant:?}"
        );
    }
}
