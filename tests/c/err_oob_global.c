// Out-of-bounds read and write on a global array at a symbolic index.
// Reasoning: as err_oob_stack.c, on a global: 2 completed, 2 ptr errors. The index stays
// below 8 so the bad accesses land just past the array (in its red zone, natively too).
// expect-completed: 2
// expect-error-paths: 2
#include "klee/klee.h"

int table[4] = {10, 20, 30, 40};

int main(void) {
    unsigned i = (unsigned)klee_range(0, 8, "i");
    int mode = klee_range(0, 2, "mode");
    int r = 0;
    if (mode == 0)
        table[i] = 1; // expect-error: ptr
    else
        r = table[i]; // expect-error: ptr
    return r;
}
