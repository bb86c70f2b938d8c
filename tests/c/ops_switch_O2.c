// sear-args: -O 2
// At -O2 a dense switch returning constants becomes a bounds check plus a load from a
// constant lookup table (@switch.table.f) at a symbolic index, and a phi.
// Reasoning: f forks on x <u 4 (2 ways). In range, the table load is symbolic and r == 7
// forks (x == 1 or not); out of range r is 0 and r == 7 is false: 3 paths.
// expect-completed: 3
// expect-error-paths: 0
#include <stdlib.h>
#include "klee/klee.h"

__attribute__((noinline)) int f(int x) {
    switch (x) {
    case 0: return 3;
    case 1: return 7;
    case 2: return 1;
    case 3: return 9;
    default: return 0;
    }
}

int main(void) {
    int x;
    klee_make_symbolic(&x, sizeof x, "x");
    if (f(x) == 7)
        exit(1);
    return 0;
}
