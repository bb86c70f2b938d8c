// bsf and bsr (bit scans, as GMP's and coreutils' longlong.h write count_trailing_zeros and
// count_leading_zeros) compute the index of the lowest and highest set bit of a symbolic
// 64-bit value, into an int through `${0:q}` as coreutils' factor does. The asserts hold for
// every nonzero x: one path (x == 0 is excluded, where bsf leaves its destination
// undefined).
// expect-completed: 1
// expect-error-paths: 0
#include "klee/klee.h"

int main(void) {
    unsigned long long x;
    klee_make_symbolic(&x, sizeof x, "x");
    klee_assume(x != 0);
    int low, high;
    __asm__("bsf\t%1, %q0" : "=r"(low) : "rm"(x));
    __asm__("bsr\t%1, %q0" : "=r"(high) : "rm"(x));
    klee_assert(low == __builtin_ctzll(x));
    klee_assert(high == 63 - __builtin_clzll(x));
    return 0;
}
