// Ternaries at -O0: clang emits a `select` for constant arms but a branch and a phi when
// an arm is a variable.
// Reasoning: the ternaries on a and c branch (2 * 2 states), the one on b is a select.
// Then s == 1113: (a>0, c>0): s = a + {100|200} + c, feasible both ways: 2;
// (a>0, c<=0): a + {100|200} + 3000 == 1113 needs a == -1987 or -2087 mod 2^32, which is
// not > 0: 1; (a<=0, c>0): 7 + {100|200} + c == 1113 for c == 1006 or 906: 2;
// (a<=0, c<=0): s is 3107 or 3207: 1. Total 6.
// expect-completed: 6
// expect-error-paths: 0
#include <stdlib.h>
#include "klee/klee.h"

int main(void) {
    int a, b, c;
    klee_make_symbolic(&a, sizeof a, "a");
    klee_make_symbolic(&b, sizeof b, "b");
    klee_make_symbolic(&c, sizeof c, "c");
    int s = (a > 0 ? a : 7) + (b > 0 ? 100 : 200) + (c > 0 ? c : 3000);
    if (s == 1113)
        exit(1);
    return 0;
}
