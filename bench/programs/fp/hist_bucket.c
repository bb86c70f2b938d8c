// Float bench (issue 34): a float -> int conversion used as an array index. SIZE readings of
// a percentage are binned into a 16-bucket histogram: negatives are clamped to 0, the bucket
// is (int)(v * 0.16) and buckets above 15 are clamped to 15 — after the conversion. A NaN
// (which `v < 0` lets through) or a reading of 1.35e10 or more converts to x86-64's integer
// indefinite INT_MIN, which the clamp does not catch: hist[INT_MIN] is written (an
// out-of-bounds write).
// Reasoning: per reading, v < 0 forks, then b > 15, then the bad index: 3 in-bounds ways
// and 1 error per reading; SIZE = 2: 3 * 3 completed paths and 3 + 1 error paths (the
// second reading's error after each of the first's 3 ways, the first reading's error).
// SIZE is the number of readings.
#include "../bench.h"

int main(void) {
    float v[SIZE];
    int hist[16] = {0};
    klee_make_symbolic(v, sizeof v, "v");
    for (int k = 0; k < SIZE; k++) {
        float s = v[k];
        if (s < 0.0f)
            s = 0.0f;
        int b = (int)(s * 0.16f);
        if (b > 15)
            b = 15;
        hist[b]++;
    }
    return hist[15] > 0 ? 1 : 0;
}
