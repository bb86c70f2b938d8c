// The program of ops_float_symbolic.c under the default --fp=symbolic: the float comparison
// and the double equality fork like the integer branch, on the FP theory.
// Reasoning: three independent two-way branches (f > 1.0f, d + 1.0 == 2.0, x == 5): 8 paths;
// no value is concretised.
// expect-completed: 8
// expect-error-paths: 0
// expect-summary: concretisations == 0
// expect-summary: fp_symbolic_ops >= 3
#include "klee/klee.h"

int main(void) {
    float f;
    double d;
    int x;
    klee_make_symbolic(&f, sizeof f, "f");
    klee_make_symbolic(&d, sizeof d, "d");
    klee_make_symbolic(&x, sizeof x, "x");
    int r = 0;
    if (f > 1.0f)
        r += 1;
    double e = d + 1.0;
    if (e == 2.0)
        r += 2;
    if (x == 5)
        r += 4;
    return r;
}
