// 000 T9: after a write at a symbolic index neither transformation applies (the cells are
// unknown), and every configuration still explores the same paths.
// sear-configs: --optimize-array=none --no-array-folding | --optimize-array=none | --optimize-array=index --validate-array-opt | --optimize-array=value --validate-array-opt | --optimize-array=all --validate-array-opt
// expect-completed: 2
// expect-error-paths: 0
// expect-summary: array_opt.index_successes == 0
// expect-summary: array_opt.value_successes == 0
// expect-summary: array_opt.mixed_successes == 0
#include "klee/klee.h"

int main(void) {
    char B[6] = {0, 0, 3, 3, 0, 0};
    unsigned char i, j;
    char s;
    klee_make_symbolic(&i, 1, "i");
    klee_make_symbolic(&j, 1, "j");
    klee_make_symbolic(&s, 1, "s");
    klee_assume(i < 6);
    klee_assume(j < 6);
    B[j] = s;
    if (B[i] > 2)
        return 1;
    return 0;
}
