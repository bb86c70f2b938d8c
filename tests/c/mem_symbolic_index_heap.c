// A symbolic index into a heap array: in-bounds reads see the stored values, the
// out-of-bounds index is an error.
// Reasoning: k < 12 against a 10-element array: one in-bounds path continuing and one
// out-of-bounds ptr error; then a[k] == 49 holds only for k == 7: 2 completed.
// expect-completed: 2
// expect-error-paths: 1
#include <stdlib.h>
#include "klee/klee.h"

int main(void) {
    int *a = malloc(10 * sizeof(int));
    for (int i = 0; i < 10; i++)
        a[i] = i * i;
    unsigned k;
    klee_make_symbolic(&k, sizeof k, "k");
    klee_assume(k < 12);
    int v = a[k]; // expect-error: ptr
    free(a);
    if (v == 49)
        return 1;
    return 0;
}
