// fma on concrete operands rounds once, as glibc's fma (which llvm.fma calls at -O0):
// (1 + 2^-30)(1 - 2^-30) - 1 is -2^-60 fused, 0 when the product is rounded first; under
// FE_UPWARD, fma(1/3 rounded up, 3, -1) is above 0 (one rounding, upward).
// expect-completed: 1
// expect-exits: 3
#include <fenv.h>
#include <math.h>

int main(void) {
    volatile double a = 1.0 + 0x1p-30, b = 1.0 - 0x1p-30, c = -1.0;
    volatile double t = 3.0, one = 1.0, zero = 0.0;
    int fused = fma(a, b, c) < 0;
    fesetround(FE_UPWARD);
    // 1/3 rounded up, times 3, minus 1: positive when fused and rounded up once.
    int up = fma(one / t, t, -one) > zero;
    fesetround(FE_TONEAREST);
    return fused + 2 * up;
}
