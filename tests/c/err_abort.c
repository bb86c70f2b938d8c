// abort() and klee_abort() end their paths with abort errors.
// Reasoning: mode in [0, 3): abort (error), klee_abort (error), normal return: 1 completed,
// 2 error paths at two lines.
// expect-completed: 1
// expect-error-paths: 2
#include <stdlib.h>
#include "klee/klee.h"

int main(void) {
    int mode = klee_range(0, 3, "mode");
    if (mode == 0)
        abort(); // expect-error: abort
    if (mode == 1)
        klee_abort(); // expect-error: abort
    return 0;
}
