; // llvm.load.relative(p, off) = p + sext(the i32 at p + off): how relative lookup tables
; // (e.g. -fexperimental-relative-c++-abi-vtables, switch tables) are read.
; // Reasoning: a 24-byte buffer holds, at offset 4, the relative offset 12; at offset 12 the
; // value 42. load.relative(buf, 4) = buf + 12, whose i32 is 42: the exit status. One path.
; // expect-completed: 1
; // expect-exits: 42
; // expect-replay: no
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

declare ptr @llvm.load.relative.i32(ptr, i32)

define i32 @main() {
entry:
  %buf = alloca [24 x i8], align 8
  %slot = getelementptr inbounds i8, ptr %buf, i64 4
  store i32 12, ptr %slot, align 4
  %target = getelementptr inbounds i8, ptr %buf, i64 12
  store i32 42, ptr %target, align 4
  %p = call ptr @llvm.load.relative.i32(ptr %buf, i32 4)
  %v = load i32, ptr %p, align 4
  ret i32 %v
}
