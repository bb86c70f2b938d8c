// Float bench (issue 34): Newton iterations for a reciprocal, with an iteration limit. The
// divisor d is a normalised mantissa in [0.5, 1); y0 = 48/17 - 32/17 d (error at most 1/17)
// and y <- y + y(1 - d y) doubles the correct bits per step. The author allowed 2 steps for
// a tolerance of 1e-5, but the error after 2 steps is e0^4, up to 1.2e-5: near d = 0.5,
// d = 0.75 and d -> 1 the loop runs out and the assertion fails.
// Reasoning: the range check forks twice (2 rejections); the loop ends after 0, 1 or 2
// steps or not at all (the error): 5 completed paths and 1 error.
// SIZE is unused.
#include <math.h>
#include "../bench.h"

#define MAXIT 2

int main(void) {
    float d;
    klee_make_symbolic(&d, sizeof d, "d");
    if (!(d >= 0.5f && d < 1.0f))
        return 10;
    float y = 48.0f / 17.0f - 32.0f / 17.0f * d;
    int i;
    for (i = 0; i < MAXIT; i++) {
        float e = 1.0f - d * y;
        if (fabsf(e) < 1e-5f)
            break;
        y = y + y * e;
    }
    if (i == MAXIT) {
        float e = 1.0f - d * y;
        klee_assert(fabsf(e) < 1e-5f);
    }
    return i;
}
