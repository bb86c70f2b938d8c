// klee_make_symbolic with size zero on a zero-size heap object (malloc(0)): an empty
// symbolic object, as KLEE allows. The test file records an empty object.
// Reasoning: no branch depends on it; x == 3 forks: 2 paths.
// expect-completed: 2
// expect-error-paths: 0
#include <stdlib.h>
#include "klee/klee.h"

int main(void) {
    char *p = malloc(0);
    klee_make_symbolic(p, 0, "empty");
    int x;
    klee_make_symbolic(&x, sizeof x, "x");
    free(p);
    if (x == 3)
        return 1;
    return 0;
}
