// Float bench (issue 34): classification of sensor values (NaN, infinities, subnormals).
// A packet carries SIZE conductance readings as binary32. NaN marks a fault; +-inf saturates
// to +-1e6; values below 1e-39 in magnitude are flushed to zero "because they are
// subnormal" — but subnormals reach up to 1.18e-38; zeros are skipped, and the rest are
// inverted into resistances. A reading in [1e-39, 2.94e-39) is not flushed and its inverse
// is +-inf: the assertion (a finite resistance) fails.
// Reasoning: per reading NaN, infinite, flushed or zero, inverted: 4 ways and the error;
// SIZE = 2: 4 * 4 completed paths and 1 + 4 error paths (one error location).
// SIZE is the number of readings.
#include <math.h>
#include "../bench.h"

int main(void) {
    float v[SIZE];
    klee_make_symbolic(v, sizeof v, "packet");
    int faults = 0, zeros = 0;
    for (int k = 0; k < SIZE; k++) {
        float x = v[k];
        if (isnan(x)) {
            faults++;
            continue;
        }
        if (isinf(x))
            x = x > 0.0f ? 1e6f : -1e6f;
        else if (fabsf(x) < 1e-39f)
            x = 0.0f;
        if (x == 0.0f) {
            zeros++;
            continue;
        }
        float r = 1.0f / x;
        klee_assert(isfinite(r));
    }
    if (faults > 0)
        return 1;
    return zeros == SIZE ? 2 : 0;
}
