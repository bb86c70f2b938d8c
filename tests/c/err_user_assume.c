// A klee_assume that contradicts earlier constraints is a user error (KLEE: "invalid
// klee_assume call (provably false)"); so is klee_range with an empty range.
// Reasoning: x > 5 is assumed. mode 0: klee_assume(x < 3) is infeasible (user error);
// mode 1: klee_range(3, 3) (user error); mode 2 completes. 1 completed, 2 errors.
// expect-completed: 1
// expect-error-paths: 2
#include "klee/klee.h"

int main(void) {
    int x;
    klee_make_symbolic(&x, sizeof x, "x");
    klee_assume(x > 5);
    int mode = klee_range(0, 3, "mode");
    if (mode == 0)
        klee_assume(x < 3); // expect-error: user
    if (mode == 1)
        return klee_range(3, 3, "empty"); // expect-error: user
    return 0;
}
