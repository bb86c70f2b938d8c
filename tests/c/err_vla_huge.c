// A variable-length array of a huge symbolic size (SV-COMP's `int a[N]` with N from
// __VERIFIER_nondet_int) never yields NULL: a size that cannot fit the stack is a stack
// overflow (a ptr error at the declaration), as natively, never a null-page access.
// Reasoning: n is at least 2^29 ints (2 GiB), above the 8 MiB stack limit whatever value the
// concretisation picks: the size it keeps and the huge sizes forked off are both stack
// overflows (2 error paths, one report at the VLA); no path reaches the store.
// expect-completed: 0
// expect-error-paths: 2
// expect-replay: no
#include "klee/klee.h"

int main(void) {
    unsigned n;
    klee_make_symbolic(&n, sizeof n, "n");
    klee_assume(n >= (1u << 29));
    int a[n]; // expect-error: ptr
    a[n - 1] = 1;
    return a[n - 1];
}
