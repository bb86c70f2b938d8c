// --max-depth 1 holds at a check that may fail (division by a symbolic value): the path at
// depth 1 ends early at the check instead of forking an error path.
// sear-args: --max-depth 1
// expect-completed: 1
// expect-error-paths: 0
// expect-summary: early_paths == 1
// expect-summary: forks == 1
// The path that ended early at the check has no constraint on x: its test may divide by zero
// natively, an error sear did not explore.
// expect-replay: no
#include "klee/klee.h"

int main(void) {
    int x = klee_int("x");
    if (klee_int("y") > 0)
        return 0;
    return 100 / x;
}
