// sear-args: -O 2
// Rotates written with shifts become llvm.fshl/llvm.fshr at -O2.
// Reasoning: rotl(rotr(x, k), k) == x holds for every x and k (no fork). rotl(x, 8) ==
// 0x12345678 holds for exactly one x: 2 paths.
// expect-completed: 2
// expect-error-paths: 0
#include <stdlib.h>
#include "klee/klee.h"

__attribute__((noinline)) unsigned rotl(unsigned x, unsigned k) {
    return (x << (k & 31)) | (x >> ((32 - k) & 31));
}

__attribute__((noinline)) unsigned rotr(unsigned x, unsigned k) {
    return (x >> (k & 31)) | (x << ((32 - k) & 31));
}

int main(void) {
    unsigned x, k;
    klee_make_symbolic(&x, sizeof x, "x");
    klee_make_symbolic(&k, sizeof k, "k");
    klee_assert(rotl(rotr(x, k), k) == x);
    klee_assert(rotl(0x80000001u, 1) == 3u);
    if (rotl(x, 8) == 0x12345678u)
        exit(1);
    return 0;
}
