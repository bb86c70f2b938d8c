// A write through a symbolic pointer that may point into one of three heap objects forks
// once per object; in each path exactly that object changed (KLEE's
// MultipleWriteResolution).
// Reasoning: k < 3: 3 paths; the sum of the objects is 10 + (sum of the other two) on each
// path, checked by asserts that hold (no fork).
// expect-completed: 3
// expect-error-paths: 0
// expect-exits: 0 1 2
#include <stdlib.h>
#include "klee/klee.h"

int main(void) {
    int *objs[3];
    for (int i = 0; i < 3; i++) {
        objs[i] = malloc(sizeof(int));
        *objs[i] = 0;
    }
    unsigned k;
    klee_make_symbolic(&k, sizeof k, "k");
    klee_assume(k < 3);
    *objs[k] = 10;
    klee_assert(*objs[0] + *objs[1] + *objs[2] == 10);
    int which = -1;
    for (int i = 0; i < 3; i++)
        if (*objs[i] == 10)
            which = i;
    return which;
}
