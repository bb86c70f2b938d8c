//! Helpers shared by the integration tests: compile C snippets and find things in the
//! lowered module.
#![allow(dead_code)]

use sear_ir::frontend::{compile_c, CompileOptions};
use sear_ir::*;
use std::path::PathBuf;

/// A lowered module with the temporary directory holding its files.
pub struct Compiled {
    pub dir: tempfile::TempDir,
    pub bitcode: PathBuf,
    pub module: Module,
}

/// Compiles `source` (C) at `-O<opt>` and lowers it; the module is verified.
pub fn compile(source: &str, opt: u8) -> Compiled {
    compile_with(source, opt, &[])
}

/// Like [`compile`] with extra clang flags.
pub fn compile_with(source: &str, opt: u8, cflags: &[&str]) -> Compiled {
    let dir = tempfile::tempdir().expect("temp dir");
    let c = dir.path().join("prog.c");
    std::fs::write(&c, source).expect("write C file");
    let opts = CompileOptions {
        opt_level: opt,
        cflags: cflags.iter().map(|s| s.to_string()).collect(),
        ..CompileOptions::default()
    };
    let bitcode = compile_c(&c, dir.path(), &opts).unwrap_or_else(|e| panic!("{e}"));
    let module = load_module(&bitcode).unwrap_or_else(|e| panic!("{e}"));
    verify(&module).unwrap_or_else(|e| panic!("{e}"));
    Compiled {
        dir,
        bitcode,
        module,
    }
}

/// The function named `name`.
pub fn func<'a>(m: &'a Module, name: &str) -> &'a Function {
    let id = m
        .function_by_name(name)
        .unwrap_or_else(|| panic!("no function {name}"));
    m.function(id)
}

/// The global named `name`.
pub fn global<'a>(m: &'a Module, name: &str) -> &'a Global {
    let id = m.global_index[name];
    m.global(id)
}

/// All instructions of a function, in block order.
pub fn insts(f: &Function) -> impl Iterator<Item = &Inst> {
    f.blocks.iter().flat_map(|b| b.insts.iter())
}

/// The callee name of a direct call instruction.
pub fn direct_callee<'a>(m: &'a Module, inst: &Inst) -> Option<&'a str> {
    match &inst.kind {
        InstKind::Call {
            callee: Callee::Direct(f),
            ..
        } => Some(&m.function(*f).name),
        _ => None,
    }
}
