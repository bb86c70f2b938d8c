// Pointer arithmetic of a 32-bit program wraps around at 2^32: buf + k == buf for every k
// that is a non-zero multiple of 2^32 (a 64-bit index is truncated to the pointer's width),
// which a 64-bit program never sees. An out-of-bounds write is found at the same place as
// in a 64-bit program.
// Reasoning: k != 0 && buf + k == buf is feasible (k = 2^32: exit 1); k == 0 and k != 0 with
// q != buf both go on to the write, where i in [0, 4] writes a[i]: i == 4 is out of bounds
// (error), i < 4 exits 0: 3 completed paths (exits 0 0 1), 2 error paths.
// sear-args: --cflags=-m32
// expect-completed: 3
// expect-error-paths: 2
// expect-exits: 0 0 1
#include "klee/klee.h"

int main(void) {
    char buf[16];
    long long k;
    klee_make_symbolic(&k, sizeof k, "k");
    char *q = buf + k;
    if (k != 0 && q == buf)
        return 1;
    int a[4];
    int i = klee_range(0, 5, "i");
    a[i] = 1; // expect-error: ptr
    return 0;
}
