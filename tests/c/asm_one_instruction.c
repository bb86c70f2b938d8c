// Inline assembly of short x86 sequences on one register operand is computed on the
// operand's value, symbolic or not (KLEE's InlineAsm and RaiseAsm tests): neg, add of an
// immediate, xor with another register, bswap, shl by an immediate, and rotations of a
// 16-bit sub-register and of the whole one (a byte swap in three instructions). Other
// templates are refused with an exec error naming them.
// Reasoning: x is symbolic. The branch on x == 239 forks; on both sides the asserts hold,
// whatever x is (the asm computes exactly what C would): two completed paths.
// expect-completed: 2
// expect-error-paths: 0
#include "klee/klee.h"

int main(void) {
    int x;
    klee_make_symbolic(&x, sizeof x, "x");
    if (x == 239) {
        int n = x;
        __asm__("neg %0" : "+r"(n));
        klee_assert(n == -239);
    }
    int y = x;
    __asm__("add $5, %0" : "+r"(y));
    klee_assert(y == x + 5);
    unsigned u = (unsigned)x, k = 0x0f0f0f0fu;
    __asm__("xorl %1, %0" : "+r"(u) : "r"(k));
    klee_assert(u == ((unsigned)x ^ 0x0f0f0f0fu));
    unsigned b = 0x11223344u;
    __asm__("bswap %0" : "+r"(b));
    klee_assert(b == 0x44332211u);
    unsigned s = (unsigned)x;
    __asm__("shll $3, %0" : "+r"(s));
    klee_assert(s == (unsigned)x << 3);
    unsigned r = (unsigned)x, swapped;
    __asm__("rorw $8, %w0; rorl $16, %0; rorw $8, %w0" : "=r"(swapped) : "0"(r) : "cc");
    klee_assert(swapped == __builtin_bswap32((unsigned)x));
    return 0;
}
