// Rounding modes (issue 34): fesetround sets the mode every float operation rounds in,
// concrete or symbolic, and fegetround reads it back; sear reaches results that only a
// mode other than to-nearest gives, and each test replays natively, where the same
// fesetround sets MXCSR's rounding control.
// Reasoning: m forks into the four modes and an invalid one; k into four checks; each check
// is one branch (operands combined with &, no short circuit) whose true side only some
// modes reach: 1/3 below 0.33333334f toward −∞ and toward zero (k 0); x + 1e-8 > x for
// x > 1e10 toward +∞ (k 1); rint(x) == 3 for x in (2.4, 2.5] toward +∞ (k 2, ties to even
// give 2); (float)n < n for n = −(2^24 + 1) toward −∞ (k 3). The exit status is
// 10·mode + 2·k + hit: to nearest 4 paths (no hit), downward 6, upward 6, toward zero 5; the
// invalid mode (a symbolic argument, concretised with a warning) is refused and leaves
// the mode: exit 9.
// expect-completed: 22
// expect-exits: 0 2 4 6 10 11 12 14 16 17 20 22 23 24 25 26 30 31 32 34 36 9
// expect-warning: concretizing symbolic value for the rounding mode of fesetround
#include <fenv.h>
#include <math.h>
#include "klee/klee.h"

static int hit(int k, float x, int n) {
    switch (k) {
    case 0:
        return (x == 3.0f) & (1.0f / x < 0.33333334f);
    case 1:
        return (x > 1e10f) & (x < 1e30f) & (x + 1e-8f > x);
    case 2:
        return (x > 2.4f) & (x <= 2.5f) & (rint(x) == 3.0);
    default:
        return (n > -16777219) & (n < -16777216) & ((int)(float)n < n);
    }
}

int main(void) {
    int m, k, n;
    float x;
    klee_make_symbolic(&m, sizeof m, "m");
    klee_make_symbolic(&k, sizeof k, "k");
    klee_make_symbolic(&x, sizeof x, "x");
    klee_make_symbolic(&n, sizeof n, "n");
    int index, mode;
    switch (m) {
    case 0:
        index = 0, mode = FE_TONEAREST;
        break;
    case 1:
        index = 1, mode = FE_DOWNWARD;
        break;
    case 2:
        index = 2, mode = FE_UPWARD;
        break;
    case 3:
        index = 3, mode = FE_TOWARDZERO;
        break;
    default:
        klee_assume(m > 3 & m < 0x400);
        return fesetround(m) != 0 && fegetround() == FE_TONEAREST ? 9 : 8;
    }
    if (fesetround(mode) != 0 || fegetround() != mode)
        return 99;
    int check = k == 0 ? 0 : k == 1 ? 1 : k == 2 ? 2 : 3;
    if (hit(check, x, n))
        return 10 * index + 2 * check + 1;
    return 10 * index + 2 * check;
}
