// free() of a symbolic pointer that may be one of three heap objects forks once per object
// (KLEE's MultipleFreeResolution); a pointer that may also be an interior pointer gets an
// invalid-free error path.
// Reasoning: k < 3: free(objs[k]) gives 3 paths, each freeing one object (every value is
// a valid base: no error path). Then free(objs2[j] + off) with j < 2, off < 2: off == 0
// frees objs2[0] or objs2[1] (2 paths), off == 1 is an invalid free (1 error path). On
// each of the 3 first paths: 2 completed + 1 error: 6 completed, 3 error paths (one
// report for the line).
// expect-completed: 6
// expect-error-paths: 3
#include <stdlib.h>
#include "klee/klee.h"

int main(void) {
    char *objs[3], *objs2[2];
    for (int i = 0; i < 3; i++)
        objs[i] = malloc(4);
    for (int i = 0; i < 2; i++)
        objs2[i] = malloc(4);
    unsigned k, j, off;
    klee_make_symbolic(&k, sizeof k, "k");
    klee_make_symbolic(&j, sizeof j, "j");
    klee_make_symbolic(&off, sizeof off, "off");
    klee_assume(k < 3);
    klee_assume(j < 2);
    klee_assume(off < 2);
    free(objs[k]);
    free(objs2[j] + off); // expect-error: ptr
    return 0;
}
