// klee_warning, klee_warning_once, klee_print_expr, klee_print_range, klee_stack_trace and
// klee_open_merge/klee_close_merge neither fork nor end paths.
// klee_print_expr prints a constant as KLEE does: its value.
// Reasoning: only x > 0 forks: 2 paths.
// expect-completed: 2
// expect-error-paths: 0
// expect-sear-stderr: forty-two:42
// expect-sear-stderr: minus one:4294967295
#include "klee/klee.h"

int main(void) {
    int x;
    klee_make_symbolic(&x, sizeof x, "x");
    klee_warning("a warning");
    klee_warning_once("a warning once");
    klee_warning_once("a warning once");
    klee_print_expr("x + 1", x + 1);
    klee_print_expr("forty-two", 42);
    klee_print_expr("minus one", -1);
    klee_print_range("x", x);
    klee_stack_trace();
    klee_open_merge();
    int r = x > 0 ? x : 0;
    klee_close_merge();
    if (r > 0)
        return 1;
    return 0;
}
