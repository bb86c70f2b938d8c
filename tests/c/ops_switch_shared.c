// Switch cases that share targets fork once per distinct target (as KLEE does), and a
// switch on a narrow scrutinee whose default is infeasible.
// Reasoning: {1,2,3} -> A, {10,11} -> B, default -> C: 3 targets, 3 paths for x. For the
// 2-bit field y & 3 all four values have cases, two of them shared: targets {0,3} and
// {1,2}, default infeasible: 2 paths. 3 * 2 = 6.
// expect-completed: 6
// expect-error-paths: 0
#include "klee/klee.h"

int main(void) {
    int x, y;
    klee_make_symbolic(&x, sizeof x, "x");
    klee_make_symbolic(&y, sizeof y, "y");
    int r = 0;
    switch (x) {
    case 1:
    case 2:
    case 3:
        r = 1;
        break;
    case 10:
    case 11:
        r = 2;
        break;
    default:
        r = 3;
        break;
    }
    switch (y & 3) {
    case 0:
    case 3:
        r += 10;
        break;
    case 1:
    case 2:
        r += 20;
        break;
    default:
        r += 1000; // infeasible
        break;
    }
    return r;
}
