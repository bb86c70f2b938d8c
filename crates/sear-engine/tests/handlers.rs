//! The handlers of `executor/special.rs` and `special/` (KLEE's API, the allocator, errors),
//! `executor/intrinsics.rs` and `intrinsics/` (LLVM intrinsics) and `executor/memop.rs` and
//! `memop/` (loads, stores, resolution) on textual LLVM IR, without clang. Each module computes something with a
//! handler and aborts when the result is wrong, so a wrong handler shows up as an `abort`
//! error; the outcome checked is what a user sees (paths, error kinds).

use std::sync::Arc;

use sear_engine::{EngineConfig, Quiet, SearchKind, Summary};
use sear_solver::SolverConfig;

const HEADER: &str = "target datalayout = \"e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128\"\ntarget triple = \"x86_64-pc-linux-gnu\"\n";

/// Declarations and names shared by the modules.
const DECLS: &str = r#"
declare void @klee_make_symbolic(ptr, i64, ptr)
declare void @klee_assume(i64)
declare i32 @klee_range(i32, i32, ptr)
declare i32 @klee_is_symbolic(i64)
declare i64 @klee_get_obj_size(ptr)
declare void @klee_report_error(ptr, i32, ptr, ptr)
declare void @__assert_fail(ptr, ptr, i32, ptr)
declare void @abort()
declare ptr @malloc(i64)
declare ptr @calloc(i64, i64)
declare ptr @realloc(ptr, i64)
declare void @free(ptr)
@nx = private constant [2 x i8] c"x\00"
@ny = private constant [2 x i8] c"y\00"
"#;

/// Runs `body` (a module without header and [`DECLS`]) from `@main` with DFS and the
/// `configure`d options.
fn run_with(body: &str, configure: impl FnOnce(&mut EngineConfig)) -> Summary {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("input.ll");
    std::fs::write(&path, format!("{HEADER}{DECLS}{body}")).unwrap();
    let module = sear_ir::load_module_verified(&path).unwrap_or_else(|e| panic!("{e}"));
    let mut config = EngineConfig::new(dir.path().join("out"));
    config.search = vec![SearchKind::Dfs];
    configure(&mut config);
    sear_engine::run(
        Arc::new(module),
        config,
        &SolverConfig::default(),
        &mut Quiet,
    )
    .unwrap_or_else(|e| panic!("{e}"))
}

/// The completed paths and the sorted error kinds of a run of `body` (one per error path:
/// the modules have no debug locations, so without `emit_all_errors` errors of one kind
/// would share the unknown location and be reported once).
fn outcome(body: &str) -> (u64, Vec<String>) {
    let s = run_with(body, |c| c.emit_all_errors = true);
    let mut kinds: Vec<String> = s.errors.iter().map(|e| e.kind.clone()).collect();
    kinds.sort();
    (s.completed_paths, kinds)
}

fn kinds(k: &[&str]) -> Vec<String> {
    k.iter().map(|s| s.to_string()).collect()
}

/// `@main` that makes `%x` and `%y` symbolic i32s, then runs `code` (which ends with
/// `br label %done` when all is well, or `br label %bad`, which aborts).
fn main_with(code: &str) -> String {
    format!(
        r#"
define i32 @main() {{
entry:
  %xp = alloca i32
  %yp = alloca i32
  call void @klee_make_symbolic(ptr %xp, i64 4, ptr @nx)
  call void @klee_make_symbolic(ptr %yp, i64 4, ptr @ny)
  %x = load i32, ptr %xp
  %y = load i32, ptr %yp
{code}
bad:
  call void @abort()
  unreachable
done:
  ret i32 0
}}
"#
    )
}

// ---- special.rs ----

#[test]
fn klee_range_is_a_value_in_the_range() {
    let body = main_with(
        r#"  %r = call i32 @klee_range(i32 0, i32 3, ptr @nx)
  %out = icmp uge i32 %r, 3
  br i1 %out, label %bad, label %done"#,
    );
    assert_eq!(outcome(&body), (1, vec![]));
    // Both values on either side of 2 are reachable: a branch on it forks.
    let body = main_with(
        r#"  %r = call i32 @klee_range(i32 0, i32 3, ptr @nx)
  %two = icmp eq i32 %r, 2
  br i1 %two, label %done, label %other
other:
  ret i32 1"#,
    );
    assert_eq!(outcome(&body), (2, vec![]));
}

#[test]
fn a_provably_false_assume_is_a_user_error_or_silent() {
    let body = main_with(
        r#"  %big = icmp sgt i32 %x, 5
  %b = zext i1 %big to i64
  call void @klee_assume(i64 %b)
  %small = icmp slt i32 %x, 3
  %s = zext i1 %small to i64
  call void @klee_assume(i64 %s)
  br label %done"#,
    );
    assert_eq!(outcome(&body), (0, kinds(&["user"])));
    let s = run_with(&body, |c| c.silent_klee_assume = true);
    assert_eq!(
        (s.completed_paths, s.errors.len(), s.silent_paths),
        (0, 0, 1)
    );
}

#[test]
fn klee_report_error_reports_its_suffix_at_its_line() {
    let body = format!(
        r#"@file = private constant [4 x i8] c"f.c\00"
@msg = private constant [4 x i8] c"bad\00"
@suffix = private constant [5 x i8] c"mine\00"
{}"#,
        main_with(
            r#"  call void @klee_report_error(ptr @file, i32 7, ptr @msg, ptr @suffix)
  unreachable"#
        )
    );
    let s = run_with(&body, |_| {});
    assert_eq!(s.errors.len(), 1, "{:?}", s.errors);
    assert_eq!((s.errors[0].kind.as_str(), s.errors[0].line), ("mine", 7));
}

#[test]
fn abort_and_assert_fail_end_paths_with_their_kinds() {
    let body = format!(
        r#"@m = private constant [2 x i8] c"m\00"
{}"#,
        main_with(
            r#"  switch i32 %x, label %done [ i32 1, label %bad
                                  i32 2, label %assert ]
assert:
  call void @__assert_fail(ptr @m, ptr @m, i32 3, ptr @m)
  unreachable"#
        )
    );
    assert_eq!(outcome(&body), (1, kinds(&["abort", "assert"])));
}

#[test]
fn free_accepts_heap_and_null_and_rejects_the_rest() {
    // As in KLEE: a double free is a `ptr` error, freeing a stack object a `free` error.
    let body = main_with(
        r#"  %p = call ptr @malloc(i64 4)
  switch i32 %x, label %ok [ i32 1, label %twice
                             i32 2, label %stack ]
ok:
  call void @free(ptr null)
  call void @free(ptr %p)
  br label %done
twice:
  call void @free(ptr %p)
  call void @free(ptr %p)
  br label %done
stack:
  call void @free(ptr %xp)
  br label %done"#,
    );
    assert_eq!(outcome(&body), (1, kinds(&["free", "ptr"])));
}

#[test]
fn heap_objects_have_their_size_and_bounds() {
    let body = main_with(
        r#"  %p = call ptr @malloc(i64 7)
  %n = call i64 @klee_get_obj_size(ptr %p)
  %wrong = icmp ne i64 %n, 7
  br i1 %wrong, label %bad, label %sized
sized:
  %past = icmp eq i32 %x, 0
  br i1 %past, label %over, label %done
over:
  %q = getelementptr i8, ptr %p, i64 7
  %v = load i8, ptr %q
  br label %done"#,
    );
    assert_eq!(outcome(&body), (1, kinds(&["ptr"])));
}

#[test]
fn calloc_zeroes_and_realloc_keeps_the_contents() {
    let body = main_with(
        r#"  %q = call ptr @calloc(i64 4, i64 2)
  %z = load i64, ptr %q
  %nz = icmp ne i64 %z, 0
  br i1 %nz, label %bad, label %zero
zero:
  store i32 %x, ptr %q
  %r = call ptr @realloc(ptr %q, i64 64)
  %v = load i32, ptr %r
  %lost = icmp ne i32 %v, %x
  br i1 %lost, label %bad, label %kept
kept:
  %end = getelementptr i8, ptr %r, i64 60
  store i32 1, ptr %end
  br label %done"#,
    );
    assert_eq!(outcome(&body), (1, vec![]));
}

#[test]
fn klee_is_symbolic_tells_inputs_from_constants() {
    let body = main_with(
        r#"  %xw = zext i32 %x to i64
  %a = call i32 @klee_is_symbolic(i64 %xw)
  %b = call i32 @klee_is_symbolic(i64 5)
  %sa = icmp ne i32 %a, 1
  %sb = icmp ne i32 %b, 0
  %wrong = or i1 %sa, %sb
  br i1 %wrong, label %bad, label %done"#,
    );
    assert_eq!(outcome(&body), (1, vec![]));
}

// ---- intrinsics.rs: each result against its definition, on symbolic inputs ----

/// `main_with` for a check `%ok` computed by `code`, with the intrinsics declared.
fn intrinsic_check(code: &str) -> (u64, Vec<String>) {
    let body = format!(
        r#"declare i32 @llvm.bswap.i32(i32)
declare i32 @llvm.fshl.i32(i32, i32, i32)
declare {{ i32, i1 }} @llvm.umul.with.overflow.i32(i32, i32)
declare i8 @llvm.sadd.sat.i8(i8, i8)
declare i8 @llvm.usub.sat.i8(i8, i8)
declare i8 @llvm.ctpop.i8(i8)
declare i32 @llvm.ctlz.i32(i32, i1)
declare i32 @llvm.abs.i32(i32, i1)
declare i32 @llvm.smax.i32(i32, i32)
declare i32 @llvm.umin.i32(i32, i32)
declare void @llvm.memmove.p0.p0.i64(ptr, ptr, i64, i1)
declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)
declare void @llvm.trap()
{}"#,
        main_with(&format!("{code}\n  br i1 %ok, label %done, label %bad"))
    );
    outcome(&body)
}

#[test]
fn bswap_and_funnel_shift_match_their_definitions() {
    let r = intrinsic_check(
        r#"  %s = call i32 @llvm.bswap.i32(i32 %x)
  %b0 = shl i32 %x, 24
  %t1 = and i32 %x, 65280
  %b1 = shl i32 %t1, 8
  %t2 = lshr i32 %x, 8
  %b2 = and i32 %t2, 65280
  %b3 = lshr i32 %x, 24
  %o1 = or i32 %b0, %b1
  %o2 = or i32 %o1, %b2
  %want = or i32 %o2, %b3
  %ok1 = icmp eq i32 %s, %want
  %f = call i32 @llvm.fshl.i32(i32 %x, i32 %y, i32 8)
  %hi = shl i32 %x, 8
  %lo = lshr i32 %y, 24
  %fw = or i32 %hi, %lo
  %ok2 = icmp eq i32 %f, %fw
  %ok = and i1 %ok1, %ok2"#,
    );
    assert_eq!(r, (1, vec![]));
}

#[test]
fn overflow_and_saturation_match_their_definitions() {
    let r = intrinsic_check(
        r#"  %m = call { i32, i1 } @llvm.umul.with.overflow.i32(i32 %x, i32 %y)
  %mv = extractvalue { i32, i1 } %m, 0
  %mo = extractvalue { i32, i1 } %m, 1
  %xw = zext i32 %x to i64
  %yw = zext i32 %y to i64
  %pw = mul i64 %xw, %yw
  %ph = lshr i64 %pw, 32
  %over = icmp ne i64 %ph, 0
  %pl = trunc i64 %pw to i32
  %ok1 = icmp eq i1 %mo, %over
  %ok2 = icmp eq i32 %mv, %pl
  %a = trunc i32 %x to i8
  %b = trunc i32 %y to i8
  %ss = call i8 @llvm.sadd.sat.i8(i8 %a, i8 %b)
  %aw = sext i8 %a to i32
  %bw = sext i8 %b to i32
  %sw = add i32 %aw, %bw
  %hi = icmp sgt i32 %sw, 127
  %lo = icmp slt i32 %sw, -128
  %st = trunc i32 %sw to i8
  %c1 = select i1 %hi, i8 127, i8 %st
  %sat = select i1 %lo, i8 -128, i8 %c1
  %ok3 = icmp eq i8 %ss, %sat
  %us = call i8 @llvm.usub.sat.i8(i8 %a, i8 %b)
  %under = icmp ult i8 %a, %b
  %d = sub i8 %a, %b
  %uw = select i1 %under, i8 0, i8 %d
  %ok4 = icmp eq i8 %us, %uw
  %k1 = and i1 %ok1, %ok2
  %k2 = and i1 %ok3, %ok4
  %ok = and i1 %k1, %k2"#,
    );
    assert_eq!(r, (1, vec![]));
}

#[test]
fn bit_counts_abs_and_min_max_match_their_definitions() {
    let r = intrinsic_check(
        r#"  %a = trunc i32 %x to i8
  %pop = call i8 @llvm.ctpop.i8(i8 %a)
  %full = icmp eq i8 %pop, 8
  %all = icmp eq i8 %a, -1
  %ok1 = icmp eq i1 %full, %all
  %lz = call i32 @llvm.ctlz.i32(i32 %x, i1 false)
  %zero = icmp eq i32 %x, 0
  %is32 = icmp eq i32 %lz, 32
  %ok2 = icmp eq i1 %zero, %is32
  %top = icmp slt i32 %x, 0
  %lz0 = icmp eq i32 %lz, 0
  %ok3 = icmp eq i1 %top, %lz0
  %abs = call i32 @llvm.abs.i32(i32 %x, i1 false)
  %neg = sub i32 0, %x
  %aw = select i1 %top, i32 %neg, i32 %x
  %ok4 = icmp eq i32 %abs, %aw
  %mx = call i32 @llvm.smax.i32(i32 %x, i32 %y)
  %gt = icmp sgt i32 %x, %y
  %mw = select i1 %gt, i32 %x, i32 %y
  %ok5 = icmp eq i32 %mx, %mw
  %mn = call i32 @llvm.umin.i32(i32 %x, i32 %y)
  %lt = icmp ult i32 %x, %y
  %nw = select i1 %lt, i32 %x, i32 %y
  %ok6 = icmp eq i32 %mn, %nw
  %k1 = and i1 %ok1, %ok2
  %k2 = and i1 %ok3, %ok4
  %k3 = and i1 %ok5, %ok6
  %k4 = and i1 %k1, %k2
  %ok = and i1 %k3, %k4"#,
    );
    assert_eq!(r, (1, vec![]));
}

#[test]
fn memmove_handles_overlap_and_memset_a_symbolic_byte() {
    let r = intrinsic_check(
        r#"  %buf = alloca [8 x i8]
  store i64 578437695752307201, ptr %buf
  %dst = getelementptr i8, ptr %buf, i64 1
  call void @llvm.memmove.p0.p0.i64(ptr %dst, ptr %buf, i64 4, i1 false)
  %v = load i64, ptr %buf
  %ok1 = icmp eq i64 %v, 578437691440496897
  %a = trunc i32 %x to i8
  %w = alloca i32
  call void @llvm.memset.p0.i64(ptr %w, i8 %a, i64 4, i1 false)
  %got = load i32, ptr %w
  %az = zext i8 %a to i32
  %want = mul i32 %az, 16843009
  %ok2 = icmp eq i32 %got, %want
  %ok = and i1 %ok1, %ok2"#,
    );
    assert_eq!(r, (1, vec![]));
}

#[test]
fn llvm_trap_is_an_abort() {
    let r = intrinsic_check(
        r#"  %t = icmp eq i32 %x, 3
  br i1 %t, label %trap, label %fine
trap:
  call void @llvm.trap()
  unreachable
fine:
  %ok = icmp ne i32 %x, 3"#,
    );
    assert_eq!(r, (1, kinds(&["abort"])));
}

// ---- memop.rs ----

#[test]
fn a_store_to_a_constant_global_is_a_read_only_error() {
    let body = format!(
        r#"@k = constant i32 5
{}"#,
        main_with(
            r#"  %v = load i32, ptr @k
  %wrong = icmp ne i32 %v, 5
  br i1 %wrong, label %bad, label %write
write:
  %w = icmp eq i32 %x, 1
  br i1 %w, label %store, label %done
store:
  store i32 1, ptr @k
  br label %done"#
        )
    );
    assert_eq!(outcome(&body), (1, kinds(&["read_only"])));
}

#[test]
fn bad_accesses_are_pointer_errors() {
    // A load straddling the end of an object, a load through null, a use after free.
    let body = format!(
        r#"@t = global [4 x i8] zeroinitializer
{}"#,
        main_with(
            r#"  %h = call ptr @malloc(i64 4)
  call void @free(ptr %h)
  switch i32 %x, label %done [ i32 1, label %straddle
                               i32 2, label %null
                               i32 3, label %freed ]
straddle:
  %p = getelementptr i8, ptr @t, i64 2
  %v = load i32, ptr %p
  br label %done
null:
  %n = select i1 true, ptr null, ptr @t
  %w = load i32, ptr %n
  br label %done
freed:
  %u = load i32, ptr %h
  br label %done"#
        )
    );
    assert_eq!(outcome(&body), (1, kinds(&["ptr", "ptr", "ptr"])));
}

#[test]
fn a_symbolic_pointer_resolves_to_each_object_it_may_point_to() {
    let body = format!(
        r#"@a = global i32 1
@b = global i32 2
{}"#,
        main_with(
            r#"  %c = icmp eq i32 %x, 0
  %p = select i1 %c, ptr @a, ptr @b
  %v = load i32, ptr %p
  %one = icmp eq i32 %v, 1
  %same = icmp eq i1 %one, %c
  br i1 %same, label %good, label %bad
good:
  store i32 7, ptr %p
  %va = load i32, ptr @a
  %vb = load i32, ptr @b
  %s = add i32 %va, %vb
  %sum = select i1 %c, i32 9, i32 8
  %ok = icmp eq i32 %s, %sum
  br i1 %ok, label %done, label %bad"#
        )
    );
    let s = run_with(&body, |_| {});
    assert!(s.errors.is_empty(), "{:?}", s.errors);
    assert_eq!(s.completed_paths, 2, "{s:?}");
}
