// Use after free of a heap object: a read and a write through the dangling pointer.
// Reasoning: mode in [0, 3): three paths after free(p): read (ptr error), write (ptr
// error), no access (completed).
// expect-completed: 1
// expect-error-paths: 2
#include <stdlib.h>
#include "klee/klee.h"

int main(void) {
    int mode = klee_range(0, 3, "mode");
    int *p = malloc(2 * sizeof(int));
    p[0] = 1;
    p[1] = 2;
    free(p);
    if (mode == 0)
        return p[1]; // expect-error: ptr
    if (mode == 1)
        p[0] = 5; // expect-error: ptr
    return 0;
}
