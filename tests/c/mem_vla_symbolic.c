// Variable-length arrays with a symbolic size: the alloca size is concretised as KLEE does
// for any allocation.
// Reasoning: a in {2, 3} has exactly two values: one path per size, both allocate (2).
// Then b in {1, 2, 3}: the path keeps one size (allocated); the other sizes are neither a
// single value nor huge: an early termination. Per first path: 1 completed + 1 early,
// so 2 completed and no error path.
// expect-completed: 2
// expect-error-paths: 0
#include "klee/klee.h"

int main(void) {
    int a = klee_range(2, 4, "a");
    char first[a];
    first[a - 1] = 1;
    int b = klee_range(1, 4, "b");
    char second[b];
    second[b - 1] = 2;
    return first[a - 1] + second[b - 1];
}
