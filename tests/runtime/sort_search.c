// qsort of 3 symbolic ints: insertion sort outcomes 2 (first comparison) x 3 (where the
// third element goes) = 6; bsearch of a symbolic key in 5 sorted ints: 5 hits and 6 gaps
// = 11. Total 17. Sorted values are printed (concretised).
// expect-completed: 17
// expect-error-paths: 0
// expect-test-stdout: found 2\n
// expect-test-stdout: missing\n
// expect-replay: strict
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include "klee/klee.h"

static int cmp(const void *a, const void *b) {
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

int main(void) {
    if (klee_range(0, 2, "which") == 0) {
        int v[3];
        klee_make_symbolic(v, sizeof v, "v");
        qsort(v, 3, sizeof v[0], cmp);
        assert(v[0] <= v[1] && v[1] <= v[2]);
        printf("%d %d %d\n", v[0], v[1], v[2]);
    } else {
        static const int keys[5] = {1, 3, 5, 7, 9};
        int k = klee_int("k");
        const int *p = bsearch(&k, keys, 5, sizeof keys[0], cmp);
        if (p)
            printf("found %d\n", (int)(p - keys));
        else
            puts("missing");
    }
    return 0;
}
