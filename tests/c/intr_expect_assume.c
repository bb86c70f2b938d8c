// __builtin_expect is the identity and __builtin_assume (llvm.assume) is ignored, as in
// KLEE: it neither constrains the path nor forks.
// Reasoning: x == 5 forks (2). On x == 5, x == 7 is infeasible (1 path); on x != 5 the
// assume(x != 7) has no effect, so x == 7 forks (2 paths): 3 paths.
// expect-completed: 3
// expect-error-paths: 0
#include "klee/klee.h"

int main(void) {
    int x;
    klee_make_symbolic(&x, sizeof x, "x");
    int r = 0;
    if (__builtin_expect(x == 5, 0))
        r = 1;
    __builtin_assume(x != 7);
    if (x == 7)
        r += 10;
    return r;
}
