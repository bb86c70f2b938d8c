// Out-of-bounds read and write on a heap array at a symbolic index.
// Reasoning: mode == 0 forks (2). On each side the access p[i] resolves to the 4-int heap
// object for i < 4 (continues) and is out of bounds otherwise (error): the write side gives
// 1 completed + 1 ptr error, the read side 1 completed + 1 ptr error. i < 8 keeps the bad
// addresses just past the object, where the native run (ASan) catches them too.
// expect-completed: 2
// expect-error-paths: 2
#include <stdlib.h>
#include <string.h>
#include "klee/klee.h"

int main(void) {
    int *p = malloc(4 * sizeof(int));
    memset(p, 0, 4 * sizeof(int));
    unsigned i;
    int mode;
    klee_make_symbolic(&i, sizeof i, "i");
    klee_make_symbolic(&mode, sizeof mode, "mode");
    klee_assume(i < 8);
    int r = 0;
    if (mode == 0)
        p[i] = 1; // expect-error: ptr
    else
        r = p[i]; // expect-error: ptr
    free(p);
    return r;
}
