// Symbolic floating point (issue 34), the floating-point search layer (--fp-search) on an
// integer input converted to float: a reading in millivolts (an int) becomes volts,
// (float)mv / 1000, and one Newton step for sin with Taylor polynomials of degree 7 and 6
// (sv-benchmarks' floats-cdfpl/newton_1_4) follows. The error's query, !(x < 0.1) over the
// whole polynomial of sitofp(mv), is one bit-blasted query that the cores do not answer in
// the 2.5 s this budget gives a query (--max-time 10); the search moves mv, an integer
// input (the 4 bytes sitofp converts), by evaluation: mv in (-800, about -700] reaches it.
// Reasoning: mv > -800 forks (2: one returns 1), mv < 800 forks (one returns 2), and the
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
    int mv;
    klee_make_symbolic(&mv, sizeof mv, "mv");
    if (!(mv > -800))
        return 1;
    if (!(mv < 800))
        return 2;
    float in = (float)mv / 1000.0f;
    float x = in - f(in) / fp(in);
    if (!(x < 0.1))
        klee_assert(0); // expect-error: assert
    return 0;
}
