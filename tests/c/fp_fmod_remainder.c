// Symbolic floating point (issue 34): C's fmod and remainder are exact and symbolic. fmod is
// the runtime's frem (a floating-point node; the solvers build it from fp.rem), remainder is
// SMT-LIB's fp.rem (the engine's). fmod(1e300, 7) is 1 exactly (glibc's value; the runtime's
// former x - trunc(x / y) * y gave 0): the program exits with it on one path, checked by
// the native replay.
// Reasoning: each `if` on a symbolic value forks both ways: isnan(f) (y = 0, x = inf or a NaN
// input) ends a path (exit 1); f == 1.5 && r == -0.5 (x = 1.5, y = 2) ends one (exit 2) and
// f == 1.5 with r != -0.5 (y = -inf) another (exit 3); fmodf(g, 1) == 0.75 with g > 1e6
// (floats there are spaced by 1/16) is the error, and its three failing conditions end three
// paths that exit with 11: 1 error and 6 completed paths.
// expect-completed: 6
// expect-error-paths: 1
#include <math.h>
#include "klee/klee.h"

int main(void) {
    float x, y;
    float g;
    klee_make_symbolic(&x, sizeof x, "x");
    klee_make_symbolic(&y, sizeof y, "y");
    klee_make_symbolic(&g, sizeof g, "g");
    float f = fmodf(x, y);
    float r = remainderf(x, y);
    if (isnan(f))
        return 1;
    if (f == 1.5f) {
        if (r == -0.5f)
            return 2;
        return 3;
    }
    if (g > 1e6f && g < 2e6f && fmodf(g, 1.0f) == 0.75f)
        klee_assert(0); // expect-error: assert
    volatile double big = 1e300;
    return (int)fmod(big, 7.0) + 10 * (int)remainder(big, 7.0);
}
