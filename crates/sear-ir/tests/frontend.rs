//! The C front end: clang invocation, diagnostics, include directories, linking.

mod common;

use common::{func, global, insts};
use sear_ir::frontend::*;
use sear_ir::*;
use std::path::{Path, PathBuf};

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).unwrap();
    }
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn compile_errors_carry_clang_diagnostics() {
    let dir = tempfile::tempdir().unwrap();
    let src = write(
        dir.path(),
        "broken.c",
        "int main(void) {\n  return undeclared_thing;\n}\n",
    );
    let err = compile_c(&src, &dir.path().join("out"), &CompileOptions::default()).unwrap_err();
    match &err {
        IrError::Compile {
            source_file,
            diagnostics,
            ..
        } => {
            assert_eq!(source_file, &src);
            assert!(
                diagnostics.contains(
                    "broken.c:2:10: error: use of undeclared identifier 'undeclared_thing'"
                ),
                "{diagnostics}"
            );
        }
        other => panic!("expected a compile error, got {other:?}"),
    }
    assert!(err.to_string().contains("undeclared_thing"));
}

#[test]
fn missing_source_and_missing_tools() {
    let dir = tempfile::tempdir().unwrap();
    let err = compile_c(
        &dir.path().join("nope.c"),
        dir.path(),
        &CompileOptions::default(),
    )
    .unwrap_err();
    assert!(matches!(err, IrError::Io { .. }), "{err:?}");
    let err = find_tool("no-such-tool-19", "no-such-tool").unwrap_err();
    assert!(err.to_string().contains("run scripts/setup.sh"), "{err}");
    assert!(find_tool("clang-19", "clang").is_ok());
}

#[test]
fn includes_defines_and_runtime_headers() {
    let dir = tempfile::tempdir().unwrap();
    let runtime = dir.path().join("runtime/include");
    write(
        &runtime,
        "klee/klee.h",
        "void klee_make_symbolic(void *addr, unsigned long nbytes, const char *name);\n",
    );
    let user_inc = dir.path().join("inc");
    write(&user_inc, "config.h", "#define SCALE 3\n");
    let src = write(
        dir.path(),
        "prog.c",
        "#include \"klee/klee.h\"\n#include \"config.h\"\n\
         int limit = LIMIT * SCALE + EXTRA;\n\
         int main(void) { int x; klee_make_symbolic(&x, sizeof x, \"x\"); return x > limit; }\n",
    );
    let opts = CompileOptions {
        opt_level: 0,
        cflags: vec!["-DEXTRA=1".into()],
        include_dirs: vec![user_inc],
        defines: vec!["LIMIT=7".into()],
        runtime_include_dir: Some(runtime),
    };
    let bc = compile_c(&src, &dir.path().join("out"), &opts).unwrap();
    assert_eq!(bc, dir.path().join("out/prog.bc"));
    let m = load_module(&bc).unwrap();
    assert_eq!(
        m.constant(global(&m, "limit").init.unwrap()),
        &Constant::Int {
            width: 32,
            value: 22
        }
    );
    let decl = func(&m, "klee_make_symbolic");
    assert!(decl.is_declaration);
    assert_eq!(decl.params.len(), 3);
    let calls = insts(func(&m, "main"))
        .filter(|i| common::direct_callee(&m, i) == Some("klee_make_symbolic"))
        .count();
    assert_eq!(calls, 1);
}

#[test]
fn optimisation_levels() {
    let src = "int f(int a) { int b = a * 2; return b + 1; }\n";
    let allocas = |opt: u8| {
        let c = common::compile(src, opt);
        insts(func(&c.module, "f"))
            .filter(|i| matches!(i.kind, InstKind::Alloca { .. }))
            .count()
    };
    assert_eq!(allocas(0), 2);
    assert_eq!(allocas(2), 0);
    let args = clang_args(
        Path::new("a.c"),
        Path::new("a.bc"),
        &CompileOptions::default(),
    );
    let args: Vec<String> = args
        .iter()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    for expected in ["-O0", "-disable-O0-optnone", "-g", "-emit-llvm", "-c"] {
        assert!(args.iter().any(|a| a == expected), "{args:?}");
    }
    let o2 = CompileOptions {
        opt_level: 9,
        ..CompileOptions::default()
    };
    let args = clang_args(Path::new("a.c"), Path::new("a.bc"), &o2);
    assert!(args.iter().any(|a| a == "-O3"));
    assert!(!args.iter().any(|a| a == "-disable-O0-optnone"));
}

#[test]
fn linking_only_what_is_needed() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let opts = CompileOptions::default();
    let prog = write(
        dir.path(),
        "prog.c",
        "int helper(int);\nint main(void) { return helper(2); }\n",
    );
    let lib = write(
        dir.path(),
        "lib.c",
        "int inner(int x) { return x + 1; }\n\
         int helper(int x) { return inner(x) * 2; }\n\
         int unused(int x) { return x - 1; }\n",
    );
    let prog_bc = compile_c(&prog, &out, &opts).unwrap();
    let lib_bc = compile_c(&lib, &out, &opts).unwrap();

    let needed = out.join("needed.bc");
    link_with_libraries(
        std::slice::from_ref(&prog_bc),
        std::slice::from_ref(&lib_bc),
        &needed,
    )
    .unwrap();
    let m = load_module(&needed).unwrap();
    assert!(!func(&m, "helper").is_declaration);
    assert!(!func(&m, "inner").is_declaration);
    assert!(m.function_by_name("unused").is_none());

    let everything = out.join("all.bc");
    link_bitcode(&[prog_bc.clone(), lib_bc.clone()], &everything).unwrap();
    let m = load_module(&everything).unwrap();
    assert!(!func(&m, "unused").is_declaration);

    // Several program files are linked completely before the libraries.
    let second = write(dir.path(), "second.c", "int second(void) { return 5; }\n");
    let second_bc = compile_c(&second, &out, &opts).unwrap();
    let multi = out.join("multi.bc");
    link_with_libraries(
        &[prog_bc.clone(), second_bc],
        std::slice::from_ref(&lib_bc),
        &multi,
    )
    .unwrap();
    let m = load_module(&multi).unwrap();
    assert!(!func(&m, "second").is_declaration);
    assert!(m.function_by_name("unused").is_none());

    // Conflicting definitions are a link error with llvm-link's message.
    let err = link_bitcode(&[lib_bc.clone(), lib_bc], &out.join("dup.bc")).unwrap_err();
    match err {
        IrError::Link { diagnostics, .. } => {
            assert!(
                diagnostics.contains("symbol multiply defined"),
                "{diagnostics}"
            )
        }
        other => panic!("expected a link error, got {other:?}"),
    }
}
