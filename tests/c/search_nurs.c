// KLEE's weighted random searchers (nurs:*) choose states in different orders, but an
// exhaustive exploration ends the same paths under each (compared by trace digest).
// Reasoning: three symbolic bytes, a two-way branch on each, one of them inside a loop of
// two iterations and one after a call: 2 * 2 * 2 * 2 = 16 paths, none of them errors.
// sear-configs: --search nurs:covnew | --search nurs:md2u | --search nurs:depth | --search nurs:rp | --search nurs:icnt | --search nurs:cpicnt | --search nurs:qc | --search dfs
// expect-completed: 16
// expect-error-paths: 0
#include "klee/klee.h"

volatile int seen; /* stores in the branches keep them branches, not selects */

static int classify(unsigned char c) {
    if (c > 100) {
        seen = 2;
        return 2;
    }
    seen = 1;
    return 1;
}

int main(void) {
    unsigned char a, b, c;
    klee_make_symbolic(&a, 1, "a");
    klee_make_symbolic(&b, 1, "b");
    klee_make_symbolic(&c, 1, "c");
    int r = 0;
    for (int i = 0; i < 2; i++)
        if (((a >> i) & 1) != 0) {
            seen = i;
            r += 1 << i;
        }
    if (b == 7) {
        seen = 7;
        r += 4;
    }
    r += classify(c) * 8;
    return r;
}
