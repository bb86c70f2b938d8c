// Symbolic floating point (issue 34): the classes of a double input. fpclassify (clang's
// fcmp/fabs sequence) and signbit split x into NaN, ±infinity, normal, subnormal, ±zero:
// every class is a path, and each test's input replays natively to the same exit status.
// Reasoning: fpclassify gives 5 classes; zero is split by its sign: 6 completed paths.



#include <math.h>
#include "klee/klee.h"

int main(void) {
    double x;
    klee_make_symbolic(&x, sizeof x, "x");
    switch (fpclassify(x)) {
    case FP_NAN:
        return 0;
    case FP_INFINITE:
        return 1;
    case FP_NORMAL:
        return 2;
    case FP_SUBNORMAL:
        return 3;
    default:
        break;
    }
    if (signbit(x))
        return 5;
    return 4;
}
