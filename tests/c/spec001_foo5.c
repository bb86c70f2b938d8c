// 001 §3 / §11: foo(i, j) with a = {0, 0, 0, 5}: the bug branch is UNSAT: the pre-check proves it without the core (T2).
// sear-configs: --core-solver=z3 | --core-solver=eager | --core-solver=cegar | --core-solver=cegar --ilp-precheck --validate-precheck | --core-solver=cegar --ilp-precheck --axiom-elim=none --cegar-select=violated --axiom-extras=off | --core-solver=cegar --ilp-precheck --cegar-select=eager | --core-solver=z3 --ilp-precheck --validate-precheck
// expect-completed: 2
// expect-error-paths: 0
#include "klee/klee.h"

static int foo(int i, int j) {
    int a[4] = {0, 0, 0, 5};
    if (i + j > 4) {
        if (a[i] + a[j] > 10) {
            klee_assert(i == 3 && j == 3);
            return 1;
        }
    }
    return 0;
}

int main(void) {
    int i, j;
    klee_make_symbolic(&i, sizeof i, "i");
    klee_make_symbolic(&j, sizeof j, "j");
    klee_assume(0 <= i & i <= 3);
    klee_assume(0 <= j & j <= 3);
    return foo(i, j);
}
