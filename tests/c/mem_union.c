// A union read through members of different types (little-endian layout).
// Reasoning: the byte/halfword views agree with the word on every input (no fork); one
// branch on the top byte: 2 paths.
// expect-completed: 2
// expect-error-paths: 0
#include "klee/klee.h"

union U {
    unsigned u;
    unsigned char bytes[4];
    unsigned short h[2];
};

int main(void) {
    union U v;
    klee_make_symbolic(&v, sizeof v, "v");
    klee_assert(v.bytes[0] == (v.u & 0xFF));
    klee_assert(v.bytes[3] == (v.u >> 24));
    klee_assert(v.h[1] == (unsigned short)(v.u >> 16));
    union U w = v;
    w.bytes[1] = 0;
    klee_assert((w.u & 0xFF00u) == 0);
    klee_assert((w.u & 0xFFFF00FFu) == (v.u & 0xFFFF00FFu));
    if (v.bytes[3] == 0x80)
        return 1;
    return 0;
}
