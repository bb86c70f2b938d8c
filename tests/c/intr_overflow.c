// Overflow builtins: signed add, unsigned mul, signed 16-bit sub, signed 64-bit mul
// (llvm.*.with.overflow).
// Reasoning: four independent operand pairs, each overflow flag feasible both ways:
// 2^4 = 16 paths. The add/sub results are checked against wider arithmetic (valid, no
// fork); the multiplications are checked on concrete operands (validity queries over
// symbolic products are slow in Z3).
// expect-completed: 16
// expect-error-paths: 0
#include "klee/klee.h"

int main(void) {
    int a, b, r1;
    unsigned c, d, r2;
    short e, f, r3;
    long long g, h, r4;
    klee_make_symbolic(&a, sizeof a, "a");
    klee_make_symbolic(&b, sizeof b, "b");
    klee_make_symbolic(&c, sizeof c, "c");
    klee_make_symbolic(&d, sizeof d, "d");
    klee_make_symbolic(&e, sizeof e, "e");
    klee_make_symbolic(&f, sizeof f, "f");
    klee_make_symbolic(&g, sizeof g, "g");
    klee_make_symbolic(&h, sizeof h, "h");
    volatile unsigned big = 0x10000;
    volatile long long lbig = 0x100000000LL;
    unsigned cr;
    long long lr;
    klee_assert(__builtin_mul_overflow(big, big, &cr) & (cr == 0));
    klee_assert(!__builtin_mul_overflow(big, big - 1, &cr) & (cr == 0xFFFF0000u));
    klee_assert(__builtin_mul_overflow(lbig, -lbig * 2, &lr));
    klee_assert(!__builtin_mul_overflow(lbig, -lbig / 2, &lr) & (lr == -0x8000000000000000LL));
    int r = 0;
    if (__builtin_add_overflow(a, b, &r1)) {
        klee_assert((long long)a + b != r1);
        r |= 1;
    } else {
        klee_assert((long long)a + b == r1);
    }
    if (__builtin_mul_overflow(c, d, &r2))
        r |= 2;
    if (__builtin_sub_overflow(e, f, &r3))
        r |= 4;
    else
        klee_assert(e - f == r3);
    if (__builtin_mul_overflow(g, h, &r4))
        r |= 8;
    return r;
}
