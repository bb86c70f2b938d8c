// cpuid through clang's cpuid.h (inline assembly saving %rbx around `cpuid`) is answered
// for a processor without cpuid leaves or features: __get_cpuid_max reports 0, so
// __get_cpuid fails and a program probing for an extension (as coreutils' cksum does for
// pclmul) takes its generic code. One path, no error.
// expect-completed: 1
// expect-error-paths: 0
#include <cpuid.h>

#include "klee/klee.h"

int main(void) {
    unsigned a = 1, b = 1, c = 1, d = 1;
    klee_assert(__get_cpuid_max(0, 0) == 0);
    klee_assert(__get_cpuid(1, &a, &b, &c, &d) == 0);
    __cpuid(0, a, b, c, d);
    klee_assert(a == 0 && b == 0 && c == 0 && d == 0);
    return 0;
}
