// malloc with a symbolic size: KLEE's concretisation. A small feasible size is allocated;
// because many other sizes are feasible, a "huge size" fork (n > 2^31) returns NULL and the
// remaining sizes end with a model error ("concretized symbolic size").
// Reasoning: n is unconstrained, so the example value is halved down to at most 128 and
// allocated (exit 0); the huge fork returns NULL (exit 1); the rest is one model error at
// the malloc line. 2 completed, 1 error. klee_prefer_cex makes the huge path's test use a
// size above 2^44, for which ASan's malloc returns NULL natively too.
// expect-completed: 2
// expect-error-paths: 1
// expect-exits: 0 1
#include <stdlib.h>
#include "klee/klee.h"

int main(void) {
    size_t n;
    klee_make_symbolic(&n, sizeof n, "n");
    klee_prefer_cex(&n, n > (1ull << 44));
    char *p = malloc(n); // expect-error: model
    if (!p)
        return 1;
    free(p);
    return 0;
}
