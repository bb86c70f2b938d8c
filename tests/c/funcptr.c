// Indirect calls through a table indexed by a symbolic value: one path per target.
// expect-completed: 3
// expect-error-paths: 0
#include "klee/klee.h"

static int f0(int x) { return x + 1; }
static int f1(int x) { return x * 2; }
static int f2(int x) { return x - 3; }

int main(void) {
    int (*table[3])(int) = {f0, f1, f2};
    unsigned k;
    klee_make_symbolic(&k, sizeof k, "k");
    klee_assume(k < 3);
    return table[k](10) > 100;
}
