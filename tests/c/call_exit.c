// Ways to end: exit() with a status (from a nested call), return from main, and abort().
// Reasoning: mode in [0, 3): exit(3) from a helper (completed, status 3), abort (error),
// return 5 (completed).
// expect-completed: 2
// expect-error-paths: 1
// expect-exits: 3 5
#include <stdlib.h>
#include "klee/klee.h"

static void leave(int code) { exit(code); }

int main(void) {
    int mode = klee_range(0, 3, "mode");
    if (mode == 0)
        leave(3);
    if (mode == 1)
        abort(); // expect-error: abort
    return 5;
}
