// klee_get_value_i32/_i64 return one feasible value of a symbolic expression without
// constraining the path.
// Reasoning: x in [10, 20) and y in [1000, 1010): the returned values lie in those ranges
// (the asserts hold); the path is not constrained, so x == 15 still forks: 2 paths.
// expect-completed: 2
// expect-error-paths: 0
#include <stdint.h>
#include "klee/klee.h"

int main(void) {
    int x = klee_range(10, 20, "x");
    long long y;
    klee_make_symbolic(&y, sizeof y, "y");
    klee_assume((y >= 1000) & (y < 1010));
    uint32_t vx = klee_get_value_i32((uint32_t)x);
    uint64_t vy = klee_get_value_i64((uint64_t)y);
    klee_assert((vx >= 10) & (vx < 20));
    klee_assert((vy >= 1000) & (vy < 1010));
    if (x == 15)
        return 1;
    return 0;
}
