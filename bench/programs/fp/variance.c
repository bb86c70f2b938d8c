// Float bench (issue 34): mean and variance by the one-pass textbook formula. SIZE samples in
// [-10000, 10000] give mean = S/n and var = S2/n - mean^2 in float; the standard deviation is
// its square root. For samples close together and far from 0 the subtraction cancels and
// rounding makes var negative (the root would be NaN): the assertion var >= 0 fails.
// Reasoning: each sample's range check forks (SIZE rejections, NaN included); var >= 0
// forks (the error); the spread test (sd > 100) forks: 2 completed paths and 1 error past
// the checks.
// SIZE is the number of samples (2).
#include <math.h>
#include "../bench.h"

int main(void) {
    float x[SIZE];
    klee_make_symbolic(x, sizeof x, "x");
    float s = 0.0f, s2 = 0.0f;
    for (int k = 0; k < SIZE; k++) {
        if (!(x[k] >= -10000.0f && x[k] <= 10000.0f))
            return 10;
        s += x[k];
        s2 += x[k] * x[k];
    }
    float mean = s / SIZE;
    float var = s2 / SIZE - mean * mean;
    klee_assert(var >= 0.0f);
    float sd = (float)sqrt(var);
    return sd > 100.0f ? 1 : 0;
}
