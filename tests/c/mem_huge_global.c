// A 1 GiB zero-initialised global and a 1 MiB one with a short initializer cost no memory
// until they are used: sear stores them as it stores heap objects, not one value per byte
// (before: 80 bytes per byte, an abort after 45 s at 17.9 GB).
// Reasoning: one symbolic branch on x: 2 completed paths, in well under the memory limit.
// sear-args: --max-memory 1000
// expect-completed: 2
// expect-error-paths: 0
// expect-summary: dropped_states == 0
#include "klee/klee.h"

static char g[1 << 30];
static char h[1 << 20] = {1, 2, 3};

int main(void) {
    int x;
    klee_make_symbolic(&x, sizeof x, "x");
    g[5] = 3;
    g[(1 << 30) - 1] = h[2];
    if (x > 0)
        return g[5] + g[(1 << 30) - 1] + h[1];
    return g[0];
}
