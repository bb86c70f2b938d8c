// 000 T10: int T[4] read at a 64-bit index k ≥ 2^62. The byte offset 4·k wraps modulo 2^64,
// so T[k] is T[k mod 4] here; a transformation that stripped the multiplier and range-checked
// k would be unsound. The assertions fail if any configuration gets this wrong.
// sear-configs: --optimize-array=none --no-array-folding | --optimize-array=none | --optimize-array=index --validate-array-opt | --optimize-array=value --validate-array-opt | --optimize-array=all --validate-array-opt
// expect-completed: 3
// expect-error-paths: 1
// expect-summary: array_opt.validation.failures == 0
#include "klee/klee.h"

static const int T[4] = {10, 20, 30, 20};

int main(void) {
    unsigned long long k;
    klee_make_symbolic(&k, sizeof k, "k");
    klee_assume(k >= (1ULL << 62));
    klee_assume(k < (1ULL << 62) + 8); // 4·k wraps to 0 .. 28: T, then beyond it
    int v = T[k]; // expect-error: ptr
    if (v == 20) {
        klee_assert(((k & 3) == 1) | ((k & 3) == 3));
        return 1;
    }
    if (v == 10) {
        klee_assert((k & 3) == 0);
        return 2;
    }
    klee_assert((k & 3) == 2);
    return 3;
}
