// 000 T5: the mixed array {0, 0, s1, s2, 2, 2}. The value-based transformation gives
// ITE(0 ≤ i ≤ 1, 0, ITE(4 ≤ i ≤ 5, 2, ITE(i = 2, s1, s2))): one branch per symbolic element,
// never a symbolic-index read; the index-based transformation does not apply (the array is
// not constant). A[i] == 7 is feasible only through i = 2 ∧ s1 = 7 or i = 3 ∧ s2 = 7.
// sear-configs: --optimize-array=none --no-array-folding | --optimize-array=none | --optimize-array=index --validate-array-opt | --optimize-array=value --validate-array-opt | --optimize-array=all --validate-array-opt
// expect-completed: 2
// expect-error-paths: 0
// expect-summary: array_opt.index_successes == 0
// expect-summary: array_opt.mixed_successes >= 1 if value
// expect-summary: array_opt.mixed_successes >= 1 if all
// expect-summary: array_opt.core_queries_with_arrays == 0 if value
// expect-summary: array_opt.core_queries_with_arrays == 0 if all
// expect-summary: array_opt.validation.failures == 0
#include "klee/klee.h"

int main(void) {
    int A[6] = {0, 0, 0, 0, 2, 2};
    int s1, s2;
    unsigned char i;
    klee_make_symbolic(&s1, 4, "s1");
    klee_make_symbolic(&s2, 4, "s2");
    klee_make_symbolic(&i, 1, "i");
    klee_assume(i < 6);
    A[2] = s1;
    A[3] = s2;
    if (A[i] == 7) {
        klee_assert(((i == 2) & (s1 == 7)) | ((i == 3) & (s2 == 7)));
        return 1;
    }
    return 0;
}
