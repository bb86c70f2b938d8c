// Forks whose alternatives come from the solver's values, not from the program's text: a
// call through a symbolic function pointer (one path per feasible target) and a malloc of a
// symbolic size (the size tried, a huge size, the rest). crates/sear-cli/tests/parallel.rs
// checks that every worker count explores the same paths: a path's record names a target by
// its position, so the targets and sizes must not depend on the models a worker's caches
// give.
#include "klee/klee.h"
#include <stdlib.h>
static int twice(int v) { return 2 * v; }
static int negate(int v) { return -v; }
static int square(int v) { return v * v; }
static int zero(int v) { return v - v; }
static int (*const table[4])(int) = {twice, negate, square, zero};
int main(void) {
    unsigned char op[3];
    klee_make_symbolic(op, sizeof op, "op");
    int acc = 1;
    for (int i = 0; i < 3; i++) {
        acc = table[op[i] & 3](acc + i);
        if (acc > 10)
            break;
    }
    size_t n = (size_t)klee_int("n");
    char *p = malloc(n);
    if (!p)
        return 1;
    free(p);
    return acc > 3 ? 2 : 3;
}
