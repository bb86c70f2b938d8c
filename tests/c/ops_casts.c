// Casts: trunc, zext, sext, and pointer <-> integer round trips with a symbolic offset.
// Reasoning: the identities hold for every x (no fork). t == -1 holds exactly when the low
// byte of x is 0xFF (2 ways). k in [0, 3) indexes arr through an integer address: the
// pointer resolves to arr only; v == 30 holds for k == 2 (2 ways). 2 * 2 = 4 paths.
// expect-completed: 4
// expect-error-paths: 0
#include <stdint.h>
#include "klee/klee.h"

int main(void) {
    int x;
    klee_make_symbolic(&x, sizeof x, "x");
    signed char t = (signed char)x;
    long long s = x;
    unsigned long long z = (unsigned)x;
    klee_assert((s >> 32) == -(long long)(x < 0));
    klee_assert((z >> 32) == 0);
    klee_assert((unsigned char)t == (unsigned)(x & 0xFF));
    klee_assert((int)(short)x == (((x & 0xFFFF) ^ 0x8000) - 0x8000));
    int arr[4] = {10, 20, 30, 40};
    int k = klee_range(0, 3, "k");
    uintptr_t base = (uintptr_t)arr;
    int *p = (int *)(base + sizeof(int) * (unsigned)k);
    int v = *p;
    int r = 0;
    if (t == -1)
        r |= 1;
    if (v == 30)
        r |= 2;
    klee_assert((uintptr_t)(int *)base == base);
    return r;
}
