// long double is x87 80-bit extended precision on x86-64: sear computes it exactly (64-bit
// significand, 15-bit exponent), not in double precision.
// Reasoning: squaring 0.5L reaches 0 after 15 steps (2^-(2^15) is below the smallest
// subnormal 2^-16445; in double precision it would take 11). 1 + 2^-63 differs from 1 only
// in extended precision. The conversions back to int and double are checked natively too.
// expect-completed: 1
// expect-error-paths: 0
// expect-exits: 15
#include <assert.h>

int main(void) {
    long double x = 0.5L;
    int n = 0;
    while (x != 0) {
        x = x * x;
        n++;
    }
    long double one = 1.0L, tiny = 1.0L / 9223372036854775808.0L; /* 2^-63 */
    assert(one + tiny != one);
    assert((double)(one + tiny) == 1.0);
    long double third = 1.0L / 3.0L;
    assert((int)(third * 300.0L) == 99 || (int)(third * 300.0L) == 100);
    assert(third > 0.333333333333333333L && third < 0.333333333333333334L);
    long long big = 9007199254740993LL; /* 2^53 + 1: exact in long double only */
    long double b = (long double)big;
    assert((long long)b == big);
    return n;
}
