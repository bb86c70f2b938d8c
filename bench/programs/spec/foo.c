/* 001 §3 / §11 T2 and T3: the `foo(i, j)` pre-check example, generalised by SIZE.
 * SIZE = length N of the int array a (SIZE = 4 is the paper's example). a = {0, ..., 0, LAST}
 * and the guard is i + j > N with 0 <= i, j < N, so i, j in [2, N-1] on the inner branch.
 * -D LAST=5 (default): the bug branch is UNSAT (a[i] + a[j] <= 10), 2 paths (T2).
 * -D LAST=9: the bug branch is SAT only at i = j = N-1, 3 paths (T3).
 * -D UNSIGNED_IJ: i and j are unsigned (T2's second variant). */
#include "../bench.h"

#ifndef LAST
#define LAST 5
#endif
#ifdef UNSIGNED_IJ
typedef unsigned idx_t;
#else
typedef int idx_t;
#endif

static int bugs;

int foo(idx_t i, idx_t j) {
    int a[SIZE] = {0};
    a[SIZE - 1] = LAST;
    if (i + j > SIZE) {
        if (a[i] + a[j] > 10) {
            bugs++; /* "Bug!!!" */
            return 1;
        }
    }
    return 0;
}

int main(void) {
    idx_t i, j;
    klee_make_symbolic(&i, sizeof i, "i");
    klee_make_symbolic(&j, sizeof j, "j");
    klee_assume(0 <= i & i < SIZE);
    klee_assume(0 <= j & j < SIZE);
    return foo(i, j);
}
