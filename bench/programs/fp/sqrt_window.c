// Symbolic floating point (issue 34): a window of doubles under a square root. The error
// needs sqrt(x) in (3, 3 + 1e-7), i.e. x in a window of width ~6e-7 just above 9: sear finds
// it with the FP theory (x is a double input; sqrt is the llvm.sqrt intrinsic).
// Reasoning: !(x >= 0 && x <= 100) forks twice (x >= 0 fails, for negatives and NaN, or
// x <= 100 fails): 2 paths return 1; inside, r > 3 && r < 3.0000001 forks twice: 2 paths
// return 0 and 1 is the error: 4 completed, 1 error.


#include <math.h>
#include "../bench.h"

int main(void) {
    double x;
    klee_make_symbolic(&x, sizeof x, "x");
    if (!(x >= 0.0 && x <= 100.0))
        return 1;
    double r = sqrt(x);
    if (r > 3.0 && r < 3.0000001)
        klee_assert(0); 
    return 0;
}
