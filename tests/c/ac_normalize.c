// A reduction computed three times over the same symbolic array: as it is, after two
// elements were swapped, and after the array was rotated by one (array-crafted/xor3's
// shape, and mapavg's sum with the index added). The AC normalisation builds each
// reduction as one chain in one operand order, so the three results are one expression
// and the comparisons need no query; without it the comparisons go to the solver (which
// proves them equal). Both configurations end the same single path.
// sear-configs: --validate-solver | --no-ac-normalize
// expect-completed: 1
// expect-error-paths: 0
// expect-summary: ac_normalization.combined >= 2000 if validate-solver
// expect-summary: ac_normalization.rebuilt >= 100 if validate-solver
// expect-summary: queries == 0 if validate-solver
// expect-summary: queries >= 1 if no-ac-normalize
// expect-summary: ac_normalization.combined == 0 if no-ac-normalize
#include "klee/klee.h"

#define N 200

static int reduce_xor(const int *x) {
    long long res = x[0];
    for (int i = 1; i < N; i++)
        res = res ^ x[i];
    return res;
}

static int average(const int *x) {
    long long ret = 0;
    for (int i = 0; i < N; i++)
        ret = ret + i + x[i];
    return ret / N;
}

static int reduce_and(const int *x) {
    int res = x[0];
    for (int i = 1; i < N; i++)
        res = res & x[i];
    return res;
}

int main(void) {
    int x[N];
    klee_make_symbolic(x, sizeof x, "x");
    int xor1 = reduce_xor(x), avg1 = average(x), and1 = reduce_and(x);
    int temp = x[0];
    x[0] = x[1];
    x[1] = temp;
    int xor2 = reduce_xor(x), avg2 = average(x), and2 = reduce_and(x);
    temp = x[0];
    for (int i = 0; i < N - 1; i++)
        x[i] = x[i + 1];
    x[N - 1] = temp;
    int xor3 = reduce_xor(x), avg3 = average(x), and3 = reduce_and(x);
    klee_assert(xor1 == xor2 && xor1 == xor3);
    klee_assert(avg1 == avg2 && avg1 == avg3);
    klee_assert(and1 == and2 && and1 == and3);
    return 0;
}
