// A symbolic pointer that may point into three different objects forks once per object,
// plus an out-of-bounds error path.
// expect-completed: 3
// expect-error-paths: 1
#include "klee/klee.h"

char a[4] = {1, 1, 1, 1};
char b[4] = {2, 2, 2, 2};
char c[4] = {3, 3, 3, 3};

int main(void) {
    char *objs[3] = {a, b, c};
    unsigned k;
    long off;
    klee_make_symbolic(&k, sizeof k, "k");
    klee_make_symbolic(&off, sizeof off, "off");
    klee_assume(k < 3);
    klee_assume(off >= 0);
    klee_assume(off < 6);
    char *p = objs[k] + off;
    return *p; // expect-error: ptr
}
