// Under --fp=concretize, symbolic floats are concretised (with a warning), as KLEE does: the
// first floating-point instruction on a symbolic value fixes it to one feasible value.
// (fp_*.c are the programs of the default, --fp=symbolic.)
// Reasoning: f is symbolic; f > 1.0f concretises f (fcmp), so the comparison is decided and
// does not fork; d + 1.0 concretises d. The integer branch on x still forks: 2 paths. The
// tests carry the concretised values, so the native runs follow the same paths.
// sear-args: --fp=concretize
// expect-completed: 2
// expect-error-paths: 0
#include "klee/klee.h"

int main(void) {
    float f;
    double d;
    int x;
    klee_make_symbolic(&f, sizeof f, "f");
    klee_make_symbolic(&d, sizeof d, "d");
    klee_make_symbolic(&x, sizeof x, "x");
    int r = 0;
    if (f > 1.0f)
        r += 1;
    double e = d + 1.0;
    if (e == 2.0)
        r += 2;
    if (x == 5)
        r += 4;
    return r;
}
