// Division by zero at several widths and signednesses: i64 signed division, i64 unsigned
// remainder, and 8-bit operands (promoted to int).
// Reasoning: each division by a symbolic divisor forks a div error path where the divisor
// is 0 and continues with it non-zero: 3 error paths (one per line), 1 completed path.
// expect-completed: 1
// expect-error-paths: 3
#include "klee/klee.h"

int main(void) {
    long long a, b;
    unsigned long long ua, ub;
    unsigned char c, d;
    klee_make_symbolic(&a, sizeof a, "a");
    klee_make_symbolic(&b, sizeof b, "b");
    klee_make_symbolic(&ua, sizeof ua, "ua");
    klee_make_symbolic(&ub, sizeof ub, "ub");
    klee_make_symbolic(&c, sizeof c, "c");
    klee_make_symbolic(&d, sizeof d, "d");
    klee_assume(b != -1);
    long long q = a / b; // expect-error: div
    unsigned long long r = ua % ub; // expect-error: div
    int s = c / d; // expect-error: div
    return (q + r + s) == 12345;
}
