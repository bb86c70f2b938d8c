// klee_make_symbolic on a whole scalar, a whole struct and a heap object.
// Reasoning: three independent two-way branches on the three symbolic objects: 2^3 = 8
// paths.
// expect-completed: 8
// expect-error-paths: 0
#include <stdlib.h>
#include "klee/klee.h"

struct rec {
    char tag;
    int value;
    short small[3];
};

int main(void) {
    int x;
    struct rec whole;
    unsigned char *heap = malloc(5);
    klee_make_symbolic(&x, sizeof x, "x");
    klee_make_symbolic(&whole, sizeof whole, "whole");
    klee_make_symbolic(heap, 5, "heap");
    int r = 0;
    if (x == 1)
        r |= 1;
    if (whole.small[1] == 9)
        r |= 2;
    if (heap[4] == 'z')
        r |= 4;
    free(heap);
    return r;
}
