// calloc zero-fills; realloc keeps the contents (growing and shrinking) and frees the old
// object; realloc(NULL, n) allocates.
// Reasoning: the asserts hold on every input; p[1] == 5 forks: 2 paths. The old pointer
// is not used after realloc.
// expect-completed: 2
// expect-error-paths: 0
#include <stdlib.h>
#include "klee/klee.h"

int main(void) {
    int *p = calloc(4, sizeof(int));
    klee_assert((p[0] == 0) & (p[3] == 0));
    klee_make_symbolic(p, 4 * sizeof(int), "p");
    int old1 = p[1], old3 = p[3];
    p = realloc(p, 8 * sizeof(int));
    klee_assert(p[1] == old1);
    klee_assert(p[3] == old3);
    p[7] = 1;
    p = realloc(p, 2 * sizeof(int));
    klee_assert(p[1] == old1);
    char *q = realloc(NULL, 3);
    q[2] = 'x';
    free(q);
    int r = p[1] == 5;
    free(p);
    if (r)
        return 1;
    return 0;
}
