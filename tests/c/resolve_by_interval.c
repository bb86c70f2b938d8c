// A pointer moved along an array by symbolic steps without branching: p = vals + [a>0] +
// [b>0] + [c>0] stays inside `vals` whatever the inputs, so the access through it resolves
// by the pointer's interval, without a query; a fourth step may leave the array (q = p +
// [d>0] reaches vals[4], one past the end): that access is resolved from p's (derived: q's
// sum is p's with one more operand, as the AC normalisation builds it) or, without the
// normalisation, goes to the search, which finds `vals`; either way an out-of-bounds side.
// Paths: the read through p does not fork; the read through q forks into an in-bounds path
// (completed) and a ptr error (a, b, c, d > 0).
// sear-configs: --validate-solver | --no-ac-normalize
// expect-completed: 1
// expect-error-paths: 1
// expect-summary: memory.stats.by_interval >= 1
// expect-summary: memory.stats.derived >= 1 if validate-solver
// expect-summary: memory.stats.searched >= 1 if no-ac-normalize
#include "klee/klee.h"

static int vals[4] = {3, 1, 4, 1};

int main(void) {
    int a = klee_range(0, 2, "a"), b = klee_range(0, 2, "b");
    int c = klee_range(0, 2, "c"), d = klee_range(0, 2, "d");
    int *p = vals + (a > 0) + (b > 0) + (c > 0);
    int n = *p;
    int *q = p + (d > 0);
    return n + *q; // expect-error: ptr
}
