// assert.h: a failing assertion ends the path with an assert error (reproduced natively).
// expect-completed: 1
// expect-error-paths: 1
// expect-errors: assert
// expect-replay: strict
#include <assert.h>
#include <stdio.h>
#include "klee/klee.h"

int main(void) {
    int x = klee_int("x");
    assert(x != 42);
    puts("fine");
    return 0;
}
