//! Lowers every function of a larger C program at every optimisation level.

mod common;

use sear_ir::frontend::{compile_c, CompileOptions};
use sear_ir::*;
use std::path::Path;

const PROGRAM: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/programs/kitchen_sink.c");

fn lower_at(opt: u8) -> Module {
    let dir = tempfile::tempdir().unwrap();
    let opts = CompileOptions {
        opt_level: opt,
        ..CompileOptions::default()
    };
    let bitcode =
        compile_c(Path::new(PROGRAM), dir.path(), &opts).unwrap_or_else(|e| panic!("{e}"));
    let m = load_module(&bitcode).unwrap_or_else(|e| panic!("{e}"));
    verify(&m).unwrap_or_else(|e| panic!("-O{opt}: {e}"));
    m
}

fn check_module(m: &Module, opt: u8) {
    let defined: Vec<&Function> = m.functions.iter().filter(|f| !f.is_declaration).collect();
    assert!(
        defined.len() >= 25,
        "-O{opt}: only {} functions",
        defined.len()
    );
    for (index, f) in m.functions.iter().enumerate() {
        let text = print_function(m, FuncId(index as u32));
        assert!(text.contains(&format!("@{}(", f.name)));
        for block in &f.blocks {
            assert!(
                !matches!(block.term, Terminator::Unsupported(_)),
                "-O{opt} {}: unsupported terminator\n{text}",
                f.name
            );
            for inst in &block.insts {
                assert!(
                    !matches!(inst.kind, InstKind::Unsupported(_)),
                    "-O{opt} {}: unsupported instruction\n{text}",
                    f.name
                );
            }
        }
        if !f.is_declaration {
            assert!(f.loc.is_some(), "-O{opt} {} has no location", f.name);
        }
    }
    for (index, c) in m.constants.iter().enumerate() {
        assert!(
            !matches!(c, Constant::Unsupported(_)),
            "-O{opt}: constant #{index} is {c:?}"
        );
    }
    let printed = print_module(m);
    assert!(printed.contains("define i32 @main("));
}

#[test]
fn kitchen_sink_at_o0() {
    let m = lower_at(0);
    check_module(&m, 0);
    // At -O0 every local has an alloca, and main calls printf with 16 arguments.
    let main = common::func(&m, "main");
    let printf = common::insts(main)
        .find(|i| common::direct_callee(&m, i) == Some("printf"))
        .expect("call to printf");
    let InstKind::Call { args, .. } = &printf.kind else {
        unreachable!()
    };
    assert_eq!(args.len(), 16);
    // The bit-field struct has its fields where clang put them.
    let shapes = common::global(&m, "shapes");
    assert_eq!(shapes.size, Some(3 * 64));
    // first_shape = &shapes[0] folds to the global itself.
    assert_eq!(
        m.constant(common::global(&m, "first_shape").init.unwrap()),
        &Constant::GlobalAddr(m.global_index["shapes"])
    );
}

#[test]
fn kitchen_sink_at_o1() {
    check_module(&lower_at(1), 1);
}

#[test]
fn kitchen_sink_at_o2() {
    let m = lower_at(2);
    check_module(&m, 2);
    let phis: usize = m
        .functions
        .iter()
        .flat_map(|f| f.blocks.iter())
        .map(|b| b.phis.len())
        .sum();
    assert!(phis > 10, "only {phis} phis at -O2");
}

#[test]
fn kitchen_sink_at_o3() {
    check_module(&lower_at(3), 3);
}
