// The value-based transformation's thresholds are KLEE's: over the whole array, distinct
// concrete element values / elements (symbolic elements are not values; a mixed array
// passes at ratio <= 1.0). Before, sear counted each symbolic element as a distinct value,
// so a mixed array whose concrete elements all differ (here 62 distinct bytes and the two
// symbolic ones, x and y: 64 "values" in 64 elements) was skipped, where KLEE transforms it
// (62 values in 64 elements).
// Reasoning: i < 64 is symbolic, a[0] and a[1] are x and y, a[k] = k + 10 otherwise. v =
// a[i] is 20 (i == 10, or x or y is 20) or not: two paths, in every configuration.
// The value configuration transforms at the branch (--optimize-array-at=branch), where every
// condition meets the transformation (in the chain, the byte search answers first).
// sear-configs: --optimize-array=none | --optimize-array=value --optimize-array-at=branch | --optimize-array=all
// expect-completed: 2
// expect-error-paths: 0
// expect-summary: array_opt.mixed_successes >= 1 if value
#include "klee/klee.h"

int main(void) {
    unsigned char a[64];
    for (int k = 0; k < 64; k++)
        a[k] = (unsigned char)(k + 10);
    unsigned char x, y, i;
    klee_make_symbolic(&x, sizeof x, "x");
    klee_make_symbolic(&y, sizeof y, "y");
    klee_make_symbolic(&i, sizeof i, "i");
    klee_assume(i < 64);
    a[0] = x;
    a[1] = y;
    unsigned char v = a[i];
    if (v == 20)
        return 1;
    return 0;
}
