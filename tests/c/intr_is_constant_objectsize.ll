; // llvm.is.constant is true for an operand that is a constant in the IR and false for one
; // computed at run time, concrete or not (as LLVM's lowering decides; KLEE's IsConstant
; // test). llvm.objectsize gives the bytes left in the object a pointer points into, and
; // for a pointer into no object 0 (min) or all ones (max) (KLEE's objectsize test).
; // Reasoning: nothing is symbolic: one path; each of the five checks sets its own bit of
; // the exit status (1 to 16) when it holds, and bit 32 is always set: 63.
; // expect-completed: 1
; // expect-exits: 63
; // expect-replay: no
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

declare i1 @llvm.is.constant.i32(i32)
declare i64 @llvm.objectsize.i64.p0(ptr, i1, i1, i1)

define i32 @twice(i32 %x) {
  %r = add i32 %x, %x
  ret i32 %r
}

define i32 @main() {
entry:
  %c = call i1 @llvm.is.constant.i32(i32 123)
  %v = call i32 @twice(i32 4)
  %d = call i1 @llvm.is.constant.i32(i32 %v)
  %nd = xor i1 %d, true
  %a = alloca [10 x i8], align 8
  %mid = getelementptr inbounds i8, ptr %a, i64 3
  %s1 = call i64 @llvm.objectsize.i64.p0(ptr %mid, i1 false, i1 false, i1 false)
  %ok1 = icmp eq i64 %s1, 7
  %none = inttoptr i64 16 to ptr
  %s2 = call i64 @llvm.objectsize.i64.p0(ptr %none, i1 true, i1 false, i1 false)
  %ok2 = icmp eq i64 %s2, 0
  %s3 = call i64 @llvm.objectsize.i64.p0(ptr %none, i1 false, i1 false, i1 false)
  %ok3 = icmp eq i64 %s3, -1
  %b1 = zext i1 %c to i32
  %b2 = zext i1 %nd to i32
  %b3 = zext i1 %ok1 to i32
  %b4 = zext i1 %ok2 to i32
  %b5 = zext i1 %ok3 to i32
  %t2 = shl i32 %b2, 1
  %t3 = shl i32 %b3, 2
  %t4 = shl i32 %b4, 3
  %t5 = shl i32 %b5, 4
  %u1 = or i32 %b1, %t2
  %u2 = or i32 %u1, %t3
  %u3 = or i32 %u2, %t4
  %u4 = or i32 %u3, %t5
  %r = or i32 %u4, 32
  ret i32 %r
}
