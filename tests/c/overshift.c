// A shift by a symbolic amount that may reach the bit width.
// expect-completed: 1
// expect-error-paths: 1
#include "klee/klee.h"

int main(void) {
    unsigned s;
    klee_make_symbolic(&s, sizeof s, "s");
    unsigned v = 1u << s; // expect-error: overshift
    return v == 8;
}
