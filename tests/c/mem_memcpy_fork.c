// memcpy and memmove from a pointer that may point into either of two objects.
// Reasoning: tbl[k & 1] is a symbolic pointer into a or b, so resolving memcpy's source
// forks. Each resolved state must run the whole call: the copy into dst and the returned
// pointer. Before the fix the forked state went on with dst unwritten and the assertion
// failed on a path that native replay cannot reproduce. Two objects: 2 completed paths,
// no error.
// expect-completed: 2
// expect-error-paths: 0
#include <assert.h>
#include <string.h>
#include "klee/klee.h"

int main(void) {
    char a[4] = {'A', 'A', 'A', 'A'};
    char b[4] = {'B', 'B', 'B', 'B'};
    char *tbl[2] = {a, b};
    char dst[4] = {0, 0, 0, 0};
    char dst2[4] = {0, 0, 0, 0};
    int k;
    klee_make_symbolic(&k, sizeof k, "k");
    char *p = tbl[k & 1];
    char *r = memcpy(dst, p, 4);
    assert(r == dst);
    assert(dst[0] == 'A' || dst[0] == 'B');
    assert(dst[3] == dst[0]);
    char *q = memmove(dst2, p, 4);
    assert(q == dst2);
    assert(dst2[1] == dst[1]);
    return dst[0] == 'A';
}
