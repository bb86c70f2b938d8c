// A dense switch on a symbolic value: one path per case plus the default.
// Reasoning: cases 0..4 and default are all feasible and lead to distinct blocks: 6 paths.
// expect-completed: 6
// expect-error-paths: 0
#include "klee/klee.h"

int main(void) {
    int x;
    klee_make_symbolic(&x, sizeof x, "x");
    int r;
    switch (x) {
    case 0: r = 10; break;
    case 1: r = 11; break;
    case 2: r = 12; break;
    case 3: r = 13; break;
    case 4: r = 14; break;
    default: r = -1; break;
    }
    return r;
}
