// Integer arithmetic at every C width (i8, i16, i32, i64) on symbolic inputs.
// Reasoning: four independent two-way branches, one per input, each feasible both ways
// (a+100 wraps negative for a >= 28; b == 3 gives 9; c == 3 gives 6; d == -1 gives 0):
// 2^4 = 16 paths. The klee_assert identities hold for every input, so they never fork.
// expect-completed: 16
// expect-error-paths: 0
#include "klee/klee.h"

int main(void) {
    signed char a;
    short b;
    int c;
    long long d;
    klee_make_symbolic(&a, sizeof a, "a");
    klee_make_symbolic(&b, sizeof b, "b");
    klee_make_symbolic(&c, sizeof c, "c");
    klee_make_symbolic(&d, sizeof d, "d");
    int r = 0;
    if ((signed char)(a + 100) < 0)
        r += 1;
    if ((unsigned short)(b * 3) == 9)
        r += 2;
    if ((unsigned)c * 2u == 6u)
        r += 4;
    if ((unsigned long long)d + 1 == 0)
        r += 8;
    klee_assert((unsigned char)(a * 3) == (unsigned char)(a + a + a));
    klee_assert((unsigned short)((unsigned)b << 1) == (unsigned short)(b * 2));
    klee_assert((unsigned)c - (unsigned)c == 0u);
    klee_assert((unsigned long long)d * 4 == (unsigned long long)d << 2);
    klee_assert((short)(unsigned short)b == b);
    return r;
}
