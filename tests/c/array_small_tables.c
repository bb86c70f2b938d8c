// 000 T3, T4, T7, T8: value-based {0,0,2,2,0,0,3}, index-based {0,0,3,3,0,0,4} (A[w] < 3 is
// 0 ≤ w ≤ 1 ∨ 4 ≤ w ≤ 5), nested tables (array[array2[k]] == 7 only at k = 4) and branches
// decided by evaluation alone (array[m] == 9 holds nowhere). Every configuration explores
// the same paths; the assertions check that the tests really satisfy their branches. In
// value mode alone B7 keeps its array reads: its five values are all distinct, so the
// value-based transformation is not worth it (--array-value-ratio 1.0).
// sear-configs: --optimize-array=none --no-array-folding | --optimize-array=none | --optimize-array=index --validate-array-opt | --optimize-array=value --validate-array-opt | --optimize-array=all --validate-array-opt
// expect-completed: 16
// expect-error-paths: 0
// expect-summary: array_opt.index_successes >= 4 if index
// expect-summary: array_opt.index_infeasible >= 1 if index
// expect-summary: array_opt.value_successes >= 4 if value
// expect-summary: array_opt.core_queries_with_arrays == 0 if index
// expect-summary: array_opt.core_queries_with_arrays == 0 if all
// expect-summary: array_opt.validation.failures == 0
#include "klee/klee.h"

static const char A3[7] = {0, 0, 2, 2, 0, 0, 3};
static const char A4[7] = {0, 0, 3, 3, 0, 0, 4};
static const char A7[5] = {1, 2, 7, -4, 5};
static const char B7[5] = {0, 3, 4, 1, 2};
static const char A8[5] = {0, 1, 0, 1, 0};

int main(void) {
    unsigned char v, w, k, m;
    klee_make_symbolic(&v, 1, "v");
    klee_make_symbolic(&w, 1, "w");
    klee_make_symbolic(&k, 1, "k");
    klee_make_symbolic(&m, 1, "m");
    klee_assume(v < 7);
    klee_assume(w < 7);
    klee_assume(k < 5);
    klee_assume(m < 5);
    int score = 0;
    char x = A3[v];
    if (x == 2) {
        klee_assert((v == 2) | (v == 3));
        score += 1;
    }
    if (A4[w] < 3) {
        klee_assert((w <= 1) | (w == 4) | (w == 5));
        score += 2;
    } else {
        klee_assert((w == 2) | (w == 3) | (w == 6));
    }
    if (A7[B7[k]] == 7) {
        klee_assert(k == 4);
        score += 4;
    }
    if (A8[m] == 0) {
        klee_assert((m == 0) | (m == 2) | (m == 4));
        score += 8;
    }
    if (A8[m] == 9)
        klee_assert(0);
    return score;
}
