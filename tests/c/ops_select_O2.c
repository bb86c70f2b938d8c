// sear-args: -O 2
// The ternaries of ops_select_O0.c at -O2: all three become `select` instructions, which do
// not fork.
// Reasoning: s is a symbolic sum of selects; the only branch is s == 1113 (exit): 2 paths.
// expect-completed: 2
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
