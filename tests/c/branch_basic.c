// Two-way branches on a symbolic int: 3 paths.
// expect-completed: 3
// expect-error-paths: 0
#include "klee/klee.h"

int main(void) {
    int x;
    klee_make_symbolic(&x, sizeof x, "x");
    if (x > 10)
        return 1;
    if (x < -5)
        return 2;
    return 0;
}
