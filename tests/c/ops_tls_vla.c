// Thread-local variables (llvm.threadlocal.address) and variable-length arrays with a
// concrete size inside a loop (llvm.stacksave/stackrestore).
// Reasoning: all sizes are concrete; the asserts hold; x == 2 forks: 2 paths.
// expect-completed: 2
// expect-error-paths: 0
#include "klee/klee.h"

_Thread_local int tls = 3;

int main(void) {
    tls += 1;
    klee_assert(tls == 4);
    volatile int n = 5;
    int total = 0;
    for (int i = 0; i < 3; i++) {
        char vla[n];
        for (int j = 0; j < n; j++)
            vla[j] = (char)(i + j);
        total += vla[n - 1];
    }
    klee_assert(total == 4 + 5 + 6);
    int x;
    klee_make_symbolic(&x, sizeof x, "x");
    if (x == 2)
        return 1;
    return 0;
}
