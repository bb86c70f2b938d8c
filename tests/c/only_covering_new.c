// --only-output-states-covering-new (KLEE's option): a path that ends gets a test only if it
// covered an instruction or a branch direction no path had covered before it; errors get
// theirs as always.
// Reasoning: three bytes, each compared in the same loop, fork 8 paths that run the same
// instructions; the first paths cover both sides of the comparison and the two returns,
// the later ones cover nothing new. The path with all three bytes above 'm' fails an
// assertion: 1 error path (with its test) and 7 completed paths, of which at most 3 get a
// test (without the option all 8 paths have one).
// sear-args: --only-output-states-covering-new --search dfs
// expect-completed: 7
// expect-error-paths: 1
// expect-summary: tests <= 4
// expect-summary: tests >= 2
#include "klee/klee.h"

static int above(char c) {
    if (c > 'm')
        return 1;
    return 0;
}

int main(void) {
    char b[3];
    klee_make_symbolic(b, sizeof b, "b");
    int n = 0;
    for (int i = 0; i < 3; i++)
        n += above(b[i]);
    klee_assert(n != 3); // expect-error: assert
    if (n > 1)
        return 1;
    return 0;
}
