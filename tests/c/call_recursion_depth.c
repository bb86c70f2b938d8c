// Recursion with a symbolic depth bounded by klee_assume.
// Reasoning: n in [0, 5]: fact(n) tests n <= 1 at each level, forking until decided: one
// path per depth, with n in {0, 1} sharing the first: 5 paths (n <= 1, 2, 3, 4, 5). The
// result is concrete per path; fact(5) == 120 is the only exit 1.
// expect-completed: 5
// expect-error-paths: 0
// expect-exits: 0 0 0 0 1
#include "klee/klee.h"

static int fact(int n) {
    if (n <= 1)
        return 1;
    return n * fact(n - 1);
}

int main(void) {
    int n;
    klee_make_symbolic(&n, sizeof n, "n");
    klee_assume(n >= 0);
    klee_assume(n <= 5);
    return fact(n) == 120;
}
