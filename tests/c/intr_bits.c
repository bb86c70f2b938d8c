// __builtin_clz/ctz/popcount and __builtin_bswap32/64 on symbolic values.
// Reasoning: x != 0 is assumed (clz/ctz of 0 are undefined). The asserts characterise the
// results and hold for every x (no fork). popcount(x) == 1 (x a power of two) forks:
// 2 paths.
// expect-completed: 2
// expect-error-paths: 0
#include "klee/klee.h"

int main(void) {
    unsigned x;
    unsigned long long y;
    klee_make_symbolic(&x, sizeof x, "x");
    klee_make_symbolic(&y, sizeof y, "y");
    klee_assume(x != 0);
    int lz = __builtin_clz(x);
    klee_assert(lz < 32);
    klee_assert((x >> (31 - lz)) == 1);
    int tz = __builtin_ctz(x);
    klee_assert(((x >> tz) & 1) == 1);
    klee_assert((x & ((1u << tz) - 1)) == 0);
    klee_assert(__builtin_bswap32(__builtin_bswap32(x)) == x);
    klee_assert((__builtin_bswap32(x) & 0xFF) == (x >> 24));
    klee_assert((__builtin_bswap64(y) >> 56) == (y & 0xFF));
    volatile unsigned one = 1, word = 0x12345678;
    klee_assert(__builtin_clz(one) == 31);
    klee_assert(__builtin_ctz(word) == 3);
    klee_assert(__builtin_popcount(word) == 13);
    klee_assert(__builtin_bswap32(word) == 0x78563412);
    klee_assert(__builtin_popcountll(~0ull) == 64);
    if (__builtin_popcount(x) == 1)
        return 1;
    return 0;
}
