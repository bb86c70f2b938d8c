// Float bench (issue 34): a quadratic-formula solver with discriminant branches. Inputs a,
// b, c are range-checked (|.| <= 1e20, NaN rejected), a near 0 is solved as a linear
// equation, and the discriminant b^2 - 4ac decides: no real root, one root, two roots. The
// inputs are in range but b^2 is not: for |b| >= 1.85e19 it overflows to inf, so does the
// discriminant, and the "two roots" branch returns an infinite root: the assertion (finite
// roots) fails.
// Reasoning: 3 range checks fork (3 rejections), the linear case forks on b == 0, the
// discriminant forks three ways, the assertion forks in the two-root branch, and the order
// of the roots forks: 7 completed paths and 1 error where no query times out.
// SIZE is unused.
#include <math.h>
#include "../bench.h"

int main(void) {
    float a, b, c;
    klee_make_symbolic(&a, sizeof a, "a");
    klee_make_symbolic(&b, sizeof b, "b");
    klee_make_symbolic(&c, sizeof c, "c");
    if (!(fabsf(a) <= 1e20f) || !(fabsf(b) <= 1e20f) || !(fabsf(c) <= 1e20f))
        return 10;
    if (fabsf(a) < 1e-6f) {
        if (b == 0.0f)
            return 11; // no equation
        return 1;      // one root, -c / b
    }
    float disc = b * b - 4.0f * a * c;
    if (disc < 0.0f)
        return 0; // no real root
    if (disc == 0.0f)
        return 1; // a double root, -b / 2a
    float s = (float)sqrt(disc);
    float r1 = (-b + s) / (2.0f * a);
    float r2 = (-b - s) / (2.0f * a);
    klee_assert(isfinite(r1) && isfinite(r2));
    return r1 < r2 ? 2 : 3;
}
