// Oversized shifts: a 64-bit left shift, a 32-bit arithmetic right shift and a 16-bit value
// (promoted to int, so 16..31 is fine) shifted right logically.
// Reasoning: each symbolic shift amount may reach the width: one overshift error path per
// line (3), then the path continues with the amount in range: 1 completed.
// expect-completed: 1
// expect-error-paths: 3
#include "klee/klee.h"

int main(void) {
    unsigned long long x;
    int y;
    unsigned short z;
    unsigned k1, k2, k3;
    klee_make_symbolic(&x, sizeof x, "x");
    klee_make_symbolic(&y, sizeof y, "y");
    klee_make_symbolic(&z, sizeof z, "z");
    klee_make_symbolic(&k1, sizeof k1, "k1");
    klee_make_symbolic(&k2, sizeof k2, "k2");
    klee_make_symbolic(&k3, sizeof k3, "k3");
    unsigned long long a = x << k1; // expect-error: overshift
    int b = y >> k2; // expect-error: overshift
    unsigned c = (unsigned)z >> k3; // expect-error: overshift
    return (a + b + c) == 77;
}
