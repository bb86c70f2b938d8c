//! Lowers a generated program with many functions. `SEAR_IR_SCALE_FUNCS` sets the number
//! of functions (default 200); the time taken is printed.

use sear_ir::frontend::{compile_c, CompileOptions};
use sear_ir::*;
use std::fmt::Write;
use std::time::Instant;

fn generate(n: usize) -> String {
    let mut src =
        String::from("struct rec { int a; long b; char name[12]; };\nstruct rec table[64];\n");
    for i in 0..n {
        let _ = write!(
            src,
            "int f{i}(int x, struct rec *r) {{\n\
               int acc = {i};\n\
               for (int k = 0; k < x; k++) {{\n\
                 switch ((k + {i}) % 4) {{\n\
                 case 0: acc += r[k % 8].a; break;\n\
                 case 1: acc ^= (int)r->b; break;\n\
                 case 2: acc -= r->name[k % 12]; break;\n\
                 default: acc *= 3;\n\
                 }}\n\
               }}\n\
               return acc + table[{i} % 64].a{call};\n\
             }}\n",
            call = if i > 0 {
                format!(" + f{}(x - 1, r)", i - 1)
            } else {
                String::new()
            }
        );
    }
    src.push_str("int main(void) { return 0; }\n");
    src
}

#[test]
fn many_functions() {
    let n: usize = std::env::var("SEAR_IR_SCALE_FUNCS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(200);
    let dir = tempfile::tempdir().unwrap();
    let c = dir.path().join("gen.c");
    std::fs::write(&c, generate(n)).unwrap();
    let started = Instant::now();
    let bc = compile_c(&c, dir.path(), &CompileOptions::default()).unwrap();
    let compiled = started.elapsed();
    let started = Instant::now();
    let m = load_module(&bc).unwrap();
    let loaded = started.elapsed();
    let started = Instant::now();
    verify(&m).unwrap();
    let verified = started.elapsed();
    let instructions: usize = m
        .functions
        .iter()
        .flat_map(|f| f.blocks.iter())
        .map(|b| b.insts.len() + b.phis.len() + 1)
        .sum();
    eprintln!(
        "{n} functions, {instructions} instructions, {} bytes of bitcode: clang {compiled:?}, \
         load+lower {loaded:?}, verify {verified:?}",
        std::fs::metadata(&bc).unwrap().len()
    );
    assert_eq!(
        m.functions.iter().filter(|f| !f.is_declaration).count(),
        n + 1
    );
    assert!(instructions > n * 30);
}
