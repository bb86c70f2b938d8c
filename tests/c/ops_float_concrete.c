// Floating point on concrete values: float/double/long double arithmetic, conversions,
// comparisons (ordered, unordered with NaN), fabs and negation.
// Reasoning: every float value is concrete (volatile locals), so the asserts are decided
// without forking; one branch on a symbolic int: 2 paths.
// expect-completed: 2
// expect-error-paths: 0
#include <math.h>
#include "klee/klee.h"

int main(void) {
    volatile double a = 1.5, b = -2.25, zero = 0.0;
    volatile float f = 3.0f, g = 0.1f;
    volatile double tenth = 0.1;
    klee_assert(a + b == -0.75);
    klee_assert(a * b == -3.375);
    klee_assert(a - b == 3.75);
    klee_assert(a / 0.5 == 3.0);
    klee_assert((float)a * f == 4.5f);
    klee_assert((double)g != tenth);
    klee_assert((float)(double)g == g);
    klee_assert((int)b == -2);
    klee_assert((unsigned)a == 1u);
    klee_assert((long long)(b * 1e10) == -22500000000LL);
    klee_assert((double)(long long)-7 == -7.0);
    klee_assert((float)(unsigned char)200 == 200.0f);
    klee_assert(b < a);
    klee_assert(-b > a);
    klee_assert(fabs(b) == 2.25);
    double nan = zero / zero;
    klee_assert(nan != nan);
    klee_assert(!(nan < 1.0) & !(nan >= 1.0));
    volatile long double ld = 1.25L, ltiny = 4.9406564584124654e-324L;
    klee_assert((double)(ld * 2) == 2.5);
    klee_assert((double)ltiny == 4.9406564584124654e-324);
    klee_assert((long long)(ld * 1e6L) == 1250000);
    double inf = 1.0 / zero;
    klee_assert(inf > 1e308);
    klee_assert(-inf < -1e308);
    int x;
    klee_make_symbolic(&x, sizeof x, "x");
    if (x > 3)
        return 1;
    return 0;
}
