// Null pointer dereferences: a read through NULL, a write through a NULL struct pointer's
// field (null page + offset), on separate paths.
// Reasoning: mode in [0, 3): switch gives 3 paths: mode 0 reads *NULL (ptr error), mode 1
// writes to NULL->b at offset 4 (ptr error), mode 2 completes.
// expect-completed: 1
// expect-error-paths: 2
#include <stddef.h>
#include "klee/klee.h"

struct pair {
    int a, b;
};

int main(void) {
    int mode = klee_range(0, 3, "mode");
    int *p = NULL;
    struct pair *q = NULL;
    switch (mode) {
    case 0:
        return *p; // expect-error: ptr
    case 1:
        q->b = 3; // expect-error: ptr
        return 1;
    default:
        return 2;
    }
}
