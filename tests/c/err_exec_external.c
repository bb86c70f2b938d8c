// A call to an external function neither sear nor its runtime implements is an exec
// error (the path cannot continue).
// Reasoning: mode forks: mode == 1 calls the undefined external function (exec error),
// the other path completes. The function is declared weak so that the native replay build
// links (the call then crashes natively; exec errors are not checkable natively anyway).
// expect-completed: 1
// expect-error-paths: 1
#include "klee/klee.h"

__attribute__((weak)) extern int sear_test_undefined_function(int);

int main(void) {
    int mode = klee_range(0, 2, "mode");
    if (mode == 1)
        return sear_test_undefined_function(3); // expect-error: exec
    return 0;
}
