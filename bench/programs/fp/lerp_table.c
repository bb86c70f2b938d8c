// Float bench (issue 34): a linear-interpolation table lookup whose result indexes another
// table. A temperature (degrees C) is clamped to the table's [-40, 85], its segment found
// (the slopes are precomputed), and the interpolated fan duty in [0.1, 0.95] becomes an
// index into a 100-entry PWM table as (int)(duty * 100). The clamps are `x < -40` and `x > 85`, which a NaN passes: the
// segment search ends on the last segment, the duty is NaN, and (int)NaN is x86-64's
// INT_MIN: an out-of-bounds read.
// Reasoning: the two clamps fork (3 ways, NaN among the unclamped), the segment search forks
// once per breakpoint (7 segments), and the NaN path reaches the bad index: 9 completed
// paths and 1 error.
// SIZE is unused.
#include "../bench.h"

static const float xs[8] = {-40.0f, -10.0f, 0.0f, 15.0f, 25.0f, 40.0f, 60.0f, 85.0f};
static const float ys[8] = {0.1f, 0.1f, 0.15f, 0.2f, 0.3f, 0.5f, 0.8f, 0.95f};
// the segments' slopes, (ys[i + 1] - ys[i]) / (xs[i + 1] - xs[i]), precomputed
static const float slope[7] = {0.0f, 0.005f, 0.00333333f, 0.01f, 0.0133333f, 0.015f, 0.006f};

static unsigned char pwm[100];

int main(void) {
    float x;
    klee_make_symbolic(&x, sizeof x, "temp");
    for (int k = 0; k < 100; k++)
        pwm[k] = (unsigned char)(k * 255 / 99);
    if (x < xs[0])
        x = xs[0];
    else if (x > xs[7])
        x = xs[7];
    int i;
    for (i = 0; i < 6; i++)
        if (x < xs[i + 1])
            break;
    float duty = ys[i] + (x - xs[i]) * slope[i];
    int idx = (int)(duty * 100.0f);
    return pwm[idx] > 128 ? 1 : 0;
}
