// A symbolic index into a local array: in-bounds reads and an out-of-bounds error;
// a null pointer dereference on another branch.
// expect-completed: 2
// expect-error-paths: 2
#include "klee/klee.h"

int table[4] = {1, 2, 3, 4};

int main(void) {
    unsigned i;
    int *p = 0;
    klee_make_symbolic(&i, sizeof i, "i");
    if (i == 1000)
        return *p; // expect-error: ptr
    int v = table[i]; // expect-error: ptr
    if (v == 3)
        return 1;
    return 0;
}
