// Shifts by symbolic amounts kept in range: shl, lshr, ashr at 32 and 64 bits.
// Reasoning: k < 32 and k64 < 64 are assumed, so no overshift path. The identities hold for
// every input (ashr keeps the sign; lshr never grows the value). One branch on bit k of x:
// 2 paths.
// expect-completed: 2
// expect-error-paths: 0
#include "klee/klee.h"

int main(void) {
    unsigned x, k, k64;
    int s;
    unsigned long long y;
    long long sy;
    klee_make_symbolic(&x, sizeof x, "x");
    klee_make_symbolic(&k, sizeof k, "k");
    klee_make_symbolic(&s, sizeof s, "s");
    klee_make_symbolic(&y, sizeof y, "y");
    klee_make_symbolic(&sy, sizeof sy, "sy");
    klee_make_symbolic(&k64, sizeof k64, "k64");
    klee_assume(k < 32);
    klee_assume(k64 < 64);
    klee_assert(((x << k) >> k) == (x & (0xFFFFFFFFu >> k)));
    klee_assert((x >> k) <= x);
    klee_assert(((s >> k) < 0) == (s < 0));
    klee_assert(((y << k64) >> k64) == (y & (~0ull >> k64)));
    klee_assert(((sy >> k64) < 0) == (sy < 0));
    volatile int m = -16;
    volatile unsigned top = 0x80000000u;
    klee_assert((m >> 2) == -4);
    klee_assert((top >> 31) == 1);
    klee_assert(((unsigned)m >> 28) == 0xF);
    if (((x >> k) & 1) == 1)
        return 1;
    return 0;
}
