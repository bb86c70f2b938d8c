// Globals: initialised, zero-initialised, constant strings, an array of pointers to string
// literals and an array of pointers to globals.
// Reasoning: the concrete asserts hold. names[k] (k < 3) is a symbolic pointer that may
// point into three different string literals: the read names[k][1] forks once per object
// (no out-of-bounds fork: every value of k gives a valid pointer). In each fork the byte
// is decided, so == 'n' does not fork again: 3 paths.
// expect-completed: 3
// expect-error-paths: 0
#include "klee/klee.h"

int initialized = 42;
int zeroed;
static const char msg[] = "hello";
const char *names[] = {"zero", "one", "two"};
int *ptrs[2] = {&initialized, &zeroed};

int main(void) {
    klee_assert(initialized == 42);
    klee_assert(zeroed == 0);
    klee_assert(msg[4] == 'o');
    klee_assert(msg[5] == 0);
    klee_assert(*ptrs[0] == 42);
    *ptrs[1] = 7;
    klee_assert(zeroed == 7);
    unsigned k;
    klee_make_symbolic(&k, sizeof k, "k");
    klee_assume(k < 3);
    if (names[k][1] == 'n')
        return 1;
    return 0;
}
