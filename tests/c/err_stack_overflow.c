// A 64 MiB local array does not fit the default stack limit (8 MiB, --max-stack-size):
// natively every run overflows the stack, so sear reports a stack overflow (a ptr error)
// instead of running the function.
// Reasoning: big() is called on one path only (x == 7); its frame needs 64 MiB: one ptr
// error. The other path returns normally: 1 completed.
// expect-completed: 1
// expect-error-paths: 1
#include "klee/klee.h"

static int big(int x) { // expect-error: ptr
    volatile char buf[64 << 20];
    buf[x] = (char)x;
    return buf[x];
}

int main(void) {
    int x;
    klee_make_symbolic(&x, sizeof x, "x");
    if (x == 7)
        return big(x);
    return 0;
}
