// Inline assembly cannot be executed symbolically: exec error at the asm statement.
// Reasoning: mode forks; mode == 1 runs a non-empty asm statement (exec error); the other
// path (an empty asm statement is a no-op) makes z symbolic and forks on it: 2 completed.
// The exec path's test has no z: natively the run goes past the asm and asks for z (an
// input mismatch, accepted for errors that cannot be checked natively).
// expect-completed: 2
// expect-error-paths: 1
#include "klee/klee.h"

int main(void) {
    int mode = klee_range(0, 2, "mode");
    int y = 0;
    __asm__ volatile("");
    if (mode == 1)
        __asm__ volatile("movl %1, %0" : "=r"(y) : "r"(mode)); // expect-error: exec
    int z;
    klee_make_symbolic(&z, sizeof z, "z");
    if (z == 4)
        return 4;
    return y;
}
