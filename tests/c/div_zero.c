// Division and remainder by a symbolic divisor: each may be zero.
// expect-completed: 1
// expect-error-paths: 2
#include "klee/klee.h"

int main(void) {
    int a, b;
    klee_make_symbolic(&a, sizeof a, "a");
    klee_make_symbolic(&b, sizeof b, "b");
    int q = 100 / a; // expect-error: div
    int r = 7 % b; // expect-error: div
    return q + r > 1000;
}
