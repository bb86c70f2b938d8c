// klee_prefer_cex steers the values in the test (here: prefer x == 42 and printable
// bytes) without changing the paths.
// Reasoning: x > 10 forks: 2 paths; the preference x == 42 is feasible on the x > 10 path.
// The exit status reports whether the preferred value was chosen: 1 on that path when
// x == 42, 2 on the other path.
// expect-completed: 2
// expect-exits: 1 2
// expect-error-paths: 0
#include "klee/klee.h"

int main(void) {
    int x;
    klee_make_symbolic(&x, sizeof x, "x");
    klee_prefer_cex(&x, x == 42);
    if (x > 10)
        return x == 42;
    return 2;
}
