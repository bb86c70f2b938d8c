// A program calling a function nothing defines (not even weakly) still replays natively:
// the replay build links a stub that aborts with a clear message, so the other tests run.
// Reasoning: mode forks: mode == 1 calls the undefined function (exec error, unchecked
// natively: the stub reports it), the other path completes and replays normally.
// expect-completed: 1
// expect-error-paths: 1
#include "klee/klee.h"

extern int sear_test_missing_function(int);

int main(void) {
    int mode = klee_range(0, 2, "mode");
    if (mode == 1)
        return sear_test_missing_function(3); // expect-error: exec
    return 0;
}
