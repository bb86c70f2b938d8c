// --max-depth 1 holds at a fork of kind 'switch' (the fork point applies every policy at
// every fork site): the first branch takes both paths to depth 1; the one that reaches the
// site ends early there instead of forking.
// sear-args: --max-depth 1
// expect-completed: 1
// expect-error-paths: 0
// expect-summary: early_paths == 1
// expect-summary: forks == 1
#include "fork_policy_sites.h"

int main(void) {
    int x = klee_int("x");
    if (klee_int("y") > 0)
        return 0;
    return site_switch(x);
}
