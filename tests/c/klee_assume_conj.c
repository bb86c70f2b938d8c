// klee_assume of a conjunction: with `&&` at -O0 the condition is computed with a branch
// on the first conjunct and a phi, so the path where x > 0 is false calls klee_assume(0)
// and ends with a user error (the classic KLEE pitfall); with `&` there is no branch.
// Reasoning: x > 0 && x < 100 forks on x > 0 only: x <= 0 gives klee_assume(0), a user
// error; x > 0 passes the symbolic x < 100 to klee_assume, which adds it. Then
// klee_assume((y > 0) & (y < 100)) does not fork. Finally x == y forks: 2 completed paths.
// expect-completed: 2
// expect-error-paths: 1
#include "klee/klee.h"

int main(void) {
    int x, y;
    klee_make_symbolic(&x, sizeof x, "x");
    klee_make_symbolic(&y, sizeof y, "y");
    klee_assume(x > 0 && x < 100); // expect-error: user
    klee_assume((y > 0) & (y < 100));
    klee_assert(y >= 1);
    klee_assert(x <= 99);
    if (x == y)
        return 1;
    return 0;
}
