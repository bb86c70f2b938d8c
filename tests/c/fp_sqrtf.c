// Symbolic floating point (issue 34): `sqrtf` (float) is the runtime's llvm.sqrt.f32, not an
// unsupported external: the error needs sqrtf(x) exactly 5 with x a float input.
// Reasoning: !(x >= 0 && x <= 100) forks twice (negatives and NaN fail x >= 0, or x <= 100
// fails): 2 paths return 1; inside, sqrtf(x) == 5.0f forks: 1 path returns 0 and 1 is the
// error (x = 25): 3 completed, 1 error.
// expect-completed: 3
// expect-error-paths: 1
#include <math.h>
#include "klee/klee.h"

int main(void) {
    float x;
    klee_make_symbolic(&x, sizeof x, "x");
    if (!(x >= 0.0f && x <= 100.0f))
        return 1;
    if (sqrtf(x) == 5.0f)
        klee_assert(0); // expect-error: assert
    return 0;
}
