// sear-args: -O 2
// min/max/abs idioms become llvm.smin, llvm.umax and llvm.abs at -O2 (no branches).
// Reasoning: the asserts hold for every input (no fork); m == M only when a == b: 2 paths.
// expect-completed: 2
// expect-error-paths: 0
#include <stdlib.h>
#include "klee/klee.h"

__attribute__((noinline)) int smin(int a, int b) { return a < b ? a : b; }
__attribute__((noinline)) unsigned umax(unsigned a, unsigned b) { return a > b ? a : b; }
__attribute__((noinline)) int iabs(int a) { return a < 0 ? -a : a; }

int main(void) {
    int a, b;
    klee_make_symbolic(&a, sizeof a, "a");
    klee_make_symbolic(&b, sizeof b, "b");
    klee_assume(a > -1000000);
    int m = smin(a, b);
    unsigned M = umax((unsigned)a, (unsigned)b);
    klee_assert((m <= a) & (m <= b) & ((m == a) | (m == b)));
    klee_assert((M >= (unsigned)a) & (M >= (unsigned)b));
    klee_assert(iabs(a) >= 0);
    klee_assert((iabs(a) == a) | (iabs(a) == -a));
    if ((unsigned)m == M)
        exit(1);
    return 0;
}
