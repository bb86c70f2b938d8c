// Bitwise and, or, xor, not on symbolic values.
// Reasoning: identities never fork. Branch A: (x & 0xF0) == 0x50; branch B: (x | y) == 0.
// A true forces x != 0, so B is false there (1 path); A false allows both (2 paths): 3.
// expect-completed: 3
// expect-error-paths: 0
#include "klee/klee.h"

int main(void) {
    unsigned x, y;
    klee_make_symbolic(&x, sizeof x, "x");
    klee_make_symbolic(&y, sizeof y, "y");
    klee_assert((x ^ y) == ((x | y) & ~(x & y)));
    klee_assert((~x & 0xFFu) == 0xFFu - (x & 0xFFu));
    klee_assert(((x & y) | (x & ~y)) == x);
    int r = 0;
    if ((x & 0xF0) == 0x50)
        r |= 1;
    if ((x | y) == 0)
        r |= 2;
    return r;
}
