// Any access to the object of malloc(0) is out of bounds, also natively: the replay build
// makes zero-size allocations zero-size objects for ASan (which gives them one byte).
// Reasoning: n is 0 or 4; malloc(n) then writes q[0]: for n == 0 a ptr error, for n == 4 it
// completes. calloc(0, 1) then read at [0] is a second error path when n == 4.
// expect-completed: 0
// expect-error-paths: 2
#include <stdlib.h>
#include "klee/klee.h"

int main(void) {
    int n = klee_range(0, 2, "n") * 4;
    char *q = malloc(n);
    q[0] = 1; // expect-error: ptr
    free(q);
    char *z = calloc(0, 1);
    int r = z[0]; // expect-error: ptr
    free(z);
    return r;
}
