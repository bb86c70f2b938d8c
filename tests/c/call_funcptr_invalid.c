// Calls through a NULL function pointer and through a pointer that is not a function are
// pointer errors; a symbolic index into a table with such entries forks per target.
// Reasoning: k < 4 indexes {f0, f1, NULL, f0}: the loaded pointer may be f0, f1 or NULL:
// one path per target (f0 covers k in {0, 3}): f0 and f1 complete, NULL is a ptr error at
// the call. Then mode == 1 calls through a data pointer (ptr error); the other completes.
// On each of the 2 completed table paths: mode forks: 2 completed + 1 error each.
// Totals: completed 2, errors 1 (NULL call) + 2 (data pointer call) = 3 error paths.
// expect-completed: 2
// expect-error-paths: 3
#include <stddef.h>
#include "klee/klee.h"

typedef int (*fn)(int);

static int f0(int x) { return x + 1; }
static int f1(int x) { return x * 2; }
static int data[4];

int main(void) {
    fn table[4] = {f0, f1, NULL, f0};
    unsigned k;
    klee_make_symbolic(&k, sizeof k, "k");
    klee_assume(k < 4);
    int r = table[k](10); // expect-error: ptr
    int mode = klee_range(0, 2, "mode");
    if (mode == 1) {
        fn bad = (fn)(void *)data;
        r += bad(1); // expect-error: ptr
    }
    return r;
}
