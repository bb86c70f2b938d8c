// realloc with a symbolic size, as KLEE: it forks on a zero size (realloc frees and returns
// NULL), then concretises the non-zero size like any allocation size.
// Reasoning: n in {8, 16} is never 0 and has exactly two values: one path per size (2),
// each keeping the old contents (asserts hold) and writing its last byte in bounds. Then m
// is any size: m == 0 frees and yields NULL (exit 1); of the non-zero sizes the path keeps a
// small one (exit 0), a huge m yields NULL with the old object kept (exit 1), the rest ends
// early. Per first path: 3 completed and 1 early: 6 completed, no error path.
// expect-completed: 6
// expect-error-paths: 0
// expect-exits: 0 0 1 1 1 1
#include <stdlib.h>
#include "klee/klee.h"

int main(void) {
    char *p = malloc(4);
    p[0] = 'a';
    p[3] = 'd';
    unsigned n;
    klee_make_symbolic(&n, sizeof n, "n");
    klee_assume((n == 8) | (n == 16));
    p = realloc(p, n);
    klee_assert((p[0] == 'a') & (p[3] == 'd'));
    p[n - 1] = 'z';
    size_t m;
    klee_make_symbolic(&m, sizeof m, "m");
    klee_prefer_cex(&m, m > (1ull << 44));
    char *q = realloc(p, m);
    if (!q)
        return 1;
    free(q);
    return 0;
}
