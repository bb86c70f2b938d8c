// malloc with a symbolic size that has exactly two feasible values: KLEE allocates each
// on its own path (no model error).
// Reasoning: n is 24 or 40. Fork on n == example (one of them): allocate it; the other
// side has exactly one feasible value: allocate it too. Each path writes the last byte
// (in bounds) and exits with n: 2 completed, exits 24 and 40.
// expect-completed: 2
// expect-error-paths: 0
// expect-exits: 24 40
#include <stdlib.h>
#include "klee/klee.h"

int main(void) {
    unsigned n;
    klee_make_symbolic(&n, sizeof n, "n");
    klee_assume((n == 24) | (n == 40));
    char *p = malloc(n);
    p[n - 1] = 1;
    int size = (int)n;
    free(p);
    return size;
}
