// Inline assembly sear does not interpret (here rdtsc, two outputs in fixed registers)
// ends the path with an exec error that names the template.
// expect-completed: 0
// expect-error-paths: 1
#include "klee/klee.h"

int main(void) {
    unsigned lo, hi;
    __asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi)); // expect-error: exec
    return (int)(lo ^ hi) & 1;
}
