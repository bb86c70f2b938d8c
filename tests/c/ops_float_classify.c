// Floating-point classification (isnan, isinf, isfinite, isnormal, signbit, fpclassify) on
// float, double and long double; clang emits llvm.is.fpclass and fcmp for them.
// Reasoning: every value is concrete, so the asserts are decided without forking; x == 1
// forks: 2 paths.
// expect-completed: 2
// expect-error-paths: 0
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include "klee/klee.h"

int main(void) {
    volatile double d = 2.5, z = 0.0, tiny = DBL_MIN / 4;
    volatile float f = -1.5f, fz = 0.0f;
    volatile long double ld = 3.0L, ldz = 0.0L;
    klee_assert(!isnan(d));
    klee_assert(isnan(z / z));
    klee_assert(isinf(1.0 / z));
    klee_assert(isinf(-1.0 / z));
    klee_assert(isfinite(d));
    klee_assert(!isfinite(1.0 / z));
    klee_assert(isnormal(d));
    klee_assert(!isnormal(tiny));
    klee_assert(fpclassify(tiny) == FP_SUBNORMAL);
    klee_assert(fpclassify(z) == FP_ZERO);
    klee_assert(fpclassify(d) == FP_NORMAL);
    klee_assert(fpclassify(1.0 / z) == FP_INFINITE);
    klee_assert(fpclassify(z / z) == FP_NAN);
    klee_assert(signbit(-d));
    klee_assert(!signbit(d));
    klee_assert(signbit(-z));
    klee_assert(isnan(fz / fz));
    klee_assert(isinf(f / fz));
    klee_assert(signbit(f));
    klee_assert(isnormal(f));
    klee_assert(isnan(ldz / ldz));
    klee_assert(isinf(ld / ldz));
    klee_assert(isnormal(ld));
    klee_assert(fpclassify(ldz) == FP_ZERO);
    int x;
    klee_make_symbolic(&x, sizeof x, "x");
    if (x == 1)
        exit(1);
    return 0;
}
