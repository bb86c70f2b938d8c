// Bit-fields: unsigned and signed fields of odd widths, reads and writes.
// Reasoning: field ranges and preservation of neighbours hold on every input (no fork).
// Two independent branches on different fields: s.b == -3 and s.c == 0xABCDEF: 4 paths.
// expect-completed: 4
// expect-error-paths: 0
#include "klee/klee.h"

struct BF {
    unsigned a : 3;
    signed b : 5;
    unsigned c : 24;
};

int main(void) {
    struct BF s;
    klee_make_symbolic(&s, sizeof s, "s");
    klee_assert(s.a < 8);
    klee_assert((s.b >= -16) & (s.b <= 15));
    klee_assert(s.c < (1u << 24));
    struct BF old = s;
    s.a = 5;
    klee_assert(s.a == 5);
    klee_assert((s.b == old.b) & (s.c == old.c));
    s.b = -1;
    klee_assert(s.b == -1);
    s.b = old.b;
    int r = 0;
    if (s.b == -3)
        r |= 1;
    if (s.c == 0xABCDEF)
        r |= 2;
    return r;
}
