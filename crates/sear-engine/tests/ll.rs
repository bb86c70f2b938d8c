//! The executor on textual LLVM IR, without clang: each test is a module and the outcome a
//! user cares about (completed paths, errors with their kinds, forks, merges), checked by
//! [`check`]. The lowered IR is verified first (`sear_ir::load_module_verified`).

use std::sync::Arc;

use sear_engine::{EngineConfig, Quiet, SearchKind, Summary};
use sear_solver::SolverConfig;

const HEADER: &str = "target datalayout = \"e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128\"\ntarget triple = \"x86_64-pc-linux-gnu\"\n";

/// What a run must end with. `None` fields are not checked.
#[derive(Default)]
struct Expect {
    completed: Option<u64>,
    error_kinds: Option<&'static [&'static str]>,
    forks: Option<u64>,
    merged: Option<u64>,
}

/// Runs `body` (a module without its header) from `@main` with DFS and `configure`d
/// options, and checks `expect`; returns the summary for further checks.
fn check_with(body: &str, configure: impl FnOnce(&mut EngineConfig), expect: Expect) -> Summary {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("input.ll");
    std::fs::write(&path, format!("{HEADER}{body}")).unwrap();
    let module = sear_ir::load_module_verified(&path).unwrap_or_else(|e| panic!("{e}"));
    let mut config = EngineConfig::new(dir.path().join("out"));
    config.search = vec![SearchKind::Dfs];
    configure(&mut config);
    let summary = sear_engine::run(
        Arc::new(module),
        config,
        &SolverConfig::default(),
        &mut Quiet,
    )
    .unwrap_or_else(|e| panic!("{e}"));
    if let Some(n) = expect.completed {
        assert_eq!(summary.completed_paths, n, "completed paths: {summary:?}");
    }
    if let Some(kinds) = expect.error_kinds {
        let mut got: Vec<&str> = summary.errors.iter().map(|e| e.kind.as_str()).collect();
        got.sort();
        let mut want = kinds.to_vec();
        want.sort();
        assert_eq!(got, want, "errors: {:?}", summary.errors);
    }
    if let Some(n) = expect.forks {
        assert_eq!(summary.forks, n, "forks: {summary:?}");
    }
    if let Some(n) = expect.merged {
        assert_eq!(summary.merged_states, n, "merged: {summary:?}");
    }
    summary
}

fn check(body: &str, expect: Expect) -> Summary {
    check_with(body, |_| {}, expect)
}

/// `klee_int`-like input: a 4-byte symbolic value named `name` read from a fresh object.
const DECLS: &str = r#"
declare void @klee_make_symbolic(ptr, i64, ptr)
declare void @klee_open_merge()
declare void @klee_close_merge()
declare void @abort()
"#;

#[test]
fn a_branch_on_input_gives_two_paths() {
    check(
        &format!(
            r#"{DECLS}
@name = private constant [2 x i8] c"x\00"
define i32 @main() {{
entry:
  %x = alloca i32
  call void @klee_make_symbolic(ptr %x, i64 4, ptr @name)
  %v = load i32, ptr %x
  %c = icmp sgt i32 %v, 10
  br i1 %c, label %big, label %small
big:
  ret i32 1
small:
  ret i32 0
}}
"#
        ),
        Expect {
            completed: Some(2),
            error_kinds: Some(&[]),
            forks: Some(1),
            ..Default::default()
        },
    );
}

#[test]
fn out_of_bounds_symbolic_index_is_an_error_path() {
    // t[i] for a symbolic i on a 4-element array: one in-bounds path, one ptr error.
    check(
        &format!(
            r#"{DECLS}
@name = private constant [2 x i8] c"i\00"
@t = global [4 x i32] [i32 1, i32 2, i32 3, i32 4]
define i32 @main() {{
entry:
  %i = alloca i64
  call void @klee_make_symbolic(ptr %i, i64 8, ptr @name)
  %v = load i64, ptr %i
  %p = getelementptr [4 x i32], ptr @t, i64 0, i64 %v
  %x = load i32, ptr %p
  ret i32 %x
}}
"#
        ),
        Expect {
            completed: Some(1),
            error_kinds: Some(&["ptr"]),
            ..Default::default()
        },
    );
}

#[test]
fn a_pointer_into_two_objects_forks_once_per_object() {
    // p = c ? a : b; *p = 7: the store resolves to both objects and runs in each path.
    check(
        &format!(
            r#"{DECLS}
@name = private constant [2 x i8] c"c\00"
@a = global i32 0
@b = global i32 0
define i32 @main() {{
entry:
  %c = alloca i8
  call void @klee_make_symbolic(ptr %c, i64 1, ptr @name)
  %v = load i8, ptr %c
  %t = icmp eq i8 %v, 0
  %p = select i1 %t, ptr @a, ptr @b
  store i32 7, ptr %p
  %x = load i32, ptr @a
  %y = load i32, ptr @b
  %s = add i32 %x, %y
  %ok = icmp eq i32 %s, 7
  br i1 %ok, label %good, label %bad
good:
  ret i32 0
bad:
  call void @abort()
  unreachable
}}
"#
        ),
        Expect {
            completed: Some(2),
            error_kinds: Some(&[]),
            ..Default::default()
        },
    );
}

#[test]
fn use_after_free_and_double_free_are_reported() {
    check(
        r#"
declare ptr @malloc(i64)
declare void @free(ptr)
define i32 @main() {
entry:
  %p = call ptr @malloc(i64 4)
  call void @free(ptr %p)
  call void @free(ptr %p)
  ret i32 0
}
"#,
        Expect {
            completed: Some(0),
            // A double free is a pointer error, as in KLEE.
            error_kinds: Some(&["ptr"]),
            ..Default::default()
        },
    );
    check(
        r#"
declare ptr @malloc(i64)
declare void @free(ptr)
define i32 @main() {
entry:
  %p = call ptr @malloc(i64 4)
  call void @free(ptr %p)
  %x = load i32, ptr %p
  ret i32 %x
}
"#,
        Expect {
            completed: Some(0),
            error_kinds: Some(&["ptr"]),
            ..Default::default()
        },
    );
}

/// Two paths that differ in a local and in memory, merged at `klee_close_merge`.
fn merge_module() -> String {
    format!(
        r#"{DECLS}
@name = private constant [2 x i8] c"x\00"
@g = global i32 0
define i32 @main() {{
entry:
  %x = alloca i32
  call void @klee_make_symbolic(ptr %x, i64 4, ptr @name)
  %v = load i32, ptr %x
  call void @klee_open_merge()
  %c = icmp sgt i32 %v, 10
  br i1 %c, label %big, label %small
big:
  store i32 5, ptr @g
  br label %join
small:
  store i32 6, ptr @g
  br label %join
join:
  %r = phi i32 [ 1, %big ], [ 2, %small ]
  call void @klee_close_merge()
  %m = load i32, ptr @g
  %sum = add i32 %m, %r
  %ok = icmp eq i32 %sum, 6
  br i1 %ok, label %one, label %two
one:
  ret i32 0
two:
  %ok2 = icmp eq i32 %sum, 8
  br i1 %ok2, label %three, label %bad
three:
  ret i32 0
bad:
  call void @abort()
  unreachable
}}
"#
    )
}

#[test]
fn merged_paths_keep_values_and_memory_per_side() {
    // Merged: one path reaches the branch on sum; sum is 6 or 8, never anything else.
    check_with(
        &merge_module(),
        |c| c.use_merge = true,
        Expect {
            completed: Some(2),
            error_kinds: Some(&[]),
            merged: Some(1),
            ..Default::default()
        },
    );
    // Without --use-merge the two paths stay apart: the same outcome, no merge.
    check(
        &merge_module(),
        Expect {
            completed: Some(2),
            error_kinds: Some(&[]),
            merged: Some(0),
            ..Default::default()
        },
    );
}

/// A loop over 48 input bytes that forks on each, then aborts: 2^48 paths, each ending in
/// an `abort` error at the end of the loop.
fn forking_loop_then_abort() -> String {
    format!(
        r#"{DECLS}
@name = private constant [4 x i8] c"buf\00"
define i32 @main() {{
entry:
  %buf = alloca [48 x i8]
  call void @klee_make_symbolic(ptr %buf, i64 48, ptr @name)
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %next, %latch ]
  %p = getelementptr [48 x i8], ptr %buf, i64 0, i64 %i
  %v = load i8, ptr %p
  %c = icmp ugt i8 %v, 100
  br i1 %c, label %big, label %latch
big:
  br label %latch
latch:
  %next = add i64 %i, 1
  %done = icmp eq i64 %next, 48
  br i1 %done, label %end, label %loop
end:
  call void @abort()
  unreachable
}}
"#
    )
}

/// `--dive-quantum`: interleaved with random-path, the depth-first dive keeps its turn
/// across its forks, so the first path reaches the loop's end after about one fork per
/// iteration instead of three (random-path forks as often as the dive meanwhile).
#[test]
fn the_dive_keeps_its_turn_across_its_forks() {
    let run = |quantum: bool| {
        check_with(
            &forking_loop_then_abort(),
            |c| {
                c.search = vec![SearchKind::RandomPath, SearchKind::Dfs];
                c.dive_quantum = Some(quantum);
                c.exit_on_error_types = vec!["abort".into()];
            },
            Expect {
                error_kinds: Some(&["abort"]),
                ..Default::default()
            },
        )
    };
    let on = run(true);
    let off = run(false);
    assert!(on.dive_turns_kept > 0, "{on:?}");
    assert_eq!(off.dive_turns_kept, 0, "{off:?}");
    assert!(on.forks < 60, "forks with the dive's quantum: {}", on.forks);
    assert!(off.forks >= 80, "forks without it: {}", off.forks);
}

/// `--dive-quantum` changes the order of the states, not the paths: the loop's 2^6 paths
/// all end, with the quantum as without it.
#[test]
fn the_dive_quantum_keeps_the_paths() {
    let body = forking_loop_then_abort()
        .replace("48 x i8", "6 x i8")
        .replace("i64 48", "i64 6")
        .replace("%next, 48", "%next, 6");
    for quantum in [false, true] {
        let s = check_with(
            &body,
            |c| {
                c.search = vec![SearchKind::RandomPath, SearchKind::Dfs];
                c.dive_quantum = Some(quantum);
                c.emit_all_errors = true;
            },
            Expect {
                forks: Some(63),
                ..Default::default()
            },
        );
        assert_eq!(s.error_paths, 64, "{s:?}");
    }
}
