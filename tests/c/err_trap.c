// __builtin_trap (llvm.trap) ends the path with an abort error, as in KLEE, which lowers
// llvm.trap to a call to abort.
// Reasoning: x == 3 forks: the trap path (1 abort error), the other completes.
// expect-completed: 1
// expect-error-paths: 1
#include "klee/klee.h"

int main(void) {
    int x;
    klee_make_symbolic(&x, sizeof x, "x");
    if (x == 3)
        __builtin_trap(); // expect-error: abort
    return 0;
}
