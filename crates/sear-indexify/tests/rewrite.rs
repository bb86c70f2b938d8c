//! The rewriter's rules on small C programs (spec §6.4): each program is compiled with
//! clang, indexified, and the rewritten functions are checked instruction by instruction.
//! The program is its own "linked" module here (no runtime), so external functions stay
//! declarations.

use std::path::PathBuf;

use sear_indexify::rewrite::Helper;
use sear_indexify::{prepare, BuilderKind, GValue, Prepared, Settings, Ty, BOTTOM};
use sear_ir::frontend::{compile_c, CompileOptions};
use sear_ir::{Callee, Constant, InstKind, Module, TypeKind};

fn compile(source: &str) -> (tempfile::TempDir, Module) {
    let dir = tempfile::tempdir().unwrap();
    let c = dir.path().join("prog.c");
    std::fs::write(&c, source).unwrap();
    let runtime = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../runtime/include");
    let options = CompileOptions {
        opt_level: 0,
        cflags: Vec::new(),
        include_dirs: Vec::new(),
        defines: Vec::new(),
        runtime_include_dir: Some(runtime),
    };
    let bc = compile_c(&c, dir.path(), &options).expect("clang");
    let module = sear_ir::load_module_verified(&bc).expect("load");
    (dir, module)
}

fn settings(strings: bool, floats: bool) -> Settings {
    Settings {
        strings,
        floats,
        seeds_file: None,
        add_seeds_file: None,
        k: 0,
        builder: BuilderKind::Ops,
        max_len: 8,
        max_garden: 256,
        fplus: None,
        entry: "main".into(),
    }
}

fn indexify(source: &str, settings: Settings) -> (Module, Prepared) {
    let (_dir, module) = compile(source);
    let before = sear_ir::print_module(&module);
    let prepared = prepare(&module, &module, &settings, None).expect("prepare");
    assert_eq!(
        sear_ir::print_module(&module),
        before,
        "the original module is left intact"
    );
    sear_ir::verify(&prepared.module).expect("the indexed module verifies");
    (module, prepared)
}

/// The calls a function makes, in order, by callee name.
fn calls(m: &Module, function: &str) -> Vec<String> {
    let f = m.function(m.function_by_name(function).expect("function"));
    f.blocks
        .iter()
        .flat_map(|b| &b.insts)
        .filter_map(|i| match &i.kind {
            InstKind::Call {
                callee: Callee::Direct(g),
                ..
            } => Some(m.function(*g).name.clone()),
            _ => None,
        })
        .collect()
}

fn helper(p: &Prepared, h: Helper) -> String {
    assert!(
        p.helpers.get(&h.name()) == Some(&h),
        "helper {} declared",
        h.name()
    );
    h.name()
}

/// Rule 8 twice and rule 9: a call to an unindexed function with two indexed arguments
/// whose result goes into an indexed variable is `x̂ := δ(f(δ⁻¹(a), δ⁻¹(b)))`.
#[test]
fn unindexed_call_with_indexed_arguments() {
    let (_, p) = indexify(
        "double ext(double, double);\n\
         double g(double a, double b) { double x = ext(a * 2.0, b); return x + 1.0; }\n",
        settings(false, true),
    );
    let undelta = helper(&p, Helper::Undelta(Ty::F64));
    let delta = helper(&p, Helper::Delta(Ty::F64));
    let c = calls(&p.module, "g");
    let at = c
        .iter()
        .position(|n| n == "ext")
        .expect("ext is still called");
    assert_eq!(&c[at - 2..at], [undelta.clone(), undelta]);
    assert_eq!(c[at + 1], delta, "{c:?}");
    assert!(c.contains(&"__indexify_i_fmul.f64".to_string()), "{c:?}");
    assert!(c.contains(&"__indexify_i_fadd.f64".to_string()), "{c:?}");
    // g's own signature carries indices (rule 3 on parameters and result)
    let g = p.module.function(p.module.function_by_name("g").unwrap());
    for t in g.params.iter().chain([&g.ret]) {
        assert_eq!(p.module.ty(*t).kind, TypeKind::Int(32));
    }
}

/// Rules 7 and 10: `x := f̂(a, y)` with `y` and `x` unindexed (a struct field read and
/// written through a pointer) is `x := δ⁻¹(f̂(a, δ(y)))`.
#[test]
fn indexed_operator_between_unindexed_locations() {
    let (_, p) = indexify(
        "struct P { double x, y; };\n\
         void h(struct P *p, double a) { p->x = a + p->y; }\n",
        settings(false, true),
    );
    let c = calls(&p.module, "h");
    assert_eq!(
        c,
        [
            helper(&p, Helper::Delta(Ty::F64)),
            "__indexify_i_fadd.f64".to_string(),
            helper(&p, Helper::Undelta(Ty::F64)),
        ]
    );
}

/// Casts: from an indexed type to an unindexed one, δ⁻¹ then the cast; from an unindexed
/// type to an indexed one, the cast then δ; between indexed types and to integers, tables.
#[test]
fn casts_cross_the_index_boundary() {
    let (_, p) = indexify(
        "long double wide(double x) { return (long double)x; }\n\
         double from_int(int n) { return (double)n; }\n\
         long to_int(double x) { return (long)x; }\n\
         float narrow(double x) { return (float)x; }\n",
        settings(false, true),
    );
    assert_eq!(
        calls(&p.module, "wide"),
        [helper(&p, Helper::Undelta(Ty::F64))]
    );
    assert_eq!(
        calls(&p.module, "from_int"),
        [helper(&p, Helper::Delta(Ty::F64))]
    );
    assert_eq!(calls(&p.module, "to_int"), ["__indexify_i_fptosi.i64.f64"]);
    assert_eq!(calls(&p.module, "narrow"), ["__indexify_i_fptrunc.f64.f32"]);
}

/// Rules 3 and 4 on a global: `static const char *p = "bar"` becomes an index global whose
/// initialiser is δ("bar"), no call; rule 5 makes a literal outside the garden ⊥.
#[test]
fn string_global_gets_an_index_initialiser() {
    let source = "#include <string.h>\n\
         static const char *p = \"bar\";\n\
         int f(const char *s) { return strcmp(s, p); }\n";
    let (_, prep) = indexify(source, settings(true, false));
    let m = &prep.module;
    let g = m.global(m.global_index["p"]);
    assert_eq!(m.ty(g.ty).kind, TypeKind::Int(32));
    let index = prep
        .tables
        .garden(Ty::Str)
        .unwrap()
        .delta(&GValue::str(b"bar"));
    assert_ne!(index, BOTTOM);
    assert_eq!(
        m.constant(g.init.unwrap()),
        &Constant::Int {
            width: 32,
            value: index as u128
        }
    );
    assert_eq!(calls(m, "f"), ["__indexify_i_strcmp"]);
    // --seeds without "bar": the literal is ⊥ (rule 5)
    let dir = tempfile::tempdir().unwrap();
    let seeds = dir.path().join("seeds");
    std::fs::write(&seeds, "\"foo\"\n").unwrap();
    let mut s = settings(true, false);
    s.seeds_file = Some(seeds);
    let (_, prep) = indexify(source, s);
    let m = &prep.module;
    let g = m.global(m.global_index["p"]);
    assert_eq!(
        m.constant(g.init.unwrap()),
        &Constant::Int {
            width: 32,
            value: BOTTOM as u128
        }
    );
    assert_eq!(prep.stats.rewrite.literals_bottom, 1);
}

/// Strings: F₊ calls are renamed to tables with literal arguments as indices; a buffer
/// used as a string and made symbolic becomes a symbolic index; a retyped `char *` passed
/// to another function is materialised (δ⁻¹).
#[test]
fn string_calls_and_inputs() {
    let (_, p) = indexify(
        "#include <string.h>\n#include <stdio.h>\n#include <klee/klee.h>\n\
         int check(const char *v) { return strncmp(v, \"NVidia\", 4) == 0; }\n\
         int main(void) { char buf[16]; const char *q = \"ATI\";\n\
           klee_make_symbolic(buf, sizeof buf, \"buf\");\n\
           puts(q); return check(buf); }\n",
        settings(true, false),
    );
    assert_eq!(calls(&p.module, "check"), ["__indexify_i_strncmp"]);
    let main = calls(&p.module, "main");
    assert_eq!(
        main,
        [
            helper(&p, Helper::SymbolicValue(Ty::Str)),
            helper(&p, Helper::Undelta(Ty::Str)),
            "puts".to_string(),
            "check".to_string(),
        ]
    );
    assert_eq!(p.stats.rewrite.retyped_cells, 1, "the char * q");
    assert_eq!(p.stats.rewrite.symbolic_inputs, 1);
}

/// A float variable whose address escapes (fdlibm's __HI) keeps its bytes: stores write
/// δ⁻¹, loads read δ, and klee_make_symbolic writes δ⁻¹ of a symbolic index; a variable
/// used only by loads and stores becomes an index cell.
#[test]
fn escaped_and_retyped_float_cells() {
    let (_, p) = indexify(
        "#include <klee/klee.h>\n\
         int hi(double x) { return *(1 + (int *)&x); }\n\
         int main(void) { double a, b; klee_make_symbolic(&a, sizeof a, \"a\");\n\
           klee_make_symbolic(&b, sizeof b, \"b\"); int *w = (int *)&b;\n\
           return hi(a) + w[1] + (a < 1.5); }\n",
        settings(false, true),
    );
    let main = calls(&p.module, "main");
    assert!(
        main.contains(&helper(&p, Helper::SymbolicIndex(Ty::F64))),
        "{main:?}"
    );
    assert!(
        main.contains(&helper(&p, Helper::SymbolicValue(Ty::F64))),
        "{main:?}"
    );
    assert!(main.contains(&"__indexify_i_fcmp.olt.f64".to_string()));
    // hi's parameter is stored into its escaping cell through δ⁻¹
    assert_eq!(
        calls(&p.module, "hi"),
        [helper(&p, Helper::Undelta(Ty::F64))]
    );
}
