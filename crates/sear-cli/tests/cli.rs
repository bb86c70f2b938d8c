//! The `sear` command line: bad input, limits, determinism.

mod common;

use common::sear;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn assert_clean_failure(o: &Output, needle: &str) {
    let err = stderr(o);
    assert!(!o.status.success(), "expected failure, got success: {err}");
    assert!(!err.contains("panicked"), "panic: {err}");
    assert!(err.contains(needle), "expected {needle:?} in: {err}");
}

fn summary(dir: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(dir.join("summary.json")).unwrap()).unwrap()
}

#[test]
fn missing_file_is_a_clear_error() {
    let tmp = tempfile::tempdir().unwrap();
    let o = sear(&["run", "nope.c"], tmp.path());
    assert_clean_failure(&o, "nope.c: no such file");
    assert!(!tmp.path().join("sear-out-0").exists());
}

#[test]
fn compilation_errors_are_shown_as_clang_printed_them() {
    let tmp = tempfile::tempdir().unwrap();
    write(tmp.path(), "bad.c", "int main(void) {\n  return x;\n}\n");
    let o = sear(&["run", "bad.c"], tmp.path());
    assert_clean_failure(&o, "bad.c:2:10: error: use of undeclared identifier 'x'");
}

#[test]
fn malformed_bitcode_is_rejected() {
    let tmp = tempfile::tempdir().unwrap();
    write(tmp.path(), "junk.bc", "this is not bitcode");
    let o = sear(&["run", "junk.bc"], tmp.path());
    assert_clean_failure(&o, "junk.bc");
    write(tmp.path(), "junk.ll", "define i32 @main( {\n");
    let o = sear(&["run", "junk.ll"], tmp.path());
    assert_clean_failure(&o, "junk.ll");
}

#[test]
fn unsupported_main_signature_is_rejected_before_any_output() {
    let tmp = tempfile::tempdir().unwrap();
    write(
        tmp.path(),
        "m.c",
        "int f(double d) { return d > 1; }\nint main(void) { return 0; }\n",
    );
    let o = sear(
        &["run", "--output-dir", "out", "--entry", "f", "m.c"],
        tmp.path(),
    );
    assert_clean_failure(&o, "unsupported signature");
    assert!(
        !tmp.path().join("out").exists(),
        "output directory was created"
    );
}

#[test]
fn output_directory_is_never_overwritten() {
    let tmp = tempfile::tempdir().unwrap();
    write(tmp.path(), "p.c", "int main(void) { return 0; }\n");
    std::fs::create_dir(tmp.path().join("out")).unwrap();
    write(&tmp.path().join("out"), "keep.txt", "precious");
    let o = sear(&["run", "--output-dir", "out", "p.c"], tmp.path());
    assert_clean_failure(&o, "not empty");
    assert_eq!(
        std::fs::read_to_string(tmp.path().join("out/keep.txt")).unwrap(),
        "precious"
    );
    // An output directory that cannot be created.
    write(tmp.path(), "afile", "x");
    let o = sear(&["run", "--output-dir", "afile/sub", "p.c"], tmp.path());
    assert_clean_failure(&o, "afile/sub");
}

#[test]
fn default_output_directory_and_last_link() {
    let tmp = tempfile::tempdir().unwrap();
    write(tmp.path(), "p.c", "int main(void) { return 0; }\n");
    assert!(sear(&["run", "--no-progress", "p.c"], tmp.path())
        .status
        .success());
    assert!(sear(&["run", "--no-progress", "p.c"], tmp.path())
        .status
        .success());
    assert!(tmp.path().join("sear-out-0/test000001.ktest").is_file());
    assert!(tmp.path().join("sear-out-1/test000001.ktest").is_file());
    let link = std::fs::read_link(tmp.path().join("sear-last")).unwrap();
    assert_eq!(link, PathBuf::from("sear-out-1"));
}

const ENDLESS: &str = r#"
#include "klee/klee.h"
int main(void) {
    unsigned char buf[64];
    klee_make_symbolic(buf, sizeof buf, "buf");
    unsigned n = 0;
    for (int round = 0; ; round++)
        for (int i = 0; i < 64; i++)
            if (buf[i] == (unsigned char)(round + i)) n++;
    return n;
}
"#;

#[test]
fn limits_stop_the_run_and_keep_every_test() {
    let tmp = tempfile::tempdir().unwrap();
    write(tmp.path(), "endless.c", ENDLESS);
    let o = sear(
        &[
            "run",
            "--no-progress",
            "--output-dir",
            "out",
            "--max-instructions",
            "20000",
            "endless.c",
        ],
        tmp.path(),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let s = summary(&tmp.path().join("out"));
    assert_eq!(s["stop_reason"], "max-instructions");
    let tests = s["tests"].as_u64().unwrap();
    assert!(tests > 1, "expected tests for the halted states");
    assert_eq!(s["early_paths"].as_u64().unwrap(), tests);
    let files = std::fs::read_dir(tmp.path().join("out"))
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .path()
                .extension()
                .is_some_and(|x| x == "ktest")
        })
        .count() as u64;
    assert_eq!(files, tests);

    let o = sear(
        &[
            "run",
            "--no-progress",
            "--output-dir",
            "out2",
            "--max-time",
            "1",
            "endless.c",
        ],
        tmp.path(),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(summary(&tmp.path().join("out2"))["stop_reason"], "max-time");
}

#[test]
fn same_program_options_and_seed_give_identical_outputs() {
    let tmp = tempfile::tempdir().unwrap();
    let program = r#"
#include "klee/klee.h"
int main(void) {
    int a[8];
    klee_make_symbolic(a, sizeof a, "a");
    int n = 0;
    for (int i = 0; i < 8; i++)
        if (a[i] > i) n++;
    return n;
}
"#;
    write(tmp.path(), "d.c", program);
    for dir in ["r1", "r2"] {
        let o = sear(
            &[
                "run",
                "--no-progress",
                "--output-dir",
                dir,
                "--seed",
                "7",
                "--max-instructions",
                "3000",
                "d.c",
            ],
            tmp.path(),
        );
        assert!(o.status.success(), "{}", stderr(&o));
    }
    let list = |d: &str| {
        let mut v: Vec<_> = std::fs::read_dir(tmp.path().join(d))
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .filter(|n| n.ends_with(".ktest"))
            .collect();
        v.sort();
        v
    };
    let (a, b) = (list("r1"), list("r2"));
    assert_eq!(a, b);
    assert!(a.len() > 3);
    for name in &a {
        let x = std::fs::read(tmp.path().join("r1").join(name)).unwrap();
        let y = std::fs::read(tmp.path().join("r2").join(name)).unwrap();
        assert_eq!(x, y, "{name} differs");
    }
    let (s1, s2) = (
        summary(&tmp.path().join("r1")),
        summary(&tmp.path().join("r2")),
    );
    for key in [
        "completed_paths",
        "error_paths",
        "tests",
        "instructions",
        "forks",
    ] {
        assert_eq!(s1[key], s2[key], "{key}");
    }
}

#[test]
fn unsupported_external_function_is_an_exec_error_naming_it() {
    let tmp = tempfile::tempdir().unwrap();
    write(
        tmp.path(),
        "ext.c",
        "int mystery(int);\nint main(void) {\n  return mystery(3);\n}\n",
    );
    let o = sear(
        &["run", "--no-progress", "--output-dir", "out", "ext.c"],
        tmp.path(),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let s = summary(&tmp.path().join("out"));
    let errors = s["errors"].as_array().unwrap();
    assert_eq!(errors.len(), 1);
    assert_eq!(errors[0]["kind"], "exec");
    assert!(errors[0]["message"].as_str().unwrap().contains("'mystery'"));
    assert_eq!(errors[0]["line"], 3);
    assert!(tmp.path().join("out/test000001.exec.err").is_file());
}

/// Runs sear with stdout and stderr connected to pipes whose reading ends are closed (like
/// `sear ... 2>&1 | head -c1` after head has exited): every write fails with EPIPE.
fn sear_closed_pipes(args: &[&str], cwd: &Path) -> std::process::ExitStatus {
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let mut child = Command::new(env!("CARGO_BIN_EXE_sear"))
        .args(args)
        .current_dir(cwd)
        .stdout(writer.try_clone().unwrap())
        .stderr(writer)
        .spawn()
        .expect("sear runs");
    child.wait().unwrap()
}

const PRINTING: &str = r#"
#include "klee/klee.h"
int main(void) {
    int x;
    klee_make_symbolic(&x, sizeof x, "x");
    klee_print_expr("x", x);
    int *p = 0;
    if (x == 1) return *p;
    if (x == 2) return 10 / (x - 2);
    return 0;
}
"#;

#[test]
fn closed_stdout_and_stderr_lose_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    write(tmp.path(), "p.c", PRINTING);
    let status = sear_closed_pipes(&["run", "--output-dir", "out", "p.c"], tmp.path());
    assert!(status.success(), "sear run: {status}");
    let s = summary(&tmp.path().join("out"));
    assert_eq!(s["tests"].as_u64(), Some(3));
    assert!(tmp.path().join("out/test000003.ktest").is_file());
    let status = sear_closed_pipes(&["ktest", "out/test000001.ktest"], tmp.path());
    assert!(status.success(), "sear ktest: {status}");
    let status = sear_closed_pipes(&["replay", "--json", "out"], tmp.path());
    assert!(status.success(), "sear replay --json: {status}");
    let status = sear_closed_pipes(&["replay", "out"], tmp.path());
    assert!(status.success(), "sear replay: {status}");
    write(
        tmp.path(),
        "q.smt2",
        "(declare-fun a () (_ BitVec 8))\n(assert (= a #x01))\n(check-sat)\n(get-model)\n",
    );
    let status = sear_closed_pipes(&["solve", "--stats", "q.smt2"], tmp.path());
    assert!(status.success(), "sear solve: {status}");
    // A failing command reports its error to a closed stderr without a panic.
    let status = sear_closed_pipes(&["run", "nope.c"], tmp.path());
    assert_eq!(status.code(), Some(1));
}

#[test]
fn host_files_must_be_small_regular_files() {
    let tmp = tempfile::tempdir().unwrap();
    write(tmp.path(), "p.c", "int main(void) { return 0; }\n");
    write(tmp.path(), "small.txt", "0123456789");
    // /dev/zero would be read forever.
    let o = sear(
        &[
            "run",
            "--output-dir",
            "out",
            "--host-file",
            "/dev/zero",
            "p.c",
        ],
        tmp.path(),
    );
    assert_clean_failure(&o, "--host-file /dev/zero: is not a regular file");
    let o = sear(&["run", "--host-file", ".", "p.c"], tmp.path());
    assert_clean_failure(&o, "is a directory");
    let o = sear(
        &[
            "run",
            "--max-host-file-size",
            "9",
            "--host-file",
            "small.txt",
            "p.c",
        ],
        tmp.path(),
    );
    assert_clean_failure(&o, "10 bytes is more than --max-host-file-size (9 bytes)");
    assert!(!tmp.path().join("out").exists());
    let o = sear(
        &[
            "run",
            "--no-progress",
            "--output-dir",
            "ok",
            "--max-host-file-size",
            "10",
            "--host-file",
            "small.txt",
            "p.c",
        ],
        tmp.path(),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    // The host-file table has the program's data layout: linking is silent.
    assert!(!stderr(&o).contains("warning"), "{}", stderr(&o));
}

#[test]
fn numeric_options_are_range_checked() {
    let tmp = tempfile::tempdir().unwrap();
    write(tmp.path(), "p.c", "int main(void) { return 0; }\n");
    write(tmp.path(), "q.smt2", "(check-sat)\n");
    let cases: &[(&[&str], &str)] = &[
        (&["run", "--max-time=-1", "p.c"], "seconds from 0 to"),
        (&["run", "--max-time", "inf", "p.c"], "not a finite number"),
        (&["run", "--max-time", "nan", "p.c"], "not a finite number"),
        (&["run", "--max-time", "1e300", "p.c"], "seconds from 0 to"),
        (
            &["run", "--max-solver-time", "1e300", "p.c"],
            "seconds from 0 to",
        ),
        (
            &["solve", "--max-solver-time", "1e300", "q.smt2"],
            "seconds from 0 to",
        ),
        (&["run", "--core-switch-time", "0", "p.c"], "above 0"),
        (&["run", "-O", "9", "p.c"], "0..=3"),
        (&["run", "--sym-arg", "4000000000", "p.c"], "0..=100000000"),
        (&["run", "--sym-stdin=-5", "p.c"], "--sym-stdin"),
        (&["run", "--max-stack-frames", "0", "p.c"], "1..=1048576"),
        (&["run", "--max-memory", "0", "p.c"], "1..="),
        (
            &["run", "--array-value-ratio", "2", "p.c"],
            "ratio from 0 to 1",
        ),
        (
            &["run", "--axiom-extras=maybe", "p.c"],
            "[possible values: on, off]",
        ),
        (
            &["run", "--dump-states-on-halt=no", "p.c"],
            "--dump-states-on-halt",
        ),
        (&["solve", "--ilp-precheck=2", "q.smt2"], "--ilp-precheck"),
        (&["replay", "--timeout=-1", "."], "--timeout"),
        (&["replay", "--timeout", "1e300", "."], "above 0"),
    ];
    for (args, needle) in cases {
        let o = sear(args, tmp.path());
        assert_clean_failure(&o, needle);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
    }
    // Among the program's arguments, the model's options are checked by sear too.
    let o = sear(&["run", "p.c", "x", "--sym-arg", "4000000000"], tmp.path());
    assert_clean_failure(&o, "a number from 0 to 100000000, not 4000000000");
}

#[test]
fn bad_inputs_get_readable_messages() {
    let tmp = tempfile::tempdir().unwrap();
    // A directory is not a missing file.
    let o = sear(&["run", "."], tmp.path());
    assert_clean_failure(&o, ".: is a directory");
    // Binary garbage is never echoed.
    std::fs::write(tmp.path().join("g.bc"), b"\x00\x1b[31mgarbage\xff\xfe\n").unwrap();
    std::fs::write(tmp.path().join("g.ll"), b"\x00\x1b[31mgarbage\xff\xfe\n").unwrap();
    for name in ["g.bc", "g.ll"] {
        let o = sear(&["run", name], tmp.path());
        assert_clean_failure(&o, "not LLVM bitcode or IR");
        assert!(!o.stderr.contains(&0x1b), "{name}: raw bytes echoed");
        assert!(!stderr(&o).contains("garbage"), "{name}: contents echoed");
    }
    // Truncated bitcode.
    write(tmp.path(), "p.c", "int main(void) { return 0; }\n");
    let clang = sear_ir::frontend::find_tool("clang-19", "clang").unwrap();
    let status = Command::new(clang)
        .args(["-c", "-emit-llvm", "-o", "p.bc", "p.c"])
        .current_dir(tmp.path())
        .status()
        .unwrap();
    assert!(status.success());
    let bitcode = std::fs::read(tmp.path().join("p.bc")).unwrap();
    std::fs::write(tmp.path().join("t.bc"), &bitcode[..bitcode.len() / 3]).unwrap();
    let o = sear(&["run", "t.bc"], tmp.path());
    assert_clean_failure(
        &o,
        "t.bc: cannot parse LLVM IR: truncated or corrupt bitcode",
    );
    // A bitcode program runs without the data-layout warning of llvm-link.
    let o = sear(
        &["run", "--no-progress", "--output-dir", "b", "p.bc"],
        tmp.path(),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(!stderr(&o).contains("warning"), "{}", stderr(&o));
    // So does textual IR without a data layout (sear assumes x86-64's, as the runtime has).
    write(tmp.path(), "n.ll", "define i32 @main() {\n  ret i32 0\n}\n");
    let o = sear(
        &["run", "--no-progress", "--output-dir", "n", "n.ll"],
        tmp.path(),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(!stderr(&o).contains("warning"), "{}", stderr(&o));
    // An output directory that cannot be created: the OS error once.
    let o = sear(&["run", "--output-dir", "/proc/no/such", "p.c"], tmp.path());
    assert_clean_failure(&o, "/proc/no/such");
    let err = stderr(&o);
    assert_eq!(err.matches("No such file or directory").count(), 1, "{err}");
}

/// `--exit-on-error` stops at the first error and exits with status 1, as KLEE does (scripts
/// test the status); without it, or when no error was found, the status is 0.
#[test]
fn exit_on_error_exits_with_status_one() {
    let tmp = tempfile::tempdir().unwrap();
    write(
        tmp.path(),
        "bug.c",
        "#include \"klee/klee.h\"\nint main(void) { int x; klee_make_symbolic(&x, sizeof x, \"x\");\n\
         if (x == 42) klee_assert(0);\n return 0; }\n",
    );
    write(tmp.path(), "ok.c", "int main(void) { return 0; }\n");
    let run = |dir: &str, file: &str, flag: bool| {
        let mut args = vec!["run", "--no-progress", "--output-dir", dir];
        if flag {
            args.push("--exit-on-error");
        }
        args.push(file);
        sear(&args, tmp.path())
    };
    let o = run("a", "bug.c", true);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(tmp.path().join("a/summary.json").is_file());
    let o = run("b", "bug.c", false);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let o = run("c", "ok.c", true);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

/// Malformed environment-model options are refused before any path runs, as KLEE refuses
/// them: --sym-files twice, with 0 files or 0 bytes, and --sym-args with MIN > MAX or MAX 0.
#[test]
fn malformed_model_options_are_usage_errors() {
    let tmp = tempfile::tempdir().unwrap();
    write(tmp.path(), "p.c", "int main(void) { return 0; }\n");
    let cases: [(&[&str], &str); 5] = [
        (
            &["--sym-files", "1", "10", "--sym-files", "2", "10"],
            "given more than once",
        ),
        (&["--sym-files", "0", "10"], "number of files cannot be 0"),
        (&["--sym-files", "2", "0"], "file size cannot be 0"),
        (
            &["--sym-args", "3", "2", "10"],
            "invalid range to --sym-args",
        ),
        (
            &["--sym-args", "0", "0", "10"],
            "invalid range to --sym-args",
        ),
    ];
    for (i, (options, message)) in cases.iter().enumerate() {
        let dir = format!("o{i}");
        // As sear's options and among the program's arguments (KLEE style).
        let mut before = vec!["run", "--no-progress", "--output-dir", &dir];
        before.extend(options.iter());
        before.push("p.c");
        let mut after = vec!["run", "--no-progress", "--output-dir", &dir, "p.c"];
        after.extend(options.iter());
        for args in [before, after] {
            let o = sear(&args, tmp.path());
            assert_clean_failure(&o, message);
        }
    }
}

/// An .err file's stack trace shows each frame as KLEE prints it: `#N in f(args) at
/// FILE:LINE`, each argument a number or "symbolic", after its name when the module keeps
/// value names (KLEE's StackTraceOutput test: `in foo(i=symbolic, k=12) at FILE:LINE`, with
/// -fdiscard-value-names `in foo(symbolic, 12)`).
#[test]
fn err_stack_traces_show_arguments() {
    let tmp = tempfile::tempdir().unwrap();
    write(
        tmp.path(),
        "t.c",
        "#include \"klee/klee.h\"\nstatic void foo(int i, int k) {\n  ++i; ++k;\n  klee_assert(0);\n}\n\
         int main(void) {\n  int i, k = 12;\n  klee_make_symbolic(&i, sizeof i, \"i\");\n  foo(i, k);\n  return 0;\n}\n",
    );
    let o = sear(
        &["run", "--no-progress", "--output-dir", "o", "t.c"],
        tmp.path(),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let err = std::fs::read_to_string(tmp.path().join("o/test000001.assert.err")).unwrap();
    assert!(err.contains("#0 in foo(i=symbolic, k=12) at "), "{err}");
    assert!(err.contains("t.c:4"), "{err}");
    assert!(err.contains("#1 in main() at "), "{err}");
    let o = sear(
        &[
            "run",
            "--no-progress",
            "--output-dir",
            "n",
            "--cflags=-fdiscard-value-names",
            "t.c",
        ],
        tmp.path(),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let err = std::fs::read_to_string(tmp.path().join("n/test000001.assert.err")).unwrap();
    assert!(err.contains("#0 in foo(symbolic, 12) at "), "{err}");
}

/// main's envp is the environment sear runs in, as KLEE's is, without sear's and the
/// replay's control variables (SEAR_*, ASAN_OPTIONS, ...); `sear replay` gives the native
/// run the same environment, so its output matches.
#[test]
fn the_program_sees_the_environment_sear_runs_in() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "env.c",
        r#"#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int main(int argc, char **argv, char **envp) {
    int control = 0;
    for (char **e = envp; *e; e++)
        control |= strncmp(*e, "SEAR_", 5) == 0 || strncmp(*e, "ASAN_OPTIONS=", 13) == 0;
    printf("probe=%s control=%d\n", getenv("ENV_PROBE"), control);
    return 0;
}
"#,
    );
    let with_env = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_sear"))
            .args(args)
            .current_dir(dir.path())
            .env("ENV_PROBE", "one two")
            .env("SEAR_HIDDEN", "1")
            .env("ASAN_OPTIONS", "verbosity=0")
            .output()
            .expect("sear runs")
    };
    let run = with_env(&["run", "--no-progress", "--output-dir", "out", "env.c"]);
    assert!(run.status.success(), "{}", stderr(&run));
    let printed = std::fs::read_to_string(dir.path().join("out/test000001.stdout")).unwrap();
    assert_eq!(printed, "probe=one two control=0\n");
    let replay = with_env(&["replay", "out"]);
    assert!(replay.status.success(), "{}", stderr(&replay));
    let report = String::from_utf8_lossy(&replay.stdout).into_owned() + &stderr(&replay);
    assert!(report.contains("1 of 1 outputs match"), "{report}");
}

/// -O on a .bc/.ll module runs `opt -O<N>` on it first (KLEE's --optimize): a loop summing
/// 1..1000 folds to a constant, so the program finishes within 100 instructions, which the
/// unoptimised module does not (KLEE's Optimize test).
#[test]
fn optimisation_level_applies_to_modules() {
    let tmp = tempfile::tempdir().unwrap();
    write(
        tmp.path(),
        "sum.ll",
        "define i32 @main() {\nentry:\n  br label %loop\nloop:\n  %i = phi i32 [ 1, %entry ], [ %next, %loop ]\n\
         \x20 %s = phi i32 [ 0, %entry ], [ %t, %loop ]\n  %t = add i32 %s, %i\n  %next = add i32 %i, 1\n\
         \x20 %done = icmp sgt i32 %next, 1000\n  br i1 %done, label %exit, label %loop\nexit:\n\
         \x20 %ok = icmp eq i32 %t, 500500\n  %r = select i1 %ok, i32 0, i32 1\n  ret i32 %r\n}\n",
    );
    for (opt, completed) in [("0", 0), ("2", 1)] {
        let out = format!("o{opt}");
        let o = sear(
            &[
                "run",
                "--no-progress",
                "-O",
                opt,
                "--max-instructions",
                "100",
                "--output-dir",
                &out,
                "sum.ll",
            ],
            tmp.path(),
        );
        assert!(o.status.success(), "{}", stderr(&o));
        let s = summary(&tmp.path().join(&out));
        assert_eq!(s["completed_paths"], completed, "-O {opt}: {s}");
    }
}

/// --link-llvm-lib links a library of bitcode (a module or an archive of modules) with the
/// program, only what it needs (KLEE's option and LinkLLVMLib test); replay compiles the
/// library's modules with the program, so every test replays with its output.
#[test]
fn bitcode_libraries_are_linked_and_replayed() {
    let tmp = tempfile::tempdir().unwrap();
    write(
        tmp.path(),
        "lib.c",
        "#include <stdio.h>\nint twice(int x) { return 2 * x; }\n\
         void show(int v) { printf(\"v=%d\\n\", v); }\nint unused(void) { return 7; }\n",
    );
    write(
        tmp.path(),
        "prog.c",
        "#include \"klee/klee.h\"\nint twice(int); void show(int);\n\
         int main(void) { int x = klee_range(0, 4, \"x\"); if (twice(x) > 4) show(1); else show(0); return 0; }\n",
    );
    let run = |program: &str, args: &[&str]| {
        Command::new(program)
            .args(args)
            .current_dir(tmp.path())
            .output()
            .expect("runs")
    };
    let c = run(
        "clang-19",
        &[
            "-emit-llvm",
            "-c",
            "-g",
            "-O0",
            "-Xclang",
            "-disable-O0-optnone",
            "lib.c",
        ],
    );
    assert!(c.status.success(), "{}", stderr(&c));
    let a = run("llvm-ar-19", &["rc", "lib.a", "lib.bc"]);
    assert!(a.status.success(), "{}", stderr(&a));
    let o = sear(
        &[
            "run",
            "--no-progress",
            "--link-llvm-lib",
            "lib.a",
            "--output-dir",
            "out",
            "prog.c",
        ],
        tmp.path(),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let s = summary(&tmp.path().join("out"));
    assert_eq!(s["completed_paths"], 2, "{s}");
    let replay = sear(&["replay", "out"], tmp.path());
    assert!(replay.status.success(), "{}", stderr(&replay));
    let report = String::from_utf8_lossy(&replay.stdout).into_owned() + &stderr(&replay);
    assert!(report.contains("2 of 2 outputs match"), "{report}");
}

#[test]
fn info_json_records_the_whole_configuration_and_options_are_checked() {
    let tmp = tempfile::tempdir().unwrap();
    write(
        tmp.path(),
        "p.c",
        "#include <klee/klee.h>\nint main(void) { int x; klee_make_symbolic(&x, sizeof x, \"x\"); return x > 3; }\n",
    );
    let o = sear(
        &[
            "run",
            "--output-dir",
            "out",
            "--search",
            "dfs",
            "--core-solver",
            "z3",
            "--optimize-array",
            "off",
            "--max-time",
            "30",
            "p.c",
        ],
        tmp.path(),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let info: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(tmp.path().join("out/info.json")).unwrap())
            .unwrap();
    let config = &info["configuration"];
    assert_eq!(config["engine"]["search"], serde_json::json!(["dfs"]));
    assert_eq!(config["engine"]["array_opt"]["mode"], "none");
    assert_eq!(config["engine"]["max_time"], 30.0);
    assert_eq!(config["engine"]["memory_model"], "standard");
    assert_eq!(config["solver"]["core"], "z3");
    assert_eq!(config["solver"]["array"]["axiom_elim"], "both");
    // The user's environment is never recorded unless it came from --env-file.
    assert!(config["engine"].get("envp").is_none());

    // Without options the defaults are the measured best ones.
    let o = sear(&["run", "--output-dir", "out2", "p.c"], tmp.path());
    assert!(o.status.success(), "{}", stderr(&o));
    let info: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(tmp.path().join("out2/info.json")).unwrap())
            .unwrap();
    assert_eq!(info["configuration"]["solver"]["core"], "eager-portfolio");
    assert_eq!(info["configuration"]["engine"]["array_opt"]["mode"], "all");
    assert_eq!(
        info["configuration"]["engine"]["array_opt"]["limits"]["max_values"],
        1024
    );

    for (flag, value) in [
        ("--search", "nurs:nope"),
        ("--core-solver", "stp"),
        ("--optimize-array", "some"),
        ("--axiom-elim", "all"),
    ] {
        let o = sear(&["run", flag, value, "p.c"], tmp.path());
        assert_clean_failure(&o, &format!("invalid value '{value}' for '{flag}"));
    }
}
