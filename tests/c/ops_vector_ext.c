// GCC vector extensions at -O0: <4 x i32> udiv, shl, add, icmp + sext, element extraction.
// Reasoning: a / b checks each element's divisor: 4 div error paths (one per element that
// may be zero while the earlier ones are not; one report for the line); b & 31 keeps the
// shift in range. The path that survives completes: 1 completed.
// expect-completed: 1
// expect-error-paths: 4
#include "klee/klee.h"

typedef unsigned v4 __attribute__((vector_size(16)));

int main(void) {
    v4 a, b;
    klee_make_symbolic(&a, sizeof a, "a");
    klee_make_symbolic(&b, sizeof b, "b");
    v4 q = a / b; // expect-error: div
    v4 s = a << (b & 31);
    v4 c = a + (v4){1, 2, 3, 4};
    v4 m = a > b;
    klee_assert(c[2] == a[2] + 3);
    klee_assert((m[3] == 0) | (m[3] == 0xFFFFFFFFu));
    klee_assert(s[1] == a[1] << (b[1] & 31));
    int r = (int)(q[0] + s[1] + c[2] + m[3]);
    return r == 12345;
}
