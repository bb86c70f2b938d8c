// cpuid through clang's cpuid.h (inline assembly saving %rbx around `cpuid`) is answered
// for a processor without cpuid leaves or features (every output 0), so a program probing
// for an extension (as coreutils' cksum does for pclmul) takes its generic code instead of
// ending with an exec error. The checks hold for any processor, so the test replays
// natively too: __get_cpuid_max answers what leaf 0 reports, and __get_cpuid fails exactly
// for leaves above it. One path, no error.
// expect-completed: 1
// expect-error-paths: 0
#include <cpuid.h>

#include "klee/klee.h"

int main(void) {
    unsigned a = 1, b = 1, c = 1, d = 1;
    unsigned max = __get_cpuid_max(0, 0);
    __cpuid(0, a, b, c, d);
    klee_assert(a == max);
    unsigned a1, b1, c1, d1;
    int ok = __get_cpuid(1, &a1, &b1, &c1, &d1);
    klee_assert(ok == (max >= 1));
    return 0;
}
