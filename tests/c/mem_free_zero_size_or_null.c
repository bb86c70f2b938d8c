// free of a symbolic pointer that is either malloc(0) or NULL: both are valid frees (KLEE's
// 2008-03-11-free-of-malloc-zero). The zero-size object has no byte, but its base is a
// pointer free accepts.
// Reasoning: k picks p (malloc(0)) or NULL: 2 paths, both free without error.
// expect-completed: 2
// expect-error-paths: 0
#include <stdlib.h>
#include "klee/klee.h"

int main(void) {
    char *ptrs[2];
    ptrs[0] = malloc(0);
    ptrs[1] = NULL;
    int k = klee_range(0, 2, "k");
    free(ptrs[k]);
    return 0;
}
