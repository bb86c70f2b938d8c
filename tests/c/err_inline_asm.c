// Inline assembly cannot be executed symbolically: exec error at the asm statement.
// Reasoning: mode forks; mode == 1 runs a non-empty asm statement (exec error), the other
// path completes (an empty asm statement is a no-op).
// expect-completed: 1
// expect-error-paths: 1
#include "klee/klee.h"

int main(void) {
    int mode = klee_range(0, 2, "mode");
    int y = 0;
    __asm__ volatile("");
    if (mode == 1)
        __asm__ volatile("movl %1, %0" : "=r"(y) : "r"(mode)); // expect-error: exec
    return y;
}
