// --silent-klee-assume (KLEE's option): a provably false klee_assume ends its path silently,
// with no test and no error, instead of a user error; summary.json counts it.
// Reasoning: x > 10 forks; on the path where x <= 10, assuming x > 20 is provably false:
// that path ends silently. 1 completed path, 1 test, 1 silent path.
// sear-args: --silent-klee-assume
// expect-completed: 1
// expect-error-paths: 0
// expect-tests: 1
// expect-summary: silent_paths == 1
#include "klee/klee.h"

int main(void) {
    int x = klee_int("x");
    if (x > 10)
        return 0;
    klee_assume(x > 20);
    return 1;
}
