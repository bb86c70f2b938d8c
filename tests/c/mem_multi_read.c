// A symbolic pointer that may point into one of three heap objects: the read forks once
// per object (KLEE's MultipleReadResolution).
// Reasoning: k < 3 selects the pointer; every value is valid, so there is no
// out-of-bounds fork: 3 paths, each reading its object's concrete value.
// expect-completed: 3
// expect-error-paths: 0
// expect-exits: 1 2 3
#include <stdlib.h>
#include "klee/klee.h"

int main(void) {
    int *objs[3];
    for (int i = 0; i < 3; i++) {
        objs[i] = malloc(sizeof(int));
        *objs[i] = i + 1;
    }
    unsigned k;
    klee_make_symbolic(&k, sizeof k, "k");
    klee_assume(k < 3);
    int *p = objs[k];
    return *p;
}
