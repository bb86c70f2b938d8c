// klee_set_forking(0) turns forking off: a branch whose both sides are feasible follows one
// of them (chosen at random, seeded) instead of forking; klee_set_forking(1) turns it back
// on. (KLEE's SetForking test.)
// Reasoning: the first branch, with forking off, follows one side; the second, with forking
// on, forks: two paths. Each path has one of the two first-branch outcomes; the status
// tells the second branch's side (1 or 2), so the exit statuses are {1, 2} plus 0 or 10.
// expect-completed: 2
// expect-error-paths: 0
#include "klee/klee.h"

int main(void) {
    int r = 0;
    klee_set_forking(0);
    if (klee_range(0, 2, "first"))
        r += 10;
    klee_set_forking(1);
    if (klee_range(0, 2, "second"))
        r += 1;
    else
        r += 2;
    return r;
}
