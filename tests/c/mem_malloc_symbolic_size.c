// malloc with a symbolic size: KLEE's concretisation. A small feasible size is allocated;
// because many other sizes are feasible, a "huge size" fork (n > 2^31) returns NULL and the
// remaining sizes end early with a warning ("concretized symbolic size"): not explored,
// which is no error of the program.
// Reasoning: n is unconstrained, so the example value is halved down to at most 128 and
// allocated (exit 0); the huge fork returns NULL (exit 1); the rest ends early (not an
// error). 2 completed, 0 errors. klee_prefer_cex makes the huge path's test use a
// size above 2^44, for which ASan's malloc returns NULL natively too.
// expect-completed: 2
// expect-error-paths: 0
// expect-exits: 0 1
#include <stdlib.h>
#include "klee/klee.h"

int main(void) {
    size_t n;
    klee_make_symbolic(&n, sizeof n, "n");
    klee_prefer_cex(&n, n > (1ull << 44));
    char *p = malloc(n);
    if (!p)
        return 1;
    free(p);
    return 0;
}
