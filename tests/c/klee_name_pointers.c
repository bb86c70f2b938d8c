// The name given to klee_make_symbolic must be a string, as in KLEE: a pointer into no
// object, or a pointer with several feasible values, is a user error (not a memory error
// of the program); a symbolic pointer with one feasible value is fine.
// Reasoning: a in [0, 4): a == 1 passes 0xf (no object): user error; a == 2 passes a pointer
// that is "x" or "y": user error; a == 3 passes the same pointer after assuming i == 0, so
// it can only be "x": a completed path; a == 0 completes too. 2 completed paths, 2 user
// errors.
// expect-completed: 2
// expect-error-paths: 2
// expect-replay: no
#include "klee/klee.h"

int main(void) {
    int a = klee_range(0, 4, "a");
    unsigned c;
    const char *names[2] = {"x", "y"};
    int i = klee_range(0, 2, "i");
    if (a == 1)
        klee_make_symbolic(&c, sizeof c, (const char *)0xf); // expect-error: user
    if (a == 2)
        klee_make_symbolic(&c, sizeof c, names[i]); // expect-error: user
    if (a == 3) {
        klee_assume(i == 0);
        klee_make_symbolic(&c, sizeof c, names[i]);
    }
    return 0;
}
