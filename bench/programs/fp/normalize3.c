// Float bench (issue 34): a vector normalisation dividing by a tiny norm. A 3-vector with
// components in [-1000, 1000] is normalised unless its squared norm is exactly 0. For
// components near 1e-22 the squares are subnormal and have lost most of their bits, so the
// norm is off by several percent and a component of the "unit" vector exceeds 1 by more
// than the 1e-6 the caller allows: the assertion fails.
// Reasoning: the 3 range checks fork (3 rejections, NaN included); the zero norm forks;
// the assertion forks (1 error); the sign of the first unit component forks: up to 6
// completed paths and 1 error.
// SIZE is unused.
#include <math.h>
#include "../bench.h"

int main(void) {
    float v[3];
    klee_make_symbolic(v, sizeof v, "v");
    for (int k = 0; k < 3; k++)
        if (!(fabsf(v[k]) <= 1000.0f))
            return 10 + k;
    float n2 = v[0] * v[0] + v[1] * v[1] + v[2] * v[2];
    if (n2 == 0.0f)
        return 1;
    float n = (float)sqrt(n2);
    float u[3];
    for (int k = 0; k < 3; k++)
        u[k] = v[k] / n;
    klee_assert(fabsf(u[0]) <= 1.000001f && fabsf(u[1]) <= 1.000001f &&
                fabsf(u[2]) <= 1.000001f);
    return u[0] < 0.0f ? 2 : 0;
}
