// Out-of-bounds read and write on a stack array at a symbolic index, including a negative
// index.
// Reasoning: mode == 0 forks (2). Write side: buf[i] for i in [-2, 6): in bounds for
// [0, 4) (1 completed), out of bounds otherwise (1 ptr error). Read side: the same.
// expect-completed: 2
// expect-error-paths: 2
#include "klee/klee.h"

int main(void) {
    int buf[4] = {1, 2, 3, 4};
    int i = klee_range(-2, 6, "i");
    int mode = klee_range(0, 2, "mode");
    int r = 0;
    if (mode == 0)
        buf[i] = 9; // expect-error: ptr
    else
        r = buf[i]; // expect-error: ptr
    return r;
}
