// memcpy, memmove (overlapping) and memset with symbolic contents and concrete lengths.
// Reasoning: the copies are exact byte moves, so the asserts hold on every input (no fork);
// memset with a symbolic byte fills with that byte. One branch on dst[7]: 2 paths.
// expect-completed: 2
// expect-error-paths: 0
#include <string.h>
#include "klee/klee.h"

int main(void) {
    unsigned char src[8], old[8], dst[8];
    klee_make_symbolic(src, sizeof src, "src");
    memcpy(old, src, sizeof src);
    memcpy(dst, src, 8);
    klee_assert(dst[3] == src[3]);
    klee_assert(dst[7] == old[7]);
    memmove(src + 2, src, 5);
    klee_assert(src[2] == old[0]);
    klee_assert(src[6] == old[4]);
    klee_assert(src[7] == old[7]);
    klee_assert(src[1] == old[1]);
    memmove(src, src + 3, 5);
    klee_assert(src[0] == old[1]);
    memset(dst, old[0], 4);
    klee_assert(dst[2] == old[0]);
    klee_assert(dst[4] == old[4]);
    memset(dst + 4, 0, 2);
    klee_assert(dst[5] == 0);
    if (dst[7] == 0)
        return 1;
    return 0;
}
