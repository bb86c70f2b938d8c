/* 001 §11 T8: the unaligned-access trap. int a[4] = {0, 0, 0x100, 0}; an unaligned 4-byte
 * read at byte 4k+1. x == 1 iff k == 2; x == 2 is infeasible for every k.
 * SIZE = number of independent symbolic k (each gives the same three outcomes). */
#include "../bench.h"

int main(void) {
    int a[5] = {0, 0, 0x100, 0, 0}; /* a fifth int keeps the read at k = 2 in bounds */
    int hits = 0;
    for (int r = 0; r < SIZE; r++) {
        unsigned k;
        klee_make_symbolic(&k, sizeof k, "k");
        klee_assume(k < 3);
        int x;
        __builtin_memcpy(&x, (char *)a + 4 * k + 1, sizeof x);
        if (x == 1)
            hits += 1; /* A: only k == 2 */
        else
            hits += 2; /* B: k in {0, 1} */
        if (x == 2)
            klee_assert(0); /* C: never */
    }
    return hits;
}
