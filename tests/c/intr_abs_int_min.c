// llvm.abs with is_int_min_poison set (what clang emits for abs()) on INT_MIN yields poison:
// reported as an `exec` error, as KLEE does; any other argument is fine.
// Reasoning: the first abs() gets -5 (fine), the second INT_MIN through a volatile (so
// clang cannot fold it): the path ends there with the error.
// expect-completed: 0
// expect-error-paths: 1
// expect-replay: no
#include <limits.h>
#include <stdlib.h>

int main(void) {
    volatile int small = -5, min = INT_MIN;
    int a = abs(small);
    int b = abs(min); // expect-error: exec
    return a + b;
}
