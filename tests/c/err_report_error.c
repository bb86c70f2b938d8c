// klee_report_error with a custom suffix: the error kind is the suffix, reported at the
// file and line given.
// Reasoning: x == 7 forks: one error path (kind "custom"), one completed.
// expect-completed: 1
// expect-error-paths: 1
#include "klee/klee.h"

int main(void) {
    int x;
    klee_make_symbolic(&x, sizeof x, "x");
    if (x == 7)
        klee_report_error(__FILE__, __LINE__, "seven is not allowed", "custom.err"); // expect-error: custom
    return 0;
}
