// Invalid frees: of a stack object, of a global, of an interior heap pointer, and a double
// free; plus a valid free.
// Reasoning: mode in [0, 5): the switch gives 5 paths: four end with an error (each at
// its own line): free of a local or a global is a free error, an interior pointer or a
// double free a ptr error (as in KLEE); mode 4 frees correctly and completes.
// expect-completed: 1
// expect-error-paths: 4
#include <stdlib.h>
#pragma clang diagnostic ignored "-Wfree-nonheap-object"
#include "klee/klee.h"

static int global;

int main(void) {
    int mode = klee_range(0, 5, "mode");
    int local = 0;
    int *h = malloc(2 * sizeof(int));
    switch (mode) {
    case 0:
        free(&local); // expect-error: free
        break;
    case 1:
        free(&global); // expect-error: free
        break;
    case 2:
        free(h + 1); // expect-error: ptr
        break;
    case 3:
        free(h);
        free(h); // expect-error: ptr
        break;
    default:
        free(h);
        break;
    }
    return 0;
}
