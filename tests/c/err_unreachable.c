// Reaching __builtin_unreachable() ends the path with an unreachable error.
// Reasoning: x < 0 forks; the negative side reaches the `unreachable` instruction (1
// error), the other completes.
// expect-completed: 1
// expect-error-paths: 1
#include "klee/klee.h"

int main(void) {
    int x;
    klee_make_symbolic(&x, sizeof x, "x");
    if (x < 0)
        __builtin_unreachable(); // expect-error: unreachable
    return 0;
}
