// Float bench (issue 34): a bisection root finder with too few steps for its tolerance. The
// root of f(x) = x^3 + p x - q (p in [0, 10], q in [0, 100]: f increases) is bracketed in
// [0, 4] and the bracket halved until it is at most 0.25 wide (4 steps); the midpoint is
// returned and the caller asserts |f(root)| <= 1. Where f is steep (x^3 near 4, or p large)
// a quarter-wide bracket leaves |f| well above 1: the assertion fails on some leaves.
// Reasoning: the range checks fork (4 rejections with NaN); the bracket test f(4) < 0 forks;
// each of the 4 steps forks on the sign of f(mid) with concrete midpoints (16 leaves); on
// each leaf the assertion forks where both outcomes are feasible: about 20 completed paths
// and 16 error paths (one error location).
// SIZE is unused.
#include <math.h>
#include "../bench.h"

static float f(float x, float p, float q) { return x * x * x + p * x - q; }

int main(void) {
    float p, q;
    klee_make_symbolic(&p, sizeof p, "p");
    klee_make_symbolic(&q, sizeof q, "q");
    if (!(p >= 0.0f && p <= 10.0f))
        return 10;
    if (!(q >= 0.0f && q <= 100.0f))
        return 11;
    float lo = 0.0f, hi = 4.0f;
    if (f(hi, p, q) < 0.0f)
        return 12; // no root in the bracket
    while (hi - lo > 0.25f) {
        float mid = 0.5f * (lo + hi);
        if (f(mid, p, q) < 0.0f)
            lo = mid;
        else
            hi = mid;
    }
    float root = 0.5f * (lo + hi);
    klee_assert(fabsf(f(root, p, q)) <= 1.0f);
    return (int)root;
}
