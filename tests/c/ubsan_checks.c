// A program built with -fsanitize=... calls UBSan's handlers when a check fails; sear's
// runtime implements them (KLEE's --ubsan-runtime): each is an error at the program's line,
// named as UBSan names it, of KLEE's kind (overflow, ptr, ...). Natively the program gets
// UBSan's own runtime, whose report reproduces the error.
// Reasoning: mode in [0, 3); choosing p forks on x == 0 in every mode. Mode 0: x == 0 and
// x < INT_MAX - 1 complete (2 paths), x == INT_MAX - 1 completes, x == INT_MAX overflows: 3 completed,
// 1 error. Mode 1: x == 0 loads through NULL (error), else completes. Mode 2: x in [0, 4)
// completes (x == 0 and x != 0), x < 0 and x >= 4 (two paths out of the &&) index out of
// bounds: 2 completed, 2 errors. 6 completed, 4 error paths.
// sear-args: --cflags=-fsanitize=signed-integer-overflow,null,bounds
// expect-completed: 6
// expect-error-paths: 4
#include <limits.h>
#include "klee/klee.h"

int main(void) {
    int mode = klee_range(0, 3, "mode");
    int x = klee_int("x");
    int a[4] = {1, 2, 3, 4};
    int *volatile p = x == 0 ? (int *)0 : &a[1];
    if (mode == 0) {
        if (x < INT_MAX - 1)
            return 0;
        return x + 1; // expect-error: overflow
    }
    if (mode == 1)
        return *p; // expect-error: ptr
    if (x >= 0 && x < 4)
        return a[x];
    return a[x]; // expect-error: ptr
}
