// klee_silent_exit ends a path without a test.
// Reasoning: x == 3 forks: that path exits silently (no test, not completed), the other
// completes: 1 completed path, 1 test.
// expect-completed: 1
// expect-error-paths: 0
// expect-tests: 1
#include "klee/klee.h"

int main(void) {
    int x;
    klee_make_symbolic(&x, sizeof x, "x");
    if (x == 3)
        klee_silent_exit(0);
    return 0;
}
