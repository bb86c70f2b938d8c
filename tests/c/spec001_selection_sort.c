// 001 §11 T9: the slides' selection sort over symbolic ints; the result must be sorted on every
// path, with identical paths under every core and axiom configuration.
// sear-configs: --core-solver=z3 | --core-solver=eager | --core-solver=cegar | --core-solver=cegar --ilp-precheck --validate-precheck | --core-solver=cegar --ilp-precheck --axiom-elim=none --cegar-select=violated --axiom-extras=off | --core-solver=cegar --ilp-precheck --cegar-select=eager | --core-solver=z3 --ilp-precheck --validate-precheck
// expect-completed: 33
// expect-error-paths: 0
#include "klee/klee.h"

#define N 4

int main(void) {
    int a[N];
    klee_make_symbolic(a, sizeof a, "a");
    for (int i = 0; i < N; i++)
        klee_assume(a[i] >= 0 & a[i] < 16);
    for (int i = 0; i < N - 1; i++) {
        int min = i;
        for (int j = i + 1; j < N; j++)
            if (a[j] < a[min])
                min = j;
        int t = a[i];
        a[i] = a[min];
        a[min] = t;
    }
    for (int i = 0; i < N - 1; i++)
        klee_assert(a[i] <= a[i + 1]);
    return 0;
}
