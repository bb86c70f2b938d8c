// The environment comes from --env-file (LANG and X, no HOME; replay gives the native run
// the same, recorded in info.json); setenv/getenv work; atexit handlers run in reverse
// order at exit; abs is branch-free, so only the program's test forks: 2 paths, both
// exiting with status 3.
// sear-args: --search dfs --env-file tests/runtime/data/env_exit.env
// expect-completed: 2
// expect-error-paths: 0
// expect-test-stdout: no HOME\nX=0\nX=1\nbig\nsecond\nfirst\n
// expect-test-stdout: no HOME\nX=0\nX=1\nsmall\nsecond\nfirst\n
// expect-replay: strict
#include <stdio.h>
#include <stdlib.h>
#include "klee/klee.h"

static void first(void) { puts("first"); }
static void second(void) { puts("second"); }

int main(void) {
    int x = klee_int("x");
    klee_assume(x > -1000);
    klee_assume(x < 1000);
    atexit(first);
    atexit(second);
    if (getenv("HOME") == NULL)
        puts("no HOME");
    printf("X=%s\n", getenv("X"));
    setenv("X", "1", 1);
    printf("X=%s\n", getenv("X"));
    puts(abs(x) > 5 ? "big" : "small");
    exit(3);
}
