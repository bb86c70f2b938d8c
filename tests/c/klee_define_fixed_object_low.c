// klee_define_fixed_object also defines objects in the first page, as KLEE does (its own
// test uses 0x80): accesses to the object are fine, the rest of the page stays the null
// page. Natively that page cannot be mapped (vm.mmap_min_addr), so there is no replay.
// Reasoning: one path; reading 0x90, past the 4-byte object, is a ptr error there.
// expect-completed: 0
// expect-error-paths: 1
// expect-replay: no
#include "klee/klee.h"

#define ADDRESS ((int *)0x80)

int main(void) {
    klee_define_fixed_object(ADDRESS, 4);
    *ADDRESS = 10;
    if (*ADDRESS != 10)
        return 1;
    return *(int *)0x90; // expect-error: ptr
}
