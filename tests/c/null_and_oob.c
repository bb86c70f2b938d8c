// A symbolic index into a global array: in-bounds reads and an out-of-bounds error;
// a null pointer dereference on another branch. The index is then kept below 8 so that the
// bad addresses stay in the array's red zone (natively too): an unbounded index could also
// point into every other global (the runtime's too), one path per object, as in KLEE.
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
    klee_assume(i < 8);
    int v = table[i]; // expect-error: ptr
    if (v == 3)
        return 1;
    return 0;
}
