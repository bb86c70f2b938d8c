// Use of a stack object after its function returned (through a global pointer).
// Reasoning: the local of set() is freed when set returns; sear's addresses are never
// reused, so the later access is a use after free (ptr), as with KLEE's quarantine. The
// natively replayed test is caught by ASan's detect_stack_use_after_return. mode forks:
// 1 error path, 1 completed.
// expect-completed: 1
// expect-error-paths: 1
#include "klee/klee.h"

static int *saved;

__attribute__((noinline)) static void set(int v) {
    int local = v;
    saved = &local;
}

int main(void) {
    int mode = klee_range(0, 2, "mode");
    set(5);
    if (mode == 1)
        return *saved; // expect-error: ptr
    return 0;
}
