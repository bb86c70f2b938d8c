// klee_make_symbolic on a whole scalar, a whole struct, a heap object, and one field of a
// struct (sear accepts a part of an object; KLEE requires the whole object).
// Reasoning: four independent two-way branches on the four symbolic objects, with the
// untouched field of `part` staying concrete (so its assert never forks): 2^4 = 16 paths.
// expect-completed: 16
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
    struct rec part = {'p', 77, {1, 2, 3}};
    unsigned char *heap = malloc(5);
    klee_make_symbolic(&x, sizeof x, "x");
    klee_make_symbolic(&whole, sizeof whole, "whole");
    klee_make_symbolic(heap, 5, "heap");
    klee_make_symbolic(&part.value, sizeof part.value, "part_value");
    klee_assert(part.tag == 'p');
    klee_assert(part.small[2] == 3);
    int r = 0;
    if (x == 1)
        r |= 1;
    if (whole.small[1] == 9)
        r |= 2;
    if (heap[4] == 'z')
        r |= 4;
    if (part.value < 0)
        r |= 8;
    free(heap);
    return r;
}
