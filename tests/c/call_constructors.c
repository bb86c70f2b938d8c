// Global constructors (__attribute__((constructor)), llvm.global_ctors) run before main, in
// priority order, as KLEE runs them.
// Reasoning: the constructors fill `order` concretely (asserts hold, no fork); x == 2 forks:
// 2 paths.
// expect-completed: 2
// expect-error-paths: 0
#include "klee/klee.h"

static int order[3];
static int count;

__attribute__((constructor(200))) static void second(void) { order[count++] = 2; }
__attribute__((constructor(101))) static void first(void) { order[count++] = 1; }
__attribute__((constructor)) static void last(void) { order[count++] = 3; }

int main(void) {
    klee_assert(count == 3);
    klee_assert((order[0] == 1) & (order[1] == 2) & (order[2] == 3));
    int x;
    klee_make_symbolic(&x, sizeof x, "x");
    if (x == 2)
        return 1;
    return 0;
}
