// Float bench (issue 34): a range-checked polynomial, scaled to a table index. A sensor's
// response curve p(x) = 2 + x(1.5 + x(0.25 + x/16)) (Horner form, increasing on [-4, 4]) is
// looked up in a 32-entry correction table at round(4 p) once p is checked to lie in [0, 8].
// The check admits p = 8, and round(4 p) is 32 for every p in [7.875, 8]: one past the end
// (an out-of-bounds read). Needs the x whose p(x) lands in that window (x near 2.3).
// Reasoning: !(x >= -4 && x <= 4) forks twice (2 rejections, NaN included); p < 0 and p > 8
// fork (2 more); an in-range index and the out-of-bounds one: 5 completed + 1 error.
// SIZE is unused.
#include "../bench.h"

static const int corr[32] = {
    3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3,
    2, 3, 8, 4, 6, 2, 6, 4, 3, 3, 8, 3, 2, 7, 9, 5,
};

static float response(float x) {
    return 2.0f + x * (1.5f + x * (0.25f + x * 0.0625f));
}

int main(void) {
    float x;
    klee_make_symbolic(&x, sizeof x, "x");
    if (!(x >= -4.0f && x <= 4.0f))
        return 10;
    float p = response(x);
    if (p < 0.0f)
        return 11;
    if (p > 8.0f)
        return 12;
    int idx = (int)(p * 4.0f + 0.5f);
    return corr[idx];
}
