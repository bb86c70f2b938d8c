// strtol over 2 symbolic bytes (then NUL), base 10: leading space (5 continuations:
// space, '-', '+', digit, other), '-' or '+' (digit or not: 2 each), digit (2), other (1)
// = 12 paths. The value is printed (fixed to one feasible value, with a warning).
// expect-completed: 12
// expect-error-paths: 0
// expect-warning: printf: symbolic value concretized
// expect-test-stdout: 0 0\n
// expect-replay: strict
#include <stdio.h>
#include <stdlib.h>
#include "klee/klee.h"

int main(void) {
    char s[3];
    klee_make_symbolic(s, sizeof s, "s");
    s[2] = '\0';
    char *end;
    long v = strtol(s, &end, 10);
    printf("%ld %d\n", v, (int)(end - s));
    return 0;
}
