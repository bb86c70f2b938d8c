// 001 §2.2 / §11 T1: the CEGAR refinement example: a[i] > 10 with a = {0, 0, 0, 11} holds only
// at i == 3; every core and every axiom configuration finds exactly that test.
// sear-configs: --core-solver=z3 | --core-solver=eager | --core-solver=cegar | --core-solver=cegar --ilp-precheck --validate-precheck | --core-solver=cegar --ilp-precheck --axiom-elim=none --cegar-select=violated --axiom-extras=off | --core-solver=cegar --ilp-precheck --cegar-select=eager | --core-solver=z3 --ilp-precheck --validate-precheck
// expect-completed: 2
// expect-error-paths: 0
#include "klee/klee.h"

int main(void) {
    int a[4] = {0, 0, 0, 11};
    int i;
    klee_make_symbolic(&i, sizeof i, "i");
    klee_assume(i >= 0);
    klee_assume(i <= 3);
    if (a[i] > 10) {
        klee_assert(i == 3);
        return 1;
    }
    return 0;
}
