// klee_range and klee_int: values in [begin, end), a one-value range that stays concrete,
// and a full 32-bit klee_int.
// Reasoning: r in [-2, 3) gives 5 values; the switch on r has cases -2..2 and a default
// that is infeasible: 5 paths. one == 7 is concrete (no fork, not symbolic). i == -1
// forks: 5 * 2 = 10 paths.
// expect-completed: 10
// expect-error-paths: 0
#include "klee/klee.h"

int main(void) {
    int r = klee_range(-2, 3, "r");
    int one = klee_range(7, 8, "one");
    int i = klee_int("i");
    klee_assert(one == 7);
    klee_assert(!klee_is_symbolic(one));
    int out = 0;
    switch (r) {
    case -2: out = 1; break;
    case -1: out = 2; break;
    case 0: out = 3; break;
    case 1: out = 4; break;
    case 2: out = 5; break;
    default: out = 100; break;
    }
    if (i == -1)
        out += 10;
    return out;
}
