// Signed and unsigned division and remainder: C's truncating semantics.
// Reasoning: concrete checks (volatile operands) fix the rounding of negative operands.
// The divisors b, ub are assumed non-zero (b > 0 also excludes INT_MIN / -1): no div
// errors. Four independent two-way branches: a / 3 == -2 (a in [-8, -6]); ua % 10 == 7;
// c / b == 5; uc % ub == 1000: 2^4 = 16 paths. (Validity identities such as
// a == (a / b) * b + a % b are avoided: Z3 4.8 needs minutes to prove them.)
// expect-completed: 16
// expect-error-paths: 0
#include "klee/klee.h"

int main(void) {
    int a, b, c;
    unsigned ua, ub, uc;
    klee_make_symbolic(&a, sizeof a, "a");
    klee_make_symbolic(&b, sizeof b, "b");
    klee_make_symbolic(&c, sizeof c, "c");
    klee_make_symbolic(&ua, sizeof ua, "ua");
    klee_make_symbolic(&ub, sizeof ub, "ub");
    klee_make_symbolic(&uc, sizeof uc, "uc");
    klee_assume(b > 0);
    klee_assume(ub != 0);
    volatile int m7 = -7;
    volatile unsigned u7 = (unsigned)-7;
    klee_assert(m7 / 2 == -3);
    klee_assert(m7 % 2 == -1);
    klee_assert(7 % m7 == 0);
    klee_assert(u7 / 2 == 0x7FFFFFFCu);
    klee_assert(u7 % 2 == 1);
    volatile long long big = -9000000000LL;
    klee_assert(big / 1000 == -9000000);
    klee_assert((unsigned long long)big % 10 == 6);
    int r = 0;
    if (a / 3 == -2)
        r |= 1;
    if (ua % 10 == 7)
        r |= 2;
    if (c / b == 5)
        r |= 4;
    if (uc % ub == 1000)
        r |= 8;
    return r;
}
