// INT_MIN / -1 and INT_MIN % -1 overflow: natively they trap (SIGFPE) like a division by
// zero, so sear reports them as `div` errors.
// Reasoning: x and y are symbolic. The division forks: y == 0 (div error), x == INT_MIN &&
// y == -1 (div error), the rest goes on. The remainder likewise with z: z == 0 and
// x == INT_MIN && z == -1 (the path still allows it) are two more error paths at the
// second line; 1 completed path.
// expect-completed: 1
// expect-error-paths: 4
#include <limits.h>
#include "klee/klee.h"

int main(void) {
    int x, y, z;
    klee_make_symbolic(&x, sizeof x, "x");
    klee_make_symbolic(&y, sizeof y, "y");
    klee_make_symbolic(&z, sizeof z, "z");
    int q = x / y; // expect-error: div
    int r = x % z; // expect-error: div
    return (q + r) == INT_MIN;
}
