// klee_is_symbolic distinguishes symbolic and concrete values (it is 0 when replayed
// natively, so the program only branches on it where both answers lead to the same exit).
// Reasoning: no branch depends on x; the is_symbolic results are folded into a value that
// is not used for the exit status: 1 path.
// expect-completed: 1
// expect-error-paths: 0
#include "klee/klee.h"

static volatile int sink;

int main(void) {
    int x, c = 5;
    klee_make_symbolic(&x, sizeof x, "x");
    sink = (int)klee_is_symbolic((uintptr_t)x) * 2 + (int)klee_is_symbolic((uintptr_t)c);
    if (!klee_is_replay())
        klee_assert(sink == 2);
    return 0;
}
