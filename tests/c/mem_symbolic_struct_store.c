// Struct assignment to an array element at a symbolic index (llvm.memcpy to a symbolic
// address) and byte stores at symbolic offsets in a loop.
// Reasoning: k < 4 keeps arr[k] in bounds (one object, no fork); the copies and sums are
// checked with asserts that hold. bytes[j + i] = i for i < 16 and j < 16 stays in bounds;
// bytes[20] is 20 - j for j in [5, 15] (else 0), so bytes[20] == 7 holds only for j == 13:
// 2 paths.
// expect-completed: 2
// expect-error-paths: 0
// expect-exits: 0 2
#include <stdlib.h>
#include "klee/klee.h"

struct S {
    int a;
    long b;
    char c[4];
};

struct S arr[4];

int main(void) {
    unsigned k;
    klee_make_symbolic(&k, sizeof k, "k");
    klee_assume(k < 4);
    struct S s = {1, 2, {3, 4, 5, 6}};
    arr[k] = s;
    struct S t = arr[k];
    klee_assert((t.b == 2) & (t.c[3] == 6));
    long sum = 0;
    for (int i = 0; i < 4; i++)
        sum += arr[i].b;
    klee_assert(sum == 2);
    unsigned char bytes[32] = {0};
    unsigned j;
    klee_make_symbolic(&j, sizeof j, "j");
    klee_assume(j < 16);
    for (int i = 0; i < 16; i++)
        bytes[j + i] = (unsigned char)i;
    if (bytes[20] == 7)
        exit(2);
    return 0;
}
