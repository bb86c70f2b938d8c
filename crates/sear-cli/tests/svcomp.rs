//! `--sv-comp` verdicts: the older formats compile, MemSafety's properties are named, the
//! older tasks' uninitialised locals are inputs, and a program's own `exit` does not hide
//! the end of `main` (the Test-Comp suites are tests/testcomp.rs').

mod common;

use common::{sear, text, write};

use std::path::Path;

/// The verdict line of `sear run --sv-comp ARGS... PROGRAM` on `source`.
fn verdict_of(dir: &Path, name: &str, source: &str, args: &[&str]) -> String {
    write(dir, name, source);
    let out = format!("{name}.out");
    let mut all = vec!["run", "--no-progress", "--output-dir", &out, "--sv-comp"];
    all.extend_from_slice(args);
    all.push(name);
    let o = sear(&all, dir);
    assert!(o.status.success(), "{name}: {}", text(&o.stderr));
    text(&o.stdout).trim().to_string()
}

/// An old-format task (SV-COMP before 2020): `__VERIFIER_assume` called undeclared,
/// implicit `int`, a K&R definition and `__VERIFIER_error`. clang 19 rejects the first two
/// as errors unless told otherwise; --sv-comp compiles them as the competition's other
/// tools do.
#[test]
fn old_format_task_compiles_under_sv_comp() {
    let tmp = tempfile::tempdir().unwrap();
    let source = "extern void __VERIFIER_error(void);\n\
                  extern int __VERIFIER_nondet_int(void);\n\
                  int add(a, b) int a; int b; { return a + b; }\n\
                  main() {\n\
                  \x20 int x = __VERIFIER_nondet_int();\n\
                  \x20 __VERIFIER_assume(x > 0 && x < 10);\n\
                  \x20 if (add(x, 1) == 5) { ERROR: __VERIFIER_error(); }\n\
                  \x20 return 0;\n\
                  }\n";
    let line = verdict_of(tmp.path(), "old_false-unreach-call.c", source, &[]);
    assert!(line.starts_with("sear: verdict: FALSE"), "{line}");
    // Without the competition's conventions, clang's errors stand.
    let o = sear(
        &["run", "--no-progress", "old_false-unreach-call.c"],
        tmp.path(),
    );
    assert!(!o.status.success());
    assert!(
        text(&o.stderr).contains("__VERIFIER_assume"),
        "{}",
        text(&o.stderr)
    );
}

/// valid-memsafety: each property's violation is named, a leak at exit is one (memory
/// reachable from a global is not), and a safe program is TRUE.
#[test]
fn memsafety_verdicts_name_the_violated_property() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let prelude = "#include <stdlib.h>\nextern int __VERIFIER_nondet_int(void);\n";
    let cases = [
        (
            "deref.c",
            "int main(void) { int *p = malloc(4 * sizeof(int)); int i = __VERIFIER_nondet_int();\n\
             if (i >= 0 && i <= 4) p[i] = 1; free(p); return 0; }\n",
            "FALSE(valid-deref)",
        ),
        (
            "free.c",
            "int main(void) { int *p = malloc(8); free(p);\n\
             if (__VERIFIER_nondet_int() == 3) free(p); return 0; }\n",
            "FALSE(valid-free)",
        ),
        (
            "leak.c",
            "struct node { struct node *next; };\n\
             int main(void) { struct node *a = malloc(sizeof *a); a->next = malloc(sizeof *a);\n\
             if (__VERIFIER_nondet_int()) free(a->next); free(a); return 0; }\n",
            "FALSE(valid-memtrack)",
        ),
        (
            "global.c",
            "struct node { struct node *next; } *head;\n\
             int main(void) { head = malloc(sizeof *head); head->next = malloc(sizeof *head);\n\
             head->next->next = 0; return 0; }\n",
            "TRUE",
        ),
        (
            // Memory only main's locals point to is lost when main returns, as
            // sv-benchmarks labels it (list-properties/simple-2: valid-memtrack violated).
            "local.c",
            "int main(void) { int *p = malloc(4); *p = __VERIFIER_nondet_int(); return 0; }\n",
            "FALSE(valid-memtrack)",
        ),
        (
            "safe.c",
            "int main(void) { int n = __VERIFIER_nondet_int(); int *p = malloc(16);\n\
             if (n > 0 && n < 4) p[n] = n; free(p); return 0; }\n",
            "TRUE",
        ),
    ];
    for (name, body, expected) in cases {
        let line = verdict_of(
            dir,
            name,
            &format!("{prelude}{body}"),
            &["--property", "valid-memsafety"],
        );
        assert!(
            line.starts_with(&format!("sear: verdict: {expected} (")),
            "{name}: {line}"
        );
    }
    // The property file names the property too.
    let prp = write(
        dir,
        "valid-memsafety.prp",
        "CHECK( init(main()), LTL(G valid-free) )\nCHECK( init(main()), LTL(G valid-deref) )\n\
         CHECK( init(main()), LTL(G valid-memtrack) )\n",
    );
    let line = verdict_of(
        dir,
        "leak2.c",
        &format!("{prelude}int main(void) {{ malloc(3); return 0; }}\n"),
        &["--property", prp.to_str().unwrap()],
    );
    assert!(
        line.starts_with("sear: verdict: FALSE(valid-memtrack)"),
        "{line}"
    );
    // Under unreach-call, the leak is no error.
    let line = verdict_of(
        dir,
        "leak3.c",
        &format!("{prelude}int main(void) {{ malloc(3); return 0; }}\n"),
        &[],
    );
    assert!(line.starts_with("sear: verdict: TRUE"), "{line}");
}

/// Older tasks use uninitialised locals as inputs (`unsigned int y;` read before any
/// write): under --sv-comp they are nondeterministic, so both outcomes are explored.
#[test]
fn uninitialised_locals_are_nondeterministic_under_sv_comp() {
    let tmp = tempfile::tempdir().unwrap();
    let source = "extern void __VERIFIER_error(void);\n\
                  int main(void) {\n\
                  \x20 unsigned int y;\n\
                  \x20 struct { int a; char c; } s;\n\
                  \x20 if (y == 12345u && s.c == 'x') __VERIFIER_error();\n\
                  \x20 return 0;\n\
                  }\n";
    let line = verdict_of(tmp.path(), "uninit.c", source, &[]);
    assert!(line.starts_with("sear: verdict: FALSE"), "{line}");
}

/// A program that defines its own `exit` (older list tasks: an endless loop, so that
/// `exit(1)` after a failed malloc ends the path): returning from main still ends the
/// program, so the leak at its end is seen.
#[test]
fn returning_from_main_ends_a_program_with_its_own_exit() {
    let tmp = tempfile::tempdir().unwrap();
    let source = "#include <stdlib.h>\n\
                  void exit(int s) { _EXIT: goto _EXIT; }\n\
                  int main(void) { int *p = malloc(8); if (!p) exit(1); return 0; }\n";
    let line = verdict_of(
        tmp.path(),
        "own_exit.c",
        source,
        &["--property", "valid-memsafety", "--max-time", "20"],
    );
    assert!(
        line.starts_with("sear: verdict: FALSE(valid-memtrack)"),
        "{line}"
    );
}
