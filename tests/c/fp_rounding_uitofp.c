// Rounding modes (issue 34): clang 19 lowers a 64-bit unsigned → double conversion on
// x86-64 as (2^84 + hi·2^32 − 2^84) + (2^52 + lo − 2^52), whose exact subtractions give −0
// when rounding down: (double)(uint64_t)0 is −0.0 under FE_DOWNWARD natively, and in sear
// (symbolic u and a concrete 0); every other value converts correctly rounded (2^64 − 1
// rounds down to 2^64 − 2^11).
// Reasoning: u == 0 forks; then 1/d < 0 holds only for −0 (one side); u == 2^64 − 1
// forks on the other side: exits 1 (u = 0), 3 (u = 2^64 − 1), 0 (other).
// expect-completed: 3
// expect-exits: 0 1 3
#include <fenv.h>
#include <stdint.h>
#include "klee/klee.h"

int main(void) {
    uint64_t u;
    volatile uint64_t zero = 0;
    klee_make_symbolic(&u, sizeof u, "u");
    fesetround(FE_DOWNWARD);
    double d = (double)u;
    double z = (double)zero;
    if (1.0 / z > 0)
        return 9;
    if (u == 0)
        return 1.0 / d < 0 ? 1 : 2;
    if (u == UINT64_MAX)
        return d == 18446744073709549568.0 ? 3 : 4;
    return 0;
}
