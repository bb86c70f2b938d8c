// 128-bit integer arithmetic: multiplication, shifts, signed division by a constant and
// a symbolic comparison across the 64-bit boundary.
// Reasoning: three independent branches on x, y, z: 3x == 9 has the single solution x == 3
// (3 is invertible modulo 2^128) and is also false elsewhere; y >> 100 == 1 holds on
// [2^100, 2^101); z / 7 == 5 holds on [35, 41]. 2^3 = 8 paths, no errors (the divisor is
// a constant).
// expect-completed: 8
// expect-error-paths: 0
#include "klee/klee.h"

int main(void) {
    __int128 x, y, z;
    klee_make_symbolic(&x, sizeof x, "x");
    klee_make_symbolic(&y, sizeof y, "y");
    klee_make_symbolic(&z, sizeof z, "z");
    int r = 0;
    if ((unsigned __int128)x * 3 == 9)
        r |= 1;
    if (((unsigned __int128)y >> 100) == 1)
        r |= 2;
    if (z / 7 == 5)
        r |= 4;
    unsigned __int128 big = (unsigned __int128)1 << 127;
    klee_assert((unsigned long long)(big >> 64) == 0x8000000000000000ull);
    klee_assert(((unsigned __int128)x ^ (unsigned __int128)x) == 0);
    return r;
}
