// malloc of 4 GiB + 1 (KLEE's Feature/HugeArray.c) succeeds and costs memory only for the
// pages written: the last byte is written and read back, and a loop over a 10 GB array
// touches its ends only. (Before: malloc above 1 GiB returned NULL, so assert(p) failed.)
// Reasoning: one symbolic branch on x: 2 completed paths, no error, far below the memory
// limit (a dense object would need 14 GB).
// sear-args: --max-memory 500
// expect-completed: 2
// expect-error-paths: 0
// expect-summary: dropped_states == 0
#include <assert.h>
#include <stdlib.h>
#include "klee/klee.h"

int main(void) {
    size_t sz = (size_t)1 + ((size_t)1 << 32);
    char *p = malloc(sz);
    assert(p);
    p[sz - 1] = 42;
    size_t n = 2500000000UL;
    int *big = malloc(n * sizeof(int));
    assert(big);
    for (int i = 0; i < 1000; i++) {
        big[i] = i;
        big[n - 1 - i] = -i;
    }
    int x;
    klee_make_symbolic(&x, sizeof x, "x");
    if (x > 0)
        return p[sz - 1] + big[999] + big[n - 1000];
    free(big);
    free(p);
    return 0;
}
