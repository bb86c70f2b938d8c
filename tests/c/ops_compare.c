// Signed and unsigned comparisons (slt/sle/sgt/sge/ult/ule/ugt/uge/eq/ne).
// Reasoning: the asserted equivalences hold for all inputs (no fork). x < 0: the unsigned
// view is then always > 0x7FFFFFFF, and never otherwise: 2 paths for x. For c: c > 100
// (then (unsigned char)c > 100 always: 1 path) or c <= 100 (then (unsigned char)c > 100
// exactly when c < 0: 2 paths): 3 paths. Independent: 2 * 3 = 6.
// expect-completed: 6
// expect-error-paths: 0
#include "klee/klee.h"

int main(void) {
    int x, y;
    signed char c;
    klee_make_symbolic(&x, sizeof x, "x");
    klee_make_symbolic(&y, sizeof y, "y");
    klee_make_symbolic(&c, sizeof c, "c");
    klee_assert((x <= y) == !(x > y));
    klee_assert((x >= y) == !(x < y));
    klee_assert(((unsigned)x <= (unsigned)y) == !((unsigned)x > (unsigned)y));
    klee_assert(((unsigned)x >= (unsigned)y) == !((unsigned)x < (unsigned)y));
    klee_assert((x == y) == !(x != y));
    int r = 0;
    if (x < 0) {
        if ((unsigned)x > 0x7FFFFFFFu)
            r += 1;
        else
            r += 100; // infeasible
    } else {
        if ((unsigned)x > 0x7FFFFFFFu)
            r += 100; // infeasible
        else
            r += 2;
    }
    if (c > 100) {
        if ((unsigned char)c > 100)
            r += 10;
    } else if ((unsigned char)c > 100) {
        r += 20;
    } else {
        r += 30;
    }
    return r;
}
