// Symbolic floating point (issue 34), the floating-point search layer (--fp-search): one
// Newton step for sin with Taylor polynomials of degree 7 and 6 (sv-benchmarks'
// floats-cdfpl/newton_1_4). The error's query, !(x < 0.1) over the whole polynomial, is
// one bit-blasted query that the cores do not answer in the 2.5 s this budget gives a
// query (--max-time 10): without the search the path ends in a solver timeout. About a
// tenth of (-0.8, 0.8) reaches the error (IN below about -0.7), which the search finds by
// evaluation (the range's end, -0.8, and its neighbours are among its first candidates).
// Reasoning: IN > -0.8 forks (2: one returns 1), IN < 0.8 forks (one returns 2), and the
// Newton test forks: 3 completed, 1 error.
// sear-args: --max-time 10
// expect-completed: 3
// expect-error-paths: 1
#include "klee/klee.h"

static float f(float x) {
    return x - (x * x * x) / 6.0f + (x * x * x * x * x) / 120.0f +
           (x * x * x * x * x * x * x) / 5040.0f;
}

static float fp(float x) {
    return 1 - (x * x) / 2.0f + (x * x * x * x) / 24.0f + (x * x * x * x * x * x) / 720.0f;
}

int main(void) {
    float in;
    klee_make_symbolic(&in, sizeof in, "in");
    if (!(in > -0.8f))
        return 1;
    if (!(in < 0.8f))
        return 2;
    float x = in - f(in) / fp(in);
    if (!(x < 0.1))
        klee_assert(0); // expect-error: assert
    return 0;
}
