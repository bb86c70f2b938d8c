// A 32-bit program (-m32, SV-COMP's ILP32 data model) runs with the i386 data layout:
// pointers, long and size_t are 4 bytes, and unsigned long arithmetic wraps at 2^32.
// Reasoning: the sizes hold (no exit 3). x > 0xFFFFFFF0 makes x + 0x20 wrap on every such
// x under ILP32 (exit 1; under LP64 it would not wrap and exit 3 would be feasible);
// otherwise x == 0 (exit 2) or not (exit 0): 3 paths, each replayed as a 32-bit program.
// sear-args: --cflags=-m32
// expect-completed: 3
// expect-exits: 0 1 2
#include <stddef.h>
#include "klee/klee.h"

int main(void) {
    if (sizeof(void *) != 4 || sizeof(long) != 4 || sizeof(size_t) != 4)
        return 3;
    unsigned long x;
    klee_make_symbolic(&x, sizeof x, "x");
    if (x > 0xFFFFFFF0ul) {
        if (x + 0x20ul < x)
            return 1;
        return 3;
    }
    if (x == 0)
        return 2;
    return 0;
}
