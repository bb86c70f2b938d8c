// memcpy and memset with a symbolic length that can exceed the destination: every feasible
// length is checked before the length is concretised, so the overflow is reported.
// Reasoning: n <= 16 and dst holds 8 bytes. memcpy: n > 8 forks a ptr error; the rest
// (n <= 8) concretises n and copies. memset with m <= 12 into the 8-byte dst: m > 8 is a
// second ptr error, the rest completes: 1 completed path, 2 error paths.
// expect-completed: 1
// expect-error-paths: 2
#include <string.h>
#include "klee/klee.h"

int main(void) {
    char src[16] = "0123456789abcde";
    char dst[8];
    unsigned n, m;
    klee_make_symbolic(&n, sizeof n, "n");
    klee_make_symbolic(&m, sizeof m, "m");
    klee_assume(n <= 16);
    klee_assume(m <= 12);
    memcpy(dst, src, n); // expect-error: ptr
    memset(dst, 'x', m); // expect-error: ptr
    return dst[0] == 'x';
}
