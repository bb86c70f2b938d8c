; // A switch with a case whose target is the default block (LLVM allows it; optimisers
; // produce it). One target is one path, as KLEE explores it: the case value 5 belongs
; // to the default's path instead of getting a path of its own.
; // Reasoning: x is symbolic; the switch has two targets (x == 1, and the default for the
; // rest, 5 included). After it, `x == 7` forks only on the default side: three paths.
; // expect-completed: 3
; // expect-error-paths: 0
; // expect-exits: 1 5 7
; // expect-replay: no
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@.name = private constant [2 x i8] c"x\00"

declare void @klee_make_symbolic(ptr, i64, ptr)

define i32 @main() {
entry:
  %x = alloca i32, align 4
  call void @klee_make_symbolic(ptr %x, i64 4, ptr @.name)
  %v = load i32, ptr %x, align 4
  switch i32 %v, label %other [
    i32 1, label %one
    i32 5, label %other
  ]

one:
  br label %join

other:
  br label %join

join:
  %r = phi i32 [ 1, %one ], [ 5, %other ]
  %is7 = icmp eq i32 %v, 7
  br i1 %is7, label %seven, label %done

seven:
  ret i32 7

done:
  ret i32 %r
}
