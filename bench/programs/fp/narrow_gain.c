// Float bench (issue 34): a double -> float conversion that overflows to infinity. An audio
// gain stage multiplies a sample by a gain in double, clips the product to +-1e39 ("the float
// range", which is in fact +-3.4e38) and stores it as a float sample. Products in
// (FLT_MAX + half an ulp, 1e39] become +-inf in the float buffer, which the consumer's
// assertion (finite samples) catches.
// Reasoning: the gain's and the input's range checks fork (2 rejections); the two clips fork
// (3 ways); the finiteness test fails on each of them (3 error paths, one error location);
// the finite sample's sign forks: 4 completed paths and 3 error paths.
// SIZE is unused.
#include <math.h>
#include "../bench.h"

int main(void) {
    double in, gain;
    klee_make_symbolic(&in, sizeof in, "in");
    klee_make_symbolic(&gain, sizeof gain, "gain");
    if (!(gain >= 0.0 && gain <= 1e6))
        return 1;
    if (!(fabs(in) <= 1e35))
        return 2;
    double y = in * gain;
    if (y > 1e39)
        y = 1e39;
    if (y < -1e39)
        y = -1e39;
    float out = (float)y;
    klee_assert(isfinite(out));
    return out < 0.0f ? 3 : 0;
}
