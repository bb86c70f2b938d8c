// Calls through a function type that does not match the callee's (what a C89 implicit
// declaration produces: `f(a, b)` passes ints to a function defined with chars and returning
// short). LLVM leaves this to the target; sear follows KLEE: each argument takes the width
// of the callee's parameter (truncated, or zero-extended), and the returned value the width
// the call site expects (zero-extended). Before, the callee's 1-byte store of a 4-byte
// argument panicked in the memory layer.
// Reasoning: x is symbolic; the callee adds the low bytes of 0x100 + x and 0x200 (+ 2), so
// the call returns (char)x + 2 as a short, read back as an unsigned 16-bit value. The branch
// on it forks: two completed paths, exit statuses 0 and 1.
// expect-completed: 2
// expect-error-paths: 0
// expect-exits: 0 1
#include "klee/klee.h"

static short add_chars(char a, char b) {
    char c = a, d = b;
    return (short)(c + d);
}

int main(void) {
    unsigned char x;
    klee_make_symbolic(&x, sizeof x, "x");
    klee_assume(x < 100);
    int (*as_ints)(int, int) = (int (*)(int, int))add_chars;
    int r = as_ints(0x100 + x, 0x202);
    if (r == 7)
        return 1;
    return 0;
}
