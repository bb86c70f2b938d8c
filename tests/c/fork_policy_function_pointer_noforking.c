// klee_set_forking(0) holds at a fork of kind 'function_pointer': the path follows one side (chosen
// at random, seeded, as KLEE) and no other path is made.
// expect-completed: 1
// expect-error-paths: 0
// expect-summary: forks == 0
#include "fork_policy_sites.h"

int main(void) {
    klee_set_forking(0);
    return site_function_pointer(klee_int("x"));
}
